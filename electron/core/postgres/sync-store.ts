import type pg from 'pg';
import { DEFAULT_BATCH, type BatchLimits } from '../sync/batch.js';
import type { SyncEntity, SyncStore, SyncWrites } from '../sync/sync-store.js';
import { storeConsents, storeDataHolders, storeUseCases } from './consents.js';
import { storeData } from './data.js';
import { clientTx, type PgDb, type Sql, type Tx } from './db.js';
import { storeEvents } from './events.js';
import { migration as teamStore } from './migrations/01-team-store.js';

/**
 * The sync's store on the team's PostgreSQL: the same batches as on SQLite (a transaction kept
 * open across pages on the sync's own connection, committed when it holds `rows` rows or is `ms`
 * old, each page with its resume cursor), so a server killed mid-sync leaves a consistent prefix
 * and the next sync, on whichever server, continues from it.
 */
export interface PgSyncOptions {
  batch?: BatchLimits;
  /** After each commit: how many rows of an entity were new or changed. */
  onCommit?: (entity: SyncEntity, count: number) => void;
}

/**
 * A first load (into empty tables) sets the secondary indexes of the consents and the events aside
 * and builds them once at the end, from the loaded rows (a sort each), instead of maintaining
 * about forty indexes row by row. The names of those dropped are written down here in the
 * transaction that drops them, so a load that is killed is finished by the next sync (a full
 * one's beginFirstLoad, or any one's finish). The primary keys (what ON CONFLICT relies on) stay.
 * The consents' indexes are built when their listing ends (the events' page writes never read
 * them); the events' when the sync finishes. What is built comes from this code's schema, never
 * from the database: sync_state is writable by the application role, and the owner builds.
 */
export const DEFERRED_INDEXES_KEY = 'pg.firstLoad.deferredIndexes';
const DEFERRABLE_TABLES = ['consents', 'events'] as const;

interface DeferrableIndex {
  name: string;
  table: string;
  sql: string;
}

/** The non-unique indexes the schema creates on the consents and the events (its first migration's), by name. */
export const DEFERRABLE_INDEXES: ReadonlyMap<string, DeferrableIndex> = new Map(
  [...String(teamStore.up).matchAll(/^CREATE INDEX (\w+) ON (\w+) [^;]*;/gm)]
    .filter((m) => (DEFERRABLE_TABLES as readonly string[]).includes(m[2]!))
    .map((m) => [m[1]!, { name: m[1]!, table: m[2]!, sql: m[0] }]),
);

/** The names written down (an earlier version wrote {name, …} objects); names the schema does not know are ignored. */
async function deferredIndexes(t: Sql): Promise<DeferrableIndex[] | undefined> {
  const row = await t.one<{ value: string }>('SELECT value FROM sync_state WHERE key = $1', [DEFERRED_INDEXES_KEY]);
  if (!row) return undefined;
  let names: unknown;
  try {
    names = JSON.parse(row.value);
  } catch {
    names = [];
  }
  return (Array.isArray(names) ? names : [])
    .map((n: unknown) => DEFERRABLE_INDEXES.get(typeof n === 'string' ? n : String((n as { name?: unknown } | null)?.name)))
    .filter((i): i is DeferrableIndex => i !== undefined);
}

/**
 * Whether this connection's role may drop and create the tables' indexes (it owns them). A team
 * server serving through its application role does not: its first load keeps the indexes.
 */
async function ownsTables(t: Sql): Promise<boolean> {
  const r = await t.one<{ owns: boolean }>(
    `SELECT bool_and(pg_has_role(current_user, relowner, 'USAGE')) AS owns FROM pg_class WHERE oid = ANY($1::regclass[])`,
    [DEFERRABLE_TABLES],
  );
  return r?.owns === true;
}

const existingIndexes = async (t: Sql, names: string[]) =>
  new Set((await t.query<{ name: string }>('SELECT to_regclass(n)::text AS name FROM unnest($1::text[]) n', [names])).map((r) => r.name));

/** Drops the secondary indexes of the empty tables among the consents and events; false when the consents hold rows. */
async function deferIndexes(t: Tx): Promise<boolean> {
  if (!(await ownsTables(t))) return false;
  if (await deferredIndexes(t)) return true;
  const empty = (await t.one<{ consents: boolean; events: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM consents) AS consents, NOT EXISTS (SELECT 1 FROM events) AS events',
  ))!;
  if (!empty.consents) return false;
  const candidates = [...DEFERRABLE_INDEXES.values()].filter((i) => empty[i.table as (typeof DEFERRABLE_TABLES)[number]]);
  const existing = await existingIndexes(
    t,
    candidates.map((i) => i.name),
  );
  const indexes = candidates.filter((i) => existing.has(i.name));
  for (const i of indexes) await t.query(`DROP INDEX ${i.name}`);
  await t.query('INSERT INTO sync_state (key, value) VALUES ($1, $2)', [DEFERRED_INDEXES_KEY, JSON.stringify(indexes.map((i) => i.name))]);
  return true;
}

