import { contentId } from './event-id.js';
import type { SyncProgress, SyncSummary } from '../../../shared/ipc/contract.js';
import type { Consent } from '../../../shared/schemas/consent.js';
import type { ConsentClient } from '../api/consent-client.js';
import { ApiError } from '../api/errors.js';
import { prefetch, rateAndEta, yieldToEventLoop } from './prefetch.js';
import type { SyncStore, SyncWrites, UpsertCounts } from './sync-store.js';

/**
 * Sync of the Consent API into the cache.
 *
 * Full (the first sync, one asked for, an interrupted one, or the periodic reconcile): every
 * consent page, then the events after the newest cached one. Incremental (otherwise): the API has
 * no "updated since" filter, so the events after the newest cached one say which consents changed
 * (revoked, extended, granted, expired…) and those are read again one by one; `oldestCreated` finds
 * the new ones.
 * A change that makes no event (an update made through another client) is caught by the next full
 * reconcile, every `reconcileEveryMs` (6 hours by default).
 *
 * Writes go in few large transactions (the store's batches: sync-store.ts), each page with the cursor that says where to
 * continue, so a crash or kill at any point resumes where it stopped, without loss and without
 * duplicates. Fetching the next page overlaps storing this one. Progress after every page;
 * cancellable.
 */

/**
 * How far before the newest cached event an incremental sync reads the events again (see
 * syncEvents). Short, as every event in it is fetched again (at 100,000 consents an hour of the
 * sandbox's history is 58,000 events); the full reconcile reads every event anyway.
 */
const EVENT_OVERLAP_MS = 120_000;

export interface SyncDeps {
  /** The store, written by this sync only while it runs (its own connection: see sync-store.ts). */
  store: SyncStore;
  client: ConsentClient;
  onProgress?: (progress: SyncProgress) => void;
  /** After the reference lists are stored: how many (the store tells of its commits itself). */
  onPageStored?: (entity: 'reference', count: number) => void;
  signal?: AbortSignal;
  pageSize?: number;
  now?: () => Date;
  /** Which parts to run (all by default). */
  parts?: { consents?: boolean; events?: boolean; reference?: boolean };
  /** List every consent and re-read every event, whatever the cache holds. */
  full?: boolean;
  /** How often the consents are listed in full even when the events feed says nothing changed. */
  reconcileEveryMs?: number;
}

export const LAST_SYNC_KEY = 'consents.lastSyncAt';
/** When the last full listing of the consents finished. */
export const LAST_FULL_KEY = 'consents.lastFullAt';
export const RECONCILE_EVERY_MS = 6 * 3_600_000;
const RESUME_PAGE = 'consents.resumePage';
/** The token source's endpoint label: without a token nothing else can work, so its failure stops the sync. */
const TOKEN_ENDPOINT = 'POST token';
const RESUME_SIZE = 'consents.resumePageSize';
/** Consents read again one by one at most; past this a full listing is cheaper. */
const MAX_SINGLE_READS = 2_000;
const READ_CONCURRENCY = 8;
/** Rows written between two turns of the event loop. */
const SLICE = 200;

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

export { contentId };
export type { UpsertCounts };

