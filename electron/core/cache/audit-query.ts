import type { AuditFilter } from '../../../shared/ipc/contract.js';
import { recordOfRow, type AuditRow } from '../audit/chain.js';
import type { AuditRecord } from '../audit/port.js';
import type { Db } from './db.js';

/**
 * Reads of the staff action log for the Audit screen: a window of entries for a filter (newest
 * first), the operators and actions it holds, and every entry of a filter for exports. Writing and
 * verifying the chain stay in audit-log.ts.
 */
/** An audit_log row as SQLite returns it. */
export type StoredAuditRow = AuditRow;
export const toRecord = recordOfRow;

function whereOf(f: AuditFilter): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (f.operator) {
    parts.push('operator = ?');
    params.push(f.operator);
  }
  if (f.action) {
    // "retention" finds retention:deleted and retention:de-identified alike.
    parts.push("(action = ? OR substr(action, 1, length(?) + 1) = ? || ':')");
    params.push(f.action, f.action, f.action);
  }
  if (f.target) {
    parts.push('target = ?');
    params.push(f.target);
  }
  // Entries' times are ISO 8601 UTC with milliseconds: text order is time order.
  if (f.from) {
    parts.push('at >= ?');
    params.push(new Date(f.from).toISOString());
  }
  if (f.to) {
    parts.push('at < ?');
    params.push(new Date(f.to).toISOString());
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export class AuditQuery {
  constructor(private readonly db: Db) {}

  list(filter: AuditFilter, offset: number, limit: number): { rows: AuditRecord[]; total: number } {
    const w = whereOf(filter);
    const rows = this.db
      .prepare<(string | number)[], StoredAuditRow>(`SELECT * FROM audit_log ${w.sql} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...w.params, limit, offset)
      .map(toRecord);
    const total = this.db.prepare<string[], { n: number }>(`SELECT count(*) AS n FROM audit_log ${w.sql}`).get(...w.params)!.n;
    return { rows, total };
  }

  options(): { operators: string[]; actions: string[] } {
    const col = (c: 'operator' | 'action') =>
      this.db
        .prepare<[], { v: string }>(`SELECT DISTINCT ${c} AS v FROM audit_log ORDER BY v LIMIT 1000`)
        .all()
        .map((r) => r.v);
    return { operators: col('operator'), actions: col('action') };
  }

  /** Every entry of a filter, oldest first (the order the chain is checked in), a window at a time. */
  *all(filter: AuditFilter, window = 1000): Generator<AuditRecord[]> {
    const w = whereOf(filter);
    const where = w.sql ? `${w.sql} AND seq > ?` : 'WHERE seq > ?';
    const stmt = this.db.prepare<(string | number)[], StoredAuditRow>(`SELECT * FROM audit_log ${where} ORDER BY seq LIMIT ?`);
    for (let last = 0; ;) {
      const rows = stmt.all(...w.params, last, window).map(toRecord);
      if (rows.length) yield rows;
      if (rows.length < window) return;
      last = rows.at(-1)!.seq;
    }
  }
}
