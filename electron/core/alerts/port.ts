import type { AlertKind, AlertParams } from '../../../shared/alerts/alerts.js';
import type { AuditEntry } from '../audit/port.js';

export interface AlertRule {
  id: string;
  kind: AlertKind;
  params: AlertParams;
  enabled: boolean;
  /** Its messages are held back until then (ISO); null when not silenced. */
  silencedUntil: string | null;
  silenceReason: string | null;
  silencedBy: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  version: number;
}

export interface Alert {
  id: string;
  ruleId: string;
  state: 'firing' | 'resolved';
  summary: string;
  firstAt: string;
  lastAt: string;
  notifiedAt: string | null;
  resolvedAt: string | null;
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
}

/** What one evaluation of a rule decided for its alert, and what was stored (with its audit entry). */
export type Transition =
  | { kind: 'opened'; alert: Alert }
  | { kind: 'repeated'; alert: Alert }
  | { kind: 'updated'; alert: Alert }
  | { kind: 'resolved'; alert: Alert }
  | { kind: 'none' }
  /** The rule could not be checked (its signal failed): the others still are. */
  | { kind: 'failed'; reason: string };

/**
 * The alerts domain's storage port (issue 38), written once for both engines (store.ts, over the
 * typed query layer). Each change of an alert's state is a conditional write: of two team servers
 * evaluating the same rule at once, one opens (or resolves, or repeats) the alert, the other finds it
 * done and sends nothing.
 */
export interface AlertStore {
  rules(): Promise<AlertRule[]>;
  rule(id: string): Promise<AlertRule | undefined>;
  addRule(
    rule: Omit<AlertRule, 'version' | 'updatedAt' | 'silencedUntil' | 'silenceReason' | 'silencedBy'>,
    audit: AuditEntry,
  ): Promise<AlertRule>;
  /** Removes a rule and its alerts; false when there was none. */
  removeRule(id: string, audit: (rule: AlertRule) => AuditEntry): Promise<boolean>;
  /** Silences a rule until `until` (null: lifts the silence). */
  silence(
    id: string,
    until: string | null,
    reason: string | null,
    by: string,
    at: string,
    audit: AuditEntry,
  ): Promise<AlertRule | undefined>;
  /** The rule's firing alert, if any. */
  firing(ruleId: string): Promise<Alert | undefined>;
  /** Opens a firing alert: undefined when another process opened one first. */
  open(alert: Alert, audit: AuditEntry): Promise<Alert | undefined>;
  /** Marks a firing alert as still firing, with what it found now; `notify`: its message goes out again now (the repeat). Undefined when it no longer fires or another process took the repeat. */
  touch(alert: Alert, summary: string, at: string, notify: boolean): Promise<Alert | undefined>;
  /** Records that a held-back alert's message went out (a silence ended). */
  notified(alert: Alert, at: string): Promise<Alert | undefined>;
  /** Resolves a firing alert: undefined when another process resolved it first. */
  resolve(alert: Alert, at: string, audit: AuditEntry): Promise<Alert | undefined>;
  acknowledge(id: string, by: string, at: string, audit: (alert: Alert) => AuditEntry): Promise<Alert | undefined>;
  /** The newest alerts first: every firing one, then the resolved ones. */
  list(limit: number): Promise<Alert[]>;
  /** Records that `person` read these alerts at `at` (a later read replaces an earlier one); how many there were. */
  markRead(person: string, ids: readonly string[], at: string): Promise<number>;
  /** When `person` last read each of these alerts (those they never read are absent). */
  readsOf(person: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** Events of these types at or after `from` (ISO) of one data holder's consents: what a rule that watches one counts. */
  holderEvents(dataHolderBrandId: string, types: readonly string[], from: string): Promise<number>;
}
