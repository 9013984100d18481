import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { EventBus } from '../../electron/ipc/event-bus.js';
import type { Router } from '../../electron/ipc/router.js';
import { SESSION_COOKIE, startBrowserHost, TOKEN_ATTEMPTS, type BrowserHost } from '../../electron/host/server.js';
import type { ListenOptions } from '../../electron/host/listen.js';
import { SIGN_IN_ATTEMPTS, signInLimits } from '../../electron/host/rate-limit.js';
import type { SignInService } from '../../electron/host/sign-in.js';
import { tempDir } from '../helpers/temp.js';
import { selfSignedCert } from '../helpers/tls.js';

/**
 * Issue 20, "Serve a real network": the browser host over TLS, behind a trusted reverse proxy, with
 * a public URL, and its wrong-token rate limit. The router here answers every request with the
 * context the transport gave it, so the client address the audit log would record can be read.
 */

const dir = tempDir('cdr-host-net-');
const staticDir = join(dir, 'ui');
const tls = selfSignedCert(dir, 'host', ['console.test']);
const echo: Router = { handle: (channel, _input, _trusted, request) => Promise.resolve({ ok: true, value: { channel, request } }) };
const hosts: BrowserHost[] = [];

beforeAll(() => {
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>CDR Console</title>');
});
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

async function start(listen: ListenOptions, signIn?: SignInService): Promise<BrowserHost> {
  const host = await startBrowserHost({
    router: echo,
    events: new EventBus(),
    staticDir,
    listen,
    ...(signIn ? { signIn: { service: signIn, limits: signInLimits() } } : {}),
  });
  hosts.push(host);
  return host;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw GET to 127.0.0.1:port (https trusting the test certificate when `secure`), any headers. */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  opts: { secure?: boolean; localAddress?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = opts.secure ? httpsRequest : httpRequest;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host: `127.0.0.1:${port}`, ...headers },
        ...(opts.secure ? { ca: tls.cert } : {}),
        ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens /ipc and asks one request; resolves with the context the router was given. */
function ipcContext(url: string, headers: Record<string, string>): Promise<{ client?: { address: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, ca: tls.cert });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, channel: 'app:info', input: {} })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result: { value: { request: { client?: { address: string } } } } };
      if (msg.id !== 1) return;
      ws.close();
      resolve(msg.result.value.request);
    });
  });
}

