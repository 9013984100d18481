import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetCache, startCore, type Core } from '../../electron/core/console-core.js';
import { createFileLogger } from '../../electron/core/log.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- IPC answers are read loosely */

/**
 * Everything in the data directory is readable by its owner only, whatever the umask: after a
 * sync, an action, exports written into the data directory and a cache moved aside, every folder
 * is 0700 and every file 0600 — the cache and its -wal/-shm, the anchor, profiles.json, the vault,
 * settings, the operator, logs, exports. Files an earlier version left 0644 are fixed on open.
 */
const everything = (dir: string) => {
  const out: { path: string; mode: number; dir: boolean }[] = [];
  const walk = (p: string) => {
    const s = lstatSync(p);
    out.push({ path: relative(dir, p) || '.', mode: s.mode & 0o777, dir: s.isDirectory() });
    if (s.isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
  };
  walk(dir);
  return out;
};

const wrong = (dir: string) =>
  everything(dir)
    .filter((f) => f.mode !== (f.dir ? 0o700 : 0o600))
    .map((f) => `${f.path} ${f.mode.toString(8)}`);

let previousUmask: number;
beforeAll(() => {
  // The usual desktop umask, which made the cache 0644 before.
  previousUmask = process.umask(0o022);
});
afterAll(() => void process.umask(previousUmask));

describe('the data directory is owner-only', () => {
  it('after a sync, a revocation, exports, the operator, settings and a cache reset, under umask 022', async () => {
    const dataDir = tempDir('cdr-perms-');
    const core: Core = await startCore({
      dataDir,
      host: 'browser',
      appVersion: '0.0.0-test',
      log: createFileLogger(dataDir),
      sandbox: { seed: 3, consents: 40, clockOrigin: '2026-11-01T00:00:00.000Z' },
    });
    let closed = false;
    try {
      const ok = async (channel: string, input: unknown) => {
        const r: any = await core.router.handle(channel, input, true);
        expect(r.ok, JSON.stringify(r.error)).toBe(true);
        return r.value;
      };
      await core.sync();
      const active = core.cache.query.list({
        filter: { statuses: ['ACTIVE'] },
        sort: { field: 'created', direction: 'desc' },
        offset: 0,
        limit: 1,
      })[0]!;
      expect((await ok('consents:revoke', { consentId: active.consentId, reason: 'ticket 42' })).outcome).toBe('revoked');
      await ok('operator:set', { displayName: 'Perm Tester' });
      await ok('settings:set', { theme: 'dark' });
      const job = (await ok('audit:exportFile', { filter: {}, format: 'csv' })).jobId;
      await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === job)?.state).toBe('finished');
      const exportJob = (
        await ok('consents:export', {
          filter: {},
          sort: { field: 'created', direction: 'desc' },
          columns: ['consentId', 'status'],
          format: 'json',
        })
      ).jobId;
      await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === exportJob)?.state).toBe('finished');
      // The cache is open, in WAL mode: its -wal and -shm exist now.
      const profileDir = join(dataDir, 'profiles', 'sandbox');
      expect(readdirSync(profileDir)).toEqual(
        expect.arrayContaining(['cache.sqlite', 'cache.sqlite-wal', 'cache.sqlite-shm', 'cache.sqlite.audit-anchor']),
      );
      expect(readdirSync(join(dataDir, 'exports')).length).toBe(2);
      expect(wrong(dataDir)).toEqual([]);
      await core.close();
      closed = true;
    } finally {
      if (!closed) await core.close();
    }
    const names = everything(dataDir).map((f) => f.path);
    for (const expected of ['profiles.json', 'secrets.json', 'keys/master.key', 'logs/console.log', 'profiles/sandbox/cache.sqlite'])
      expect(names).toContain(expected);
    expect(wrong(dataDir)).toEqual([]);
    // A cache reset moves the cache and its anchor aside; the next open starts a new one.
    const moved = resetCache(dataDir, 'sandbox')!;
    const again = await startCore({
      dataDir,
      host: 'cli',
      appVersion: '0.0.0-test',
      log: createFileLogger(dataDir),
      sandbox: { seed: 3, consents: 40, clockOrigin: '2026-11-01T00:00:00.000Z' },
    });
    expect(await again.stores.audit.verify()).toEqual({ ok: true, entries: 0 });
    await again.close();
    expect(names.length).toBeLessThan(everything(dataDir).length);
    expect(everything(dataDir).map((f) => f.path)).toContain(relative(dataDir, `${moved}.audit-anchor`));
    expect(wrong(dataDir)).toEqual([]);
  }, 120_000);

  it('files and folders an earlier version left readable by others are fixed when the console opens', async () => {
    const dataDir = tempDir('cdr-perms-old-');
    // Made as an earlier version (or a copy) would have: folders 0755, files 0644.
    const profileDir = join(dataDir, 'profiles', 'sandbox');
    mkdirSync(profileDir, { recursive: true });
    mkdirSync(join(dataDir, 'logs'));
    writeFileSync(join(dataDir, 'logs', 'console.log'), 'old line\n');
    writeFileSync(join(profileDir, 'cache.sqlite.corrupt-2026-01-01T00-00-00-000Z'), 'moved aside long ago');
    chmodSync(dataDir, 0o755);
    chmodSync(profileDir, 0o755);
    chmodSync(join(dataDir, 'logs', 'console.log'), 0o644);
    chmodSync(join(profileDir, 'cache.sqlite.corrupt-2026-01-01T00-00-00-000Z'), 0o644);
    expect(wrong(dataDir).length).toBeGreaterThan(0);
    const core = await startCore({
      dataDir,
      host: 'cli',
      appVersion: '0.0.0-test',
      log: createFileLogger(dataDir),
      sandbox: { seed: 3, consents: 10, clockOrigin: '2026-11-01T00:00:00.000Z' },
    });
    await core.close();
    expect(wrong(dataDir)).toEqual([]);
    expect(statSync(join(profileDir, 'cache.sqlite')).mode & 0o777).toBe(0o600);
  }, 120_000);
});
