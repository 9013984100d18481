import type { SyncSummary } from '../../../shared/ipc/contract.js';
import type { SyncEngine, SyncMessage } from '../sync/port.js';
import { revive, type SyncJob } from '../sync/sync-job.js';
import { JobProcess, type WorkerThread } from './host.js';

/**
 * How long the sync's process is kept after a sync, for a next one asked at once (a consent's own
 * sync after an action). Then it ends, and the memory it used with it: a sync at 100,000 consents
 * and 1,000,000 events peaks near 280 MiB. A new one starts in a fraction of a second at the next
 * sync (15 minutes later by default).
 */
export const SYNC_PROCESS_IDLE_MS = 5_000;

/** Where a sync runs: its own process (JobProcess), or a worker thread (tests that end one under a sync). */
type SyncRunner = Pick<WorkerThread, 'alive' | 'run' | 'close'>;

/**
 * The SQLite adapter's sync engine: the sync runs in a process of its own (JobProcess) with its own
 * connection to the cache file, started at a sync and ended once idle (SYNC_PROCESS_IDLE_MS): its
 * fetching, parsing and large write transactions never hold up the UI's reads or an action, and its
 * memory goes back to the machine when it ends. `startThread` makes where it runs (a test's, to end
 * it).
 */
export function workerSyncEngine(
  base: Omit<SyncJob, 'full' | 'data' | 'consentIds'>,
  startThread: () => SyncRunner = () => new JobProcess(),
  idleMs = SYNC_PROCESS_IDLE_MS,
): SyncEngine {
  let thread: SyncRunner | undefined;
  let running = 0;
  let idle: NodeJS.Timeout | undefined;
  const closeWhenIdle = () => {
    if (running > 0 || !thread) return;
    const idleThread = thread;
    idle = setTimeout(() => {
      idle = undefined;
      if (running > 0 || thread !== idleThread) return;
      thread = undefined;
      void idleThread.close();
    }, idleMs);
    idle.unref();
  };
  return {
    run(request, onMessage) {
      if (idle) clearTimeout(idle);
      idle = undefined;
      // A thread that ended (its sync ran out of memory, or it was terminated) is replaced: the
      // failed sync said why; the next one starts afresh instead of waiting on a dead thread.
      if (!thread?.alive) thread = startThread();
      running++;
      const job = thread.run<SyncSummary>('sync', { ...base, ...request } satisfies SyncJob, (m) => onMessage(m as unknown as SyncMessage));
      void job.result
        .catch(() => undefined)
        .finally(() => {
          running--;
          closeWhenIdle();
        });
      return {
        result: job.result.catch((error: Error) => {
          throw revive(error);
        }),
        cancel: (reason) => job.send({ type: 'cancel', reason }),
      };
    },
    close: async () => {
      if (idle) clearTimeout(idle);
      idle = undefined;
      const last = thread;
      thread = undefined;
      await last?.close();
    },
  };
}
