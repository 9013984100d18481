import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobProcess, WorkerThread } from '../../electron/core/worker/host.js';
import { workerSyncEngine } from '../../electron/core/worker/sync-engine.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { tempDir } from '../helpers/temp.js';
import { syncJobFor } from '../helpers/truth.js';

/**
 * The sync's worker thread can end under a sync (it ran out of memory: its old generation has a
 * limit of its own, host.ts; or it was terminated). The sync that was running fails and says so;
 * the next sync runs on a new thread instead of waiting for ever on the ended one.
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ consents: 40, eventsPerConsent: 2 });
});
afterAll(async () => {
  await sandbox?.close();
});

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('the sync engine and its worker thread', () => {
  it('a job given to an ended thread fails at once with a clear error', async () => {
    const thread = new WorkerThread();
    expect(thread.alive).toBe(true);
    thread.terminate();
    await until(() => !thread.alive);
    expect(thread.alive).toBe(false);
    await expect(thread.run('integrity', { file: join(tempDir(), 'none.sqlite') }).result).rejects.toThrow(/worker thread has ended/);
  });

  it('a sync after the thread ended runs on a new thread and stores what the intermediary holds', async () => {
    const threads: WorkerThread[] = [];
    const file = join(tempDir(), 'cache.sqlite');
    const engine = workerSyncEngine(syncJobFor(sandbox.url, file, { key: randomBytes(32).toString('hex') }), () => {
      const thread = new WorkerThread();
      threads.push(thread);
      return thread;
    });
    try {
      const first = await engine.run({}, () => undefined).result;
      expect(first.consents.fetched).toBe(40);
      // The thread ends under a running sync: that sync fails and says the thread stopped.
      const running = engine.run({ full: true }, () => undefined);
      threads[0]!.terminate();
      await expect(running.result).rejects.toThrow(/worker thread stopped/);
      await until(() => !threads[0]!.alive);

      const again = await engine.run({ full: true }, () => undefined).result;
      expect(threads).toHaveLength(2);
      expect(again.failures).toEqual([]);
      expect(again.consents.fetched).toBe(40);
    } finally {
      await engine.close();
    }
  });

  it('the sync runs in a process of its own, which ends once idle (its memory with it); the next sync starts another', async () => {
    const processes: JobProcess[] = [];
    const file = join(tempDir(), 'cache.sqlite');
    const idleMs = 300;
    const engine = workerSyncEngine(
      syncJobFor(sandbox.url, file, { key: randomBytes(32).toString('hex') }),
      () => {
        const p = new JobProcess();
        processes.push(p);
        return p;
      },
      idleMs,
    );
    const exists = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      const first = await engine.run({}, () => undefined).result;
      expect(first.consents.fetched).toBe(40);
      const pid = processes[0]!.pid!;
      expect(pid).not.toBe(process.pid);
      expect(exists(pid)).toBe(true);
      // A sync asked within the idle time reuses it.
      await engine.run({}, () => undefined).result;
      expect(processes).toHaveLength(1);
      await until(() => !processes[0]!.alive);
      expect(processes[0]!.alive).toBe(false);
      await until(() => !exists(pid));
      expect(exists(pid)).toBe(false);

      const again = await engine.run({ full: true }, () => undefined).result;
      expect(processes).toHaveLength(2);
      expect(again.failures).toEqual([]);
      expect(again.consents.fetched).toBe(40);
    } finally {
      await engine.close();
    }
  });
});
