import { escapeHtml } from '../../shared/text/escape-html.js';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../../shared/ipc/roles.js';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/csp.js';
import { addressKey } from '../core/people/address.js';
import { attemptKey } from '../core/people/people.js';

/**
 * The browser host's sign-in (a team server): the sign-in page, the sign-in and sign-out
 * endpoints, and who a request is. The people themselves, their passwords and sessions are the
 * core's (core/people/people.ts); this file is HTTP only.
 *
 * - GET /signin: the page (User name, Password, Sign in; the identity provider's button when one is
 *   set). It is plain HTML with no script; its form posts to /signin.
 * - POST /signin (a form) and POST /api/signin (JSON {user, password}, for scripts and the CLI):
 *   a good password sets the session cookie (HttpOnly, SameSite=Strict, Secure over https); the
 *   JSON answer also carries the token, for clients that send it as a bearer token.
 * - POST /api/signout (JSON {everywhere?}): ends this session, or every session of its person.
 * - GET /api/session: who is signed in (401 with where to sign in otherwise).
 * - Every other request needs a session: a page is sent to /signin, anything else gets 401.
 *
 * Sign-in requests are limited per address and per user name (429 with Retry-After); bodies are
 * small (8 KiB) and must be of the type announced; no answer is ever a 500 for bad input.
 */
export interface SignInService {
  signInWithPassword(
    name: string,
    password: string,
    client: { address: string; userAgent: string | null },
  ): Promise<{ ok: true; token: string; caller: Caller; expiresAt: string } | { ok: false; reason: string; message: string }>;
  /**
   * The person of a session token, or null; `touch: false` checks without counting as activity;
   * `fresh` reads the store, not what this server saw of the session in the last seconds.
   */
  identify(
    token: string | undefined,
    opts?: { touch?: boolean; fresh?: boolean },
  ): Promise<{ caller: Caller; session: string; expiresAt: string } | null>;
  signOut(token: string | undefined, everywhere: boolean, client: { address: string; userAgent: string | null }): Promise<boolean>;
  noUsersYet(): Promise<boolean>;
  onSessionsEnded(listener: (ended: { userId: string; session?: string }) => void): () => void;
  /** Single sign-on, when the server has an identity provider (oidc.ts through people). */
  sso?: {
    /** The button's words: "Sign in with Example ID". */
    label: string;
    /** Where to send the browser, and what to keep until it comes back (kept server-side under a cookie). */
    begin(): Promise<{ url: string; pending: unknown }>;
    finish(
      callbackUrl: URL,
      pending: unknown,
      client: { address: string; userAgent: string | null },
    ): Promise<{ ok: true; token: string; caller: Caller; expiresAt: string } | { ok: false; reason: string; message: string }>;
    /** The provider's end-session address (RP-Initiated Logout), or null when it has none. */
    endSession?(): Promise<string | null>;
    /** Whether the button may be offered now (the provider reached); when not, why. */
    available?(): Promise<{ ok: boolean; message: string | null }>;
    /** The origin single sign-on works at (where its callback is registered). */
    home?: string;
  };
}

/** A limit on attempts (rate-limit.ts): per address, per user name. */
export interface AttemptLimiter {
  take(key: string): { ok: true } | { ok: false; retryAfterSeconds: number };
}

export interface SignInRoutesOptions {
  service: SignInService;
  cookieName: string;
  /** Adds Secure to the cookies (the console is reached over https, itself or through a proxy). */
  secure: boolean;
  headers: Record<string, string>;
  /** The client's address as the audit log records it (the socket's, or a trusted proxy's header). */
  clientOf(req: IncomingMessage): { address: string; userAgent: string | null };
  /** Origins a sign-in form or request may come from (this server's). */
  allowedOrigins: ReadonlySet<string>;
  limits?: { perAddress: AttemptLimiter; perUser: AttemptLimiter };
  log?: (message: string) => void;
}

const MAX_BODY = 8 * 1024;
const SSO_COOKIE = 'cdr_console_sso';

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** The session token a request carries: the cookie, or `Authorization: Bearer`. */
export function tokenOf(req: IncomingMessage, cookieName: string): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7).trim();
  return cookieValue(req.headers.cookie, cookieName);
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY) {
      reject(new BodyError(413, `A sign-in request has at most ${MAX_BODY} bytes.`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new BodyError(413, `A sign-in request has at most ${MAX_BODY} bytes.`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => reject(new BodyError(400, 'The request was cut off.')));
  });
}

