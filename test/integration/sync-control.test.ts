import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetCache, startCore, type Core } from '../../electron/core/console-core.js';
import { prefetch } from '../../electron/core/sync/prefetch.js';
import type { SyncProgress } from '../../shared/ipc/contract.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are loose JSON */

const quiet = { info() {}, error() {} };
const cores: Core[] = [];
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
});
async function core(opts: { consents: number; dataDir?: string; syncEveryMinutes?: number }) {
  const c = await startCore({
    dataDir: opts.dataDir ?? tempDir(),
    host: 'browser',
    appVersion: 'test',
    log: quiet,
    sandbox: { seed: 71, consents: opts.consents },
    ...(opts.syncEveryMinutes ? { syncEveryMinutes: opts.syncEveryMinutes } : {}),
  });
  cores.push(c);
  return c;
}

describe('sync control', () => {
  it('reports rate and ETA with progress; cancels on request, keeps what was stored, and resumes next time', async () => {
    const c = await core({ consents: 5000 });
    // Slow every consent page down so there is time to cancel mid-way.
    await fetch(`${c.sandboxUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ spec: 'latency=150:p1:/consents/v2' }) });
    const progress: SyncProgress[] = [];
    c.events.subscribe((event, payload) => {
      if (event !== 'sync:progress') return;
      progress.push(payload as SyncProgress);
      if ((payload as SyncProgress).phase === 'consents' && (payload as SyncProgress).done === 1000)
        void c.router.handle('sync:cancel', {}, true);
    });
    const first = await c.router.handle('sync:start', {}, true);
    expect(first).toMatchObject({ ok: false, error: { code: 'CANCELLED', message: expect.stringMatching(/stored so far is kept/) } });
    expect(progress.at(-1)).toMatchObject({ state: 'cancelled' });
    const running = progress.find((p) => p.state === 'running' && p.done > 0)!;
    expect(running.rate).toBeGreaterThan(0);
    expect(running.etaSeconds).toEqual(expect.any(Number));
    const stored = ((await c.router.handle('app:status', {}, true)) as any).value.consentCount;
    expect(stored).toBeGreaterThanOrEqual(1000);
    expect(stored).toBeLessThan(5000);

    await fetch(`${c.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
    const second = await c.router.handle('sync:start', {}, true);
    expect(second).toMatchObject({ ok: true, value: { resumed: true } });
    expect(((await c.router.handle('app:status', {}, true)) as any).value.consentCount).toBe(5000);
    expect(await c.router.handle('sync:cancel', {}, true)).toEqual({ ok: true, value: { cancelled: false } });
  }, 60_000);

  it('refreshes the Data API records of chosen consents only', async () => {
    const c = await core({ consents: 80 });
    await c.sync({ data: false }); // no Data API records yet (the embedded sandbox's default would fetch them all)
    const active = (await c.router.handle(
      'consents:list',
      { filter: { statuses: ['ACTIVE'] }, offset: 0, limit: 100, sort: { field: 'created', direction: 'desc' } },
      true,
    )) as any;
    const id = active.value.rows.find((r: any) => r.useCaseName === 'Budgeting insights').consentId;
    const r = (await c.router.handle('sync:start', { consentIds: [id] }, true)) as any;
    expect(r.ok).toBe(true);
    expect(r.value.data.accounts).toBeGreaterThan(0);
    const all = (await c.router.handle('data:list', { kind: 'accounts', page: 1, pageSize: 500 }, true)) as any;
    expect(all.value.rows.every((row: any) => row.consentId === id)).toBe(true);
  });

  it('syncs on a schedule without being asked', async () => {
    const c = await core({ consents: 20, syncEveryMinutes: 0.002 });
    await expect
      .poll(async () => ((await c.router.handle('app:status', {}, true)) as any).value.lastSyncAt, { timeout: 10_000 })
      .not.toBeNull();
    expect(((await c.router.handle('app:status', {}, true)) as any).value.consentCount).toBe(20);
  });

  it('moves a cache aside on reset, and starts again empty', async () => {
    const dataDir = tempDir();
    const c = await core({ consents: 15, dataDir });
    await c.sync();
    await c.close();
    cores.splice(cores.indexOf(c), 1);
    const moved = resetCache(dataDir);
    expect(moved && existsSync(moved)).toBe(true);
    expect(
      readdirSync(join(dataDir, 'profiles', 'sandbox')).some((f) => f.startsWith('cache.sqlite.corrupt-') || f.includes('cache.sqlite.')),
    ).toBe(true);
    const fresh = await core({ consents: 15, dataDir });
    expect(((await fresh.router.handle('app:status', {}, true)) as any).value.consentCount).toBe(0);
    expect(resetCache(tempDir())).toBeUndefined();
  });
});

describe('prefetch', () => {
  it('keeps order, stays one item ahead, and surfaces errors in order', async () => {
    const log: string[] = [];
    async function* source() {
      for (let i = 1; i <= 3; i++) {
        log.push(`fetch ${i}`);
        yield i;
      }
      throw new Error('page 4 failed');
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of prefetch(source())) {
          log.push(`store ${n}`);
          seen.push(n);
        }
      })(),
    ).rejects.toThrow('page 4 failed');
    expect(seen).toEqual([1, 2, 3]);
    // Page 2 is fetched before page 1 is stored: fetching and storing overlap, by one.
    expect(log.slice(0, 3)).toEqual(['fetch 1', 'fetch 2', 'store 1']);
  });
});
