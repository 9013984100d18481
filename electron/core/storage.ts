import type { AuditStore } from './audit/port.js';
import type { ComplaintStore } from './complaints/port.js';
import type { AlertStore } from './alerts/port.js';
import type { Rule94Store } from './reports/rule94/port.js';
import type { MonthlyPackStore } from './reports/monthly/port.js';
import type { ActionStore, ConsentStore, ReferenceStore } from './consents/port.js';
import type { DataStore } from './data/port.js';
import type { EventStore } from './events/port.js';
import type { BulkJobStore } from './jobs/port.js';
import type { ReportStore } from './reports/port.js';
import type { SyncStateStore } from './sync/port.js';

/**
 * Every storage port of the core, one per domain (each defined in its domain's port.ts). An
 * adapter implements all of them over one engine: today SQLite (cache/sqlite-storage.ts). The
 * composition root (console-core.ts) is the one place that picks the adapter; the domains'
 * handlers and services see only these interfaces, and the storage contract tests
 * (test/contract/) hold every adapter to the same behaviour.
 */
export interface Storage {
  consents: ConsentStore;
  reference: ReferenceStore;
  actions: ActionStore;
  bulk: BulkJobStore;
  events: EventStore;
  data: DataStore;
  audit: AuditStore;
  reports: ReportStore;
  syncState: SyncStateStore;
  complaints: ComplaintStore;
  alerts: AlertStore;
  rule94: Rule94Store;
  monthly: MonthlyPackStore;
}
