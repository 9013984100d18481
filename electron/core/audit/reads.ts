import { sql, type SqlBool } from 'kysely';
import type { AuditFilter } from '../../../shared/ipc/contract.js';
import type { QueryReader } from '../query/query.js';
import { recordOfRow, type AuditRow } from './chain.js';
import type { AuditRecord, AuditStore } from './port.js';

/**
 * The Audit screen's reads of the staff action log, written once for both engines over the typed
 * query layer (query/query.ts): a window of entries for a filter (newest first) with its count, the
 * operators and actions the log holds, and every entry of a filter oldest first (exports, and the
 * team server's verification). Writing and verifying the chain stay with each engine's log.
 *
 * What the filter means: an action finds itself and its kinds ("retention" finds
 * "retention:deleted" and "retention:de-identified"), letter case counting; times are ISO 8601 UTC
 * with milliseconds, so text order (bytewise) is time order. Where the engines differ: a team
 * server's log also holds imported chains (other installations' logs, never listed here), and
 * PostgreSQL compares and orders text bytewise only under COLLATE "C".
 */
export type AuditReads = Pick<AuditStore, 'query' | 'options'> & {
  /** Every entry of a filter, oldest first (the order the chain is checked in), `window` at a time. */
  windows(filter: AuditFilter, window?: number): AsyncIterable<AuditRecord[]>;
};

export function auditReads(db: QueryReader): AuditReads {
  const pg = db.engine === 'postgres';
  const bytewise = (column: 'at' | 'operator' | 'action') =>
    pg ? sql<string>`${sql.ref(column)} COLLATE "C"` : sql<string>`${sql.ref(column)}`;

  const filtered = async (f: AuditFilter) => {
    const prefix = f.action ? `${f.action}:` : '';
    return (await db.queries())
      .selectFrom('audit_log')
      .$if(pg, (q) => q.where(sql<SqlBool>`chain = 'team'`))
      .$if(!!f.operator, (q) => q.where('operator', '=', f.operator!))
      .$if(!!f.action, (q) =>
        q.where((eb) =>
          eb.or([
            eb('action', '=', f.action!),
            // Its length in characters, as both engines' substr() counts them.
            eb(sql<string>`substr(action, 1, ${[...prefix].length})`, '=', prefix),
          ]),
        ),
      )
      .$if(!!f.target, (q) => q.where('target', '=', f.target!))
      .$if(!!f.from, (q) => q.where(bytewise('at'), '>=', new Date(f.from!).toISOString()))
      .$if(!!f.to, (q) => q.where(bytewise('at'), '<', new Date(f.to!).toISOString()));
  };
  const records = (rows: unknown[]) => (rows as AuditRow[]).map(recordOfRow);

  return {
    async query(filter, offset, limit) {
      const from = await filtered(filter);
      const [rows, [count]] = await Promise.all([
        db.all(from.selectAll().orderBy('seq', 'desc').limit(limit).offset(offset)),
        db.all(from.select((eb) => eb.fn.countAll<number>().as('n'))),
      ]);
      return { rows: records(rows), total: Number(count!.n) };
    },

    async options() {
      const values = async (column: 'operator' | 'action') =>
        (await db.all((await filtered({})).select(bytewise(column).as('v')).distinct().orderBy('v').limit(1000))).map((r) => r.v);
      const [operators, actions] = await Promise.all([values('operator'), values('action')]);
      return { operators, actions };
    },

    async *windows(filter, window = 1000) {
      const from = await filtered(filter);
      for (let last = 0; ;) {
        const rows = records(await db.all(from.selectAll().where('seq', '>', last).orderBy('seq').limit(window)));
        if (rows.length) yield rows;
        if (rows.length < window) return;
        last = rows.at(-1)!.seq;
      }
    },
  };
}
