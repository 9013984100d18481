import type { ReportStore } from '../reports/port.js';
import type { PgDb } from './db.js';
import { collectionsByHolder } from './events.js';

/**
 * The compliance report's counts, as the SQLite adapter's (sqliteReportStore in
 * cache/sqlite-storage.ts, on its SQL path). Instants kept as text (the audit log's and the
 * retention log's `at`, ISO 8601) compare bytewise, as in SQLite.
 */
export function pgReportStore(db: PgDb): ReportStore {
  return {
    async eventsByType(from, to, types) {
      const fromMs = Date.parse(from);
      const toMs = Date.parse(to);
      // One index-only scan per type (events_by_type carries the type and the instant).
      const rows = await db.query<{ type: string; n: number }>(
        `SELECT event_type AS type, count(*)::int AS n FROM events
         WHERE event_type = ANY($1::text[]) AND at >= $2::timestamptz AND at < $3::timestamptz GROUP BY event_type`,
        [
          [...new Set(types)],
          Number.isFinite(fromMs) ? new Date(fromMs).toISOString() : null,
          Number.isFinite(toMs) ? new Date(toMs).toISOString() : null,
        ],
      );
      const counts = new Map(rows.map((r) => [r.type, r.n]));
      return new Map(types.map((t) => [t, counts.get(t) ?? 0]));
    },

    async audited(action, from, to, result) {
      // The team's own entries (imported chains are other installations' logs). SQLite's LIKE folds
      // ASCII letters only: so does lower() under the "C" collation.
      const row = await db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log
         WHERE chain = 'team' AND action = $1 AND at COLLATE "C" >= $2 AND at COLLATE "C" < $3
           AND ${result ? 'result = $4' : `lower(result COLLATE "C") NOT LIKE 'failed%'`}`,
        [action, from, to, ...(result ? [result] : [])],
      );
      return row!.n;
    },

    staffActions: (from, to) =>
      db.query<{ operator: string; withdrawn: number; amended: number }>(
        `SELECT operator, withdrawn, amended FROM (
           SELECT operator,
                  (count(*) FILTER (WHERE action = 'revoke' AND result = 'revoked'))::int AS withdrawn,
                  (count(*) FILTER (WHERE action = 'update' AND lower(result COLLATE "C") NOT LIKE 'failed%'))::int AS amended
           FROM audit_log
           WHERE chain = 'team' AND action IN ('revoke', 'update') AND at COLLATE "C" >= $1 AND at COLLATE "C" < $2
           GROUP BY operator) s
         WHERE withdrawn + amended > 0 ORDER BY withdrawn + amended DESC, operator COLLATE "C" LIMIT 500`,
        [from, to],
      ),
    retention: (from, to) =>
      db.query<{ action: string; consents: number; records: number }>(
        `SELECT action, count(DISTINCT consent_id)::int AS consents, sum(records)::bigint AS records FROM retention_log
         WHERE at COLLATE "C" >= $1 AND at COLLATE "C" < $2 GROUP BY action ORDER BY action COLLATE "C"`,
        [from, to],
      ),

    collectionsByHolder: (from, to) => collectionsByHolder(db, from, to),
  };
}
