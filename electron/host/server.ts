import type { RequestContext } from '../ipc/request-context.js';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/csp.js';
import { MAX_IPC_IN_FLIGHT, MAX_IPC_MESSAGE_BYTES } from '../../shared/ipc/limits.js';
import type { Envelope } from '../../shared/ipc/errors.js';
import { contentTypeFor } from '../../shared/web/content-type.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Download, Downloads } from './downloads.js';
import type { Router } from '../ipc/router.js';
import type { Caller } from '../../shared/ipc/roles.js';
import {
  allowedNames,
  boundUrl,
  clientAddress,
  DEFAULT_LISTEN_HOST,
  listenProblem,
  servedOverHttps,
  STRICT_TRANSPORT_SECURITY,
  type ListenOptions,
} from './listen.js';
import { RateLimiter, addressKey } from './rate-limit.js';
import { cookieValue, signInRoutes, type AttemptLimiter, type SignInService } from './sign-in.js';

/**
 * The browser host: the console's UI and IPC router served to a browser, on this machine by default.
 *
 * - binds 127.0.0.1 unless told otherwise (`listen`); beyond loopback only with TLS or behind a
 *   trusted reverse proxy (listen.ts says the rules);
 * - a random per-run token, printed in the URL, is exchanged once for an HttpOnly SameSite=Strict
 *   cookie, and the token is dropped from the address bar; every request needs the cookie;
 * - the Host header must name this server (defeats DNS rebinding), and an Origin, when sent,
 *   must be this server's (defeats cross-site requests and cross-site WebSockets);
 * - IPC runs over one WebSocket at /ipc, through the same router as Electron's ipcMain, within
 *   limits per connection (IpcLimits): a hostile or broken client loses its own connection, never
 *   the process or the other connections;
 * - wrong tokens are limited per client address (TOKEN_ATTEMPTS), answered 429 beyond that.
 */
export interface BrowserHostOptions {
  router: Router;
  events: EventBus;
  staticDir: string;
  port?: number;
  token?: string;
  /**
   * Where and how to listen (default: 127.0.0.1, plain HTTP): another address, TLS, a trusted
   * reverse proxy, the public URL (listen.ts). A combination listenProblem refuses throws.
   */
  listen?: ListenOptions;
  /** Exports offered once for download (GET /downloads/<link>). */
  downloads?: Downloads;
  /** The IPC limits, each defaulting to DEFAULT_IPC_LIMITS. */
  limits?: Partial<IpcLimits>;
  /** Where the transport says why it refused, paused or closed a connection (the console's log). */
  log?: (message: string) => void;
  /**
   * Who is at the other end of a WebSocket, asked once as it connects (after the token cookie,
   * Host and Origin checks): every request of that connection carries the person, and the router
   * checks their role against each channel's (shared/ipc/roles.ts). Team mode's sign-in (issue 20,
   * part 2) implements it; tests pass one. Without it the host identifies nobody and every channel
   * is open, as in solo mode. When given, a connection it identifies nobody on (null) is refused
   * (401): a host that signs people in never serves anyone anonymously.
   */
  identify?: (req: IncomingMessage) => Caller | null | Promise<Caller | null>;
  /**
   * People sign in (a team server): no one-run token; the sign-in page, its endpoints and the
   * sessions of sign-in.ts decide who every request and connection is. A connection ends (4401)
   * when its session does: signed out here or everywhere, idle, past its lifetime, its person
   * disabled or given another role.
   */
  signIn?: {
    service: SignInService;
    limits?: { perAddress: AttemptLimiter; perUser: AttemptLimiter };
    /** How often an open connection's session is checked again (default SESSION_RECHECK_MS; tests shorten it). */
    recheckMs?: number;
  };
}

/** The close code of a connection whose session ended: the console goes to the sign-in page. */
export const SESSION_ENDED = 4401;
/** How often an open connection's session is checked again (besides the ends this server hears of). */
const SESSION_RECHECK_MS = 30_000;

