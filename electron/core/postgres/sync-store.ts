import type pg from 'pg';
import { DEFAULT_BATCH, type BatchLimits } from '../sync/batch.js';
import type { SyncEntity, SyncStore, SyncWrites } from '../sync/sync-store.js';
import { storeConsents, storeDataHolders, storeUseCases } from './consents.js';
import { storeData } from './data.js';
import { clientTx, type PgDb, type Tx } from './db.js';
import { storeEvents } from './events.js';

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
    finishFirstLoad: async () => undefined,
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

  return {
    state: async (key) => (await db.one<{ value: string }>('SELECT value FROM sync_state WHERE key = $1', [key]))?.value ?? null,
    consentCount: async () => (await db.one<{ n: number }>('SELECT count(*) AS n FROM consents'))!.n,
    newestCreated: async () => (await db.one<{ t: string | null }>('SELECT max(created) AS t FROM consents'))!.t,
    newestEvent: async () => (await db.one<{ t: string | null }>('SELECT max(at) AS t FROM events'))!.t,
    // PostgreSQL builds its indexes as the rows arrive; nothing is deferred.
    beginFirstLoad: async () => false,
    finishFirstLoad: async () => undefined,
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
      release();
    },
    close: () => release(),
  };
}
