import { dataRecordTotal } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';
import type { CoreContext, HandlersOf } from '../context.js';
import type { SyncService } from './service.js';

export interface SyncContext extends Pick<CoreContext, 'bus' | 'jobs'> {
  sync: SyncService;
  /** Whether a sync without `data` fetches Data API records (Settings). */
  syncDataByDefault: () => boolean;
}

/** The sync domain: start, cancel, the last summary, and a data sync of chosen consents run as a job. */
export function syncHandlers(ctx: SyncContext): HandlersOf<'sync:start' | 'sync:cancel' | 'sync:last' | 'data:sync'> {
  const { sync } = ctx;
  return {
    'sync:start': async (input) => {
      // Without `data`, a sync fetches Data API records as Settings say (on by default for the
      // embedded sandbox); a sync of chosen consents is always a data sync.
      const data = input.data ?? (input.consentIds ? false : ctx.syncDataByDefault());
      return sync.start({
        ...(input.full ? { full: true } : {}),
        ...(data ? { data } : {}),
        ...(input.consentIds ? { consentIds: input.consentIds } : {}),
      });
    },
    'sync:cancel': async () => ({ cancelled: sync.cancel() }),
    'sync:last': async () => sync.lastSummary(),
    'data:sync': async (input) => {
      if (sync.syncing) throw new CoreError('BUSY', 'A sync is already running: the data sync can start when it ends.');
      if (sync.blocked) throw new CoreError('CACHE', sync.blocked);
      const ids = 'consentIds' in input ? [...new Set(input.consentIds)] : undefined;
      const full = 'full' in input && input.full === true;
      const title = !ids
        ? full
          ? 'Read all data of all active consents again'
          : 'Sync data of all active consents'
        : ids.length === 1
          ? `Sync data of consent ${ids[0]}`
          : `Sync data of ${ids.length} consents`;
      const job = ctx.jobs.start({
        kind: 'data-sync',
        title,
        run: async (job) => {
          job.signal.addEventListener('abort', () => sync.cancel());
          if (sync.syncing) throw new Error('A sync is already running.');
          const summary = await sync.start({ data: true, ...(full ? { full: true } : {}), ...(ids ? { consentIds: ids } : {}) }, (p) =>
            job.progress({ done: p.done, total: p.total, message: p.message ? `${p.phase}: ${p.message}` : p.phase }),
          );
          const records = dataRecordTotal(summary);
          job.progress({
            counts: summary.data ?? {},
            done: records,
            total: records,
            message: summary.failures.length
              ? `Some kinds failed: ${summary.failures.map((f) => `${f.phase}: ${f.reason}`).join('; ')}`
              : `${records.toLocaleString('en-AU')} records stored`,
          });
          ctx.bus.emit('cache:changed', { entity: 'data', count: records });
          return { rows: records };
        },
      });
      return { jobId: job.jobId };
    },
  };
}
