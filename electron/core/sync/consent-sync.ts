import { createHash } from 'node:crypto';
import type { SyncProgress, SyncSummary } from '../../../shared/ipc/contract.js';
import type { ConsentEvent } from '../../../shared/schemas/consent.js';
import type { ConsentClient } from '../api/consent-client.js';
import { ApiError } from '../api/errors.js';
import type { ConsentsRepo, SyncStateRepo } from '../cache/consents-repo.js';
import type { Db } from '../cache/database.js';
import type { EventsRepo, ReferenceRepo } from '../cache/events-repo.js';
import { prefetch, rateAndEta } from './prefetch.js';

/**
 * Sync of the Consent API into the cache: consents (full), events (incremental from the newest
 * cached), use cases and data holders (replaced). Each page is written in one transaction together
 * with the cursor that says where to continue, so a crash or kill at any point resumes where it
 * stopped, without loss and without duplicates. Progress after every page; cancellable.
 */
export interface SyncDeps {
  db: Db;
  client: ConsentClient;
  consents: ConsentsRepo;
  events: EventsRepo;
  reference: ReferenceRepo;
  state: SyncStateRepo;
  onProgress?: (progress: SyncProgress) => void;
  onPageStored?: (entity: 'consents' | 'events' | 'reference', count: number) => void;
  signal?: AbortSignal;
  pageSize?: number;
  now?: () => Date;
  /** Which parts to run (all by default). */
  parts?: { consents?: boolean; events?: boolean; reference?: boolean };
  /** Re-read every event instead of only those after the newest cached one. */
  full?: boolean;
}

export const LAST_SYNC_KEY = 'consents.lastSyncAt';

/** A summary with nothing done yet, filled in as the sync goes. */
export function emptySyncSummary(startedAt: string): SyncSummary {
  return {
    startedAt,
    finishedAt: startedAt,
    consents: { fetched: 0, new: 0, changed: 0, unchanged: 0 },
    events: { fetched: 0, new: 0 },
    useCases: 0,
    dataHolders: 0,
    failures: [],
    resumed: false,
  };
}
const RESUME_PAGE = 'consents.resumePage';
const RESUME_SIZE = 'consents.resumePageSize';

/** An id for an event that came without one: its content, so the same event always gets the same id. */
export const contentId = (e: ConsentEvent) =>
  `content:${createHash('sha256')
    .update(JSON.stringify([e.consentId, e.eventType, e.timestamp, e.eventDetail ?? null]))
    .digest('hex')
    .slice(0, 32)}`;

export async function syncConsents(deps: SyncDeps): Promise<SyncSummary> {
  const now = deps.now ?? (() => new Date());
  const parts = { consents: true, events: true, reference: true, ...deps.parts };
  const pageSize = deps.pageSize ?? 500;
  const startedAt = now().toISOString();
  const summary = emptySyncSummary(startedAt);
  const progress = (p: SyncProgress) => deps.onProgress?.(p);
  const signalOpt = deps.signal ? { signal: deps.signal } : {};

  // 1. Consents, resuming an interrupted run from its saved page (same page size, or it restarts).
  if (parts.consents) {
    const savedPage = Number(deps.state.get(RESUME_PAGE) ?? '1');
    const startPage = deps.state.get(RESUME_SIZE) === String(pageSize) && savedPage > 1 ? savedPage : 1;
    summary.resumed = startPage > 1;
    progress({ phase: 'consents', done: 0, total: null, state: 'running' });
    try {
      const t0 = Date.now();
      for await (const page of prefetch(deps.client.listConsentPages({ pageSize, startPage, ...signalOpt }))) {
        const stamp = now().toISOString();
        const counts = deps.db.transaction(() => {
          const c = deps.consents.upsertPage(page.consents, stamp);
          deps.state.set(RESUME_PAGE, String(page.page + 1));
          deps.state.set(RESUME_SIZE, String(pageSize));
          return c;
        })();
        summary.consents.fetched += page.consents.length;
        summary.consents.new += counts.new;
        summary.consents.changed += counts.changed;
        summary.consents.unchanged += counts.unchanged;
        const skipped = (startPage - 1) * pageSize;
        progress({
          phase: 'consents',
          done: skipped + summary.consents.fetched,
          total: page.totalRecords,
          state: 'running',
          ...rateAndEta(summary.consents.fetched, page.totalRecords - skipped, t0),
        });
        deps.onPageStored?.('consents', counts.new + counts.changed);
      }
      deps.db.transaction(() => {
        deps.state.delete(RESUME_PAGE);
        deps.state.delete(RESUME_SIZE);
        deps.state.set(LAST_SYNC_KEY, now().toISOString());
      })();
    } catch (error) {
      progress({ phase: 'consents', done: summary.consents.fetched, total: null, state: 'failed', message: (error as Error).message });
      throw error;
    }
    progress({ phase: 'consents', done: summary.consents.fetched, total: summary.consents.fetched, state: 'finished' });
  }

  // 2. Events since the newest cached one (inclusive: same-millisecond events are not missed;
  //    the upsert by id drops what is already there). Ascending order makes this resumable as is.
  if (parts.events) {
    const since = deps.full ? null : deps.events.newest();
    progress({ phase: 'events', done: 0, total: null, state: 'running' });
    try {
      const t0 = Date.now();
      for await (const page of prefetch(deps.client.listEventPages({ pageSize, filter: since ? { oldest: since } : {}, ...signalOpt }))) {
        const { new: added } = deps.events.upsertPage(page.items, contentId);
        summary.events.fetched += page.items.length;
        summary.events.new += added;
        progress({
          phase: 'events',
          done: summary.events.fetched,
          total: page.totalRecords,
          state: 'running',
          ...rateAndEta(summary.events.fetched, page.totalRecords, t0),
        });
        if (added) deps.onPageStored?.('events', added);
      }
      progress({ phase: 'events', done: summary.events.fetched, total: summary.events.fetched, state: 'finished' });
    } catch (error) {
      // Only the intermediary's failures are partial; a bug or a cancellation stops the sync.
      if (deps.signal?.aborted || !(error instanceof ApiError)) throw error;
      summary.failures.push({ phase: 'events', reason: (error as Error).message });
      progress({ phase: 'events', done: summary.events.fetched, total: null, state: 'failed', message: (error as Error).message });
    }
  }

  // 3. Use cases, and the data holders of their software product.
  if (parts.reference) {
    try {
      progress({ phase: 'use-cases', done: 0, total: null, state: 'running' });
      const useCases = await deps.client.listUseCases({}, deps.signal);
      deps.reference.replaceUseCases(useCases, now().toISOString());
      summary.useCases = useCases.length;
      progress({ phase: 'use-cases', done: useCases.length, total: useCases.length, state: 'finished' });
      const productId = useCases.find((u) => u.softwareProductId)?.softwareProductId;
      if (productId) {
        progress({ phase: 'data-holders', done: 0, total: null, state: 'running' });
        const holders = await deps.client.listDataHolders(productId, deps.signal);
        deps.reference.replaceDataHolders(holders, now().toISOString());
        summary.dataHolders = holders.length;
        progress({ phase: 'data-holders', done: holders.length, total: holders.length, state: 'finished' });
      }
      deps.onPageStored?.('reference', summary.useCases + summary.dataHolders);
    } catch (error) {
      // Only the intermediary's failures are partial; a bug or a cancellation stops the sync.
      if (deps.signal?.aborted || !(error instanceof ApiError)) throw error;
      summary.failures.push({ phase: 'reference', reason: (error as Error).message });
    }
  }

  summary.finishedAt = now().toISOString();
  return summary;
}
