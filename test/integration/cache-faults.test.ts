import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/core/cache/database.js';
import { cacheFileOf, resetCache, startCore, type Core } from '../../electron/core/console-core.js';
import { runSyncJob } from '../../electron/core/cache/sqlite-sync-store.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { ipcClient } from '../helpers/ipc.js';
import { openRemoteCache, writeRemoteProfile } from '../helpers/remote.js';
import { tempDir } from '../helpers/temp.js';
import { expectEqualToTruth, readTruth, syncJobFor, type Truth } from '../helpers/truth.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * What the console does when things around the sync go wrong: the access token expires mid-sync;
 * the intermediary cannot be reached at all; the disk holding the cache fills up; the cache file
 * is read-only; the cache's first page is overwritten. Each time: a clear error or none, nothing
 * corrupted, and the way back works.
 */
const quiet = { info() {}, error() {} };
let sandbox: RunningSandbox;
let truth: Truth;
const cores: Core[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 71, consents: 1500 });
  truth = await readTruth(sandbox.url);
}, 60_000);
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
  await sandbox.close();
});
async function remoteCore(dataDir: string): Promise<Core> {
  const core = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, clientSecret: 'sandbox-secret' });
  cores.push(core);
  return core;
}
async function closeCore(core: Core) {
  cores.splice(cores.indexOf(core), 1);
  await core.close();
}
/** A data directory whose "remote" profile has synced the sandbox once, closed again; and its cache file. */
async function syncedCache(): Promise<{ dataDir: string; file: string }> {
  const dataDir = tempDir();
  writeRemoteProfile(dataDir, sandbox.url);
  const core = await remoteCore(dataDir);
  await core.sync();
  await closeCore(core);
  return { dataDir, file: cacheFileOf(dataDir, 'remote') };
}
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const hooks = () => ({ signal: new AbortController().signal, onProgress() {}, onStored() {} });

