import { createHash } from 'node:crypto';
import type { Db } from '../cache/database.js';

/**
 * The audit log: who did what to which consent, why, and with what result. Append-only (the
 * database refuses updates and deletes), and each entry carries the hash of the previous one, so
 * editing or removing any entry — even with another SQLite tool — breaks the chain `verify` checks.
 */
export interface AuditEntry {
  operator: string;
  action: string;
  target: string | null;
  reason: string | null;
  result: string;
}

export interface AuditRecord extends AuditEntry {
  seq: number;
  at: string;
  prevHash: string;
  hash: string;
}

export type AuditVerification = { ok: true; entries: number } | { ok: false; entries: number; brokenAt: number; problem: string };

export const GENESIS_HASH = '0'.repeat(64);

/** The hash of an entry: its fields and the previous hash, in a fixed order. */
export function entryHash(e: Omit<AuditRecord, 'hash'>): string {
  return createHash('sha256')
    .update(JSON.stringify([e.seq, e.at, e.operator, e.action, e.target, e.reason, e.result, e.prevHash]))
    .digest('hex');
}

export class AuditLog {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Appends an entry. Call inside the transaction that makes the change it records. */
  append(entry: AuditEntry): AuditRecord {
    const last = this.db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get();
    const partial = { ...entry, seq: (last?.seq ?? 0) + 1, at: this.now().toISOString(), prevHash: last?.hash ?? GENESIS_HASH };
    const record: AuditRecord = { ...partial, hash: entryHash(partial) };
    this.db
      .prepare(
        'INSERT INTO audit_log (seq, at, operator, action, target, reason, result, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        record.seq,
        record.at,
        record.operator,
        record.action,
        record.target,
        record.reason,
        record.result,
        record.prevHash,
        record.hash,
      );
    return record;
  }

  entries(opts: { target?: string; limit?: number } = {}): AuditRecord[] {
    const rows = this.db
      .prepare<
        (string | number)[],
        {
          seq: number;
          at: string;
          operator: string;
          action: string;
          target: string | null;
          reason: string | null;
          result: string;
          prev_hash: string;
          hash: string;
        }
      >(`SELECT * FROM audit_log ${opts.target ? 'WHERE target = ?' : ''} ORDER BY seq LIMIT ?`)
      .all(...(opts.target ? [opts.target] : []), opts.limit ?? 1_000_000);
    return rows.map((r) => ({
      seq: r.seq,
      at: r.at,
      operator: r.operator,
      action: r.action,
      target: r.target,
      reason: r.reason,
      result: r.result,
      prevHash: r.prev_hash,
      hash: r.hash,
    }));
  }

  /** Walks the chain: each entry's hash, its link to the previous one, and no gap in the sequence. */
  verify(): AuditVerification {
    let prev = GENESIS_HASH;
    let expectedSeq = 1;
    const all = this.entries();
    for (const e of all) {
      if (e.seq !== expectedSeq)
        return { ok: false, entries: all.length, brokenAt: expectedSeq, problem: `entry ${expectedSeq} is missing` };
      if (e.prevHash !== prev)
        return { ok: false, entries: all.length, brokenAt: e.seq, problem: `entry ${e.seq} does not follow entry ${e.seq - 1}` };
      const { hash, ...rest } = e;
      if (entryHash(rest) !== hash)
        return { ok: false, entries: all.length, brokenAt: e.seq, problem: `entry ${e.seq} was changed after it was written` };
      prev = hash;
      expectedSeq++;
    }
    return { ok: true, entries: all.length };
  }

  /** CSV (RFC 4180) or JSON of every entry, with the hashes so an auditor can re-check the chain. */
  export(format: 'csv' | 'json'): string {
    const all = this.entries();
    if (format === 'json') return `${JSON.stringify(all, null, 2)}\n`;
    const cell = (v: unknown) => {
      const s = v === null || v === undefined ? '' : String(v);
      // Quote everything; neutralise spreadsheet formulas (=, +, -, @ at the start of a cell).
      return `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replaceAll('"', '""')}"`;
    };
    const header = ['seq', 'at', 'operator', 'action', 'target', 'reason', 'result', 'prevHash', 'hash'];
    return `${[header.join(','), ...all.map((e) => header.map((h) => cell(e[h as keyof AuditRecord])).join(','))].join('\r\n')}\r\n`;
  }
}
