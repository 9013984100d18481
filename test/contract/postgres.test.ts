import { afterAll, describe } from 'vitest';
import { storeConsents, storeReference } from '../../electron/core/postgres/consents.js';
import { storeData } from '../../electron/core/postgres/data.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { storeEvents } from '../../electron/core/postgres/events.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { readMemo } from '../../electron/core/postgres/read-memo.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
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
 * The storage contract suites on the PostgreSQL adapter: a real PostgreSQL server (the run's, see
 * helpers/pg-global.ts), a fresh database per test, migrated to the current schema and loaded the
 * way the team server's sync loads it.
 */
const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
});

/**
 * `memo`: the aggregate reads shared as a team server shares them (read-memo.ts), invalidated after
 * each load as the server invalidates on each sync commit it hears of.
 */
const postgresFixture =
  (opts: { memo?: boolean } = {}): OpenFixture =>
  async () => {
    const database = await freshDatabase();
    databases.push(database);
    const db = new PgDb(database.url, { max: 4 });
    await migrate(db);
    const memo = opts.memo ? readMemo() : undefined;
    const storage = postgresStorage(db, memo ? { memo } : {});
    const loaded = async <T>(write: Promise<T>): Promise<T> => {
      const done = await write;
      memo?.invalidate();
      return done;
    };
    return {
      storage,
      load: {
        consents: async (consents, syncedAt) => void (await loaded(db.tx((tx) => storeConsents(tx, consents, syncedAt)))),
        events: async (events) => void (await loaded(db.tx((tx) => storeEvents(tx, events)))),
        reference: (useCases, holders) => loaded(db.tx((tx) => storeReference(tx, useCases, holders, '2026-11-01T00:00:00.000Z'))),
        data: (kind, records, fetchedAt) => loaded(db.tx((tx) => storeData(tx, kind, records, fetchedAt))),
      },
      settled: async () => undefined,
      close: async () => {
        await db.close();
        await database.drop();
      },
    };
  };

const openPostgres = postgresFixture();
const openShared = postgresFixture({ memo: true });

describe('PostgreSQL adapter', () => {
  consentStoreSuite(openPostgres);
  eventStoreSuite(openPostgres);
  dataStoreSuite(openPostgres);
  auditStoreSuite(openPostgres);
  reportStoreSuite(openPostgres);
  bulkJobStoreSuite(openPostgres);
  syncStateStoreSuite(openPostgres);
  complaintStoreSuite(openPostgres);
  alertStoreSuite(openPostgres);
  rule94StoreSuite(openPostgres);
  monthlyPackStoreSuite(openPostgres);
});

// The stores whose aggregate reads a team server shares: the same contract, answers shared until a change.
describe('PostgreSQL adapter, reads shared as a team server shares them', () => {
  consentStoreSuite(openShared);
  eventStoreSuite(openShared);
  auditStoreSuite(openShared);
  reportStoreSuite(openShared);
});
