import type { SyncProgress, SyncSummary } from '../../../shared/ipc/contract.js';
import { ConsentClient } from '../api/consent-client.js';
import { DataClient } from '../api/data-client.js';
import { ApiError, type ApiErrorKind } from '../api/errors.js';
import type { RetryPolicy } from '../api/retry.js';
import { createClientCredentialsTokenSource, type TokenSourceOptions } from '../auth/token-source.js';
import type { BatchLimits, Checkpointer } from './batch.js';
import { emptySyncSummary, syncConsents } from './consent-sync.js';
import { syncData } from './data-sync.js';
import type { SyncStore } from './sync-store.js';

/**
 * One sync as the console runs it, described by plain data so it can run on the worker thread
 * (worker.ts) with the worker's own connection to the cache: consents, events and reference data,
 * then the Data API records when asked; or only the Data API records of some consents.
 */
export interface SyncJob {
  file: string;
  key?: string;
  tokens: Omit<TokenSourceOptions, 'fetch' | 'now' | 'sleep' | 'random' | 'onRetry'>;
  consentApiBaseUrl: string;
  dataApiBaseUrl: string;
  full?: boolean;
  data?: boolean;
  consentIds?: string[];
  reconcileEveryMs?: number;
  pageSize?: number;
  batch?: BatchLimits;
  /** The waits between retries, where they differ from SYNC_RETRY's (the fault tests: the same retries, shorter waits). */
  retry?: Partial<RetryPolicy>;
}

/**
 * The sync's reads ride out transient faults longer than an action does (the operator is not
 * waiting on each one): 5 retries, so under 10% failing requests a page fails for good about once
 * in a million reads (0.1^6). The token keeps the default: without one nothing can be read, and an
 * unreachable intermediary should be reported in seconds.
 */
export const SYNC_RETRY: Partial<RetryPolicy> = { retries: 5 };

export type { StoredEntity } from './port.js';
import type { StoredEntity } from './port.js';

export interface SyncJobHooks {
  signal: AbortSignal;
  onProgress(progress: SyncProgress): void;
  onStored(entity: StoredEntity, count: number): void;
  /** Copies a large WAL into the database on another thread (see batch.ts). */
  checkpointer?: Checkpointer;
}

/** A sync job on any store (sync-store.ts); the store tells `hooks.onStored` of its commits itself. */
export async function runSync(
  job: Omit<SyncJob, 'file' | 'key' | 'batch'>,
  store: SyncStore,
  hooks: Omit<SyncJobHooks, 'checkpointer'>,
): Promise<SyncSummary> {
  // Every retry (token included) is counted for the summary.
  let retries = 0;
  const onRetry = () => void retries++;
  const retry = { ...SYNC_RETRY, ...job.retry };
  const tokens = createClientCredentialsTokenSource({ ...job.tokens, onRetry });
  const dataSync = (consentIds?: string[]) =>
    syncData({
      store,
      client: new DataClient({ baseUrl: job.dataApiBaseUrl, tokens, retry, onRetry }),
      ...(job.pageSize ? { pageSize: job.pageSize } : {}),
      signal: hooks.signal,
      onProgress: hooks.onProgress,
      ...(consentIds ? { consentIds } : {}),
      ...(job.full ? { full: true } : {}),
    });
  const stored = (records: Record<string, number>) =>
    hooks.onStored(
      'data',
      Object.values(records).reduce((a, b) => a + b, 0),
    );

  if (job.consentIds) {
    // A targeted refresh of some consents' data: no consent list, no events.
    const started = new Date().toISOString();
    const data = await dataSync(job.consentIds);
    stored(data.records);
    return {
      ...emptySyncSummary(started),
      finishedAt: new Date().toISOString(),
      failures: data.failures,
      data: data.records,
      retries,
    };
  }
  const summary = await syncConsents({
    store,
    client: new ConsentClient({ baseUrl: job.consentApiBaseUrl, tokens, retry, onRetry }),
    onProgress: hooks.onProgress,
    onPageStored: hooks.onStored,
    signal: hooks.signal,
    ...(job.full ? { full: true } : {}),
    ...(job.reconcileEveryMs !== undefined ? { reconcileEveryMs: job.reconcileEveryMs } : {}),
    ...(job.pageSize ? { pageSize: job.pageSize } : {}),
  });
  if (job.data) {
    const data = await dataSync();
    summary.data = data.records;
    summary.failures.push(...data.failures);
    stored(data.records);
  }
  summary.retries = retries;
  return summary;
}

/** An error that crossed the thread boundary as plain fields becomes the typed error again. */
export function revive(error: Error): Error {
  const e = error as Error & {
    kind?: ApiErrorKind;
    endpoint?: string;
    status?: number;
    requestId?: string;
    path?: string;
    details?: string[];
  };
  if (!e.kind || e.endpoint === undefined) return error;
  return new ApiError(e.kind, e.message, {
    endpoint: e.endpoint,
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
    ...(e.path !== undefined ? { path: e.path } : {}),
    ...(e.details ? { details: e.details } : {}),
  });
}
