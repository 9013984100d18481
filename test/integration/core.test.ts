import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/console-core.js';
import type { Logger } from '../../electron/core/log.js';
import { startSandbox } from '../../electron/sandbox/server.js';
import type { SyncProgress, SyncSummary } from '../../shared/ipc/contract.js';
import { writeRemoteProfile } from '../helpers/remote.js';
import { tempDir } from '../helpers/temp.js';

const quiet: Logger = { info: () => undefined, error: () => undefined };
const cores: Core[] = [];
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
});

async function core(dataDir: string, consents: number, seed = 1): Promise<Core> {
  const c = await startCore({ dataDir, host: 'browser', appVersion: '0.0.0-test', log: quiet, sandbox: { seed, consents } });
  cores.push(c);
  return c;
}

describe('console core on the embedded sandbox', () => {
  it('syncs every consent into the cache, reports progress, and lists them paged and sorted', async () => {
    const dataDir = tempDir();
    const c = await core(dataDir, 1234);
    const progress: SyncProgress[] = [];
    const changes: number[] = [];
    c.events.subscribe((event, payload) => {
      if (event === 'sync:progress') progress.push(payload as SyncProgress);
      if (event === 'cache:changed' && (payload as { entity: string }).entity === 'consents')
        changes.push((payload as { count: number }).count);
    });

    const before = await c.router.handle('app:status', {}, true);
    expect(before).toMatchObject({
      ok: true,
      value: { lastSyncAt: null, online: false, consentCount: 0, profile: { id: 'sandbox', environment: 'sandbox' } },
    });

    const summary = await c.sync();
    expect(summary.consents).toEqual({ fetched: 1234, new: 1234, changed: 0, unchanged: 0 });
    const consentProgress = progress.filter((p) => p.phase === 'consents');
    expect(consentProgress.at(-1)).toMatchObject({ state: 'finished', done: 1234, total: 1234 });
    expect(consentProgress.some((p) => p.state === 'running' && p.done > 0 && p.done < 1234)).toBe(true);
    // Events, use cases and data holders come along in the same sync, and (the embedded sandbox's
    // default, so a first run shows Products and Data) the Data API records of active consents.
    expect(summary.events.new).toBeGreaterThan(1234);
    expect(summary).toMatchObject({ useCases: 4, dataHolders: 13, failures: [], resumed: false });
    expect(progress.filter((p) => p.state === 'finished').map((p) => p.phase)).toEqual([
      'consents',
      'events',
      'use-cases',
      'data-holders',
      'data',
    ]);
    expect(summary.data).toMatchObject({ accounts: expect.any(Number), transactions: expect.any(Number), products: 60 });
    expect(summary.data!.accounts).toBeGreaterThan(0);
    expect(changes.reduce((a, b) => a + b, 0)).toBe(1234);

    const status = await c.router.handle('app:status', {}, true);
    expect(status).toMatchObject({ ok: true, value: { online: true, consentCount: 1234, lastSyncError: null } });

    const page = await c.router.handle(
      'consents:list',
      { filter: {}, offset: 1000, limit: 500, sort: { field: 'created', direction: 'asc' } },
      true,
    );
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    const value = page.value as { rows: { created: string; consumerEmail: string }[] };
    expect(await c.router.handle('consents:count', { filter: {} }, true)).toMatchObject({ ok: true, value: { total: 1234 } });
    expect(value.rows).toHaveLength(234);
    const created = value.rows.map((r) => r.created);
    expect(created).toEqual([...created].sort());

    const cacheFile = join(dataDir, 'profiles', 'sandbox', 'cache.sqlite');
    expect(existsSync(cacheFile)).toBe(true);
    // CDR data is encrypted at rest: no consumer e-mail appears in the cache or its WAL.
    const someEmail = (value as { rows: { consumerEmail: string }[] }).rows[0]!.consumerEmail;
    for (const f of [cacheFile, `${cacheFile}-wal`].filter(existsSync)) {
      const bytes = readFileSync(f);
      expect(bytes.includes(Buffer.from(someEmail))).toBe(false);
      expect(bytes.includes(Buffer.from('@example.com'))).toBe(false);
    }
    expect(existsSync(join(dataDir, 'profiles.json'))).toBe(true);
  });

  it('converges on a second sync (nothing new, nothing changed) and refuses a concurrent one', async () => {
    const c = await core(tempDir(), 300);
    expect(await c.sync()).toMatchObject({ mode: 'full', consents: { fetched: 300, new: 300 } });
    // Nothing changed: the events feed says so, and nothing is read again but the newest consents.
    const [a, b] = await Promise.all([c.router.handle('sync:start', {}, true), c.router.handle('sync:start', {}, true)]);
    expect(a).toMatchObject({ ok: true, value: { mode: 'incremental', consents: { new: 0, changed: 0 }, events: { new: 0 } } });
    expect((a as { value: SyncSummary }).value.consents.fetched).toBeLessThan(30);
    expect(b).toMatchObject({ ok: false, error: { code: 'BUSY' } });
    // A full reconcile reads every consent and finds nothing to change.
    expect(await c.sync({ full: true })).toMatchObject({ mode: 'full', consents: { fetched: 300, new: 0, changed: 0, unchanged: 300 } });
  });

  it('keeps two data directories apart', async () => {
    const one = await core(tempDir(), 40, 1);
    const two = await core(tempDir(), 60, 2);
    await Promise.all([one.sync(), two.sync()]);
    const count = async (c: Core) =>
      ((await c.router.handle('app:status', {}, true)) as { value: { consentCount: number } }).value.consentCount;
    expect(await count(one)).toBe(40);
    expect(await count(two)).toBe(60);
  });

  it('says precisely why a sync failed: unreachable intermediary, wrong secret', async () => {
    const sandbox = await startSandbox({ consents: 5 });
    const dead = await startSandbox();
    await dead.close();
    try {
      const dataDir = tempDir();
      const remote = (id: string, url: string) => ({
        id,
        name: id,
        environment: 'nonprod',
        consentApiBaseUrl: url,
        tokenUrl: `${url}/oauth2/token`,
        clientId: 'sandbox-client',
        clientAuth: { method: 'client_secret_basic' },
      });
      writeFileSync(
        join(dataDir, 'profiles.json'),
        JSON.stringify({ version: 1, defaultProfileId: 'down', profiles: [remote('down', dead.url), remote('wrong-secret', sandbox.url)] }),
      );
      const down = await startCore({
        dataDir,
        host: 'browser',
        appVersion: '0',
        log: quiet,
        profileId: 'down',
        clientSecret: 'sandbox-secret',
      });
      cores.push(down);
      expect(await down.router.handle('sync:start', {}, true)).toMatchObject({
        ok: false,
        error: { code: 'OFFLINE', message: expect.stringMatching(/could not be reached/) },
      });
      expect(await down.router.handle('app:status', {}, true)).toMatchObject({
        ok: true,
        value: { online: false, lastSyncError: expect.stringMatching(/could not be reached/) },
      });

      const wrong = await startCore({
        dataDir,
        host: 'browser',
        appVersion: '0',
        log: quiet,
        profileId: 'wrong-secret',
        clientSecret: 'not-it',
      });
      cores.push(wrong);
      const result = await wrong.router.handle('sync:start', {}, true);
      expect(result).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED', message: expect.stringContaining('invalid_client') } });
      expect(JSON.stringify(result)).not.toContain('not-it');
      expect(await wrong.router.handle('app:status', {}, true)).toMatchObject({ ok: true, value: { online: true } });
    } finally {
      await sandbox.close();
    }
  });

  it('refuses to start a real profile without its secret, saying which', async () => {
    const dataDir = tempDir();
    writeFileSync(
      join(dataDir, 'profiles.json'),
      JSON.stringify({
        version: 1,
        defaultProfileId: 'prod',
        profiles: [
          {
            id: 'prod',
            name: 'Production',
            environment: 'prod',
            consentApiBaseUrl: 'https://x.example',
            tokenUrl: 'https://x.example/t',
            clientId: 'c',
            clientAuth: { method: 'client_secret_basic' },
          },
        ],
      }),
    );
    await expect(startCore({ dataDir, host: 'browser', appVersion: '0', log: quiet })).rejects.toThrow(
      /Profile "prod" has no client secret: add it in Settings, or set CDR_CONSOLE_CLIENT_SECRET for this run\./,
    );
  });
});

