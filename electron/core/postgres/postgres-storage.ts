import type { ActionStore } from '../consents/port.js';
import type { Storage } from '../storage.js';
import { appendAudit, pgAuditStore } from './audit.js';
import { pgConsentStore, pgReferenceStore, storeConsents } from './consents.js';
import { pgDataStore } from './data.js';
import type { PgDb } from './db.js';
import { pgEventStore, storeEvents } from './events.js';
import { pgBulkJobStore } from './jobs.js';
import { pgReportStore } from './reports.js';
import { pgSyncStateStore } from './sync-state.js';

/**
 * The PostgreSQL adapter: every storage port of the core (storage.ts) over one pool to the team
 * store. The same contract suites as the SQLite adapter hold it to the same behaviour
 * (test/contract/). Atomic work is one transaction on one client: an action's change with its
 * audit entry, a retention step with its audit entry.
 */
export interface PostgresStorage extends Storage {
  db: PgDb;
}

export interface PostgresStorageOptions {
  now?: () => Date;
}

export function postgresStorage(db: PgDb, opts: PostgresStorageOptions = {}): PostgresStorage {
  const now = opts.now ?? (() => new Date());
  const actions: ActionStore = {
    record: (change) =>
      db.tx(async (tx) => {
        if (change.consents?.length) await storeConsents(tx, change.consents, now().toISOString());
        if (change.events?.length) await storeEvents(tx, change.events);
        return appendAudit(tx, change.audit, now);
      }),
  };
  return {
    db,
    consents: pgConsentStore(db),
    reference: pgReferenceStore(db),
    actions,
    bulk: pgBulkJobStore(db),
    events: pgEventStore(db),
    data: pgDataStore(db, { now, audit: (tx, entry) => appendAudit(tx, entry, now) }),
    audit: pgAuditStore(db, now),
    reports: pgReportStore(db),
    syncState: pgSyncStateStore(db),
  };
}
