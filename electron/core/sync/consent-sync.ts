import type { SyncProgress, SyncSummary } from '../../../shared/ipc/contract.js';
import type { ConsentClient } from '../api/consent-client.js';
import type { ConsentsRepo, SyncStateRepo } from '../cache/consents-repo.js';

/**
 * Full sync of consents: page through `/consents/v2` and upsert each page in its own
 * transaction, so a crash loses at most the page in flight and a re-run converges.
 */
export interface ConsentSyncDeps {
  client: ConsentClient;
  consents: ConsentsRepo;
  state: SyncStateRepo;
  onProgress?: (progress: SyncProgress) => void;
  onPageStored?: (count: number) => void;
  signal?: AbortSignal;
  pageSize?: number;
  now?: () => Date;
}

export const LAST_SYNC_KEY = 'consents.lastSyncAt';

export async function syncConsents(deps: ConsentSyncDeps): Promise<SyncSummary> {
  const now = deps.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const totals = { fetched: 0, new: 0, changed: 0, unchanged: 0 };
  deps.onProgress?.({ phase: 'consents', done: 0, total: null, state: 'running' });
  try {
    for await (const page of deps.client.listConsentPages({
      pageSize: deps.pageSize ?? 500,
      ...(deps.signal ? { signal: deps.signal } : {}),
    })) {
      const counts = deps.consents.upsertPage(page.consents, now().toISOString());
      totals.fetched += page.consents.length;
      totals.new += counts.new;
      totals.changed += counts.changed;
      totals.unchanged += counts.unchanged;
      deps.state.set('consents.lastPage', String(page.page));
      deps.onProgress?.({ phase: 'consents', done: totals.fetched, total: page.totalRecords, state: 'running' });
      if (counts.new + counts.changed > 0) deps.onPageStored?.(counts.new + counts.changed);
    }
  } catch (error) {
    deps.onProgress?.({ phase: 'consents', done: totals.fetched, total: null, state: 'failed', message: (error as Error).message });
    throw error;
  }
  const finishedAt = now().toISOString();
  deps.state.set(LAST_SYNC_KEY, finishedAt);
  deps.onProgress?.({ phase: 'consents', done: totals.fetched, total: totals.fetched, state: 'finished' });
  return { startedAt, finishedAt, consents: totals };
}