describe('Data API records in a sync', () => {
  it('the embedded sandbox fetches them unless the user turned it off; an intermediary only once the user turns it on', async () => {
    // The embedded sandbox: on by default, and the user's choice wins.
    const embedded = await core(tempDir(), 40);
    const syncData = async (c: Core) =>
      ((await c.router.handle('settings:get', {}, true)) as { value: { syncData: boolean } }).value.syncData;
    expect(await syncData(embedded)).toBe(true);
    expect((await embedded.sync()).data?.accounts).toBeGreaterThan(0);
    await embedded.router.handle('settings:set', { syncData: false }, true);
    expect((await embedded.sync()).data).toBeUndefined();

    // A real intermediary's profile (here a sandbox on its own): off until the user turns it on.
    const sandbox = await startSandbox({ seed: 9, consents: 40 });
    try {
      const dataDir = tempDir();
      writeRemoteProfile(dataDir, sandbox.url);
      const remote = await startCore({ dataDir, host: 'browser', appVersion: '0', log: quiet, clientSecret: 'sandbox-secret' });
      cores.push(remote);
      expect(await syncData(remote)).toBe(false);
      const first = await remote.sync();
      expect(first.failures).toEqual([]);
      expect(first.data).toBeUndefined();
      await remote.router.handle('settings:set', { syncData: true }, true);
      expect((await remote.sync()).data?.accounts).toBeGreaterThan(0);
      // An explicit choice in the call wins over the setting (the command line's sync without --data).
      expect((await remote.sync({ data: false })).data).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});

describe('the embedded sandbox keeps its state in the data directory', () => {
  it('a consent revoked in the sandbox is still revoked after the console restarts', async () => {
    const dataDir = tempDir();
    const first = await startCore({ dataDir, host: 'browser', appVersion: '0', log: quiet, sandbox: { consents: 30 } });
    await first.sync();
    const token = await (await import('../helpers/temp.js')).tokenFor(first.sandboxUrl!);
    const list = (await (
      await fetch(`${first.sandboxUrl}/consents/v2?status=ACTIVE`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { consents: { consentId: string }[] };
    const id = list.consents[0]!.consentId;
    expect(
      (await fetch(`${first.sandboxUrl}/consents/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    await first.close();

    const second = await startCore({ dataDir, host: 'browser', appVersion: '0', log: quiet, sandbox: { consents: 30 } });
    cores.push(second);
    await second.sync();
    const page = await second.router.handle(
      'consents:list',
      { filter: {}, offset: 0, limit: 100, sort: { field: 'status', direction: 'desc' } },
      true,
    );
    expect(page.ok && (page.value as { rows: { consentId: string; status: string }[] }).rows.find((r) => r.consentId === id)?.status).toBe(
      'REVOKED',
    );
  });
});

describe('partial failures', () => {
  it('reports a failing phase with its reason while the other parts complete', async () => {
    const c = await core(tempDir(), 40);
    await fetch(`${c.sandboxUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ spec: '503:n20:/consents/events' }) });
    const summary = await c.sync();
    expect(summary.consents.new).toBe(40);
    expect(summary.useCases).toBe(4);
    expect(summary.failures).toEqual([{ phase: 'events', reason: expect.stringContaining('GET /consents/events answered 503') }]);
    const status = await c.router.handle('app:status', {}, true);
    expect(status).toMatchObject({
      ok: true,
      value: { lastSyncError: expect.stringContaining('events: GET /consents/events answered 503') },
    });
  }, 30_000);
});