/** The sign-in page may post its form to this server (the console's own policy forbids forms). */
const PAGE_CSP = CONTENT_SECURITY_POLICY.replace("form-action 'none'", "form-action 'self'");

export function signInPage(o: {
  message?: string;
  name?: string;
  sso?: string;
  noUsers?: boolean;
  signedOut?: boolean;
  /** Signed out of the console, but the identity provider could not be asked to end its own session. */
  providerStill?: boolean;
  /** Single sign-on is set but cannot be used now: why (the page offers passwords only). */
  ssoDown?: string;
}): string {
  const notice = o.message
    ? `<p class="error" role="alert">${escapeHtml(o.message)}</p>`
    : o.signedOut
      ? o.providerStill
        ? '<p class="info" role="status">You are signed out of the console. You may still be signed in at your identity provider, which offers no sign-out to the console: on a shared computer, sign out there too, or close the browser.</p>'
        : '<p class="info" role="status">You are signed out.</p>'
      : '';
  const none = o.noUsers
    ? `<p class="info" role="status">No one can sign in yet: an admin adds the first user on the server with <code>npm run -s cli -- --data-dir DIR users add --name NAME --display-name "Full Name" --role admin --password-stdin</code> (DIR: the server's data directory, which it printed at start).</p>`
    : '';
  const sso = o.ssoDown
    ? `<p class="info" role="status">${escapeHtml(o.ssoDown)}</p>`
    : o.sso
      ? // A link, not a form: the page's form-action 'self' would stop a form's redirect to the provider.
        `<div class="or"><span>or</span></div><a class="button secondary" href="/signin/oidc">${escapeHtml(o.sso)}</a>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign in · CDR Console</title>
<style>
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --text: #1f2328; --muted: #59636e; --border: #d0d7de; --accent: #1c64d8; --accent-text: #fff; --error: #b42318; --error-bg: #fdecea; --info-bg: #eef4ff; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181d; --card: #1f2228; --text: #e6e8eb; --muted: #a4abb5; --border: #3a3f47; --accent: #4d8ef7; --accent-text: #0b0d10; --error: #ff8a80; --error-bg: #3a1f1f; --info-bg: #1e2a3d; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: min(380px, 92vw); background: var(--card); border: 1px solid var(--border); border-radius: 10px; padding: 28px; }
h1 { font-size: 20px; margin: 0 0 4px; }
.sub { color: var(--muted); margin: 0 0 20px; font-size: 14px; }
label { display: block; font-weight: 600; margin: 14px 0 6px; font-size: 14px; }
input { width: 100%; padding: 9px 10px; border: 1px solid var(--border); border-radius: 6px; background: var(--card); color: var(--text); font: inherit; }
input:focus-visible, button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button { margin-top: 20px; width: 100%; padding: 10px; border: 0; border-radius: 6px; background: var(--accent); color: var(--accent-text); font: inherit; font-weight: 600; cursor: pointer; }
a.button { display: block; box-sizing: border-box; text-align: center; text-decoration: none; padding: 10px; border-radius: 6px; font-weight: 600; }
.secondary { background: transparent; color: var(--text); border: 1px solid var(--border); }
a.button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.error { background: var(--error-bg); color: var(--error); padding: 10px 12px; border-radius: 6px; margin: 0 0 8px; }
.info { background: var(--info-bg); padding: 10px 12px; border-radius: 6px; margin: 0 0 8px; font-size: 14px; }
code { font-size: 12px; word-break: break-word; }
.or { display: flex; align-items: center; gap: 8px; color: var(--muted); margin: 18px 0; font-size: 13px; }
.or::before, .or::after { content: ""; flex: 1; border-top: 1px solid var(--border); }
</style>
</head>
<body>
<main>
<h1>CDR Console</h1>
<p class="sub">Sign in to the team server</p>
${notice}${none}
<form method="post" action="/signin">
<label for="user">User name</label>
<input id="user" name="user" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="100" value="${escapeHtml(o.name ?? '')}"${o.name ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${o.name ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>
${sso}
</main>
</body>
</html>
`;
}

