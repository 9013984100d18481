import type { SyncSummary } from '../../../shared/ipc/contract.js';
import type { SyncEngine, SyncMessage } from '../sync/port.js';
import { revive, type SyncJob } from '../sync/sync-job.js';
import { WorkerThread } from './host.js';

/**
 * The SQLite adapter's sync engine: the sync runs on a worker thread with its own connection to the
 * cache file, started at the first sync: its fetching, parsing and large write transactions never
 * hold up the UI's reads or an action. `startThread` makes the thread (a test's, to end it).
 */
export function workerSyncEngine(
  base: Omit<SyncJob, 'full' | 'data' | 'consentIds'>,
  startThread: () => WorkerThread = () => new WorkerThread(),
): SyncEngine {
  let thread: WorkerThread | undefined;
  return {
    run(request, onMessage) {
      // A thread that ended (its sync ran out of memory, or it was terminated) is replaced: the
      // failed sync said why; the next one starts afresh instead of waiting on a dead thread.
      if (!thread?.alive) thread = startThread();
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