/** A JSON POST to 127.0.0.1:port over plain HTTP (as the proxy forwards it). */
function post(port: number, path: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function expectSecurityHeaders(headers: IncomingHttpHeaders) {
  expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('the browser host over TLS (--host 127.0.0.1 --tls-cert --tls-key)', () => {
  let host: BrowserHost;
  let origin: string;
  beforeAll(async () => {
    host = await start({ host: '127.0.0.1', tls: { cert: tls.cert, key: tls.key } });
    origin = `https://127.0.0.1:${host.port}`;
  });

  it('prints an https URL and serves HTTPS only', async () => {
    expect(host.url).toBe(`${origin}/`);
    expect(host.launchUrl).toBe(`${origin}/?token=${host.token}`);
    await expect(get(host.port, '/')).rejects.toThrow(); // plain HTTP to the TLS port
  });

  it('trades the token for a Secure HttpOnly SameSite=Strict cookie, with HSTS and the security headers', async () => {
    const res = await get(host.port, `/?token=${host.token}`, {}, { secure: true });
    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).toBe(`${SESSION_COOKIE}=${host.token}; HttpOnly; SameSite=Strict; Path=/; Secure`);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expectSecurityHeaders(res.headers);
  });

  it('serves the UI and the IPC WebSocket (wss) with the cookie and its https origin only', async () => {
    const cookie = `${SESSION_COOKIE}=${host.token}`;
    const ui = await get(host.port, '/', { cookie }, { secure: true });
    expect(ui.status).toBe(200);
    expect(ui.body).toContain('CDR Console');
    expect(ui.headers['strict-transport-security']).toBe('max-age=31536000');
    expectSecurityHeaders(ui.headers);
    expect((await get(host.port, '/', { cookie, origin: `http://127.0.0.1:${host.port}` }, { secure: true })).status).toBe(403);
    const wss = `wss://127.0.0.1:${host.port}/ipc`;
    expect(await ipcContext(wss, { cookie, origin })).toMatchObject({ client: { address: '127.0.0.1' } });
    await expect(ipcContext(wss, { cookie, origin: `http://127.0.0.1:${host.port}` })).rejects.toThrow('upgrade refused: 403');
  });
});

describe('behind a reverse proxy (--trust-proxy --public-url https://console.test)', () => {
  let host: BrowserHost;
  const publicHeaders = { host: 'console.test', origin: 'https://console.test' };
  beforeAll(async () => {
    host = await start({ trustProxy: true, publicUrl: 'https://console.test' });
  });

  it('prints the public URL, and gives a Secure cookie; HSTS when the proxy says the browser came over https', async () => {
    expect(host.launchUrl).toBe(`https://console.test/?token=${host.token}`);
    const res = await get(host.port, `/?token=${host.token}`, { host: 'console.test', 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await get(host.port, '/', { host: 'console.test' })).headers['strict-transport-security']).toBeUndefined();
  });

  it("accepts the public URL's Host and https Origin, refuses others", async () => {
    const cookie = `${SESSION_COOKIE}=${host.token}`;
    expect((await get(host.port, '/', { cookie, ...publicHeaders })).status).toBe(200);
    expect((await get(host.port, '/', { cookie, host: 'attacker.test' })).status).toBe(421);
    expect((await get(host.port, '/', { cookie, host: 'console.test', origin: 'http://console.test' })).status).toBe(403);
    expect((await get(host.port, '/', { cookie, host: 'console.test', origin: 'https://attacker.test' })).status).toBe(403);
    const ws = `ws://127.0.0.1:${host.port}/ipc`;
    await expect(ipcContext(ws, { cookie, host: 'console.test', origin: 'https://attacker.test' })).rejects.toThrow('upgrade refused: 403');
    await expect(ipcContext(ws, { cookie, host: 'attacker.test', origin: 'https://console.test' })).rejects.toThrow('upgrade refused: 421');
  });

  it("takes the client's address from the right-most X-Forwarded-For entry (the proxy's)", async () => {
    const cookie = `${SESSION_COOKIE}=${host.token}`;
    const ws = `ws://127.0.0.1:${host.port}/ipc`;
    const context = await ipcContext(ws, { cookie, ...publicHeaders, 'x-forwarded-for': '10.9.9.9, 198.51.100.7' });
    expect(context.client?.address).toBe('198.51.100.7');
  });

  it('limits wrong tokens per client address: 429 with retry-after and the security headers; other addresses go on', async () => {
    const from = (address: string, token: string) =>
      get(host.port, `/?token=${token}`, { host: 'console.test', 'x-forwarded-for': address, 'x-forwarded-proto': 'https' });
    for (let i = 0; i < TOKEN_ATTEMPTS.limit; i++) expect((await from('203.0.113.50', `guess${i}`)).status).toBe(401);
    const limited = await from('203.0.113.50', 'one-more');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.body).toMatch(/Too many wrong tokens from this address/);
    expectSecurityHeaders(limited.headers);
    expect(limited.headers['strict-transport-security']).toBe('max-age=31536000');
    // Limited, even the right token tells nothing.
    expect((await from('203.0.113.50', host.token)).status).toBe(429);
    // Another address (even one the limited client puts on the left of the header) is unaffected.
    expect((await from('203.0.113.51', 'wrong')).status).toBe(401);
    expect((await from('203.0.113.50, 203.0.113.52', host.token)).status).toBe(303);
  });
});

