import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Runs a task of worker.ts on a worker thread: the full integrity check and the sync's writes run
 * there, so the main thread (IPC, the UI's reads) is never blocked by them. Electron's
 * utilityProcess would also do, but a worker thread runs the same under plain Node (browser host,
 * command line, tests).
 *
 * In the bundled app this module lives in dist/electron/main.cjs and the worker is
 * dist/electron/worker.cjs beside it; from source (tsx, vitest) the worker is worker.ts, loaded
 * through tsx's loader, registered inside the worker.
 */
export interface WorkerMessage {
  type: string;
  [key: string]: unknown;
}

export interface RunningTask<R> {
  /** The task's result; rejects with the task's error (name, message and fields kept). */
  result: Promise<R>;
  send(message: WorkerMessage): void;
  /** Ends the worker now (closing the app); the result then rejects unless it was already there. */
  stop(): void;
}

function spawn(workerData: unknown): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./worker.cjs', here), { workerData });
  // tsx's ESM API (its "import" export of tsx/esm/api) registers its loader inside the worker.
  const tsx = dirname(createRequire(here).resolve('tsx/package.json'));
  const loader = pathToFileURL(join(tsx, 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', here).href;
  const code = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData });
}

export function runTask<R>(task: string, data: unknown, onMessage?: (message: WorkerMessage) => void): RunningTask<R> {
  const worker = spawn({ task, data });
  const result = new Promise<R>((resolve, reject) => {
    let settled = false;
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'done') {
        settled = true;
        resolve(m.result as R);
      } else if (m.type === 'failed') {
        settled = true;
        const { name, message, ...fields } = m.error as { name: string; message: string };
        reject(Object.assign(new Error(message), fields, { name }));
      } else onMessage?.(m);
    });
    worker.on('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`The ${task} worker stopped (exit code ${code}) before it finished.`));
    });
  });
  result.catch(() => undefined); // a caller that stops the task may never look at its result
  return { result, send: (message) => worker.postMessage(message), stop: () => void worker.terminate() };
}
