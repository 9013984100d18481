import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/csp.js';
import { contentTypeFor } from '../../shared/web/content-type.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Download, Downloads } from './downloads.js';
import type { Router } from '../ipc/router.js';

/**
 * The browser host: the console's UI and IPC router served to a browser on this machine only.
 *
 * - binds 127.0.0.1, never another interface;
 * - a random per-run token, printed in the URL, is exchanged once for an HttpOnly SameSite=Strict
 *   cookie, and the token is dropped from the address bar; every request needs the cookie;
 * - the Host header must name this server (defeats DNS rebinding), and an Origin, when sent,
 *   must be this server's (defeats cross-site requests and cross-site WebSockets);
 * - IPC runs over one WebSocket at /ipc, through the same router as Electron's ipcMain.
 */
export interface BrowserHostOptions {
  router: Router;
  events: EventBus;
  staticDir: string;
  port?: number;
  token?: string;
  /** Exports offered once for download (GET /downloads/<link>). */
  downloads?: Downloads;
}

export interface BrowserHost {
  url: string;
  /** The URL with the token: what the user opens. */
  launchUrl: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export const SESSION_COOKIE = 'cdr_console_session';
const MAX_MESSAGE_BYTES = 1_000_000;

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS, ...headers });
  res.end(text);
}

export async function startBrowserHost(opts: BrowserHostOptions): Promise<BrowserHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));

  /** Why a request must be refused, or null when it may proceed. */
  function refusal(req: IncomingMessage, requireOrigin: boolean): { status: number; reason: string } | null {
    if (!allowedHosts.has(req.headers.host ?? '')) return { status: 421, reason: 'Host header does not name this server' };
    const origin = req.headers.origin;
    if (origin !== undefined ? !allowedOrigins.has(origin) : requireOrigin) return { status: 403, reason: 'Origin is not this server' };
    return null;
  }

  function hasSession(req: IncomingMessage): boolean {
    const value = cookieValue(req.headers.cookie, SESSION_COOKIE);
    return value !== undefined && sameSecret(value, token);
  }

  server.on('request', (req, res) => {
    const refused = refusal(req, false);
    if (refused) return plain(res, refused.status, `Refused: ${refused.reason}.`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const offered = url.searchParams.get('token');
    if (offered !== null) {
      if (!sameSecret(offered, token)) return plain(res, 401, 'Wrong token: open the exact URL the console printed in its terminal.');
      // Trade the token for a cookie and drop it from the address bar (and from screenshots).
      url.searchParams.delete('token');
      return plain(res, 303, 'Signed in.', {
        location: `${url.pathname}${url.search}`,
        'set-cookie': `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      });
    }
    if (!hasSession(req))
      return plain(res, 401, 'Not signed in: open the URL the console printed in its terminal (it carries a one-run token).');
    const download = /^\/downloads\/([A-Za-z0-9_-]{16,64})$/.exec(url.pathname);
    if (download) return serveDownload(opts.downloads?.take(download[1]!), req, res);
    serveStatic(opts.staticDir, url.pathname, res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req, socket: Socket, head) => {
    const refused = refusal(req, true) ?? (hasSession(req) ? null : { status: 401, reason: 'not signed in' });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (refused || path !== '/ipc') {
      const status = refused?.status ?? 404;
      socket.end(`HTTP/1.1 ${status} ${refused?.reason ?? 'Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveIpc(ws, opts));
  });

  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    launchUrl: `${url}?token=${token}`,
    token,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

/** An export, once: as an attachment, never rendered; the file is deleted once it has been sent. */
function serveDownload(d: Download | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (!d || !existsSync(d.path)) return plain(res, 404, 'This download link has expired or was already used: export again.');
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': d.name.endsWith('.zip') ? 'application/zip' : d.name.endsWith('.json') ? 'application/json' : 'text/csv; charset=utf-8',
    'content-length': String(statSync(d.path).size),
    'content-disposition': `attachment; filename="${d.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
    'cache-control': 'no-store',
  });
  if (req.method === 'HEAD') {
    res.end();
    return void rmSync(d.path, { force: true });
  }
  const stream = createReadStream(d.path);
  stream.pipe(res);
  const remove = () => rmSync(d.path, { force: true });
  res.once('close', remove);
}

function serveStatic(root: string, pathname: string, res: ServerResponse): void {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return plain(res, 400, 'Bad path.');
  }
  if (rel.includes('\0')) return plain(res, 400, 'Bad path.');
  const file = normalize(join(root, rel === '/' ? 'index.html' : rel));
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return plain(res, 403, 'Outside the app.');
  // Unknown paths get the app itself: the UI routes in the hash, so this only catches typos.
  const target = existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
  if (!existsSync(target)) return plain(res, 500, `The console UI is not built (${root} is empty): run npm run build.`);
  const isIndex = target.endsWith('index.html');
  res.writeHead(200, {
    'content-type': contentTypeFor(target),
    'cache-control': isIndex ? 'no-store' : 'max-age=3600',
    ...SECURITY_HEADERS,
  });
  createReadStream(target).pipe(res);
}

/** One browser tab: requests in, envelopes and events out. */
function serveIpc(ws: WebSocket, opts: BrowserHostOptions): void {
  const unsubscribe = opts.events.subscribe((event, payload) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
  });
  ws.on('close', unsubscribe);
  ws.on('message', (data, isBinary) => {
    let id: unknown;
    let channel: unknown;
    let input: unknown;
    try {
      if (isBinary) throw new Error('binary frame');
      const msg = JSON.parse(String(data)) as { id?: unknown; channel?: unknown; input?: unknown };
      ({ id, channel, input } = msg);
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Error('missing numeric id');
    } catch (error) {
      ws.send(
        JSON.stringify({
          id: null,
          result: { ok: false, error: { code: 'TRANSPORT', message: `Malformed IPC message: ${(error as Error).message}` } },
        }),
      );
      return;
    }
    // The socket was authenticated at upgrade (token cookie, Host, Origin): its sender is trusted.
    void opts.router.handle(channel, input, true).then((result) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }));
    });
  });
}
