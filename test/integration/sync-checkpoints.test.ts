import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyPragmas, openCache } from '../../electron/core/cache/database.js';
import type { Checkpointer } from '../../electron/core/sync/batch.js';
import { BatchWriter } from '../../electron/core/cache/batch-writer.js';
import type { SyncSummary } from '../../shared/ipc/contract.js';
import { CheckpointThread, WorkerThread } from '../../electron/core/worker/host.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { tempDir } from '../helpers/temp.js';
import { expectEqualToTruth, readTruth, syncJobFor, type Truth } from '../helpers/truth.js';

/**
 * The sync copies its WAL into the database on a thread of its own (batch.ts, CheckpointThread):
 * the WAL stays small, nothing is lost, and when the helper cannot work the sync's own thread
 * copies instead.
 */
const walSize = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
const THRESHOLD = 256 * 1024;

/** A helper's checkpointer that counts its calls, keeps its failure, and gives the last call's answer. */
function watched(thread: CheckpointThread) {
  const seen = { asked: 0, failed: undefined as Error | undefined, last: Promise.resolve() as Promise<unknown> };
  const checkpointer: Checkpointer = {
    checkpoint: () => {
      seen.asked++;
      const call = thread.checkpoint().catch((error: Error) => {
        seen.failed = error;
        throw error;
      });
      seen.last = call.catch(() => undefined);
      return call;
    },
  };
  return { checkpointer, seen };
}

/** 60 transactions of 50 rows of 2 KB (about 6 MB) through a BatchWriter; the WAL's largest size. */
async function writeRows(file: string, key: string, helper: ReturnType<typeof watched> | undefined, checkpointAboveBytes = THRESHOLD) {
  const db = openCache(file, key, { writer: true });
  const batch = new BatchWriter(db, { rows: 50, ms: 60_000, checkpointAboveBytes }, () => undefined, helper?.checkpointer);
  const put = db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?)');
  let largest = 0;
  for (let page = 0; page < 60; page++) {
    batch.write('rows', () => {
      for (let i = 0; i < 50; i++) put.run(`row-${page}-${i}`, randomBytes(1000).toString('hex'));
      return { result: undefined, rows: 50, changed: 50 };
    });
    largest = Math.max(largest, walSize(file));
    // The sync waits for its next page here. The test also waits for the helper's last answer, so
    // the WAL's size does not depend on how fast a loaded machine starts a thread.
    await sleep(5);
    await helper?.seen.last;
  }
  await batch.finish();
  // Everything was copied: a checkpoint now finds nothing left.
  const [left] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
  db.close();
  return { largest, left: left! };
}

const rowsIn = (file: string, key: string) => {
  const db = openCache(file, key, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM sync_state WHERE key LIKE 'row-%'").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('checkpoints on a helper thread', () => {
  it('keep the WAL a fraction of what the sync writes, and every row reaches the database', async () => {
    const key = randomBytes(32).toString('hex');
    const unchecked = join(tempDir(), 'cache.sqlite');
    const without = await writeRows(unchecked, key, undefined, Number.POSITIVE_INFINITY);

    const file = join(tempDir(), 'cache.sqlite');
    const thread = new CheckpointThread(file, keyPragmas(key));
    const helper = watched(thread);
    const withHelper = await writeRows(file, key, helper);
    await thread.close();

    expect(helper.seen.asked).toBeGreaterThanOrEqual(2);
    expect(helper.seen.failed).toBeUndefined();
    expect(without.largest).toBeGreaterThan(5 * 2 ** 20);
    expect(withHelper.largest).toBeLessThan(without.largest / 3);
    expect(withHelper.left.log).toBe(withHelper.left.checkpointed);
    expect(rowsIn(file, key)).toBe(3000);
  });

  it('fall back to the sync’s own thread when the helper cannot open the cache', async () => {
    const key = randomBytes(32).toString('hex');
    const file = join(tempDir(), 'cache.sqlite');
    // Another key: the helper's connection reads garbage ("file is not a database").
    const thread = new CheckpointThread(file, keyPragmas(randomBytes(32).toString('hex')));
    const helper = watched(thread);
    const written = await writeRows(file, key, helper);
    await thread.close();

    expect(helper.seen.failed?.message).toMatch(/checkpoint failed: .*not a database/i);
    expect(helper.seen.asked).toBe(1); // then never again
    expect(written.largest).toBeLessThan(2 * 2 ** 20);
    expect(written.left.log).toBe(written.left.checkpointed);
    expect(rowsIn(file, key)).toBe(3000);
  });

  it('a helper never started closes at once', async () => {
    await new CheckpointThread(join(tempDir(), 'none.sqlite'), []).close();
  });
});

describe('a sync on the worker thread with a small checkpoint threshold', () => {
  let sandbox: RunningSandbox;
  let truth: Truth;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 23, consents: 1500, eventsPerConsent: 6 });
    truth = await readTruth(sandbox.url);
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('ends equal to the sandbox with nothing left to copy, its helper raising no warning', async () => {
    const key = randomBytes(32).toString('hex');
    const file = join(tempDir(), 'cache.sqlite');
    const thread = new WorkerThread();
    const warnings: string[] = [];
    try {
      const job = thread.run<SyncSummary>(
        'sync',
        syncJobFor(sandbox.url, file, { key, pageSize: 200, batch: { rows: 400, ms: 60_000, checkpointAboveBytes: THRESHOLD } }),
        (m) => void (m.type === 'warning' && warnings.push(String(m.message))),
      );
      const summary = await job.result;
      expect(summary.failures).toEqual([]);
      // The helper thread started in the worker and every checkpoint it was given succeeded.
      expect(warnings).toEqual([]);
    } finally {
      await thread.close();
    }
    const db = openCache(file, key);
    try {
      expectEqualToTruth(db, truth);
      const [left] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
      expect(left!.log).toBe(left!.checkpointed);
    } finally {
      db.close();
    }
  }, 120_000);
});
