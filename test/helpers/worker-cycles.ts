/**
 * A child process for runtime-abort.test.ts: drives the sync's worker thread and its checkpoint
 * helper through many start/stop cycles against a sandbox, the pattern that aborted the console on
 * Node 24 with the 12.x driver (`Assertion failed: (env) != nullptr` when a statement's finalizer
 * ran after its worker's environment was gone). Each cycle ends its threads a different way:
 * closed after the sync, terminated in the middle of it, closed in the middle of it, and an
 * integrity check's thread ended at once. Garbage is collected between cycles (run with
 * --expose-gc) so finalizers run while threads come and go.
 *
 *   node --expose-gc --import tsx test/helpers/worker-cycles.ts CYCLES DIR
 *
 * Prints one line per cycle and `cycles: N done` at the end; any abort ends the process with a
 * signal instead.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { keyPragmas, openCache } from '../../electron/core/cache/database.js';
import type { SyncJob } from '../../electron/core/sync/sync-job.js';
import { CheckpointThread, runTask, WorkerThread } from '../../electron/core/worker/host.js';
import { startSandbox } from '../../electron/sandbox/server.js';

const cycles = Number(process.argv[2] ?? 20);
const dir = process.argv[3];
if (!dir || !Number.isInteger(cycles) || cycles < 1) {
  console.error('usage: worker-cycles.ts CYCLES DIR');
  process.exit(2);
}
const collect = () => (globalThis as { gc?: () => void }).gc?.();

const sandbox = await startSandbox({ seed: 31, consents: 400, eventsPerConsent: 5 });
const key = randomBytes(32).toString('hex');
const job = (file: string): SyncJob => ({
  file,
  key,
  tokens: {
    tokenUrl: `${sandbox.url}/oauth2/token`,
    clientId: 'sandbox-client',
    clientSecret: 'sandbox-secret',
    method: 'client_secret_basic',
    scopes: [],
  },
  consentApiBaseUrl: sandbox.url,
  dataApiBaseUrl: sandbox.url,
  full: true,
  pageSize: 100,
  // A small threshold: the checkpoint helper starts and is asked many times in every sync.
  batch: { rows: 100, ms: 60_000, checkpointAboveBytes: 64 * 1024 },
});

try {
  for (let i = 0; i < cycles; i++) {
    const file = join(dir, `cache-${i % 3}.sqlite`);
    const way = (['closed after the sync', 'terminated mid-sync', 'closed mid-sync', 'integrity thread'] as const)[i % 4]!;
    if (way === 'integrity thread') {
      const task = runTask<unknown>('integrity', { file: join(dir, 'cache-0.sqlite'), key });
      if (i % 8 === 3) task.stop();
      else await task.result;
      // The helper on its own, opened and closed around one checkpoint.
      const helper = new CheckpointThread(join(dir, 'cache-0.sqlite'), keyPragmas(key));
      await helper.checkpoint();
      await helper.close();
    } else {
      const thread = new WorkerThread();
      const run = thread.run<{ failures: unknown[] }>('sync', job(file));
      run.result.catch(() => undefined);
      if (way === 'closed after the sync') {
        const summary = await run.result;
        if (summary.failures.length) throw new Error(`cycle ${i}: the sync failed: ${JSON.stringify(summary.failures)}`);
        await thread.close();
      } else {
        await sleep(20 + ((i * 37) % 180));
        if (way === 'terminated mid-sync') thread.terminate();
        else await thread.close(200);
      }
    }
    collect();
    console.log(`cycle ${i + 1}: ${way}`);
  }
  // The caches the threads left behind still open and read (a killed sync resumes from them).
  for (let n = 0; n < Math.min(3, cycles); n++) {
    const db = openCache(join(dir, `cache-${n}.sqlite`), key);
    db.prepare('SELECT count(*) FROM consents').get();
    db.close();
  }
  collect();
  console.log(`cycles: ${cycles} done`);
} finally {
  await sandbox.close();
}
