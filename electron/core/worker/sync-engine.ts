import type { SyncSummary } from '../../../shared/ipc/contract.js';
import type { SyncEngine, SyncMessage } from '../sync/port.js';
import { revive, type SyncJob } from '../sync/sync-job.js';
import { WorkerThread } from './host.js';

/**
 * The SQLite adapter's sync engine: the sync runs on a worker thread with its own connection to the
 * cache file, started at the first sync: its fetching, parsing and large write transactions never
 * hold up the UI's reads or an action.
 */
export function workerSyncEngine(base: Omit<SyncJob, 'full' | 'data' | 'consentIds'>): SyncEngine {
  let thread: WorkerThread | undefined;
  return {
    run(request, onMessage) {
      thread ??= new WorkerThread();
      const job = thread.run<SyncSummary>('sync', { ...base, ...request } satisfies SyncJob, (m) => onMessage(m as unknown as SyncMessage));
      return {
        result: job.result.catch((error: Error) => {
          throw revive(error);
        }),
        cancel: (reason) => job.send({ type: 'cancel', reason }),
      };
    },
    close: async () => thread?.close(),
  };
}