/** What one WebSocket connection may cost the host. */
export interface IpcLimits {
  /** Largest message a client may send; a larger one closes its connection with 1009. */
  maxMessageBytes: number;
  /** Requests of one connection being handled at once; more are answered BUSY without being run. */
  maxInFlight: number;
  /**
   * Answers and events queued for a connection and not yet taken by its client. Above this the
   * host stops reading that connection's requests (TCP backpressure) until the client catches up.
   */
  maxBufferedBytes: number;
  /** How long a connection may stay above maxBufferedBytes without reading anything before it is closed (1008). */
  stallMs: number;
}

export const DEFAULT_IPC_LIMITS: IpcLimits = {
  maxMessageBytes: MAX_IPC_MESSAGE_BYTES,
  maxInFlight: MAX_IPC_IN_FLIGHT,
  // The largest answers are audit exports and consent details (a few MB); 16 MiB holds several
  // while a browser, which reads its socket at once, never comes near it.
  maxBufferedBytes: 16 * 1024 * 1024,
  stallMs: 30_000,
};

export interface BrowserHost {
  url: string;
  /** The URL with the token: what the user opens. */
  launchUrl: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export const SESSION_COOKIE = 'cdr_console_session';

/** Wrong `?token=` attempts allowed per client address (per /64 for IPv6) in a window. */
export const TOKEN_ATTEMPTS = { limit: 10, windowMs: 60_000 };

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

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS, ...headers });
  res.end(text);
}

