import { describe } from 'vitest';
import { openCache } from '../../electron/core/cache/database.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { DataRepo } from '../../electron/core/cache/data-repo.js';
import { EventsRepo, ReferenceRepo } from '../../electron/core/cache/events-repo.js';
import { sqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import { contentId } from '../../electron/core/sync/consent-sync.js';
import type { OpenFixture } from './fixture.js';
import { auditStoreSuite } from './ports/audit.js';
import { consentStoreSuite } from './ports/consents.js';
import { dataStoreSuite } from './ports/data.js';
import { eventStoreSuite } from './ports/events.js';
import { bulkJobStoreSuite } from './ports/jobs.js';
import { reportStoreSuite } from './ports/reports.js';
import { syncStateStoreSuite } from './ports/sync-state.js';
import { complaintStoreSuite } from './ports/complaints.js';
import { alertStoreSuite } from './ports/alerts.js';
import { rule94StoreSuite } from './ports/rule94.js';
import { monthlyPackStoreSuite } from './ports/monthly.js';

/**
 * The storage contract suites on the SQLite adapter: a real SQLite database (in memory, the same
 * schema and driver as the cache file), loaded the way the sync loads it.
 */
const openSqlite: OpenFixture = async () => {
  const db = openCache(':memory:');
  const storage = sqliteStorage(db);
  return {
    storage,
    load: {
      consents: async (consents, syncedAt) => void new ConsentsRepo(db).upsertPage(consents, syncedAt),
      events: async (events) => void new EventsRepo(db).upsertPage(events, contentId),
      reference: async (useCases, holders) => {
        const reference = new ReferenceRepo(db);
        reference.replaceUseCases(useCases, '2026-11-01T00:00:00.000Z');
        reference.replaceDataHolders(holders, '2026-11-01T00:00:00.000Z');
      },
      data: async (kind, records, fetchedAt) => void db.transaction(() => new DataRepo(db).upsertPage(kind, records, fetchedAt))(),
    },
    settled: () => storage.indexesReady(),
    close: async () => {
      storage.close();
      db.close();
    },
  };
};

describe('SQLite adapter', () => {
  consentStoreSuite(openSqlite);
  eventStoreSuite(openSqlite);
  dataStoreSuite(openSqlite);
  auditStoreSuite(openSqlite);
  reportStoreSuite(openSqlite);
  bulkJobStoreSuite(openSqlite);
  syncStateStoreSuite(openSqlite);
  complaintStoreSuite(openSqlite);
  alertStoreSuite(openSqlite);
  rule94StoreSuite(openSqlite);
  monthlyPackStoreSuite(openSqlite);
});
