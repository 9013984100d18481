import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { SESSION_COOKIE, startBrowserHost, type BrowserHost } from '../../electron/host/server.js';
import { tempDir } from '../helpers/temp.js';

let core: Core;
let host: BrowserHost;
let origin: string;
let cookie: string;

beforeAll(async () => {
  const staticDir = join(tempDir(), 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>CDR Console</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  core = await startCore({
    dataDir: tempDir(),
    host: 'browser',
    appVersion: '0',
    log: { info() {}, error() {} },
    sandbox: { consents: 30 },
  });
  await core.sync();
  host = await startBrowserHost({ router: core.router, events: core.events, staticDir });
  origin = `http://127.0.0.1:${host.port}`;
  cookie = `${SESSION_COOKIE}=${host.token}`;
});
afterAll(async () => {
  await host.close();
  await core.close();
});

/** A raw request, so Host and Origin can be anything an attacker's page or a rebinding DNS would send. */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, headers: { host: `127.0.0.1:${host.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function socket(headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(
  ws: WebSocket,
  message: unknown,
): Promise<{ id: unknown; result: { ok: boolean; value?: unknown; error?: { code: string; message: string } } }> {
  return new Promise((resolve) => {
    ws.on('message', function onMessage(data) {
      const msg = JSON.parse(String(data));
      if ('result' in msg) {
        ws.off('message', onMessage);
        resolve(msg);
      }
    });
    ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  });
}

describe('browser host', () => {
  it('listens on 127.0.0.1 only and prints a launch URL with a long random token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/`);
    expect(host.launchUrl).toBe(`${host.url}?token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses the UI without the token, and with a wrong one', async () => {
    expect((await raw('/')).status).toBe(401);
    expect((await raw('/assets/app.js')).status).toBe(401);
    expect((await raw('/?token=guess')).status).toBe(401);
  });

  it('trades the token for an HttpOnly SameSite=Strict cookie and drops it from the URL', async () => {
    const res = await raw(`/?token=${host.token}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`^${SESSION_COOKIE}=${host.token}; HttpOnly; SameSite=Strict; Path=/`));
    // Plain HTTP on loopback: a Secure cookie would not be kept, and HSTS would be wrong (host-network.test.ts serves TLS).
    expect(String(res.headers['set-cookie'])).not.toMatch(/Secure/);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('serves the UI with the session cookie, under a strict CSP', async () => {
    const res = await raw('/', { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toContain('CDR Console');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect((await raw('/assets/app.js', { cookie })).headers['content-type']).toMatch(/javascript/);
  });

  it('rejects a Host header that is not its own (DNS rebinding)', async () => {
    const res = await raw('/', { cookie, host: `attacker.example:${host.port}` });
    expect(res.status).toBe(421);
  });

  it('rejects a request whose Origin is another site', async () => {
    expect((await raw('/', { cookie, origin: 'https://attacker.example' })).status).toBe(403);
    expect((await raw('/', { cookie, origin })).status).toBe(200);
  });

  it('never serves files outside the UI folder', async () => {
    for (const path of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fpackage.json']) {
      const res = await raw(path, { cookie });
      expect(res.body).not.toMatch(/root:|"name"/);
    }
  });

  it('refuses WebSocket upgrades without the cookie, from another origin, or without an origin', async () => {
    await expect(socket({ origin })).rejects.toThrow('upgrade refused: 401');
    await expect(socket({ origin: 'https://attacker.example', cookie })).rejects.toThrow('upgrade refused: 403');
    await expect(socket({ cookie })).rejects.toThrow('upgrade refused: 403');
  });

  it('answers IPC over the WebSocket through the same router', async () => {
    const ws = await socket({ origin, cookie });
    try {
      const reply = await call(ws, {
        id: 1,
        channel: 'consents:list',
        input: { filter: {}, offset: 0, limit: 10, sort: { field: 'created', direction: 'desc' } },
      });
      expect(reply.id).toBe(1);
      expect(reply.result).toMatchObject({ ok: true });
      expect((reply.result.value as { rows: unknown[] }).rows).toHaveLength(10);

      const bad = await call(ws, { id: 2, channel: 'consents:list', input: { offset: -1 } });
      expect(bad.result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      const unknown = await call(ws, { id: 3, channel: 'shell:exec', input: 'rm -rf /' });
      expect(unknown.result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
      const garbage = await call(ws, 'not json at all');
      expect(garbage).toMatchObject({ id: null, result: { ok: false, error: { code: 'TRANSPORT' } } });
    } finally {
      ws.close();
    }
  });

  it('pushes events to the connected page', async () => {
    const ws = await socket({ origin, cookie });
    try {
      const events: string[] = [];
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data));
        if (msg.event) events.push(msg.event);
      });
      await call(ws, { id: 9, channel: 'sync:start', input: {} });
      expect(events).toContain('sync:progress');
    } finally {
      ws.close();
    }
  });
});