export async function syncConsents(deps: SyncDeps): Promise<SyncSummary> {
  const now = deps.now ?? (() => new Date());
  const parts = { consents: true, events: true, reference: true, ...deps.parts };
  const pageSize = deps.pageSize ?? 1000;
  const summary = emptySyncSummary(now().toISOString());
  const progress = (p: SyncProgress) => deps.onProgress?.(p);
  const signalOpt = deps.signal ? { signal: deps.signal } : {};
  const batch = deps.store;
  const addCounts = (c: UpsertCounts) => {
    summary.consents.new += c.new;
    summary.consents.changed += c.changed;
    summary.consents.unchanged += c.unchanged;
  };
  /**
   * Stores a page in slices, letting the event loop run between them: the next page keeps
   * arriving (and the intermediary keeps sending) while this one is written. The page's extra
   * writes (its resume cursor) go with its last slice; the transaction commits only after it.
   */
  async function storeSliced<T>(
    entity: 'consents' | 'events',
    items: T[],
    write: (w: SyncWrites, slice: T[]) => Promise<UpsertCounts>,
    extra?: (w: SyncWrites) => Promise<void>,
  ) {
    const total: UpsertCounts = { new: 0, changed: 0, unchanged: 0 };
    for (let i = 0; i < items.length || i === 0; i += SLICE) {
      const slice = items.slice(i, i + SLICE);
      const last = i + SLICE >= items.length;
      const c = await batch.write(
        entity,
        async (w) => {
          const counts = await write(w, slice);
          if (last) await extra?.(w);
          return { result: counts, rows: slice.length, changed: counts.new + counts.changed };
        },
        last,
      );
      total.new += c.new;
      total.changed += c.changed;
      total.unchanged += c.unchanged;
      if (!last) await yieldToEventLoop();
    }
    return total;
  }
  const storeConsents = (consents: Consent[], extra?: (w: SyncWrites) => Promise<void>) =>
    storeSliced('consents', consents, (w, slice) => w.consents(slice, now().toISOString()), extra);

  const savedPage = await batch.state(RESUME_PAGE);
  const resumePage = Number(savedPage ?? '1');
  const resumable = (await batch.state(RESUME_SIZE)) === String(pageSize) && resumePage > 1;
  const lastFull = Date.parse((await batch.state(LAST_FULL_KEY)) ?? '');
  const full = Boolean(deps.full) || savedPage !== null || !(now().getTime() - lastFull < (deps.reconcileEveryMs ?? RECONCILE_EVERY_MS));
  summary.mode = full ? 'full' : 'incremental';

  /** Every consent page, resuming an interrupted listing from its saved page (same page size, or it restarts). */
  async function listAll(): Promise<void> {
    const startPage = resumable ? resumePage : 1;
    summary.resumed = startPage > 1;
    progress({ phase: 'consents', done: 0, total: null, state: 'running' });
    // Into an empty cache (or one a killed first load left), the secondary indexes are built at the end.
    const firstLoad = await batch.beginFirstLoad();
    try {
      await listPages(startPage, firstLoad);
    } catch (error) {
      if (firstLoad) {
        // What was stored stays, indexed; the next sync resumes it as an ordinary listing.
        try {
          await batch.commit();
          await batch.finishFirstLoad();
        } catch {
          await batch.rollback(); // the next start or sync builds them (beginFirstLoad wrote down what)
        }
      }
      throw error;
    }
  }

  async function listPages(startPage: number, firstLoad: boolean): Promise<void> {
    const t0 = Date.now();
    for await (const page of prefetch(deps.client.listConsentPages({ pageSize, startPage, ...signalOpt }))) {
      addCounts(
        await storeConsents(page.consents, async (w) => {
          await w.setState(RESUME_PAGE, String(page.page + 1));
          await w.setState(RESUME_SIZE, String(pageSize));
        }),
      );
      summary.consents.fetched += page.consents.length;
      const skipped = (startPage - 1) * pageSize;
      progress({
        phase: 'consents',
        done: skipped + summary.consents.fetched,
        total: page.totalRecords,
        state: 'running',
        ...rateAndEta(summary.consents.fetched, page.totalRecords - skipped, t0),
      });
    }
    await batch.write('consents', async (w) => {
      await w.deleteState(RESUME_PAGE);
      await w.deleteState(RESUME_SIZE);
      await w.setState(LAST_FULL_KEY, now().toISOString());
      if (firstLoad) await w.finishFirstLoad();
      return { result: undefined, rows: 0, changed: 0 };
    });
  }

  /** The consents the events feed named (an expiry is an EXPIRED event), then the new ones. */
  async function readChanged(touched: Set<string>): Promise<void> {
    const ids = [...touched];
    const since = await batch.newestCreated();
    progress({ phase: 'consents', done: 0, total: ids.length, state: 'running' });
    const t0 = Date.now();
    let done = 0;
    // A page's worth at a time, a few requests in flight at once: each is small, round trips dominate.
    for (let i = 0; i < ids.length; i += pageSize) {
      const chunk = ids.slice(i, i + pageSize);
      const read: (Consent | undefined)[] = new Array(chunk.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(READ_CONCURRENCY, chunk.length) }, async () => {
          for (let k = next++; k < chunk.length; k = next++) {
            try {
              read[k] = await deps.client.getConsent(chunk[k]!, deps.signal);
            } catch (error) {
              // An event about a consent the intermediary no longer shows is not a failure of the sync.
              if (!(error instanceof ApiError && error.kind === 'NotFound')) throw error;
            }
          }
        }),
      );
      const found = read.filter((c): c is Consent => c !== undefined);
      summary.consents.fetched += found.length;
      addCounts(await storeConsents(found));
      done += chunk.length;
      progress({ phase: 'consents', done, total: ids.length, state: 'running', ...rateAndEta(done, ids.length, t0) });
    }
    // New consents: created at or after the newest cached (an hour earlier, for clocks that disagree).
    const oldestCreated = since ? new Date(Date.parse(since) - 3_600_000).toISOString() : undefined;
    for await (const page of prefetch(
      deps.client.listConsentPages({ pageSize, ...(oldestCreated ? { filter: { oldestCreated } } : {}), ...signalOpt }),
    )) {
      summary.consents.fetched += page.consents.length;
      addCounts(await storeConsents(page.consents));
      progress({ phase: 'consents', done: done + page.consents.length, total: ids.length + page.totalRecords, state: 'running' });
    }
  }

  /**
   * Events from two minutes before the newest cached on: an event the intermediary records a little
   * late, or stamped by a clock ahead of the one that stamps the next (the newest cached can be later
   * than a change made since), is not missed; the id drops the ones already stored. Later than that,
   * the periodic full reconcile (every event) finds it.
   */
  async function syncEvents(touched?: Set<string>): Promise<void> {
    const newest = deps.full ? null : await batch.newestEvent();
    const since = newest ? new Date(Date.parse(newest) - EVENT_OVERLAP_MS).toISOString() : null;
    progress({ phase: 'events', done: 0, total: null, state: 'running' });
    try {
      const t0 = Date.now();
      for await (const page of prefetch(deps.client.listEventPages({ pageSize, filter: since ? { oldest: since } : {}, ...signalOpt }))) {
        const added = (
          await storeSliced('events', page.items, async (w, slice) => {
            const { new: n, changed } = await w.events(slice, touched);
            return { new: n, changed, unchanged: slice.length - n - changed };
          })
        ).new;
        summary.events.fetched += page.items.length;
        summary.events.new += added;
        progress({
          phase: 'events',
          done: summary.events.fetched,
          total: page.totalRecords,
          state: 'running',
          ...rateAndEta(summary.events.fetched, page.totalRecords, t0),
        });
      }
      await batch.commit();
      progress({ phase: 'events', done: summary.events.fetched, total: summary.events.fetched, state: 'finished' });
    } catch (error) {
      // Only the intermediary's failures are partial; no token, a bug or a cancellation stops the sync.
      if (deps.signal?.aborted || !(error instanceof ApiError) || error.endpoint === TOKEN_ENDPOINT) throw error;
      await batch.commit();
      summary.failures.push({ phase: 'events', reason: (error as Error).message });
      progress({ phase: 'events', done: summary.events.fetched, total: null, state: 'failed', message: (error as Error).message });
    }
  }

  /**
   * The consents part failed: the intermediary's failure (after the http layer's retries) is
   * reported and the other parts go on; what was stored is kept and the next sync resumes (a full
   * listing from its saved page; an incremental one becomes full, since the consents the events
   * named were not all read again). A failure to get a token, a bug or a cancellation stops the sync.
   */
  async function consentsFailed(error: unknown): Promise<void> {
    const message = (error as Error).message;
    progress({ phase: 'consents', done: summary.consents.fetched, total: null, state: 'failed', message });
    await batch.commit();
    if (deps.signal?.aborted || !(error instanceof ApiError) || error.endpoint === TOKEN_ENDPOINT) throw error;
    await batch.write('consents', async (w) => (await w.deleteState(LAST_FULL_KEY), { result: undefined, rows: 0, changed: 0 }));
    await batch.commit();
    consentsOk = false;
    summary.failures.push({ phase: 'consents', reason: message });
  }
  let consentsOk = true;

  try {
    if (parts.consents && full) {
      try {
        await listAll();
        await batch.commit();
        progress({ phase: 'consents', done: summary.consents.fetched, total: summary.consents.fetched, state: 'finished' });
      } catch (error) {
        await consentsFailed(error);
      }
    }

    // Incremental: the events first, for they say which consents changed.
    const touched = parts.consents && !full ? new Set<string>() : undefined;
    if (parts.events || touched) await syncEvents(touched);

    if (touched) {
      try {
        if (touched.size > Math.max(MAX_SINGLE_READS, (await batch.consentCount()) / 20)) {
          summary.mode = 'full';
          await listAll();
        } else await readChanged(touched);
        await batch.commit();
        progress({ phase: 'consents', done: summary.consents.fetched, total: summary.consents.fetched, state: 'finished' });
      } catch (error) {
        await consentsFailed(error);
      }
    }
    if (parts.consents && consentsOk)
      await batch.write(
        'consents',
        async (w) => (await w.setState(LAST_SYNC_KEY, now().toISOString()), { result: 0, rows: 0, changed: 0 }),
      );
    await batch.finish();
  } catch (error) {
    // Whole pages written before an error between pages are kept; a half-written one was rolled back.
    // If the commit fails too (the disk is full), the original error is the one to report.
    try {
      await batch.commit();
    } catch {
      await batch.rollback();
    }
    throw error;
  }

  // Use cases, and the data holders of their software product.
  if (parts.reference) {
    try {
      progress({ phase: 'use-cases', done: 0, total: null, state: 'running' });
      const useCases = await deps.client.listUseCases({}, deps.signal);
      // The combined-scopes view too (the Use cases screen shows both); an intermediary without it keeps the separate one only.
      const combined = await deps.client.listUseCases({ combineScopes: true }, deps.signal).catch((error: unknown) => {
        if (deps.signal?.aborted || !(error instanceof ApiError)) throw error;
        return undefined;
      });
      await batch.replaceUseCases(useCases, now().toISOString(), combined);
      summary.useCases = useCases.length;
      progress({ phase: 'use-cases', done: useCases.length, total: useCases.length, state: 'finished' });
      const productId = useCases.find((u) => u.softwareProductId)?.softwareProductId;
      if (productId) {
        progress({ phase: 'data-holders', done: 0, total: null, state: 'running' });
        const holders = await deps.client.listDataHolders(productId, deps.signal);
        await batch.replaceDataHolders(holders, now().toISOString());
        summary.dataHolders = holders.length;
        progress({ phase: 'data-holders', done: holders.length, total: holders.length, state: 'finished' });
      }
      deps.onPageStored?.('reference', summary.useCases + summary.dataHolders);
    } catch (error) {
      // Only the intermediary's failures are partial; no token, a bug or a cancellation stops the sync.
      if (deps.signal?.aborted || !(error instanceof ApiError) || error.endpoint === TOKEN_ENDPOINT) throw error;
      summary.failures.push({ phase: 'reference', reason: (error as Error).message });
    }
  }

  summary.finishedAt = now().toISOString();
  return summary;
}
