import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { prepareAppRole } from '../../electron/core/postgres/roles.js';
import { DEFERRED_INDEXES_KEY, pgSyncStore } from '../../electron/core/postgres/sync-store.js';
import { pgSyncEngine, thisInstance } from '../../electron/core/postgres/team-store.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { tokenOptions } from '../helpers/truth.js';

/**
 * A first sync into an empty team store sets the consents' and events' secondary indexes aside and
 * builds them at the end: afterwards every index of the schema is there; a load killed midway is
 * finished by the next sync. Only a role that owns the tables may do that: the team server's
 * application role loads with the indexes in place.
 */
let sandbox: RunningSandbox;
const databases: TestDatabase[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, consents: 300 });
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
  await sandbox.close();
});

async function migrated(): Promise<PgDb> {
  const database = await freshDatabase();
  databases.push(database);
  const db = new PgDb(database.url, { max: 6 });
  await migrate(db);
  return db;
}

const indexes = async (db: PgDb) =>
  (
    await db.query<{ name: string; sql: string }>(
      `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS sql FROM pg_index
       WHERE indrelid IN ('consents'::regclass, 'events'::regclass, 'consent_versions'::regclass) ORDER BY 1`,
    )
  ).map((r) => `${r.name}: ${r.sql}`);

const target = () => ({ tokens: tokenOptions(sandbox.url), consentApiBaseUrl: sandbox.url, dataApiBaseUrl: sandbox.url });

describe('a first load into PostgreSQL', () => {
  it('ends with every index of the schema, and nothing left written down', async () => {
    const db = await migrated();
    const schema = await indexes(db);
    expect(schema.length).toBeGreaterThan(30);
    const summary = await pgSyncEngine(db, target(), thisInstance()).run({ full: true }, () => undefined).result;
    expect(summary.consents.new).toBe(300);
    expect(await indexes(db)).toEqual(schema);
    expect(await db.one('SELECT value FROM sync_state WHERE key = $1', [DEFERRED_INDEXES_KEY])).toBeUndefined();
    await db.close();
  });

  it('killed midway, is finished by the next sync', async () => {
    const db = await migrated();
    const schema = await indexes(db);
    // A load that set the indexes aside and stored a page, then the process died.
    const killed = pgSyncStore(db);
    expect(await killed.beginFirstLoad()).toBe(true);
    expect((await indexes(db)).length).toBeLessThan(schema.length);
    killed.close();
    // The next sync sees the load under way and ends with the indexes built.
    const summary = await pgSyncEngine(db, target(), thisInstance()).run({}, () => undefined).result;
    expect(summary.consents.new).toBe(300);
    expect(await indexes(db)).toEqual(schema);
    expect(await db.one('SELECT value FROM sync_state WHERE key = $1', [DEFERRED_INDEXES_KEY])).toBeUndefined();
    // Into a store that holds consents, nothing is set aside.
    const later = pgSyncStore(db);
    expect(await later.beginFirstLoad()).toBe(false);
    later.close();
    expect(await indexes(db)).toEqual(schema);
    await db.close();
  });

  it("builds only what this code's schema defines: a statement written into sync_state by anyone is never run", async () => {
    const db = await migrated();
    const schema = await indexes(db);
    const killed = pgSyncStore(db);
    expect(await killed.beginFirstLoad()).toBe(true);
    killed.close();
    // The application role may write sync_state; the owner builds. A planted statement, and the form an
    // earlier version wrote ({name, table, sql} objects) with a definition that is not the schema's.
    const names = JSON.parse(
      (await db.one<{ value: string }>('SELECT value FROM sync_state WHERE key = $1', [DEFERRED_INDEXES_KEY]))!.value,
    ) as string[];
    expect(names).toContain('events_by_consent');
    const planted = [
      ...names.map((name) => ({ name, table: 'events', sql: 'CREATE TABLE planted_by_sync_state (x int)' })),
      { name: 'planted; DROP TABLE audit_log', table: 'consents', sql: 'DROP TABLE audit_log' },
    ];
    await db.query('UPDATE sync_state SET value = $2 WHERE key = $1', [DEFERRED_INDEXES_KEY, JSON.stringify(planted)]);
    const summary = await pgSyncEngine(db, target(), thisInstance()).run({}, () => undefined).result;
    expect(summary.consents.new).toBe(300);
    expect(await indexes(db)).toEqual(schema);
    expect(await db.one("SELECT to_regclass('planted_by_sync_state')::text AS t")).toEqual({ t: null });
    expect(await db.one("SELECT to_regclass('audit_log')::text AS t")).toEqual({ t: 'audit_log' });
    expect(await db.one('SELECT value FROM sync_state WHERE key = $1', [DEFERRED_INDEXES_KEY])).toBeUndefined();
    await db.close();
  });

  it('through the application role (which owns no table): nothing is set aside, and the load completes', async () => {
    const db = await migrated();
    const schema = await indexes(db);
    const app = await prepareAppRole(databases.at(-1)!.url);
    const served = new PgDb(app.url, { max: 6 });
    try {
      const store = pgSyncStore(served);
      expect(await store.beginFirstLoad()).toBe(false);
      store.close();
      const summary = await pgSyncEngine(served, target(), thisInstance()).run({ full: true }, () => undefined).result;
      expect(summary.consents.new).toBe(300);
      expect(await indexes(db)).toEqual(schema);
    } finally {
      await served.close();
      await db.close();
    }
  });
});
