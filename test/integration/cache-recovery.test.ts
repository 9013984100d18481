import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileOf, resetCache, startCore, type Core } from '../../electron/core/console-core.js';
import { damageSecondHalf } from '../helpers/damage.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are loose JSON */

/**
 * The open path reads no more than the schema; the full check runs in the background after an
 * unclean shutdown. A damaged cache must still end in the same clear recovery path.
 */
const cores: Core[] = [];
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
});
async function core(dataDir: string, messages: string[] = []) {
  const log = { info: (m: string) => messages.push(m), error: (m: string) => messages.push(m) };
  const c = await startCore({ dataDir, host: 'browser', appVersion: 'test', log, sandbox: { seed: 5, consents: 3000 } });
  cores.push(c);
  return c;
}
const close = async (c: Core) => {
  await c.close();
  cores.splice(cores.indexOf(c), 1);
};

describe('cache integrity and recovery', () => {
  it('checks nothing after a clean close; after an unclean one finds damage in the background and gives the recovery path', async () => {
    const dataDir = tempDir();
    const first = await core(dataDir);
    await first.sync({ data: false }); // consents and events only: events are the last pages written
    await close(first);
    const file = cacheFileOf(dataDir, 'sandbox');
    expect(readdirSync(join(dataDir, 'profiles', 'sandbox')).filter((f) => f.includes('.open-'))).toEqual([]);

    const messages: string[] = [];
    const clean = await core(dataDir, messages);
    expect(((await clean.router.handle('app:status', {}, true)) as any).value.consentCount).toBe(3000);
    await close(clean);
    expect(messages.filter((m) => /checking every page/.test(m))).toEqual([]);

    // The disk fails, and the last process that had the cache open was killed.
    damageSecondHalf(file);
    writeFileSync(`${file}.open-999999999`, 'a process that is gone');
    const after = await core(dataDir, messages);
    expect(messages.some((m) => /checking every page in the background/.test(m))).toBe(true);
    await expect
      .poll(async () => ((await after.router.handle('app:status', {}, true)) as any).value?.lastSyncError ?? '', { timeout: 20_000 })
      .toMatch(/is damaged .*Move it aside .*sync again/);
    expect(await after.router.handle('sync:start', {}, true)).toMatchObject({
      ok: false,
      error: { code: 'CACHE', message: expect.stringMatching(/Move it aside .*sync again/) },
    });
    await close(after);

    // Reading a damaged page (events were written last: the second half) answers with the recovery path, not an internal error.
    const reader = await core(dataDir);
    expect(await reader.router.handle('events:failures', { page: 1, pageSize: 50 }, true)).toMatchObject({
      ok: false,
      error: { code: 'CACHE', message: expect.stringMatching(/is damaged .*Move it aside .*sync again/) },
    });
    await close(reader);

    // The recovery path works: moved aside, a new cache syncs again.
    expect(existsSync(resetCache(dataDir)!)).toBe(true);
    const fresh = await core(dataDir);
    await fresh.sync();
    expect(((await fresh.router.handle('app:status', {}, true)) as any).value).toMatchObject({ consentCount: 3000, lastSyncError: null });
  }, 60_000);
});
