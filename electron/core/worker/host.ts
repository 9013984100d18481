import { fork, type ChildProcess, type Serializable } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Checkpointer } from '../sync/batch.js';

/**
 * Runs jobs of worker.ts on a worker thread: the sync (fetching, parsing, writing) and the full
 * integrity check run there (and the sync's checkpoints on a second one, CheckpointThread below),
 * so the main thread (IPC, the UI's reads, actions) is never blocked by them. Electron's
 * utilityProcess would also do, but a worker thread runs the same under plain Node (browser host,
 * command line, tests) and shares the process's credentials without IPC.
 *
 * In the bundled app this module lives in dist/electron/main.cjs and the worker is
 * dist/electron/worker.cjs beside it; from source (tsx, vitest) the worker is worker.ts, loaded
 * through tsx's loader, registered inside the worker.
 */
export interface WorkerMessage {
  type: string;
  [key: string]: unknown;
}

export interface Job<R> {
  /** The job's result; rejects with the job's error (name, message and fields kept). */
  result: Promise<R>;
  /** A message to the running job (e.g. cancel). */
  send(message: WorkerMessage): void;
}

/**
 * The sync parses a page of a thousand records at a time and lets most of it go at once: a young
 * generation of 16 MiB (V8's default grows it to 48) collects that as often as needed and keeps
 * the process's peak memory lower: at 100,000 consents and 1,000,000 events, a peak of 274–281 MiB
 * instead of 299 (the same sync time within the machine's noise).
 *
 * The old generation's limit is 1 GiB, not the process's (a quarter of the machine's memory, here
 * 4 GiB and more): below 2 GiB, V8 lets a heap grow by 1.3–2× what survived its last collection
 * instead of 4×. The sync thread keeps ~25 MiB alive (its code, the page under way); with the
 * process's limit its heap grew to 60–85 MiB of mostly garbage, with this one it stays at 40–45.
 * Node 24's peak for the 100k/1M sync 343–367 → 287–300 MiB by this alone (283–286 with limits of
 * 128–256 MiB), with 8 % more collections and no slower sync measurable on this machine. 1 GiB is
 * forty times what the thread holds: a sync that ever needed more would fail with an error, as it
 * would at the process's limit.
 */
const resourceLimits = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 1024 };

function spawn(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./worker.cjs', here), { resourceLimits });
  // tsx's ESM API (its "import" export of tsx/esm/api) registers its loader inside the worker.
  const tsx = dirname(createRequire(here).resolve('tsx/package.json'));
  const loader = pathToFileURL(join(tsx, 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', here).href;
  const code = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, resourceLimits });
}

/**
 * The same limits for a process of its own (V8's flags): a young generation of 16 MiB (two
 * semi-spaces of 8) and an old generation of 1 GiB.
 */
const processLimits = ['--max-semi-space-size=8', `--max-old-space-size=${resourceLimits.maxOldGenerationSizeMb}`];