/** Builds the deferred indexes of `tables` (all when omitted) that are missing, and writes down what remains. */
async function buildDeferred(t: Tx, tables?: readonly string[]): Promise<void> {
  const deferred = await deferredIndexes(t);
  // Only an owner dropped them, and only an owner can build them again (the next sync by one does).
  if (!deferred || !(await ownsTables(t))) return;
  const now = deferred.filter((i) => !tables || tables.includes(i.table));
  if (now.length) {
    await t.query("SET LOCAL maintenance_work_mem = '256MB'");
    const existing = await existingIndexes(
      t,
      now.map((i) => i.name),
    );
    for (const i of now) if (!existing.has(i.name)) await t.query(i.sql);
    for (const table of new Set(now.map((i) => i.table))) await t.query(`ANALYZE ${table}`);
  }
  const rest = deferred.filter((i) => !now.includes(i));
  if (rest.length)
    await t.query('UPDATE sync_state SET value = $2 WHERE key = $1', [DEFERRED_INDEXES_KEY, JSON.stringify(rest.map((i) => i.name))]);
  else await t.query('DELETE FROM sync_state WHERE key = $1', [DEFERRED_INDEXES_KEY]);
}

export function pgSyncStore(db: PgDb, opts: PgSyncOptions = {}): SyncStore & { close(): void } {
  const limits = opts.batch ?? DEFAULT_BATCH;
  let client: pg.PoolClient | undefined;
  let tx: Tx | undefined;
  let open = false;
  let rows = 0;
  let startedMs = 0;
  let changed = new Map<SyncEntity, number>();

  const writes = (t: Tx): SyncWrites => ({
    consents: (page, syncedAt) => storeConsents(t, page, syncedAt),
    events: (page, touched) => storeEvents(t, page, touched),
    data: async (kind, records, fetchedAt) => (await storeData(t, kind, records, fetchedAt), records.length),
    setState: async (key, value) =>
      void (await t.query('INSERT INTO sync_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
        key,
        value,
      ])),
    deleteState: async (key) => void (await t.query('DELETE FROM sync_state WHERE key = $1', [key])),
    // The consents' listing is done: their indexes now (the events' wait for the events: see finish).
    finishFirstLoad: () => buildDeferred(t, ['consents']),
  });

  async function begin(): Promise<Tx> {
    if (!client) {
      client = await db.pool.connect();
      tx = clientTx(client);
    }
    if (!open) {
      await client.query('BEGIN');
      open = true;
      startedMs = Date.now();
    }
    return tx!;
  }

  function release(broken = false): void {
    client?.release(broken);
    client = undefined;
    tx = undefined;
  }

  async function rollback(): Promise<void> {
    if (open && client) {
      // A connection that cannot even roll back (the server went away) is dropped, not reused.
      await client.query('ROLLBACK').catch(() => release(true));
    }
    open = false;
    rows = 0;
    changed = new Map();
  }

  async function commit(): Promise<void> {
    if (!open || !client) return;
    try {
      await client.query('COMMIT');
    } catch (error) {
      await rollback();
      throw error;
    }
    open = false;
    rows = 0;
    const done = changed;
    changed = new Map();
    for (const [entity, count] of done) if (count > 0) opts.onCommit?.(entity, count);
  }

  /** Whatever a first load (this one, or one killed) left to build, in a transaction of its own. */
  async function buildAll(): Promise<void> {
    const t = await begin();
    try {
      await buildDeferred(t);
    } catch (error) {
      await rollback();
      throw error;
    }
    await commit();
  }

  return {
    state: async (key) => (await db.one<{ value: string }>('SELECT value FROM sync_state WHERE key = $1', [key]))?.value ?? null,
    consentCount: async () => (await db.one<{ n: number }>('SELECT count(*) AS n FROM consents'))!.n,
    newestCreated: async () => (await db.one<{ t: string | null }>('SELECT max(created) AS t FROM consents'))!.t,
    newestEvent: async () => (await db.one<{ t: string | null }>('SELECT max(at) AS t FROM events'))!.t,
    historyBases: async (consentIds) =>
      (
        await db.query<{ created: string | null; days: number | null }>(
          `SELECT min(c.created) AS created,
                  CASE WHEN jsonb_typeof(u.payload->'historicalCollectionPeriodInDays') = 'number'
                        AND u.payload->>'historicalCollectionPeriodInDays' ~ '^[0-9]{1,7}$'
                       THEN (u.payload->>'historicalCollectionPeriodInDays')::integer END AS days
           FROM consents c LEFT JOIN use_cases u ON u.id = c.use_case_id
           WHERE c.status = 'ACTIVE' AND ($1::text[] IS NULL OR c.consent_id = ANY($1::text[]))
           GROUP BY c.use_case_id, u.payload`,
          [consentIds ? [...consentIds] : null],
        )
      ).map((r) => ({ created: r.created, days: r.days })),
    // In the batch's own transaction (never another connection's lock against it), committed at once.
    async beginFirstLoad() {
      let deferred;
      try {
        deferred = await deferIndexes(await begin());
      } catch (error) {
        await rollback();
        throw error;
      }
      await commit();
      return deferred;
    },
    async finishFirstLoad() {
      await commit();
      await buildAll();
    },
    replaceUseCases: (useCases, at, combined) => db.tx((t) => storeUseCases(t, useCases, at, combined)),
    replaceDataHolders: (holders, at) => db.tx((t) => storeDataHolders(t, holders, at)),
    async write(entity, step, pageEnd = true) {
      const t = await begin();
      let done;
      try {
        done = await step(writes(t));
      } catch (error) {
        await rollback();
        throw error;
      }
      rows += done.rows;
      changed.set(entity, (changed.get(entity) ?? 0) + done.changed);
      if (pageEnd && (rows >= limits.rows || Date.now() - startedMs >= limits.ms)) await commit();
      return done.result;
    },
    commit,
    rollback,
    async finish() {
      await commit();
      await buildAll();
      release();
    },
    close: () => release(),
  };
}
