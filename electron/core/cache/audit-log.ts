import type { AuditEntry, AuditRecord, AuditVerification } from '../audit/port.js';
import {
  anchorProblem,
  CHAIN_COLUMNS,
  GENESIS_HASH,
  nextRecord,
  recordOfRow,
  rowOfRecord,
  unusableAnchor,
  walkChain,
  type AuditRow,
  type ChainProblem,
} from '../audit/chain.js';
import type { Db } from './db.js';
import type { AnchorIncident, AuditAnchorFile } from '../audit/audit-anchor.js';

/**
 * The audit log: who did what to which consent, why, and with what result. Append-only (the
 * database refuses updates and deletes), and each entry carries the hash of the previous one, so
 * editing or removing an entry — even with another SQLite tool — breaks the chain `verify` checks.
 * Removing the newest entries, or all of them, leaves a chain that still links up: the head anchor
 * (audit-anchor.ts), a signed file outside the cache that follows the newest entry, catches that.
 *
 * Text is made well-formed (lone UTF-16 surrogates replaced by U+FFFD) before it is hashed: SQLite
 * stores UTF-8, which cannot hold a lone surrogate, and would store U+FFFD anyway, so hashing the
 * JavaScript string as given made the entry fail verification for good. Replacing rather than
 * refusing: the entry records an action that has already happened (a revocation the intermediary
 * accepted); refusing its record would lose it. Identifiers are refused earlier, at the IPC and CLI
 * boundary, where nothing has happened yet.
 */
export type { AuditEntry, AuditRecord, AuditVerification };

export interface AuditAnchorOptions {
  file: AuditAnchorFile;
  /**
   * True when no anchor can exist yet (a new cache file, or a console that never wrote one): a
   * missing anchor is then written, not reported.
   */
  fresh: boolean;
  /** Only read, never written: a log opened to be read elsewhere (an import) records nothing in its anchor. */
  readOnly?: boolean;
}

type Problem = ChainProblem;

export { GENESIS_HASH, entryHash } from '../audit/chain.js';

export class AuditLog {
  private anchorScheduled = false;
  private expectMissingAnchor: boolean;
  /** The last failure to write the anchor (a full disk…): recording actions goes on regardless. */
  anchorError: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
    private readonly anchor?: AuditAnchorOptions,
  ) {
    this.expectMissingAnchor = anchor?.fresh ?? false;
    if (!anchor?.readOnly) this.updateAnchor();
  }

  /**
   * Appends an entry. Call inside the transaction that makes the change it records. A broken chain
   * never stops this: the entry follows the newest one in the table, and `verify` keeps reporting
   * the break. The anchor moves on once the transaction has committed.
   */
  append(entry: AuditEntry): AuditRecord {
    const last = this.db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get();
    const record = nextRecord(entry, last, this.now().toISOString());
    const row = rowOfRecord(record);
    this.db
      .prepare(`INSERT INTO audit_log (${CHAIN_COLUMNS.join(', ')}) VALUES (${CHAIN_COLUMNS.map(() => '?').join(', ')})`)
      .run(...CHAIN_COLUMNS.map((c) => row[c]));
    this.scheduleAnchor();
    return record;
  }

  private head(): { seq: number; hash: string } {
    return (
      this.db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() ?? {
        seq: 0,
        hash: GENESIS_HASH,
      }
    );
  }

  /**
   * The anchor is written after the transaction that appended commits (a rolled-back entry is never
   * anchored): better-sqlite3's transactions are synchronous, so a microtask runs after the commit.
   * A crash in between leaves the anchor one step behind the table, which is not a break: the
   * entries after it are chained to it, and the next open moves it on.
   */
  private scheduleAnchor(): void {
    if (!this.anchor || this.anchorScheduled) return;
    this.anchorScheduled = true;
    const run = () => {
      if (this.db.inTransaction) return void setImmediate(run);
      this.anchorScheduled = false;
      if (this.db.open) this.updateAnchor();
    };
    queueMicrotask(run);
  }

  /** Writes the anchor now if an append is waiting for it (before closing the cache). */
  flushAnchor(): void {
    if (this.anchorScheduled && !this.db.inTransaction && this.db.open) {
      this.anchorScheduled = false;
      this.updateAnchor();
    }
  }

  /**
   * Moves the anchor to the newest entry. If the anchor does not match the table (entries deleted,
   * the anchor missing or altered), the problem is recorded in the anchor first, as an incident
   * that `verify` reports from then on, and the anchor then follows the table again, so the entries
   * recorded after the break are protected too.
   */
  private updateAnchor(): void {
    if (!this.anchor) return;
    try {
      // The anchor first, then the table: another process anchors only what it has committed, so
      // the table read after it is never behind it.
      const read = this.anchor.file.read();
      const head = this.head();
      let incidents: AnchorIncident[] = [];
      let problem: Problem | null = null;
      if (read.state === 'valid') {
        incidents = read.anchor.incidents;
        problem = this.anchorProblem(read.anchor);
        if (!problem && read.anchor.seq === head.seq && read.anchor.hash === head.hash) return;
      } else {
        problem = this.unusableAnchor(read.state === 'missing' ? null : read.why);
      }
      if (problem) incidents = [...incidents, { found: this.now().toISOString(), seq: problem.seq, problem: problem.text }];
      this.anchor.file.write({ seq: head.seq, hash: head.hash, incidents });
      this.expectMissingAnchor = false;
      this.anchorError = null;
    } catch (error) {
      this.anchorError = `the head anchor could not be written: ${(error as Error).message}`;
    }
  }

  private unusableAnchor(invalid: string | null): Problem | null {
    return unusableAnchor(invalid, this.expectMissingAnchor);
  }

  /** What is wrong between a valid anchor and the table, or null. */
  private anchorProblem(a: { seq: number; hash: string }): Problem | null {
    if (a.seq === 0) return null;
    const row = this.db.prepare<[number], { hash: string }>('SELECT hash FROM audit_log WHERE seq = ?').get(a.seq);
    return anchorProblem(a, this.head(), row?.hash);
  }

  entries(opts: { target?: string; limit?: number } = {}): AuditRecord[] {
    return this.db
      .prepare<(string | number)[], AuditRow>(`SELECT * FROM audit_log ${opts.target ? 'WHERE target = ?' : ''} ORDER BY seq LIMIT ?`)
      .all(...(opts.target ? [opts.target] : []), opts.limit ?? 1_000_000)
      .map(recordOfRow);
  }

  /**
   * Walks the chain (each entry's hash, its link to the previous one, no gap in the sequence), then
   * checks the table against the head anchor, and lists the breaks found earlier. Reports every
   * problem, each naming its entry.
   */
  verify(): AuditVerification {
    // The anchor before the table (see updateAnchor).
    const read = this.anchor?.file.read();
    const all = this.entries();
    const problems: Problem[] = [];
    if (read?.state === 'valid') {
      for (const i of read.anchor.incidents)
        problems.push({ seq: i.seq, text: `${i.problem} (found ${i.found}; entries recorded since are checked)` });
    }
    problems.push(...walkChain(all));
    if (read?.state === 'valid') {
      const p = this.anchorProblem(read.anchor);
      if (p) problems.push(p);
    } else if (read) {
      const p = this.unusableAnchor(read.state === 'missing' ? null : read.why);
      if (p) problems.push(p);
    }
    if (!problems.length) return { ok: true, entries: all.length };
    const ordered = [...problems].sort((a, b) => a.seq - b.seq);
    return { ok: false, entries: all.length, brokenAt: ordered[0]!.seq, problem: ordered[0]!.text, problems: ordered.map((p) => p.text) };
  }
}