/** worker.ts (or the build's worker.cjs) in a child process of this Node (or Electron, run as Node). */
function forkJobProcess(): ChildProcess {
  const here = import.meta.url;
  const fromSource = here.endsWith('.ts');
  const entry = fileURLToPath(new URL(fromSource ? './worker.ts' : './worker.cjs', here));
  return fork(entry, [], {
    execArgv: [...processLimits, ...(fromSource ? ['--import', 'tsx'] : [])],
    // Electron's own binary runs the script as Node.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onEvent: ((message: WorkerMessage) => void) | undefined;
}

/** What a job runner needs of where worker.ts runs: a thread, or a process. */
interface Transport {
  readonly what: string;
  send(message: unknown): void;
  onMessage(listener: (message: WorkerMessage & { id: number }) => void): void;
  onError(listener: (error: Error) => void): void;
  onExit(listener: (code: number | null) => void): void;
  ref(): void;
  unref(): void;
  terminate(): void;
}

/**
 * Runs jobs of worker.ts, one at a time or several, where it runs (a thread, a process); it keeps
 * its state (an open cache) between them.
 */
class JobRunner {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly exited: Promise<void>;
  private ended = false;

  constructor(private readonly transport: Transport) {
    transport.onMessage((m) => {
      const job = this.pending.get(m.id);
      if (!job) return;
      if (m.type === 'done') {
        this.pending.delete(m.id);
        job.resolve(m.result);
      } else if (m.type === 'failed') {
        this.pending.delete(m.id);
        const { name, message, ...fields } = m.error as { name: string; message: string };
        job.reject(Object.assign(new Error(message), fields, { name }));
      } else job.onEvent?.(m);
    });
    this.exited = new Promise((resolve) => {
      const fail = (error: Error) => {
        for (const job of this.pending.values()) job.reject(error);
        this.pending.clear();
      };
      transport.onError(fail);
      transport.onExit((code) => {
        this.ended = true;
        fail(new Error(`The ${transport.what} stopped (exit code ${code}) before its job finished.`));
        resolve();
      });
    });
    // Idle, it must not keep the process alive (a command line that forgot to close still ends).
    transport.unref();
  }

  /** False once it has ended (closed, terminated, or stopped by an error such as running out of memory). */
  get alive(): boolean {
    return !this.ended;
  }

  run<R>(task: string, data: unknown, onEvent?: (message: WorkerMessage) => void): Job<R> {
    // A message to an ended thread is dropped without a word: the job would wait for ever.
    if (this.ended)
      return { result: Promise.reject(new Error(`The ${this.transport.what} has ended: start a new one.`)), send: () => undefined };
    const id = this.nextId++;
    const result = new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onEvent });
    });
    this.transport.ref();
    void result.finally(() => this.pending.size === 0 && this.transport.unref()).catch(() => undefined);
    this.transport.send({ type: 'run', id, task, data });
    return { result, send: (message) => this.transport.send({ type: 'message', id, message }) };
  }

  /** Lets the worker close what it holds (its cache connection), then ends it. */
  async close(graceMs = 5_000): Promise<void> {
    if (this.ended) return;
    this.transport.send({ type: 'close' });
    const timer = setTimeout(() => this.transport.terminate(), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Ends it at once (a job that is not needed any more). */
  terminate(): void {
    this.transport.terminate();
  }
}

/** worker.ts on a worker thread of this process. */
export class WorkerThread extends JobRunner {
  constructor() {
    const worker = spawn();
    super({
      what: 'worker thread',
      send: (message) => worker.postMessage(message),
      onMessage: (listener) => worker.on('message', listener),
      onError: (listener) => worker.on('error', listener),
      onExit: (listener) => worker.on('exit', listener),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
      terminate: () => void worker.terminate(),
    });
  }
}

/**
 * worker.ts in a child process: the sync's. A process hands all its memory back when it ends; a
 * thread that ended left its memory allocator's pages resident in the process (glibc keeps a
 * thread's arena for the next thread): at 100,000 consents and 1,000,000 events the browser host
 * kept ~200 MiB of native memory after a sync on a thread, closed or not.
 */
export class JobProcess extends JobRunner {
  /** The process's id (undefined when it could not be started: its jobs fail, saying why). */
  readonly pid: number | undefined;

  constructor() {
    const child = forkJobProcess();
    super({
      what: 'sync process',
      send: (message) => {
        // A message to a process that has gone (its 'exit' fails the jobs) is dropped.
        if (child.connected) child.send(message as Serializable);
      },
      onMessage: (listener) => child.on('message', listener as (m: Serializable) => void),
      onError: (listener) => child.on('error', listener),
      onExit: (listener) => child.on('exit', (code, signal) => listener(code ?? (signal ? -1 : null))),
      ref: () => {
        child.ref();
        (child.channel as { ref?: () => void } | null | undefined)?.ref?.();
      },
      unref: () => {
        child.unref();
        (child.channel as { unref?: () => void } | null | undefined)?.unref?.();
      },
      terminate: () => void child.kill('SIGKILL'),
    });
    this.pid = child.pid;
  }
}

/** A single job on a worker thread of its own, ended when the job is. */
export function runTask<R>(task: string, data: unknown): { result: Promise<R>; stop(): void } {
  const thread = new WorkerThread();
  const job = thread.run<R>(task, data);
  void job.result.finally(() => thread.close()).catch(() => undefined);
  job.result.catch(() => undefined); // a caller that stops the task may never look at its result
  return { result: job.result, stop: () => thread.terminate() };
}

/**
 * The code of the checkpoint thread: the SQLite driver and one connection, nothing of the console's
 * bundle (a WorkerThread running worker.cjs would add 35 MiB of memory to the sync, this 10).
 */
const CHECKPOINT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
parentPort.on('message', (m) => {
  if (m === 'close') {
    if (db) db.close();
    parentPort.close();
    return;
  }
  try {
    if (!db) {
      db = new Database(workerData.file, { fileMustExist: true });
      for (const statement of workerData.pragmas) db.pragma(statement);
    }
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
  }
});
`;

/**
 * The sync's checkpoints on a thread of their own, started at the first one: copying 128 MB of WAL
 * into the database takes 0.3–0.6 s, during which the sync's thread goes on parsing and writing.
 * `pragmas` open the cache with its key (database.ts keyPragmas).
 */
export class CheckpointThread implements Checkpointer {
  private worker: Worker | undefined;
  private waiting: { resolve(): void; reject(error: Error): void } | undefined;

  constructor(
    private readonly file: string,
    private readonly pragmas: string[],
  ) {}

  checkpoint(): Promise<void> {
    if (this.waiting) return Promise.reject(new Error('A checkpoint is already under way.'));
    const worker = (this.worker ??= this.spawn());
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      worker.ref();
      worker.postMessage('checkpoint');
    });
  }

  /** After the checkpoint under way, if any: its connection is closed before the thread ends. */
  async close(graceMs = 5_000): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    const timer = setTimeout(() => void worker.terminate(), graceMs);
    await exited;
    clearTimeout(timer);
  }

  private spawn(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers');
    const worker = new Worker(CHECKPOINT_CODE, {
      eval: true,
      workerData: { driver, file: this.file, pragmas: this.pragmas },
      resourceLimits,
    });
    const settle = (error?: Error) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      worker.unref();
      if (error) waiting?.reject(error);
      else waiting?.resolve();
    };
    worker.on('message', (m: { ok: boolean; message?: string }) =>
      settle(m.ok ? undefined : new Error(`The checkpoint failed: ${m.message}`)),
    );
    worker.on('error', (error) => settle(error));
    worker.on('exit', (code) => {
      settle(new Error(`The checkpoint thread stopped (exit code ${code}).`));
      this.worker = undefined;
    });
    worker.unref();
    return worker;
  }
}
