import { randomUUID } from 'node:crypto';
import { REPEAT_HOURS, ruleTitle, type AlertKind } from '../../../shared/alerts/alerts.js';
import type { AuditEntry } from '../audit/port.js';
import type { Logger } from '../log.js';
import { evaluate, type Signals } from './evaluate.js';
import type { Alert, AlertRule, AlertStore, Transition } from './port.js';

/** Who the audit log names for what the console did by itself. */
export const ALERTS_OPERATOR = 'CDR Console (alerts)';

/** A message about an alert, for wherever alerts go (the notification centre always; e-mail and webhooks where set). */
export interface AlertMessage {
  kind: 'firing' | 'repeat' | 'resolved';
  alert: Alert;
  rule: AlertRule;
  /** "Webhook deliveries failing" (at ANZ), the rule's kind in words and the data holder it watches. */
  title: string;
  /** What the rule found now (a resolved alert keeps what it last found firing in `alert.summary`). */
  found: string;
}

export interface AlertServiceDeps {
  store: AlertStore;
  signals: Signals;
  clock: () => Date;
  log: Logger;
  /** Told of each message once it is stored (one server of a team tells it). */
  deliver(message: AlertMessage): Promise<void>;
}

/** How long after its last message a firing alert is told again: a daily digest for expiring consents. */
const repeatMs = (kind: AlertKind) => (kind === 'expiring-consents' || kind === 'report-unsigned' ? 24 : REPEAT_HOURS) * 3_600_000;

/**
 * The alert rules at work (issue 38): each enabled rule evaluated after every sync and on a schedule;
 * an alert opens when its rule fires, is told again at the repeat interval while it fires (one
 * message for a burst), and resolves — told once more — when it stops. A silenced rule's alerts open
 * and resolve as usual but send nothing until the silence ends. Every opening and resolution is in
 * the audit log. The store's conditional writes make each message go out once across a team.
 */
export class AlertService {
  private running: Promise<Transition[]> | null = null;
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Stopped for good (the core is closing): a sync's end no longer evaluates against a store being closed. */
  private stopped = false;

  constructor(private readonly deps: AlertServiceDeps) {}

  /** Evaluates every rule; a call while one runs runs once more after it (a sync's end during a scheduled run is not lost). */
  evaluateAll(): Promise<Transition[]> {
    if (this.stopped) return Promise.resolve([]);
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        const out: Transition[] = [];
        do {
          this.again = false;
          for (const rule of await this.deps.store.rules()) if (rule.enabled) out.push(await this.evaluateOrSay(rule));
        } while (this.again);
        return out;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /**
   * Evaluates one rule; a rule that cannot be checked (its signal failed: the store, the audit
   * chain's read, a report that could not be counted) is logged and said, and the others are still checked.
   */
  async evaluateOrSay(rule: AlertRule): Promise<Transition> {
    try {
      return await this.evaluateRule(rule);
    } catch (e) {
      const reason = (e as Error).message;
      this.deps.log.error(`alerts: the rule "${ruleTitle(rule.kind, rule.params)}" (${rule.id}) could not be checked: ${reason}`);
      return { kind: 'failed', reason };
    }
  }

  /** Evaluates one rule and makes its alert follow (open, repeat, resolve), telling what changed. */
  async evaluateRule(rule: AlertRule): Promise<Transition> {
    const { store, clock } = this.deps;
    const now = clock();
    const at = now.toISOString();
    const finding = await evaluate(rule, this.deps.signals, now);
    const current = await store.firing(rule.id);
    const silenced = rule.silencedUntil !== null && Date.parse(rule.silencedUntil) > now.getTime();
    const title = ruleTitle(rule.kind, rule.params);
    if (finding.firing && !current) {
      const opened = await store.open(
        {
          id: randomUUID(),
          ruleId: rule.id,
          state: 'firing',
          summary: finding.summary,
          firstAt: at,
          lastAt: at,
          notifiedAt: silenced ? null : at,
          resolvedAt: null,
          acknowledgedBy: null,
          acknowledgedAt: null,
        },
        entry('alert:firing', `${title}: ${finding.summary}${silenced ? ` (silenced until ${rule.silencedUntil}: not sent)` : ''}`),
      );
      if (!opened) return { kind: 'none' };
      if (!silenced) await this.tell({ kind: 'firing', alert: opened, rule, title, found: finding.summary });
      return { kind: 'opened', alert: opened };
    }
    if (finding.firing && current) {
      const due = !silenced && (current.notifiedAt === null || now.getTime() - Date.parse(current.notifiedAt) >= repeatMs(rule.kind));
      const touched = await store.touch(current, finding.summary, at, due);
      if (!touched) return { kind: 'none' };
      if (!due) return { kind: 'updated', alert: touched };
      // Held back by a silence that has ended: its first message; otherwise the repeat.
      await this.tell({ kind: current.notifiedAt === null ? 'firing' : 'repeat', alert: touched, rule, title, found: finding.summary });
      return { kind: 'repeated', alert: touched };
    }
    if (!finding.firing && current) {
      const resolved = await store.resolve(current, at, entry('alert:resolved', `${title}: resolved (${finding.summary})`));
      if (!resolved) return { kind: 'none' };
      // Resolved messages follow the ones that went out: an alert never told is resolved quietly.
      if (current.notifiedAt !== null && !silenced)
        await this.tell({ kind: 'resolved', alert: resolved, rule, title, found: finding.summary });
      return { kind: 'resolved', alert: resolved };
    }
    return { kind: 'none' };
  }

  private async tell(message: AlertMessage): Promise<void> {
    try {
      await this.deps.deliver(message);
    } catch (e) {
      this.deps.log.error(`alerts: telling "${message.title}" (${message.kind}) failed: ${(e as Error).message}`);
    }
  }

  /** Evaluates every `everyMs` while the core runs (a failed run is logged; the next one tries again). */
  start(everyMs: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => {
      void this.evaluateAll().catch((e: Error) => this.deps.log.error(`alerts: evaluation failed: ${e.message}`));
    }, everyMs);
    this.timer.unref?.();
  }

  /** Stops for good: no schedule, and no evaluation asked for later (the core is closing). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

const entry = (action: string, result: string): AuditEntry => ({ operator: ALERTS_OPERATOR, action, target: null, reason: null, result });