export async function startBrowserHost(opts: BrowserHostOptions): Promise<BrowserHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const listen = opts.listen ?? {};
  const problem = listenProblem(listen);
  if (problem) throw new Error(`The browser host refuses to listen: ${problem}`);
  const server = listen.tls ? createHttpsServer({ cert: listen.tls.cert, key: listen.tls.key }) : createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, (listen.host ?? DEFAULT_LISTEN_HOST).replace(/^\[(.*)\]$/, '$1'), () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const { hosts: allowedHosts, origins: allowedOrigins } = allowedNames(listen, port);
  // Behind TLS (ours or the proxy's) the cookie never travels over plain HTTP.
  const secureCookie = listen.tls || listen.trustProxy ? '; Secure' : '';
  const tokenAttempts = new RateLimiter(TOKEN_ATTEMPTS);

  /** Why a request must be refused, or null when it may proceed. */
  function refusal(req: IncomingMessage, requireOrigin: boolean): { status: number; reason: string } | null {
    if (!allowedHosts.has(req.headers.host ?? '')) return { status: 421, reason: 'Host header does not name this server' };
    const origin = req.headers.origin;
    if (origin !== undefined ? !allowedOrigins.has(origin) : requireOrigin) return { status: 403, reason: 'Origin is not this server' };
    return null;
  }

  /** Who sent a request, as the audit log records it: the client's address (a trusted proxy's header) and user agent. */
  const clientOf = (req: IncomingMessage) => {
    const ua = req.headers['user-agent'];
    return { address: clientAddress(req, listen.trustProxy), userAgent: typeof ua === 'string' ? ua.slice(0, 300) : null };
  };
  const people = opts.signIn
    ? signInRoutes({
        service: opts.signIn.service,
        cookieName: SESSION_COOKIE,
        secure: Boolean(listen.tls || listen.trustProxy),
        headers: SECURITY_HEADERS,
        clientOf,
        allowedOrigins,
        ...(opts.signIn.limits ? { limits: opts.signIn.limits } : {}),
        log: opts.log ?? (() => {}),
      })
    : undefined;

  function hasSession(req: IncomingMessage): boolean {
    const value = cookieValue(req.headers.cookie, SESSION_COOKIE);
    return value !== undefined && sameSecret(value, token);
  }

  server.on('request', (req, res) => {
    if (servedOverHttps(req, listen)) res.setHeader('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    const refused = refusal(req, false);
    if (refused) return plain(res, refused.status, `Refused: ${refused.reason}.`);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    } catch {
      return plain(res, 400, 'Bad request target.');
    }
    if (people)
      return people.handle(req, res, url, (caller) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
        const download = /^\/downloads\/([A-Za-z0-9_-]{16,64})$/.exec(url.pathname);
        // An export is its exporter's: someone else's link answers as an unknown one.
        if (download) return serveDownload(opts.downloads?.take(download[1]!, caller.userId), req, res);
        serveStatic(opts.staticDir, url.pathname, res);
      });
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
    const offered = url.searchParams.get('token');
    if (offered !== null) {
      // Checked before the token, so a limited client learns nothing of its guess.
      const attempts = addressKey(clientAddress(req, listen.trustProxy));
      const limited = tokenAttempts.check(attempts);
      if (!limited.ok)
        return plain(res, 429, `Too many wrong tokens from this address: try again in ${limited.retryAfterSeconds} s.`, {
          'retry-after': String(limited.retryAfterSeconds),
        });
      if (!sameSecret(offered, token)) {
        tokenAttempts.take(attempts);
        return plain(res, 401, 'Wrong token: open the exact URL the console printed in its terminal.');
      }
      // Trade the token for a cookie and drop it from the address bar (and from screenshots).
      url.searchParams.delete('token');
      return plain(res, 303, 'Signed in.', {
        location: `${url.pathname}${url.search}`,
        'set-cookie': `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/${secureCookie}`,
      });
    }
    if (!hasSession(req))
      return plain(res, 401, 'Not signed in: open the URL the console printed in its terminal (it carries a one-run token).');
    const download = /^\/downloads\/([A-Za-z0-9_-]{16,64})$/.exec(url.pathname);
    if (download) {
      if (!opts.identify) return serveDownload(opts.downloads?.take(download[1]!), req, res);
      // With sign-in, an export is its exporter's: someone else's link answers as an unknown one.
      const identify = opts.identify;
      void Promise.resolve()
        .then(() => identify(req))
        .catch(() => null)
        .then((caller) => serveDownload(caller ? opts.downloads?.take(download[1]!, caller.userId) : undefined, req, res));
      return;
    }
    serveStatic(opts.staticDir, url.pathname, res);
  });

  const limits: IpcLimits = { ...DEFAULT_IPC_LIMITS, ...opts.limits };
  const log = opts.log ?? (() => {});
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  // Errors of one connection arrive on its socket (below); these would only be the server's own.
  wss.on('error', (error) => log(`WebSocket server error: ${error.message}`));
  server.on('upgrade', (req, socket: Socket, head) => {
    // A client that resets the connection while it is refused or upgraded must not take the host down.
    socket.on('error', () => {});
    const refused = refusal(req, true) ?? (people || hasSession(req) ? null : { status: 401, reason: 'not signed in' });
    // The path, compared as text: a target URL cannot parse ("//", "http://") must not throw here.
    const path = (req.url ?? '/').split('?')[0];
    if (refused || path !== '/ipc') {
      const status = refused?.status ?? 404;
      socket.end(`HTTP/1.1 ${status} ${refused?.reason ?? 'Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const client = clientOf(req);
    if (people) {
      void people
        .identify(req)
        .catch((error: unknown) => {
          log(`IPC connection refused: identifying it failed: ${(error as Error)?.message}`);
          return null;
        })
        .then((found) => {
          if (socket.destroyed) return;
          if (!found) return void socket.end('HTTP/1.1 401 not signed in\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          wss.handleUpgrade(req, socket, head, (ws) => {
            serveIpc(ws, socket, opts, limits, log, { client, caller: found.caller }, found);
          });
        });
      return;
    }
    const identify = opts.identify;
    if (!identify) {
      wss.handleUpgrade(req, socket, head, (ws) => serveIpc(ws, socket, opts, limits, log, { client }));
      return;
    }
    void Promise.resolve()
      .then(() => identify(req))
      .then(
        (caller) => caller,
        (error: unknown) => {
          log(`IPC connection refused: identifying it failed: ${(error as Error)?.message}`);
          return null;
        },
      )
      .then((caller) => {
        if (socket.destroyed) return;
        if (!caller) {
          socket.end('HTTP/1.1 401 not signed in\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => serveIpc(ws, socket, opts, limits, log, { client, caller }));
      });
  });

  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  // What people open: the public URL when there is one, else the bound address.
  const url = listen.publicUrl ? new URL(listen.publicUrl).href : boundUrl(listen, port);
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
  const body = builtFile(target);
  res.writeHead(200, {
    'content-type': contentTypeFor(target),
    'cache-control': isIndex ? 'no-store' : 'max-age=3600',
    'content-length': body.length,
    ...SECURITY_HEADERS,
  });
  res.end(body);
}

/**
 * The UI's files, each read once and then answered from memory (about 2 MB in all, source maps
 * included once asked for): the first screen asks for some 70 scripts at once, and a stream per
 * file (open, read, close: a turn of the event loop each) made each wait behind the host's other
 * work at start (its sync, its first reads): a few hundred milliseconds in all (issue 21). A file
 * rebuilt under a running host (its size or time changed) is read again.
 */
const builtFiles = new Map<string, { size: number; mtimeMs: number; body: Buffer }>();
function builtFile(path: string): Buffer {
  const { size, mtimeMs } = statSync(path);
  const known = builtFiles.get(path);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.body;
  const body = readFileSync(path);
  if (size <= 4 * 2 ** 20) builtFiles.set(path, { size, mtimeMs, body });
  return body;
}

/**
 * The close reasons of the protocol errors ws detects itself (it closes with the code alone):
 * the client, and whoever reads its console, learns why.
 */
function closeReason(code: number | undefined, limits: IpcLimits): string | undefined {
  switch (code) {
    case 1009:
      return `Message too big: the limit is ${(limits.maxMessageBytes / 1024 / 1024).toFixed(1)} MiB`;
    case 1007:
      return 'Invalid UTF-8 in a text frame';
    case 1002:
      return 'WebSocket protocol error (bad frame, opcode or masking)';
    default:
      return undefined;
  }
}

function refusal(code: 'TRANSPORT' | 'BUSY' | 'INTERNAL', message: string): Envelope<never> {
  return { ok: false, error: { code, message } };
}

/** One browser tab: requests in, envelopes and events out, within the connection's limits. */
function serveIpc(
  ws: WebSocket,
  socket: Socket,
  opts: BrowserHostOptions,
  limits: IpcLimits,
  log: (message: string) => void,
  /** Who the connection is: its address and user agent, and the person when the host identified one. */
  request: RequestContext,
  /** The session it was opened with (sign-in): the connection ends with it. */
  session?: { session: string; token: string },
): void {
  const peer = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
  // ws closes a connection that breaks the protocol with the code only; give it its reason too.
  const close = ws.close.bind(ws);
  ws.close = (code?: number, reason?: string | Buffer) => close(code, reason ?? closeReason(code, limits));
  // Without this listener one malformed frame (too big, bad UTF-8, unknown opcode, unmasked) was an
  // uncaught 'error' event that killed the process. ws has already closed the connection with the
  // protocol's code; this one connection ends, nothing else does.
  ws.on('error', (error) => log(`IPC connection ${peer} closed: ${error.message}`));

  let inFlight = 0;
  // Backpressure: while the client leaves more than maxBufferedBytes of answers unread, its
  // requests are not read (nor run); if it reads nothing for stallMs, it is closed.
  let paused = false;
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  // Bytes the client has taken so far (handed to the kernel's socket), to tell slow from stalled.
  const taken = () => socket.bytesWritten - ws.bufferedAmount;
  let takenAtCheck = 0;
  const resume = () => {
    if (!paused) return;
    paused = false;
    clearTimeout(stallTimer);
    if (ws.readyState === ws.OPEN) ws.resume();
  };
  const checkStall = () => {
    if (ws.readyState !== ws.OPEN) return;
    const buffered = ws.bufferedAmount;
    if (buffered <= limits.maxBufferedBytes) return resume();
    if (taken() > takenAtCheck) {
      // Slow, but reading: give it more time.
      takenAtCheck = taken();
      stallTimer = setTimeout(checkStall, limits.stallMs);
      return;
    }
    log(`IPC connection ${peer} closed: ${buffered} bytes of answers left unread for ${limits.stallMs} ms`);
    // The close frame queues behind the unread answers; ws destroys the socket if the client never
    // takes it (30 s). Reading resumes so the client's close reply is seen; requests are now ignored.
    ws.close(1008, 'Answers left unread: connection closed to bound the host memory');
    ws.resume();
  };
  const checkOutput = () => {
    if (paused || ws.readyState !== ws.OPEN || ws.bufferedAmount <= limits.maxBufferedBytes) return;
    paused = true;
    takenAtCheck = taken();
    log(`IPC connection ${peer} paused: ${ws.bufferedAmount} bytes of answers not yet read`);
    ws.pause();
    stallTimer = setTimeout(checkStall, limits.stallMs);
  };
  socket.on('drain', () => {
    if (paused && ws.bufferedAmount <= limits.maxBufferedBytes) resume();
  });
  const send = (message: unknown) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify(message));
    checkOutput();
  };

  const unsubscribe = opts.events.subscribe((event, payload) => send({ event, payload }));
  // Signed in: the connection lives as long as its session (ended here, elsewhere, or timed out).
  const service = opts.signIn?.service;
  const endSession = () => {
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(SESSION_ENDED, 'Signed out: the session ended');
  };
  const stopWatching =
    service && session && request.caller
      ? service.onSessionsEnded((e) => {
          if (e.userId === request.caller!.userId && (!e.session || e.session === session.session)) endSession();
        })
      : () => {};
  // The router reads the person again before what changes something or is not everyone's
  // (needsCurrentCaller): a removal made on another server holds at this connection's next such
  // request, whatever the live link did meanwhile.
  if (service && session && request.caller) {
    const opened = request.caller;
    request = {
      ...request,
      current: async () => {
        const found = await service.identify(session.token, { touch: false, fresh: true });
        if (found && found.session === session.session && found.caller.role === opened.role) return found.caller;
        // The refusal is answered first, then the console is closed (and goes to the sign-in page).
        setTimeout(endSession, 0);
        return null;
      },
    };
  }
  let lastTouch = 0; // the first request the person makes counts at once
  const check = (touch: boolean) => {
    if (!service || !session) return;
    void service
      .identify(session.token, { touch })
      .then((found) => {
        if (!found || found.caller.role !== request.caller?.role) endSession();
      })
      .catch((error: unknown) => log(`IPC connection ${peer}: its session could not be checked: ${(error as Error)?.message}`));
  };
  const recheck = service && session ? setInterval(() => check(false), opts.signIn?.recheckMs ?? SESSION_RECHECK_MS) : undefined;
  recheck?.unref();
  ws.on('close', () => {
    unsubscribe();
    stopWatching();
    clearInterval(recheck);
    clearTimeout(stallTimer);
  });
  ws.on('message', (data, isBinary) => {
    if (ws.readyState !== ws.OPEN) return; // closing: nothing more is run for this client
    let id: unknown;
    let channel: unknown;
    let input: unknown;
    let active: unknown;
    try {
      if (isBinary) throw new Error('binary frame (IPC messages are JSON text)');
      const msg = JSON.parse(String(data)) as { id?: unknown; channel?: unknown; input?: unknown; active?: unknown } | null;
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new Error('not a JSON object');
      ({ id, channel, input, active } = msg);
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Error('missing numeric id');
    } catch (error) {
      send({ id: null, result: refusal('TRANSPORT', `Malformed IPC message: ${(error as Error).message}`) });
      return;
    }
    if (inFlight >= limits.maxInFlight) {
      send({
        id,
        result: refusal(
          'BUSY',
          `Too many requests at once on this connection (${limits.maxInFlight}): wait for answers before sending more.`,
        ),
      });
      return;
    }
    // A request the person made is activity: the session's idle time starts again (at most once a
    // minute). The console marks background requests (polling, refreshes after a sync) active: false.
    if (session && active !== false && Date.now() - lastTouch > 60_000) {
      lastTouch = Date.now();
      check(true);
    }
    inFlight++;
    // The socket was authenticated at upgrade (token cookie, Host, Origin): its sender is trusted.
    opts.router
      .handle(channel, input, true, request)
      .catch((error: unknown) => {
        log(`IPC ${String(channel).slice(0, 80)} failed in transport: ${(error as Error)?.message}`);
        return refusal('INTERNAL', 'Internal error while handling the request.');
      })
      .then((result) => {
        inFlight--;
        send({ id, result });
      })
      .catch((error: unknown) => log(`IPC answer could not be sent: ${(error as Error)?.message}`));
  });
}
