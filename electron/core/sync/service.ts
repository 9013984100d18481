import { dataRecordTotal, type SyncProgress, type SyncSummary } from '../../../shared/ipc/contract.js';
import type { IpcErrorCode } from '../../../shared/ipc/errors.js';
import { CoreError } from '../errors.js';
import { ApiError } from '../api/errors.js';
import type { CoreContext, Reachability } from '../context.js';
import type { SyncEngine, SyncRequest } from './port.js';
import { LAST_SYNC_KEY } from './consent-sync.js';

/** The last sync's summary, kept in the store's sync state for the overview. */
export const LAST_SUMMARY_KEY = 'sync.lastSummary';

export function errorCodeFor(error: unknown): IpcErrorCode {
  if (!(error instanceof ApiError)) return 'INTERNAL';
  switch (error.kind) {
    case 'Network':
      return 'OFFLINE';
    case 'Unauthorized':
      return 'UNAUTHORIZED';
    case 'Forbidden':
      return 'FORBIDDEN';
    case 'NotFound':
      return 'NOT_FOUND';
    case 'Schema':
      return 'SCHEMA';
    default:
      return 'UPSTREAM';
  }
}

export interface SyncServiceDeps extends Pick<CoreContext, 'stores' | 'bus' | 'log' | 'operator' | 'clock'> {
  engine: SyncEngine;
  intermediary: Reachability;
  /** Set when the store is found damaged: no sync starts until it is repaired, and the status says why. */
  storeDamage: { problem: string | null };
  /**
   * Whether a failure is the store's, read by the adapter that knows its engine: damage (thrown on
   * as it is, so the router's guard gives the recovery path), a problem writing it (a full disk…,
   * in words), or undefined for any other failure.
   */
  storeFailure?: (error: unknown) => { damage: true } | { problem: string } | undefined;
  /** Told when a sync has ended, well or not, once its summary is stored (the alert rules read it). */
  ended?: () => void;
}

/**
 * One sync at a time: started by the user, the schedule or a data sync job, cancellable; when it
 * ends, retention runs, the summary is kept, the consoles are told. Holds what the status bar shows
 * (syncing, the last error).
 */
export class SyncService {
  private running: Promise<SyncSummary> | undefined;
  private controller: AbortController | undefined;
  private error: string | null = null;

  constructor(private readonly deps: SyncServiceDeps) {}

  get syncing(): boolean {
    return this.running !== undefined;
  }

  /** Why the last sync failed, or why none can start (a damaged store); null when all is well. */
  get lastError(): string | null {
    return this.deps.storeDamage.problem ?? this.error;
  }

  /** Why no sync can start now (a damaged store), or null. */
  get blocked(): string | null {
    return this.deps.storeDamage.problem;
  }

  lastSyncAt(): Promise<string | null> {
    return this.deps.stores.syncState.get(LAST_SYNC_KEY);
  }

  async lastSummary(): Promise<SyncSummary | null> {
    const stored = await this.deps.stores.syncState.get(LAST_SUMMARY_KEY);
    return stored ? (JSON.parse(stored) as SyncSummary) : null;
  }

  /** Starts a sync, refusing when one runs or the store is damaged. */
  start(request: SyncRequest, onProgress?: (p: SyncProgress) => void): Promise<SyncSummary> {
    if (this.running) throw new CoreError('BUSY', 'A sync is already running.');
    if (this.blocked) throw new CoreError('CACHE', this.blocked);
    this.running = this.run(request, onProgress).finally(() => {
      this.running = undefined;
      this.deps.ended?.();
    });
    return this.running;
  }

  /** Cancels the running sync; false when none runs. */
  cancel(reason = 'cancelled by the operator'): boolean {
    if (!this.controller) return false;
    this.controller.abort(new Error(reason));
    return true;
  }

  /** Cancels a running sync and waits for it to end (closing). */
  async stop(): Promise<void> {
    this.cancel('closing');
    await this.running?.catch(() => undefined);
  }

  private async run(request: SyncRequest, onProgress?: (p: SyncProgress) => void): Promise<SyncSummary> {
    const { bus, log, stores } = this.deps;
    const controller = new AbortController();
    this.controller = controller;
    const signal = controller.signal;
    /** Where the sync was when it stopped, and how far (its failure is reported there). */
    let last: Pick<SyncProgress, 'phase' | 'done'> = { phase: 'consents', done: 0 };
    try {
      const run = this.deps.engine.run(request, (m) => {
        if (m.type === 'progress') {
          last = { phase: m.progress.phase, done: m.progress.done };
          bus.emit('sync:progress', m.progress);
          onProgress?.(m.progress);
        }
        if (m.type === 'stored') bus.emit('cache:changed', { entity: m.entity, count: m.count });
        if (m.type === 'warning') log.info(`sync: ${m.message}`);
      });
      signal.addEventListener('abort', () => run.cancel(String((signal.reason as Error)?.message)));
      const summary = await run.result;
      this.deps.intermediary.online = true;
      if (request.consentIds) return summary;
      // Ended consents lose their CDR data now (deleted or de-identified, by their post-usage action).
      const retained = await stores.data.applyRetention('retention (automatic)');
      summary.retention = retained.map(({ consentId, action, records }) => ({ consentId, action, records }));
      this.error = summary.failures.length ? summary.failures.map((f) => `${f.phase}: ${f.reason}`).join('; ') : null;
      // Ended by the core's clock, which every other time it keeps follows (the job's thread reads the
      // machine's: the same moment, unless a test runs the core on another day).
      summary.finishedAt = this.deps.clock().toISOString();
      // What the overview shows as "last sync of each part": kept with the store, so it survives a restart.
      await stores.syncState.set(LAST_SUMMARY_KEY, JSON.stringify(summary));
      const c = summary.consents;
      log.info(
        `sync finished (${summary.mode}${summary.resumed ? ', resumed' : ''}): ${c.fetched} consents fetched, ${c.new} new, ${c.changed} changed, ${c.unchanged} unchanged; ${summary.events.new} new events; ${summary.useCases} use cases; ${summary.dataHolders} data holders${summary.data ? `; ${dataRecordTotal(summary)} Data API records` : ''}${summary.retries ? `; ${summary.retries} retries` : ''}${summary.failures.length ? `; failed: ${this.error}` : ''}`,
      );
      return summary;
    } catch (error) {
      if (signal.aborted) {
        bus.emit('sync:progress', {
          phase: 'consents',
          done: 0,
          total: null,
          state: 'cancelled',
          message: 'Sync cancelled; what was stored so far is kept, and the next sync resumes.',
        });
        throw new CoreError('CANCELLED', 'Sync cancelled. What was stored so far is kept; the next sync continues from there.');
      }
      // The engine's own refusal (another team server is syncing): said as it is, not a failure.
      if (error instanceof CoreError) throw error;
      const store = this.deps.storeFailure?.(error);
      if (store && 'damage' in store) throw error;
      if (store) {
        this.error = store.problem;
        log.error('sync failed: the cache could not be written', error);
        // Every console hears why it stopped, whoever started it (a scheduled sync is nobody's request).
        bus.emit('sync:progress', { ...last, total: null, state: 'failed', message: store.problem });
        throw new CoreError('CACHE', `Sync failed: ${store.problem}`);
      }
      this.deps.intermediary.online = !(error instanceof ApiError && error.kind === 'Network');
      this.error = error instanceof Error ? error.message : String(error);
      log.error('sync failed', error);
      throw new CoreError(errorCodeFor(error), `Sync failed: ${this.error}`);
    } finally {
      this.controller = undefined;
    }
  }
}
