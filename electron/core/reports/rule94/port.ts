import type { Rule94Figure } from '../../../../shared/ipc/contract.js';
import type { Answers } from '../../../../shared/reports/rule94.js';
import type { AuditEntry } from '../../audit/port.js';

/** A rule 9.4 report as stored: its figures as counted, a person's answers, and once signed its hash. */
export interface StoredRule94 {
  period: string;
  state: 'draft' | 'signed';
  figures: Rule94Figure[];
  answers: Answers;
  madeAt: string;
  madeBy: string;
  countedAt: string;
  signedBy: string | null;
  signedAt: string | null;
  sha256: string | null;
  version: number;
}

export type Rule94Change =
  | { outcome: 'changed'; report: StoredRule94 }
  /** Changed by someone else since `version` was read: nothing was written; what it is now. */
  | { outcome: 'conflict'; current: StoredRule94 }
  /** Signed off: archived, never changed again. */
  | { outcome: 'signed'; current: StoredRule94 }
  | { outcome: 'missing' };

/** The complaints of a half-year from the register (days in Australian time, both included). */
export interface ComplaintCounts {
  received: { category: string; count: number }[];
  resolved: { outcome: string; count: number }[];
  referred: { body: string; count: number }[];
  /** Received on or before the last day and not resolved by its end. */
  openAtEnd: number;
}

/**
 * The rule 9.4 reports' storage port (issue 38), written once for both engines (store.ts, over the
 * typed query layer). A report is made once per half-year — of servers making it at once, one does —
 * and each write lands with its audit entry, both or neither.
 */
export interface Rule94Store {
  /** Every report made, the latest half-year first. */
  list(): Promise<StoredRule94[]>;
  get(period: string): Promise<StoredRule94 | undefined>;
  /** Stores a new draft; null when the half-year's report was made already (here or by another server). */
  make(report: StoredRule94, audit: (made: StoredRule94) => AuditEntry): Promise<StoredRule94 | null>;
  /** Changes a draft read at `version`: its answers, or its figures counted again. */
  change(
    period: string,
    version: number,
    patch: { answers?: Answers; figures?: Rule94Figure[]; countedAt?: string },
    audit: (before: StoredRule94, after: StoredRule94) => AuditEntry,
  ): Promise<Rule94Change>;
  /** Signs off a draft read at `version`: archived with the hash of what was signed. */
  signOff(
    period: string,
    version: number,
    sign: { signedBy: string; signedAt: string; sha256: string },
    audit: (signed: StoredRule94) => AuditEntry,
  ): Promise<Rule94Change>;
  /** Distinct consumers of the cached consents in force at some time in [from, to) (ISO instants). */
  consumersServed(from: string, to: string): Promise<number>;
  /** The register's complaints of the days [firstDay, lastDay]. */
  complaints(firstDay: string, lastDay: string): Promise<ComplaintCounts>;
}
