import type { SyncProgress } from '../../../shared/ipc/contract.js';
import { DATA_KINDS, type DataClient, type DataKind } from '../api/data-client.js';
import { ApiError } from '../api/errors.js';
import { syncBounds, TRANSACTIONS_FULL_READ, TRANSACTIONS_RETRIEVED } from '../data/history.js';
import { prefetch, rateAndEta } from './prefetch.js';
import type { SyncStore } from './sync-store.js';

/**
 * Sync of the Data API into the cache, kind by kind (accounts, balances, transactions, payees,
 * payments, customers, energy records, the product catalogue), for all consents or the ones given.
 * Like the consent sync: one transaction per page with its resume cursor; a kind the intermediary
 * refuses (a missing scope, say) is reported and the others go on.
 */
export interface DataSyncDeps {
  store: SyncStore;
  client: DataClient;
  kinds?: readonly DataKind[];
  consentIds?: string[];
  /** Read every record again, transactions included (otherwise transactions are read incrementally). */
  full?: boolean;
  pageSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: SyncProgress) => void;
  now?: () => Date;
}

export interface DataSyncSummary {
  records: Record<string, number>;
  failures: { phase: string; reason: string }[];
}

const BOUNDS = 'data.bounds';

/** A sync's bounds as kept across a resume: the history, and the retrievals it asks from when incremental. */
type SyncBoundsState = ReturnType<typeof syncBounds> & { oldestRetrievalTime?: string; fetchedAt?: string };

export async function syncData(deps: DataSyncDeps): Promise<DataSyncSummary> {
  const now = deps.now ?? (() => new Date());
  const kinds = deps.kinds ?? (Object.keys(DATA_KINDS) as DataKind[]);
  const pageSize = deps.pageSize ?? 1000;
  const summary: DataSyncSummary = { records: {}, failures: [] };
  // A per-consent sync is small and cheap to redo; only a full one keeps resume cursors.
  const resumable = !deps.consentIds;
  // Every record of one run carries the run's start as its fetch time, so the data browser can tell
  // what the consent's last sync returned from what an earlier one left (stale).
  const fetchedAt = now().toISOString();
  // Explicit bounds, never the intermediary's defaults (90 days of transactions, 24 months of usage).
  // After a first full read, a sync of all consents asks only for the transactions the intermediary
  // retrieved since the last one began (`oldestRetrievalTime`), and merges them by id. A resumed sync
  // keeps the bounds its pages were counted with; a full one starts over.
  const saved = resumable && !deps.full ? await deps.store.state(BOUNDS) : null;
  const retrievedTo = resumable && !deps.full ? await deps.store.state(TRANSACTIONS_RETRIEVED) : null;
  const bounds: SyncBoundsState = saved
    ? (JSON.parse(saved) as SyncBoundsState)
    : {
        ...syncBounds(await deps.store.historyBases(deps.consentIds), fetchedAt),
        fetchedAt,
        ...(retrievedTo ? { oldestRetrievalTime: retrievedTo } : {}),
      };
  if (resumable && !saved)
    await deps.store.write('data', async (w) => (await w.setState(BOUNDS, JSON.stringify(bounds)), { result: 0, rows: 0, changed: 0 }));
  const query: Partial<Record<DataKind, Record<string, string>>> = {
    transactions: {
      oldestTime: bounds.oldestTime,
      newestTime: bounds.newestTime,
      ...(bounds.oldestRetrievalTime ? { oldestRetrievalTime: bounds.oldestRetrievalTime } : {}),
    },
    usage: { oldestDate: bounds.oldestDate, newestDate: bounds.newestDate },
  };
  for (const kind of kinds) {
    const cursor = `data.${kind}.resumePage`;
    const startPage = resumable && !deps.full ? Number((await deps.store.state(cursor)) ?? '1') : 1;
    let done = 0;
    deps.onProgress?.({ phase: 'data', done: 0, total: null, state: 'running', message: kind });
    try {
      const t0 = Date.now();
      for await (const page of prefetch(
        deps.client.listPages(kind, {
          pageSize,
          startPage,
          ...(query[kind] ? { query: query[kind] } : {}),
          ...(deps.consentIds ? { consentIds: deps.consentIds } : {}),
          ...(deps.signal ? { signal: deps.signal } : {}),
        }),
      )) {
        // A page and its cursor in the same transaction, which the store's batch commits every
        // 25,000 rows or second (as the consent sync's): a commit per page cost the full-text index
        // a segment per page, and a 1,000,000-transaction sync a quarter of its speed.
        done += await deps.store.write('data', async (w) => {
          const n = await w.data(kind, page.records, fetchedAt);
          if (resumable) await w.setState(cursor, String(page.page + 1));
          return { result: n, rows: n, changed: 0 };
        });
        deps.onProgress?.({
          phase: 'data',
          done,
          total: page.totalRecords,
          state: 'running',
          message: kind,
          ...rateAndEta(done, page.totalRecords, t0),
        });
      }
      if (resumable)
        await deps.store.write('data', async (w) => {
          await w.deleteState(cursor);
          if (kind === 'transactions') {
            // Everything retrieved before this sync began is now in the store.
            await w.setState(TRANSACTIONS_RETRIEVED, bounds.fetchedAt ?? fetchedAt);
            if (!bounds.oldestRetrievalTime) await w.setState(TRANSACTIONS_FULL_READ, bounds.fetchedAt ?? fetchedAt);
          }
          return { result: 0, rows: 0, changed: 0 };
        });
      await deps.store.commit();
      summary.records[kind] = done;
    } catch (error) {
      await deps.store.rollback();
      // No token (nothing else would work), a bug or a cancellation stops the sync.
      if (deps.signal?.aborted || !(error instanceof ApiError) || error.endpoint === 'POST token') throw error;
      summary.failures.push({ phase: `data:${kind}`, reason: error.message });
    }
  }
  // A kind that failed resumes at its cursor next time, with the bounds its pages were counted with.
  if (resumable && summary.failures.length === 0) {
    await deps.store.write('data', async (w) => (await w.deleteState(BOUNDS), { result: 0, rows: 0, changed: 0 }));
    await deps.store.commit();
  }
  deps.onProgress?.({ phase: 'data', done: Object.values(summary.records).reduce((a, b) => a + b, 0), total: null, state: 'finished' });
  return summary;
}
