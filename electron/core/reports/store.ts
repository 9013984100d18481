import { eventReads } from '../events/reads.js';
import type { QueryRunner } from '../query/query.js';
import { auditCounts } from './audit-counts.js';
import type { ReportStore } from './port.js';

/**
 * The compliance report's counts, written once for both engines over the typed query layer: the
 * events per type and the data collections per data holder (events/reads.ts), the audit and
 * retention logs' counts (audit-counts.ts). The team store uses it as it is; the SQLite adapter
 * answers the events' counts from its in-memory index while that is current
 * (cache/sqlite-storage.ts `sqliteReportStore`).
 */
export function reportStore(runner: QueryRunner): ReportStore {
  const events = eventReads(runner);
  return {
    eventsByType: events.eventsByType,
    collectionsByHolder: events.collectionsByHolder,
    ...auditCounts(runner),
  };
}
