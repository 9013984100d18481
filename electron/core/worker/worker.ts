import { parentPort } from 'node:worker_threads';
import { checkIntegrity, keyPragmas, openCache, type Db } from '../cache/database.js';
import type { SyncJob } from '../sync/sync-job.js';
import { runSyncJob } from '../cache/sqlite-sync-store.js';
import { CheckpointThread } from './host.js';

/**
 * The entry of a worker thread or a child process (see host.ts): runs the jobs it is sent and
 * reports their results. It keeps one connection per cache file open between jobs, the connection
 * the sync writes with.
 */
type Incoming = { type: string; id?: number; task?: string; data?: unknown; message?: { type: string } };
interface Port {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: Incoming) => void): void;
  close(): void;
}
/** A child process's channel to its parent, as a thread's port. */
const processPort: Port = {
  // The parent gone (killed: its end of the channel closed), the job's messages have no reader, and
  // the job no point: the process ends, its cache writes committed or rolled back as after a kill.
  postMessage: (message) => {
    if (!process.connected) return process.exit(0);
    process.send?.(message, undefined, {}, (error) => error && process.exit(0));
  },
  on: (event, listener) => void process.on(event, listener as (message: unknown) => void),
  // Its cache connections closed: nothing is left to do.
  close: () => process.exit(0),
};
if (!parentPort) {
  if (!process.send) throw new Error('worker.ts runs as a worker thread or a child process with an IPC channel.');
  // The parent is gone (ended, or killed): so is the point of this process.
  process.on('disconnect', () => process.exit(0));
}
const port: Port = parentPort
  ? { postMessage: (m) => parentPort!.postMessage(m), on: (e, l) => void parentPort!.on(e, l), close: () => parentPort!.close() }
  : processPort;
const connections = new Map<string, Db>();
const listeners = new Map<number, (message: { type: string; [k: string]: unknown }) => void>();

function connection(file: string, key?: string): Db {
  let db = connections.get(file);
  if (!db) {
    db = openCache(file, key, { writer: true });
    connections.set(file, db);
  }
  return db;
}

interface Context {
  emit(message: { type: string; [k: string]: unknown }): void;
  onMessage(listener: (message: { type: string; [k: string]: unknown }) => void): void;
}

const jobs: Record<string, (data: never, ctx: Context) => Promise<unknown>> = {
  integrity: async ({ file, key }: { file: string; key?: string }) => {
    const problem = checkIntegrity(file, key);
    return problem ? { reason: problem.reason, message: problem.message } : null;
  },
  sync: async (job: SyncJob, ctx) => {
    const controller = new AbortController();
    ctx.onMessage((m) => m.type === 'cancel' && controller.abort(new Error(String(m.reason ?? 'cancelled'))));
    const helper = new CheckpointThread(job.file, job.key ? keyPragmas(job.key) : []);
    // The sync goes on without the helper (its own thread copies), but the log says why.
    const checkpointer = {
      checkpoint: () =>
        helper.checkpoint().catch((error: Error) => {
          ctx.emit({ type: 'warning', message: `checkpoints moved back to the sync's thread: ${error.message}` });
          throw error;
        }),
    };
    try {
      return await runSyncJob(job, connection(job.file, job.key), {
        signal: controller.signal,
        onProgress: (progress) => ctx.emit({ type: 'progress', progress }),
        onStored: (entity, count) => ctx.emit({ type: 'stored', entity, count }),
        checkpointer,
      });
    } finally {
      await helper.close();
    }
  },
};

port.on('message', (m) => {
  if (m.type === 'close') {
    for (const db of connections.values()) db.close();
    connections.clear();
    port.close();
    return;
  }
  if (m.type === 'message') return listeners.get(m.id!)?.(m.message!);
  if (m.type !== 'run') return;
  const id = m.id!;
  const ctx: Context = {
    emit: (message) => port.postMessage({ ...message, id }),
    onMessage: (listener) => listeners.set(id, listener),
  };
  const job = jobs[m.task!];
  const run = job ? job(m.data as never, ctx) : Promise.reject(new Error(`unknown worker job ${m.task}`));
  run
    .then(
      (result) => port.postMessage({ type: 'done', id, result }),
      (error: Error) => port.postMessage({ type: 'failed', id, error: { ...error, name: error.name, message: error.message } }),
    )
    .finally(() => listeners.delete(id));
});