describe("a team server's sign-in behind a reverse proxy", () => {
  let host: BrowserHost;
  const clients: string[] = [];
  /** Signs in whoever gives the password "right"; remembers the client address it was given. */
  const service: SignInService = {
    signInWithPassword: (name, password, client) => {
      clients.push(client.address);
      return Promise.resolve(
        password === 'right'
          ? {
              ok: true,
              token: `session-of-${name}`,
              caller: { userId: name, displayName: name, role: 'viewer', method: 'password' },
              expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
            }
          : { ok: false, reason: 'wrong', message: 'Wrong user name or password.' },
      );
    },
    identify: () => Promise.resolve(null),
    signOut: () => Promise.resolve(false),
    noUsersYet: () => Promise.resolve(false),
    onSessionsEnded: () => () => {},
  };
  const signIn = (user: string, password: string, address: string) =>
    post(
      host.port,
      '/api/signin',
      { user, password },
      {
        host: 'console.test',
        origin: 'https://console.test',
        'x-forwarded-for': `10.0.0.1, ${address}`,
        'x-forwarded-proto': 'https',
      },
    );
  beforeAll(async () => {
    host = await start({ trustProxy: true, publicUrl: 'https://console.test' }, service);
  });

  it("sets a Secure session cookie, with HSTS, and gives the proxy's client address to the sign-in", async () => {
    const res = await signIn('sam', 'right', '198.51.100.20');
    expect(res.status, res.body).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^cdr_console_session=session-of-sam; HttpOnly; SameSite=Strict; Path=\/; Secure;/);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(clients.at(-1)).toBe('198.51.100.20');
  });

  it('limits attempts per user name from one address and per client address (429 with Retry-After); others go on', async () => {
    // Issue 35: per user name from one address, so someone elsewhere hammering a name never keeps
    // its owner out (a per-name limit across addresses let anyone do that).
    for (let i = 0; i < SIGN_IN_ATTEMPTS.perUser; i++) expect((await signIn('vera', `guess ${i}`, '198.51.100.100')).status).toBe(401);
    const perUser = await signIn('vera', 'right', '198.51.100.100');
    expect(perUser.status).toBe(429);
    expect(Number(perUser.headers['retry-after'])).toBeGreaterThan(0);
    expectSecurityHeaders(perUser.headers);
    expect((await signIn('vera', 'guess', '198.51.100.101')).status).toBe(401);
    for (let i = 0; i < SIGN_IN_ATTEMPTS.perAddress; i++) expect((await signIn(`name${i}`, 'guess', '203.0.113.77')).status).toBe(401);
    expect((await signIn('sam', 'right', '203.0.113.77')).status).toBe(429);
    // Another address is not limited.
    expect((await signIn('sam', 'right', '203.0.113.78')).status).toBe(200);
  });
});

describe('on loopback without --trust-proxy', () => {
  let host: BrowserHost;
  beforeAll(async () => {
    host = await start({});
  });

  it('ignores X-Forwarded-For and X-Forwarded-Proto: no HSTS, no Secure cookie, the socket address', async () => {
    const spoof = { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' };
    const res = await get(host.port, `/?token=${host.token}`, spoof);
    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).not.toMatch(/Secure/);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const cookie = `${SESSION_COOKIE}=${host.token}`;
    const context = await ipcContext(`ws://127.0.0.1:${host.port}/ipc`, { cookie, origin: `http://127.0.0.1:${host.port}`, ...spoof });
    expect(context.client?.address).toBe('127.0.0.1');
  });

  it('limits wrong tokens by the socket address, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < TOKEN_ATTEMPTS.limit; i++)
      expect((await get(host.port, `/?token=guess${i}`, { 'x-forwarded-for': `198.51.100.${i}` })).status).toBe(401);
    expect((await get(host.port, '/?token=guess', { 'x-forwarded-for': '198.51.100.200' })).status).toBe(429);
    // Linux routes all of 127/8 to loopback: another local address is another client.
    if (process.platform === 'linux') expect((await get(host.port, '/?token=guess', {}, { localAddress: '127.0.0.2' })).status).toBe(401);
  });
});

describe('refusing to serve plain HTTP beyond loopback', () => {
  it('startBrowserHost throws for 0.0.0.0 or a LAN address without TLS or a proxy, before listening', async () => {
    for (const address of ['0.0.0.0', '192.168.1.20'])
      await expect(start({ host: address })).rejects.toThrow(
        new RegExp(`^The browser host refuses to listen: --host ${address.replace(/\./g, '\\.')} is beyond this machine`),
      );
  });
});