/** Root can mount (a tmpfs, a read-only bind): the real thing. Elsewhere the fallbacks below. */
function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = tempDir('cdr-mount-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const mountable = canMount();

describe('the access token expires in the middle of a sync', () => {
  it('renews it once and completes, equal to the sandbox', async () => {
    const file = join(tempDir(), 'cache.sqlite');
    const db = openCache(file, undefined, { writer: true });
    const before = ((await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as any).requests.length;
    let expired = 0;
    const summary = await runSyncJob(syncJobFor(sandbox.url, file, { pageSize: 200 }), db, {
      ...hooks(),
      onProgress(p) {
        // As the events start, every token the sandbox issued runs out.
        if (p.phase === 'events' && p.done === 0 && !expired) expired = sandbox.expireTokens();
      },
    });
    expect(expired).toBeGreaterThanOrEqual(1);
    expect(summary.failures).toEqual([]);
    const requests = ((await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as any).requests.slice(before) as string[];
    expect(requests.filter((r) => r === 'POST /oauth2/token')).toHaveLength(2);
    expectEqualToTruth(db, truth);
    db.close();
  }, 60_000);
});

describe('the intermediary cannot be reached', () => {
  it('reads keep working from the cache; sync and actions are refused saying why; nothing changes', async () => {
    const gone = await startSandbox({ seed: 72, consents: 60 });
    const dataDir = tempDir();
    writeRemoteProfile(dataDir, gone.url);
    const core = await remoteCore(dataDir);
    const { raw, ok } = ipcClient(() => core);
    await core.sync();
    await gone.close();

    const list = await ok('consents:list', { filter: {}, offset: 0, limit: 100, sort: { field: 'created', direction: 'asc' } });
    expect(list.rows).toHaveLength(60);
    const active = list.rows.find((r: any) => r.status === 'ACTIVE');
    const detail = await ok('consents:get', { consentId: active.consentId });
    expect(detail.consent.status).toBe('ACTIVE');
    expect((await ok('events:count', { filter: {} })).total).toBeGreaterThan(0);
    expect((await ok('consents:count', { filter: { statuses: ['ACTIVE'] } })).total).toBeGreaterThan(0);

    expect(await raw('sync:start', {})).toMatchObject({
      ok: false,
      error: { code: 'OFFLINE', message: expect.stringMatching(/could not be reached/) },
    });
    expect(await raw('consents:revoke', { consentId: active.consentId, reason: 'Customer asked' })).toMatchObject({
      ok: false,
      error: { code: 'OFFLINE', message: expect.stringMatching(/You are offline: the revocation was not sent\. Nothing was changed/) },
    });
    expect(await raw('consents:update', { consentId: active.consentId, change: { externalId: 'X-1' }, reason: 'merge' })).toMatchObject({
      ok: false,
      error: { code: 'OFFLINE', message: expect.stringMatching(/You are offline: the update was not sent/) },
    });
    expect(await ok('app:status', {})).toMatchObject({
      online: false,
      consentCount: 60,
      lastSyncError: expect.stringMatching(/could not be reached/),
    });
    const after = await ok('consents:get', { consentId: active.consentId });
    expect(after.consent).toEqual(detail.consent);
    expect(after.audit.map((a: any) => [a.action, a.result.slice(0, 23)])).toEqual([
      ['revoke', 'failed: You are offline'],
      ['update', 'failed: You are offline'],
    ]);
    await closeCore(core);
  }, 60_000);
});

describe('the disk holding the cache is full', () => {
  it('(SQLite at its page limit) the sync stops with a clear error, keeps what it committed, and completes once there is room', async () => {
    const file = join(tempDir(), 'cache.sqlite');
    const db = openCache(file, undefined, { writer: true });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    // Room for the schema and a few hundred consents: the disk is "full" well before the end.
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + Math.ceil(400_000 / pageSize)}`);
    const job = syncJobFor(sandbox.url, file, { pageSize: 100, batch: { rows: 100, ms: 60_000 } });
    const error = await runSyncJob(job, db, hooks()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SQLITE_FULL' });
    expect(db.inTransaction).toBe(false);
    const stored = (db.prepare('SELECT count(*) AS n FROM consents').get() as { n: number }).n;
    expect(stored).toBeGreaterThan(0);
    expect(stored % 100).toBe(0); // whole pages only
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    db.pragma('max_page_count = 1073741823');
    expect(await runSyncJob(job, db, hooks())).toMatchObject({ failures: [], resumed: true });
    expectEqualToTruth(db, truth);
    db.close();
  }, 60_000);

  it.skipIf(!mountable)(
    '(a real 2 MB file system) the console says the disk is full, reads go on, nothing is corrupted, and the sync completes once there is room',
    async () => {
      const dataDir = tempDir('cdr-full-');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', dataDir]);
      try {
        writeRemoteProfile(dataDir, sandbox.url);
        const core = await remoteCore(dataDir);
        const { raw, ok } = ipcClient(() => core);
        const failed = await raw('sync:start', {});
        expect(failed).toMatchObject({
          ok: false,
          error: {
            code: 'CACHE',
            message: expect.stringMatching(/The disk holding the cache .* is full: .*kept intact\. Free some space and sync again/),
          },
        });
        expect(await ok('app:status', {})).toMatchObject({ lastSyncError: expect.stringMatching(/is full/) });
        // Reads still answer from whatever was stored.
        const count = (await ok('consents:count', { filter: {} })).total;
        expect(count).toBeLessThan(1500);
        await closeCore(core);

        // Room again: the cache is intact, opens, and the next sync completes from where it stopped.
        execFileSync('mount', ['-o', 'remount,size=64m', dataDir]);
        const db = openRemoteCache(dataDir);
        expect(db.pragma('quick_check', { simple: true })).toBe('ok');
        db.close();
        const again = await remoteCore(dataDir);
        expect((await again.sync()).failures).toEqual([]);
        await closeCore(again);
        const synced = openRemoteCache(dataDir);
        expectEqualToTruth(synced, truth);
        synced.close();
      } finally {
        execFileSync('umount', [dataDir]);
      }
    },
    90_000,
  );
});

describe('the cache file cannot be written', () => {
  it('is refused at start with a clear reason (not "damaged"), the file is left byte for byte, and it opens again once writable', async () => {
    const { dataDir, file } = await syncedCache();
    const profileDir = join(dataDir, 'profiles', 'remote');
    const before = sha256(file);

    // Root ignores file modes: a read-only bind mount of the profile's folder. Others: chmod.
    let restore: () => void;
    if (mountable) {
      execFileSync('mount', ['--bind', profileDir, profileDir]);
      execFileSync('mount', ['-o', 'remount,bind,ro', profileDir]);
      restore = () => execFileSync('umount', [profileDir]);
    } else {
      chmodSync(file, 0o400);
      chmodSync(profileDir, 0o500);
      restore = () => {
        chmodSync(profileDir, 0o700);
        chmodSync(file, 0o600);
      };
    }
    try {
      const refused = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, clientSecret: 'sandbox-secret' }).catch(
        (e: unknown) => e,
      );
      expect(refused).toMatchObject({
        name: 'CacheError',
        reason: 'read-only',
        message: expect.stringMatching(/cannot be written: the file, its folder or its disk is read-only\. Nothing was changed/),
      });
      expect((refused as Error).message).not.toMatch(/damaged|Move it aside/);
    } finally {
      restore();
    }
    expect(sha256(file)).toBe(before);
    const reopened = await remoteCore(dataDir);
    expect((await ipcClient(() => reopened).ok('app:status', {})).consentCount).toBe(1500);
    await closeCore(reopened);
  }, 60_000);
});

describe('a cache whose first page is overwritten', () => {
  it('is detected when opened, with the recovery path; moved aside, a new cache syncs equal to the sandbox', async () => {
    const { dataDir, file } = await syncedCache();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(512, 0x41), 0, 512, 1024);
    closeSync(fd);

    const refused = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, clientSecret: 'sandbox-secret' }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({
      name: 'CacheError',
      message: expect.stringMatching(
        /cannot be read: it is damaged.*Move it aside .*cache reset.* and sync again; nothing on the intermediary is lost/,
      ),
    });
    // The recovery path: moved aside (kept, not deleted), then a fresh cache.
    const aside = resetCache(dataDir, 'remote')!;
    expect(existsSync(aside)).toBe(true);
    expect(existsSync(file)).toBe(false);
    mkdirSync(join(dataDir, 'profiles', 'remote'), { recursive: true });
    const fresh = await remoteCore(dataDir);
    expect((await fresh.sync()).failures).toEqual([]);
    await closeCore(fresh);
    const db = openRemoteCache(dataDir);
    expectEqualToTruth(db, truth);
    db.close();
  }, 60_000);
});
