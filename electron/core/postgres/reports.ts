import { auditCounts } from '../reports/audit-counts.js';
import type { ReportStore } from '../reports/port.js';
import type { QueryRunner } from '../query/query.js';
import type { PgDb } from './db.js';
import { eventReads } from '../events/reads.js';

/**
 * The compliance report's counts in the team store: the events per type here (along
 * events_by_type), the audit and retention logs' counts written once for both engines
 * (reports/audit-counts.ts).
 */
export function pgReportStore(db: PgDb, runner: QueryRunner): ReportStore {
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

    ...auditCounts(runner),
    collectionsByHolder: eventReads(runner).collectionsByHolder,
  };
}