export interface SignInRoutes {
  /**
   * Handles the request when it is a sign-in route, or when it has no session (then it answers
   * 401, or sends a page to /signin); otherwise calls `next` with the person.
   */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, next: (caller: Caller) => void): void;
  /** Who an IPC connection's upgrade request is (and its token, to check again later), or null. */
  identify(req: IncomingMessage): Promise<{ caller: Caller; session: string; token: string } | null>;
}

export function signInRoutes(o: SignInRoutesOptions): SignInRoutes {
  const { service } = o;
  const log = o.log ?? (() => {});
  const secure = o.secure ? '; Secure' : '';
  const sessionCookie = (token: string, expiresAt: string) =>
    `${o.cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/${secure}; Expires=${new Date(expiresAt).toUTCString()}`;
  const clearCookie = (name: string) => `${name}=; HttpOnly; SameSite=Strict; Path=/${secure}; Max-Age=0`;
  // The provider sends the browser back from its own site: a Strict cookie would not come with it.
  const ssoCookie = (id: string) => `${SSO_COOKIE}=${id}; HttpOnly; SameSite=Lax; Path=/signin/oidc${secure}; Max-Age=600`;
  /** Single sign-ons under way: what each must match when the browser comes back (10 minutes at most). */
  const pendingSso = new Map<string, { pending: unknown; at: number }>();

  const send = (res: ServerResponse, status: number, body: string, type: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...o.headers, ...headers });
    res.end(body);
  };
  const page = async (
    res: ServerResponse,
    status: number,
    view: Parameters<typeof signInPage>[0],
    headers: Record<string, string> = {},
  ) => {
    // The provider's button only while it can be used: a wrong or unreachable issuer offers passwords, saying why.
    const sso = service.sso ? await (service.sso.available?.() ?? Promise.resolve({ ok: true, message: null })) : null;
    const offer = sso?.ok ? { sso: service.sso!.label } : sso?.message ? { ssoDown: sso.message } : {};
    send(res, status, signInPage({ ...view, ...offer }), 'text/html; charset=utf-8', {
      'content-security-policy': PAGE_CSP,
      // Under no-referrer a browser posts the form with "Origin: null", which the host refuses (as
      // it must: a sandboxed frame anywhere sends that too); same-origin lets it name this server.
      'referrer-policy': 'same-origin',
      ...headers,
    });
  };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    send(res, status, JSON.stringify(body), 'application/json; charset=utf-8', headers);

  /** Whether the limits let this attempt through; if not, the answer is sent. */
  function limited(req: IncomingMessage, res: ServerResponse, name: string | null, asJson: boolean): boolean {
    if (!o.limits) return false;
    const address = o.clientOf(req).address;
    const byAddress = o.limits.perAddress.take(address);
    // Per name from this address: someone elsewhere hammering a name does not slow its owner down.
    const byUser = name ? o.limits.perUser.take(`${attemptKey(name)} ${addressKey(address)}`) : ({ ok: true } as const);
    const refused = !byAddress.ok ? byAddress : !byUser.ok ? byUser : null;
    if (!refused) return false;
    const message = `Too many sign-in attempts: try again in ${refused.retryAfterSeconds} s.`;
    log(`sign-in refused by the rate limit (${address}${name ? `, user ${attemptKey(name)}` : ''})`);
    const headers = { 'retry-after': String(refused.retryAfterSeconds) };
    if (asJson) json(res, 429, { error: message }, headers);
    else void page(res, 429, { message, ...(name ? { name: name.slice(0, 100) } : {}) }, headers);
    return true;
  }

  const originOk = (req: IncomingMessage, required: boolean) => {
    const origin = req.headers.origin;
    return origin === undefined ? !required : o.allowedOrigins.has(origin);
  };

  async function formSignIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A form posted from anywhere else is refused (browsers send Origin with every POST).
    if (!originOk(req, true)) return page(res, 403, { message: 'This sign-in form did not come from this server.' });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return page(res, 415, { message: 'The sign-in form was sent in a form this server does not read.' });
    const form = new URLSearchParams(await readBody(req));
    const name = form.get('user') ?? '';
    const password = form.get('password') ?? '';
    if (limited(req, res, name, false)) return;
    if (!name.trim() || !password) return page(res, 400, { message: 'Enter your user name and password.', name: name.slice(0, 100) });
    const result = await service.signInWithPassword(name, password, o.clientOf(req));
    if (!result.ok) return page(res, 401, { message: result.message, name: name.slice(0, 100) });
    send(res, 303, 'Signed in.', 'text/plain; charset=utf-8', {
      location: '/',
      'set-cookie': sessionCookie(result.token, result.expiresAt),
    });
  }

  async function apiSignIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!originOk(req, false)) return json(res, 403, { error: 'Origin is not this server.' });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return json(res, 415, { error: 'Send {"user": …, "password": …} as application/json.' });
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (error) {
      if (error instanceof BodyError) throw error;
      return json(res, 400, { error: 'The body is not JSON.' });
    }
    const { user, password } = (typeof body === 'object' && body !== null ? body : {}) as { user?: unknown; password?: unknown };
    if (typeof user !== 'string' || typeof password !== 'string' || !user.trim() || !password)
      return json(res, 400, { error: 'Send {"user": …, "password": …}, both non-empty strings.' });
    if (limited(req, res, user, true)) return;
    const result = await service.signInWithPassword(user, password, o.clientOf(req));
    if (!result.ok) return json(res, 401, { error: result.message, reason: result.reason });
    json(
      res,
      200,
      { user: publicCaller(result.caller), token: result.token, expiresAt: result.expiresAt },
      { 'set-cookie': sessionCookie(result.token, result.expiresAt) },
    );
  }

  async function apiSignOut(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A page of another site must not sign people out: its fetch carries its Origin.
    if (!originOk(req, false)) return json(res, 403, { error: 'Origin is not this server.' });
    let everywhere = false;
    const text = await readBody(req);
    if (text.trim()) {
      try {
        everywhere = (JSON.parse(text) as { everywhere?: unknown })?.everywhere === true;
      } catch {
        return json(res, 400, { error: 'The body is not JSON.' });
      }
    }
    const token = tokenOf(req, o.cookieName);
    const who = await service.identify(token, { touch: false });
    const done = await service.signOut(token, everywhere, o.clientOf(req));
    // A person who came through single sign-on is also signed out at the provider (RP-Initiated
    // Logout): the browser goes there next, and comes back to the sign-in page. A provider without
    // an end-session endpoint: the sign-in page says they may still be signed in there.
    let provider: { endSession: string | null } | undefined;
    if (done && who?.caller.method === 'oidc' && service.sso?.endSession) {
      try {
        provider = { endSession: await service.sso.endSession() };
      } catch (error) {
        log(`the identity provider's sign-out address could not be read: ${(error as Error)?.message}`);
        provider = { endSession: null };
      }
    }
    json(res, done ? 200 : 401, done ? { signedOut: true, everywhere, ...(provider ? { provider } : {}) } : { error: 'Not signed in.' }, {
      'set-cookie': clearCookie(o.cookieName),
    });
  }

  async function ssoBegin(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sso = service.sso!;
    // Opened as localhost when the provider sends people back to 127.0.0.1 (or the other way round):
    // the pending sign-in's cookie would be on the other name and the callback would not find it.
    // The browser goes to the name the callback is registered at first (issue 35).
    if (sso.home && req.headers.host && new URL(sso.home).host !== req.headers.host)
      return send(res, 303, 'Single sign-on works at this server’s registered address.', 'text/plain; charset=utf-8', {
        location: `${sso.home}/signin/oidc`,
      });
    let started: { url: string; pending: unknown };
    try {
      started = await sso.begin();
    } catch (error) {
      log(`single sign-on could not start: ${(error as { detail?: string })?.detail ?? (error as Error)?.message}`);
      return page(res, 503, {
        message: `Single sign-on is not available right now (${(error as Error)?.message ?? 'the identity provider did not answer'}). Sign in with your user name and password, or try again later.`,
      });
    }
    const { url, pending } = started;
    const id = randomBytes(24).toString('base64url');
    const now = Date.now();
    for (const [k, v] of pendingSso) if (now - v.at > 600_000) pendingSso.delete(k);
    if (pendingSso.size > 10_000) pendingSso.delete(pendingSso.keys().next().value!);
    pendingSso.set(id, { pending, at: now });
    send(res, 303, 'To the identity provider.', 'text/plain; charset=utf-8', { location: url, 'set-cookie': ssoCookie(id) });
  }

  async function ssoCallback(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const sso = service.sso!;
    const id = cookieValue(req.headers.cookie, SSO_COOKIE);
    const held = id ? pendingSso.get(id) : undefined;
    if (id) pendingSso.delete(id);
    const clear = { 'set-cookie': `${SSO_COOKIE}=; HttpOnly; SameSite=Lax; Path=/signin/oidc${secure}; Max-Age=0` };
    if (!held || Date.now() - held.at > 600_000)
      return page(res, 400, { message: 'This single sign-on was not started here, or took more than 10 minutes: sign in again.' }, clear);
    const result = await sso.finish(url, held.pending, o.clientOf(req));
    if (!result.ok) return page(res, 401, { message: result.message }, clear);
    // The provider's redirect is a cross-site navigation: the Strict cookie is set here and sent from
    // the next same-site request on, so the browser is sent on through a page of ours.
    res.writeHead(303, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...o.headers,
      location: '/',
      'set-cookie': [sessionCookie(result.token, result.expiresAt), clear['set-cookie']],
    });
    res.end('Signed in.');
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL, next: (caller: Caller) => void): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/signin') {
      if (method === 'POST') return formSignIn(req, res);
      if (method !== 'GET' && method !== 'HEAD')
        return send(res, 405, 'Method not allowed.', 'text/plain; charset=utf-8', { allow: 'GET, POST' });
      if (await service.identify(tokenOf(req, o.cookieName)))
        return send(res, 303, 'Signed in already.', 'text/plain; charset=utf-8', { location: '/' });
      return page(res, 200, {
        noUsers: await service.noUsersYet(),
        signedOut: url.searchParams.has('signed-out'),
        providerStill: url.searchParams.has('provider-session'),
      });
    }
    if (path === '/signin/oidc' || path === '/signin/oidc/callback') {
      if (!service.sso) return page(res, 404, { message: 'This server has no single sign-on: sign in with your user name and password.' });
      if (method !== 'GET') return send(res, 405, 'Method not allowed.', 'text/plain; charset=utf-8', { allow: 'GET' });
      if (path === '/signin/oidc') {
        if (limited(req, res, null, false)) return;
        return ssoBegin(req, res);
      }
      return ssoCallback(req, res, url);
    }
    if (path === '/api/signin') {
      if (method !== 'POST') return json(res, 405, { error: 'POST {"user", "password"} as JSON.' }, { allow: 'POST' });
      return apiSignIn(req, res);
    }
    if (path === '/api/signout') {
      if (method !== 'POST') return json(res, 405, { error: 'POST to sign out.' }, { allow: 'POST' });
      return apiSignOut(req, res);
    }
    const found = await service.identify(tokenOf(req, o.cookieName));
    if (path === '/api/session') {
      if (method !== 'GET') return json(res, 405, { error: 'GET only.' }, { allow: 'GET' });
      return found
        ? json(res, 200, { user: publicCaller(found.caller), expiresAt: found.expiresAt })
        : json(res, 401, { error: 'Not signed in.', signIn: '/signin' });
    }
    if (found) return next(found.caller);
    if (method !== 'GET' && method !== 'HEAD') return send(res, 401, 'Not signed in.', 'text/plain; charset=utf-8');
    // A page (the console, or an address typed) goes to the sign-in page; an asset or a download gets 401.
    const wantsPage = path === '/' || path === '/index.html' || String(req.headers.accept ?? '').includes('text/html');
    if (wantsPage) return send(res, 303, 'Sign in first.', 'text/plain; charset=utf-8', { location: '/signin' });
    send(res, 401, 'Not signed in: sign in at /signin.', 'text/plain; charset=utf-8');
  }

  return {
    handle(req, res, url, next) {
      route(req, res, url, next).catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        if (error instanceof BodyError) return send(res, error.status, error.message, 'text/plain; charset=utf-8', { connection: 'close' });
        // The people store unreachable, say: the person is told, the log has the reason.
        log(`sign-in request failed: ${(error as Error)?.message}`);
        send(
          res,
          503,
          'Signing in is not possible right now (the team database cannot be reached): try again in a moment.',
          'text/plain; charset=utf-8',
          {
            'retry-after': '5',
          },
        );
      });
    },
    async identify(req) {
      const token = tokenOf(req, o.cookieName);
      const found = token ? await service.identify(token) : null;
      return found && token ? { caller: found.caller, session: found.session, token } : null;
    },
  };
}

const publicCaller = (c: Caller) => ({
  userId: c.userId,
  userName: c.userName,
  displayName: c.displayName,
  role: c.role,
  method: c.method,
});
