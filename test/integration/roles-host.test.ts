import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { Downloads } from '../../electron/host/downloads.js';
import { SESSION_COOKIE, startBrowserHost, type BrowserHost } from '../../electron/host/server.js';
import type { Caller, ConsentRow } from '../../shared/ipc/contract.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Roles over the real transport (issue 20): a browser host whose connections carry a person (the
 * `identify` hook team mode's sign-in implements; here, a test header names who). A viewer's
 * crafted revocation over the WebSocket is refused FORBIDDEN by the server, and the intermediary
 * (the embedded sandbox's request log) never sees a DELETE; a support agent's goes through.
 */
const PEOPLE: Record<string, Caller> = {
  vera: { userId: 'vera', displayName: 'Vera Viewer', role: 'viewer', method: 'test' },
  sam: { userId: 'sam', displayName: 'Sam Support', role: 'support', method: 'test' },
  cleo: { userId: 'cleo', displayName: 'Cleo Compliance', role: 'compliance', method: 'test' },
};

let core: Core;
let host: BrowserHost;
let origin: string;
let cookie: string;
let active: string[];
let downloads: Downloads;

beforeAll(async () => {
  const staticDir = join(tempDir(), 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>CDR Console</title>');
  downloads = new Downloads(join(tempDir(), 'downloads'));
  core = await startCore({
    dataDir: tempDir(),
    host: 'browser',
    appVersion: '0',
    log: { info() {}, error() {} },
    sandbox: { consents: 30 },
    files: downloads.sink(),
  });
  await core.sync();
  host = await startBrowserHost({
    router: core.router,
    events: core.events,
    staticDir,
    downloads,
    identify: (req) => PEOPLE[String(req.headers['x-test-person'])] ?? null,
  });
  origin = `http://127.0.0.1:${host.port}`;
  cookie = `${SESSION_COOKIE}=${host.token}`;
  // No identity: the core's own router, as the desktop calls it.
  const list = await core.router.handle(
    'consents:list',
    { filter: { statuses: ['ACTIVE'] }, sort: { field: 'created', direction: 'asc' }, offset: 0, limit: 10 },
    true,
  );
  active = (list as { ok: true; value: { rows: ConsentRow[] } }).value.rows.map((r) => r.consentId);
  expect(active.length).toBeGreaterThanOrEqual(3);
}, 60_000);
afterAll(async () => {
  await host?.close();
  await core?.close();
  downloads?.close();
});

function socket(person?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, {
      headers: { origin, cookie, ...(person ? { 'x-test-person': person } : {}) },
    });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

let nextId = 1;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as loose JSON in tests
type Loose = any;
function call(
  ws: WebSocket,
  channel: string,
  input: unknown,
): Promise<{ ok: boolean; value?: Loose; error?: { code: string; message: string } }> {
  const id = nextId++;
  return new Promise((resolve) => {
    ws.on('message', function onMessage(data) {
      const msg = JSON.parse(String(data));
      if (msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg.result);
      }
    });
    ws.send(JSON.stringify({ id, channel, input }));
  });
}

/** What reached the intermediary so far: "METHOD /path?query" (the sandbox's request log). */
async function requestLog(): Promise<string[]> {
  return ((await (await fetch(`${core.sandboxUrl}/__sandbox/requests`)).json()) as { requests: string[] }).requests;
}

describe('roles over the browser host', () => {
  it('refuses a connection the host identifies nobody on (a host that signs people in serves no one anonymously)', async () => {
    await expect(socket()).rejects.toThrow('upgrade refused: 401');
    await expect(socket('mallory')).rejects.toThrow('upgrade refused: 401');
  });

  it('tells each console who is signed in, and their role', async () => {
    const vera = await socket('vera');
    const sam = await socket('sam');
    try {
      expect((await call(vera, 'app:status', {})).value.user).toEqual(PEOPLE.vera);
      expect((await call(sam, 'app:status', {})).value.user).toEqual(PEOPLE.sam);
      // The desktop and the command line: nobody.
      const solo = await core.router.handle('app:status', {}, true);
      expect(solo.ok && 'user' in (solo.value as object)).toBe(false);
    } finally {
      vera.close();
      sam.close();
    }
  });

  it("refuses a viewer's crafted revocation FORBIDDEN, and the intermediary never sees a DELETE", async () => {
    const before = (await requestLog()).length;
    const ws = await socket('vera');
    try {
      // Reads are a viewer's.
      expect(await call(ws, 'consents:get', { consentId: active[0] })).toMatchObject({ ok: true });
      const revoke = await call(ws, 'consents:revoke', { consentId: active[0], reason: 'crafted by hand' });
      expect(revoke).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'Revoking needs the support role; you are a viewer.' } });
      const bulk = await call(ws, 'bulk:revoke', { consentIds: active, reason: 'crafted by hand' });
      expect(bulk).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'Revoking in bulk needs the support role; you are a viewer.' },
      });
      const update = await call(ws, 'consents:update', { consentId: active[0], change: { externalId: 'x' } });
      expect(update).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      // Even malformed, it is the role that answers: nothing of the request is looked at further.
      expect(await call(ws, 'consents:revoke', { consentId: 42 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      const exported = await call(ws, 'consents:export', {
        filter: {},
        sort: { field: 'created', direction: 'desc' },
        columns: ['consentId'],
        format: 'csv',
      });
      expect(exported).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'Exporting consents needs the compliance role; you are a viewer.' },
      });
      const log = (await requestLog()).slice(before);
      expect(log.filter((r) => r.startsWith('DELETE'))).toEqual([]);
      expect(log.filter((r) => !r.startsWith('GET'))).toEqual([]);
      // The consent is as it was, at the intermediary and in the cache.
      expect((await call(ws, 'consents:get', { consentId: active[0] })).value.consent.status).toBe('ACTIVE');
      expect((await call(ws, 'jobs:list', {})).value).toEqual([]);
    } finally {
      ws.close();
    }
  });

  it("carries out a support agent's revocation: one DELETE reaches the intermediary", async () => {
    const before = (await requestLog()).length;
    const ws = await socket('sam');
    try {
      const revoke = await call(ws, 'consents:revoke', { consentId: active[1], reason: 'customer asked by phone' });
      expect(revoke).toMatchObject({ ok: true, value: { outcome: 'revoked' } });
      const deletes = (await requestLog()).slice(before).filter((r) => r.startsWith('DELETE'));
      expect(deletes).toEqual([`DELETE /consents/${encodeURIComponent(active[1]!)}`]);
      // A support agent exports nothing: that is compliance's.
      expect(await call(ws, 'evidence:export', { consentId: active[1] })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'Exporting an evidence pack needs the compliance role; you are a support agent.' },
      });
    } finally {
      ws.close();
    }
  });

  it("keeps an export its exporter's: every console hears of the job, but only the exporter can take the file", async () => {
    const cleo = await socket('cleo');
    const vera = await socket('vera');
    try {
      const heard: string[] = [];
      vera.on('message', (data) => {
        const msg = JSON.parse(String(data));
        if (msg.event === 'jobs:progress' && msg.payload.result?.download) heard.push(msg.payload.result.download.url);
      });
      const finished = new Promise<string>((resolve) =>
        cleo.on('message', (data) => {
          const msg = JSON.parse(String(data));
          if (msg.event === 'jobs:progress' && msg.payload.state === 'finished') resolve(msg.payload.result.download.url);
        }),
      );
      const started = await call(cleo, 'consents:export', {
        filter: {},
        sort: { field: 'created', direction: 'desc' },
        columns: ['consentId', 'status'],
        format: 'csv',
      });
      expect(started).toMatchObject({ ok: true, value: { jobId: expect.any(String) } });
      const url = await finished;
      await expect.poll(() => heard).toContain(url);
      const get = (person: string) =>
        fetch(`${origin}${url}`, { headers: { cookie, 'x-test-person': person } }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        }));
      expect((await get('vera')).status).toBe(404);
      expect((await get('nobody')).status).toBe(404);
      const mine = await get('cleo');
      expect(mine.status).toBe(200);
      expect(mine.body.split('\n').length).toBeGreaterThan(10);
    } finally {
      cleo.close();
      vera.close();
    }
  });
});
