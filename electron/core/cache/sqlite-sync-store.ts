import type { SyncSummary } from '../../../shared/ipc/contract.js';
import { DEFAULT_BATCH, type BatchLimits, type Checkpointer } from '../sync/batch.js';
import { BatchWriter } from './batch-writer.js';
import { runSync, type SyncJob, type SyncJobHooks } from '../sync/sync-job.js';
import { syncConsents, type SyncDeps } from '../sync/consent-sync.js';
import { syncData, type DataSyncDeps, type DataSyncSummary } from '../sync/data-sync.js';
import { contentId } from '../sync/event-id.js';
import type { StoredEntity } from '../sync/port.js';
import type { SyncEntity, SyncStore, SyncWrites } from '../sync/sync-store.js';
import { ConsentsRepo, SyncStateRepo } from './consents-repo.js';
import { DataRepo } from './data-repo.js';
import type { Db } from './db.js';
import { EventsRepo, ReferenceRepo } from './events-repo.js';

/**
 * The sync's store on a SQLite cache: the repositories over the sync's own connection (the worker
 * thread's, or a test's), and batches (batch.ts) that keep a transaction open across pages and copy
 * a large WAL back into the database on a helper thread. better-sqlite3 is synchronous: each step's
 * writes are done when its promise settles, and only the sync writes on this connection while it
 * runs, so the open transaction spanning awaits is safe.
 */
export interface SqliteSyncOptions {
  /** When the open transaction commits (rows, age). */
  batch?: BatchLimits;
  /** Copies a large WAL into the database on another thread (else the sync's thread does). */
  checkpointer?: Checkpointer;
  /** After each commit: how many rows of an entity were new or changed. */
  onCommit?: (entity: SyncEntity, count: number) => void;
}

export function sqliteSyncStore(db: Db, opts: SqliteSyncOptions = {}): SyncStore {
  const consents = new ConsentsRepo(db);
  const events = new EventsRepo(db);
  const reference = new ReferenceRepo(db);
  const state = new SyncStateRepo(db);
  let data: DataRepo | undefined;
  const batch = new BatchWriter<SyncEntity>(db, opts.batch ?? DEFAULT_BATCH, (e, n) => opts.onCommit?.(e, n), opts.checkpointer);
  const writes: SyncWrites = {
    consents: async (page, syncedAt) => consents.upsertPage(page, syncedAt),
    events: async (page, touched) => events.upsertPage(page, contentId, touched),
    data: async (kind, records, fetchedAt) => (data ??= new DataRepo(db)).upsertPage(kind, records, fetchedAt),
    setState: async (key, value) => state.set(key, value),
    deleteState: async (key) => state.delete(key),
    finishFirstLoad: async () => void consents.finishFirstLoad(),
  };
  return {
    state: async (key) => state.get(key),
    consentCount: async () => consents.count(),
    newestCreated: async () => consents.newestCreated(),
    newestEvent: async () => events.newest(),
    historyBases: async (consentIds) => consents.historyBases(consentIds),
    beginFirstLoad: async () => consents.beginFirstLoad(),
    finishFirstLoad: async () => void consents.finishFirstLoad(),
    replaceUseCases: async (useCases, at, combined) => reference.replaceUseCases(useCases, at, combined),
    replaceDataHolders: async (holders, at) => reference.replaceDataHolders(holders, at),
    write: (entity, step, pageEnd) => batch.writeAsync(entity, () => step(writes), pageEnd),
    commit: async () => batch.commit(),
    rollback: async () => batch.rollback(),
    finish: () => batch.finish(),
  };
}

type SqliteSyncDeps = Omit<SyncDeps, 'store' | 'onPageStored'> &
  Omit<SqliteSyncOptions, 'onCommit'> & { db: Db; onPageStored?: (entity: StoredEntity, count: number) => void };

/** The consent sync into a SQLite cache (the worker's, and tests'), told of each commit through `onPageStored`. */
export function syncConsentsToSqlite({ db, batch, checkpointer, onPageStored, ...deps }: SqliteSyncDeps): Promise<SyncSummary> {
  const store = sqliteSyncStore(db, {
    ...(batch ? { batch } : {}),
    ...(checkpointer ? { checkpointer } : {}),
    onCommit: (entity, n) => entity !== 'data' && onPageStored?.(entity, n),
  });
  return syncConsents({ ...deps, store, ...(onPageStored ? { onPageStored } : {}) });
}

/** The Data API sync into a SQLite cache. */
export function syncDataToSqlite({ db, ...deps }: Omit<DataSyncDeps, 'store'> & { db: Db }): Promise<DataSyncSummary> {
  return syncData({ ...deps, store: sqliteSyncStore(db) });
}

/** A sync job on a SQLite cache (the worker's connection, or a test's). */
export function runSyncJob(job: SyncJob, db: Db, hooks: SyncJobHooks): Promise<SyncSummary> {
  const store = sqliteSyncStore(db, {
    ...(job.batch ? { batch: job.batch } : {}),
    ...(hooks.checkpointer ? { checkpointer: hooks.checkpointer } : {}),
    onCommit: (entity, n) => entity !== 'data' && hooks.onStored(entity, n),
  });
  return runSync(job, store, hooks);
}
