import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/core/cache/database.js';
import { runSyncJob } from '../../electron/core/cache/sqlite-sync-store.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import type { SyncSummary } from '../../shared/ipc/contract.js';
import { tempDir } from '../helpers/temp.js';
import { dataRecordCount, expectEqualToTruth, readTruth, syncJobFor, type Truth } from '../helpers/truth.js';

/**
 * A flaky intermediary must not stop a sync. Every kind of fault the sandbox offers, on every path
 * the sync calls (the token endpoint included): the nine that fail a request at 1.11% each (10% of
 * requests fail), latency on 1% more. The sync completes in ONE attempt, reports no failure,
 * counts one retry per faulted request, and the cache ends equal to the sandbox's own state
 * (consents, events, use cases, data holders, and the Data API records).
 */
const FAILING = ['500', '502', '503', '429=1', 'drop', 'malformed', 'truncated', 'reset', 'drop-after'];
const SPEC = ['latency=40:p0.01', ...FAILING.map((k) => `${k}:p0.0111`)].join(',');
/**
 * The sync's retries as they are (how many), with waits a tenth as long (30 ms doubling, not 300):
 * what is tested is that each fault is retried and survived, not how long the sync waits.
 */
const QUICK = { baseDelayMs: 30, maxDelayMs: 800 };
const quick = (url: string, file: string, extra: Parameters<typeof syncJobFor>[2]) => {
  const job = syncJobFor(url, file, { ...extra, retry: QUICK });
  return { ...job, tokens: { ...job.tokens, retry: QUICK } };
};

let sandbox: RunningSandbox;
let truth: Truth;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 47, consents: 1000 });
  truth = await readTruth(sandbox.url, { data: true });
}, 60_000);
afterAll(() => sandbox.close());

interface Status {
  faultsFired: Record<string, number>;
  requests: number;
  faulted: number;
}
const admin = async (method: string, path: string, body?: unknown) =>
  (await fetch(`${sandbox.url}/__sandbox${path}`, { method, ...(body ? { body: JSON.stringify(body) } : {}) })).json() as Promise<Status>;

describe('sync under injected faults', () => {
  it('completes in one attempt under 10% faults of every kind, equal to the truth, with its retries reported', async () => {
    expect(truth.consents.size).toBe(1000);
    expect(dataRecordCount(truth)).toBeGreaterThan(1000);
    const file = join(tempDir(), 'cache.sqlite');
    const db = openCache(file, undefined, { writer: true });
    const before = await admin('GET', '/status');
    await admin('POST', '/faults', { spec: SPEC });
    let summary: SyncSummary;
    try {
      // Small pages, so the sync makes several hundred requests.
      summary = await runSyncJob(quick(sandbox.url, file, { pageSize: 25, data: true }), db, {
        signal: new AbortController().signal,
        onProgress() {},
        onStored() {},
      });
    } finally {
      await admin('DELETE', '/faults');
    }
    const after = await admin('GET', '/status');
    const requests = after.requests - before.requests;
    const faulted = after.faulted - before.faulted;
    const fired = Object.fromEntries(Object.entries(after.faultsFired).map(([k, n]) => [k, n - (before.faultsFired[k] ?? 0)]));
    console.info(
      `sync under faults: ${requests} requests, ${faulted} faulted (${JSON.stringify(fired)}), ${summary.retries} retries, failures ${summary.failures.length}`,
    );

    expect(summary.failures).toEqual([]);
    expect(summary.consents.new).toBe(1000);
    // Faults really were injected, of most kinds, and each faulted request was retried once.
    expect(requests).toBeGreaterThan(600);
    expect(faulted).toBeGreaterThan(requests * 0.06);
    expect(Object.entries(fired).filter(([k, n]) => k !== 'latency' && n > 0).length).toBeGreaterThanOrEqual(7);
    expect(summary.retries).toBe(faulted);
    expectEqualToTruth(db, truth);
    db.close();
  }, 180_000);

  it('a page that still fails after the retries fails its phase with a clear reason; the other parts complete; the next sync resumes', async () => {
    const file = join(tempDir(), 'cache.sqlite');
    const db = openCache(file, undefined, { writer: true });
    const job = quick(sandbox.url, file, { pageSize: 100 });
    const hooks = { signal: new AbortController().signal, onProgress() {}, onStored() {} };
    // Page 3 of the consents answers 503 every time (6 attempts and then some).
    await admin('POST', '/faults', { spec: '503:n8:/consents/v2?page=3&' });
    let first: SyncSummary;
    try {
      first = await runSyncJob(job, db, hooks);
    } finally {
      await admin('DELETE', '/faults');
    }
    expect(first.failures).toEqual([
      { phase: 'consents', reason: expect.stringMatching(/^GET \/consents\/v2 answered 503 .*gave up after 6 attempts/) },
    ]);
    expect(first.retries).toBe(5);
    // The events, use cases and data holders completed all the same.
    expect(first.events.new).toBe(truth.eventIds.size);
    expect(first.useCases).toBe(truth.useCaseIds.length);
    expect(first.dataHolders).toBe(truth.dataHolderIds.length);
    expect(db.prepare('SELECT count(*) AS n FROM consents').get()).toEqual({ n: 200 });
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: truth.eventIds.size });

    const second = await runSyncJob(job, db, hooks);
    expect(second).toMatchObject({ failures: [], resumed: true, mode: 'full', retries: 0, consents: { new: 800 } });
    expectEqualToTruth(db, { ...truth, data: undefined });
    db.close();
  }, 120_000);
});
