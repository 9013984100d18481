import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { QueryRunner } from '../query/query.js';
import type { ReportStore } from './port.js';

/**
 * The compliance report's counts of the audit and retention logs, written once for both engines
 * over the typed query layer (query/query.ts). What a count means is said here: a staff action that
 * did not fail is one whose result does not start "failed" (in any letter case); a consent withdrawn
 * is a revocation that revoked, one amended an update that did not fail. Where the engines differ,
 * each is told so: a team server's log also holds imported chains (other installations' logs, not
 * counted), and PostgreSQL compares and orders text bytewise only under COLLATE "C" (SQLite's
 * BINARY, and lower() then folds ASCII letters only, as SQLite's LIKE does). Instants are ISO 8601
 * text, compared bytewise.
 */
export type AuditCounts = Pick<ReportStore, 'audited' | 'staffActions' | 'retention'>;

export function auditCounts(db: QueryRunner): AuditCounts {
  const pg = db.engine === 'postgres';
  /** A column compared or ordered bytewise. */
  const bytewise = (column: string): RawBuilder<string> =>
    pg ? sql<string>`${sql.ref(column)} COLLATE "C"` : sql<string>`${sql.ref(column)}`;
  /** The team's own entries (a solo cache holds only its own). */
  const own: RawBuilder<SqlBool> = pg ? sql<SqlBool>`chain = 'team'` : sql<SqlBool>`1 = 1`;
  const notFailed: RawBuilder<SqlBool> = pg
    ? sql<SqlBool>`lower(result COLLATE "C") NOT LIKE 'failed%'`
    : sql<SqlBool>`result NOT LIKE 'failed%'`;
  const withdrawn = sql<number>`sum(CASE WHEN action = 'revoke' AND result = 'revoked' THEN 1 ELSE 0 END)`;
  const amended = sql<number>`sum(CASE WHEN action = 'update' AND ${notFailed} THEN 1 ELSE 0 END)`;

  return {
    async audited(action, from, to, result) {
      const q = await db.queries();
      const [row] = await db.all(
        q
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(own)
          .where('action', '=', action)
          .where(bytewise('at'), '>=', from)
          .where(bytewise('at'), '<', to)
          .where(result !== undefined ? sql<SqlBool>`result = ${result}` : notFailed),
      );
      return Number(row!.n);
    },

    async staffActions(from, to) {
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('audit_log')
          .select(['operator', withdrawn.as('withdrawn'), amended.as('amended')])
          .where(own)
          .where('action', 'in', ['revoke', 'update'])
          .where(bytewise('at'), '>=', from)
          .where(bytewise('at'), '<', to)
          .groupBy('operator')
          .having(sql<SqlBool>`${withdrawn} + ${amended} > 0`)
          .orderBy(sql`${withdrawn} + ${amended}`, 'desc')
          .orderBy(bytewise('operator'))
          .limit(500),
      );
      return rows.map((r) => ({ operator: r.operator, withdrawn: Number(r.withdrawn), amended: Number(r.amended) }));
    },

    async retention(from, to) {
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('retention_log')
          .select([
            'action',
            (eb) => eb.fn.count<number>('consent_id').distinct().as('consents'),
            (eb) => eb.fn.sum<number>('records').as('records'),
          ])
          .where(bytewise('at'), '>=', from)
          .where(bytewise('at'), '<', to)
          .groupBy('action')
          .orderBy(bytewise('action')),
      );
      return rows.map((r) => ({ action: r.action, consents: Number(r.consents), records: Number(r.records) }));
    },
  };
}
