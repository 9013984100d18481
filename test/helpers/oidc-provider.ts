import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Account, type Interaction } from 'oidc-provider';

/**
 * A real OpenID provider (the `oidc-provider` package, certified by the OpenID Foundation) on
 * 127.0.0.1 at a free port, for the team server's single sign-on tests: discovery, signed ID
 * tokens, PKCE, the token and UserInfo endpoints are the package's own. Only the login and consent
 * pages are ours, and they are plain HTTP, so `signIn()` drives a person's whole visit with fetch
 * (manual redirects, a cookie jar) and hands back the callback URL the browser would be sent to.
 *
 *     const idp = await startOidcProvider({ redirectUri: 'http://127.0.0.1:4321/signin/oidc/callback' });
 *     const oidc = await openOidc({ issuer: idp.issuer, ...idp.clients.main, groupRoles: { 'cdr-support': 'support' } });
 *     const { url, pending } = await oidc.begin();
 *     const callback = await idp.signIn(url, 'alice');        // or { decline: true } → ?error=access_denied
 *     const identity = await oidc.finish(callback, pending);
 *     await idp.close();                                       // also unref'd: never keeps a test process alive
 *
 * The login page: GET /interaction/:uid answers JSON `{ uid, prompt }` (`login` or `consent`);
 * POST /interaction/:uid/login with `login=<username>` signs a person in; POST …/confirm grants
 * what the client asked for; POST …/abort answers the client with access_denied.
 *
 * Clients (all registered for `redirectUri`): `main` (confidential, client_secret_basic), `other`
 * (another confidential client: tokens issued to it carry its audience) and `public` (no
 * secret: PKCE only). Scopes openid, profile, email and groups (the `groups` claim, and the
 * people's `extra` claims).
 */

export interface TestPerson {
  /** The `sub`. */
  id: string;
  /** preferred_username; also what the login form takes. */
  username?: string;
  name?: string;
  email?: string;
  groups?: string[];
  /** More claims, given with the groups scope (e.g. Keycloak's `realm_access: { roles: [...] }`). */
  extra?: Record<string, unknown>;
}

export interface TestOidcClient {
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
}

export const TEST_PEOPLE: readonly TestPerson[] = [
  {
    id: 'u-alice',
    username: 'alice',
    name: 'Alice Nguyen',
    email: 'alice@example.test',
    groups: ['staff', 'cdr-support'],
    extra: { realm_access: { roles: ['offline', 'cdr-compliance'] } },
  },
  { id: 'u-bob', username: 'bob', name: 'Bob Okafor', email: 'bob@example.test', groups: ['cdr-support', 'cdr-admin'] },
  { id: 'u-carol', username: 'carol', name: 'Carol Smith', email: 'carol@example.test', groups: ['marketing'] },
  { id: 'u-dave', username: 'dave', name: 'Dave Lee', groups: ['cdr-compliance', 'cdr-support'] },
  // No preferred_username and no name: the console falls back to the email.
  { id: 'u-erin', email: 'erin@example.test', groups: ['cdr-viewers'] },
];

export interface OidcProviderOptions {
  /** The redirect URI every client is registered with. Default http://127.0.0.1:9/signin/oidc/callback (never fetched). */
  redirectUri?: string;
  /** Where `main` may send a browser back after the provider's sign-out (RP-Initiated Logout). */
  postLogoutRedirectUri?: string;
  /** false: the provider offers no sign-out to clients (no end_session_endpoint), as some do not. */
  rpInitiatedLogout?: boolean;
  people?: readonly TestPerson[];
  /** The ID token's lifetime. Default 3600 s (oidc-provider's). */
  idTokenTtlSeconds?: number;
  /**
   * true: the profile, email and groups claims are in the ID token too. Default false: as
   * oidc-provider (and many providers) do for the code flow, they are in UserInfo only.
   */
  claimsInIdToken?: boolean;
}

export interface TestBrowser {
  jar: Map<string, string>;
  /** The provider's prompts this browser was shown (`login`, `consent`), in order. */
  prompts: string[];
}

export interface TestOidcProvider {
  /** http://127.0.0.1:<port> */
  issuer: string;
  clients: { main: TestOidcClient; other: TestOidcClient; public: TestOidcClient };
  people: readonly TestPerson[];
  /**
   * A person's visit, from the authorization URL to the redirect back to the client: signs in
   * `username` (and consents), or declines. Resolves to the callback URL, not fetched. `browser`:
   * one browser's cookies across visits (the provider's session), and the prompts it was shown.
   */
  signIn(authorizationUrl: string | URL, as: string | { decline: true }, browser?: TestBrowser): Promise<URL>;
  /** A browser that keeps the provider's cookies from one visit to the next. */
  browser(): TestBrowser;
  /** The provider's sign-out page (end_session_endpoint) in `browser`, confirmed; resolves to where it sends the browser back. */
  signOut(endSessionUrl: string | URL, browser: TestBrowser): Promise<URL>;
  provider: Provider;
  close(): Promise<void>;
}

export async function startOidcProvider(opts: OidcProviderOptions = {}): Promise<TestOidcProvider> {
  const redirectUri = opts.redirectUri ?? 'http://127.0.0.1:9/signin/oidc/callback';
  const people = opts.people ?? TEST_PEOPLE;
  const clients = {
    main: { clientId: 'cdr-console', clientSecret: randomBytes(24).toString('base64url'), redirectUri },
    other: { clientId: 'other-app', clientSecret: randomBytes(24).toString('base64url'), redirectUri },
    public: { clientId: 'cdr-console-public', redirectUri },
  };

  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clients.main.clientId,
        client_secret: clients.main.clientSecret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
        ...(opts.postLogoutRedirectUri ? { post_logout_redirect_uris: [opts.postLogoutRedirectUri] } : {}),
      },
      {
        client_id: clients.other.clientId,
        client_secret: clients.other.clientSecret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      { client_id: clients.public.clientId, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email'],
      groups: ['groups', 'realm_access'],
    },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'groups'],
    conformIdTokenClaims: !opts.claimsInIdToken,
    ttl: { IdToken: opts.idTokenTtlSeconds ?? 3600, AccessToken: 600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600 },
    adapter: MemoryAdapter,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: opts.rpInitiatedLogout ?? true,
        // Our own page, as the login pages are: the provider's form and one button.
        logoutSource: (ctx: { body: unknown }, form: string) => {
          ctx.body = `<!doctype html><title>Sign out</title>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`;
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, id: string): Account | undefined => {
      const person = people.find((p) => p.id === id);
      if (!person) return undefined;
      return {
        accountId: person.id,
        claims: () => ({
          sub: person.id,
          ...(person.username === undefined ? {} : { preferred_username: person.username }),
          ...(person.name === undefined ? {} : { name: person.name }),
          ...(person.email === undefined ? {} : { email: person.email }),
          ...(person.groups === undefined ? {} : { groups: person.groups }),
          ...person.extra,
        }),
      };
    },
  });
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, action: string | undefined): Promise<void> {
    const details: Interaction = await provider.interactionDetails(req, res);
    if (req.method === 'GET' && !action) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ uid: details.uid, prompt: details.prompt.name }));
      return;
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const form = new URLSearchParams(await body(req));
    if (action === 'abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
    } else if (action === 'login') {
      const person = people.find((p) => (p.username ?? p.email ?? p.id) === form.get('login'));
      if (!person) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('no such person');
      await provider.interactionFinished(req, res, { login: { accountId: person.id } }, { mergeWithLastSubmission: false });
    } else if (action === 'confirm') {
      const accountId = details.session?.accountId;
      if (!accountId) return void res.writeHead(400).end('not signed in');
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      if (!grant) return void res.writeHead(400).end('no grant');
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
        grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
    } else {
      res.writeHead(404).end();
    }
  }

  handler = (req, res) => {
    const match = /^\/interaction\/([^/?]+)(?:\/(login|confirm|abort))?(?:\?|$)/.exec(req.url ?? '');
    if (!match) return callback(req, res);
    interaction(req, res, match[2]).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  };

  const browser = (): TestBrowser => ({ jar: new Map(), prompts: [] });
  const keep = (jar: Map<string, string>, res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookieHeader = (jar: Map<string, string>) => (jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {});

  async function signOut(endSessionUrl: string | URL, b: TestBrowser): Promise<URL> {
    let url = new URL(endSessionUrl);
    let form: URLSearchParams | undefined;
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== issuer) return url;
      const res = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: { ...cookieHeader(b.jar), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body: form ?? null,
      });
      keep(b.jar, res);
      form = undefined;
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
      if (res.status !== 200 || !action || !xsrf) throw new Error(`signOut: ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`);
      url = new URL(action.replace(/&amp;/g, '&'), url);
      form = new URLSearchParams({ xsrf, logout: 'yes' });
    }
    throw new Error('signOut: too many redirects');
  }

  async function signIn(authorizationUrl: string | URL, as: string | { decline: true }, b: TestBrowser = browser()): Promise<URL> {
    const jar = b.jar;
    let url = new URL(authorizationUrl);
    let method = 'GET';
    let form: URLSearchParams | undefined;
    for (let hop = 0; hop < 20; hop++) {
      if (method === 'GET' && url.href.startsWith(`${redirectUri}?`)) return url;
      const res = await fetch(url, {
        method,
        redirect: 'manual',
        headers: { ...cookieHeader(jar), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body: form ?? null,
      });
      keep(jar, res);
      method = 'GET';
      form = undefined;
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      if (res.status === 200 && url.pathname.startsWith('/interaction/')) {
        const page = (await res.json()) as { uid: string; prompt: string };
        b.prompts.push(page.prompt);
        method = 'POST';
        if (typeof as !== 'string') {
          url = new URL(`/interaction/${page.uid}/abort`, issuer);
          form = new URLSearchParams();
        } else if (page.prompt === 'login') {
          url = new URL(`/interaction/${page.uid}/login`, issuer);
          form = new URLSearchParams({ login: as });
        } else {
          url = new URL(`/interaction/${page.uid}/confirm`, issuer);
          form = new URLSearchParams();
        }
        continue;
      }
      throw new Error(`signIn: ${res.status} at ${url.pathname}: ${(await res.text()).slice(0, 300)}`);
    }
    throw new Error('signIn: too many redirects');
  }

  return {
    issuer,
    clients,
    people,
    signIn,
    browser,
    signOut,
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * oidc-provider's storage for one model (it makes one per model and provider), in memory: its
 * own quick-start adapter warns at every start.
 */
class MemoryAdapter {
  private readonly items = new Map<string, { payload: Record<string, unknown>; expiresAt: number }>();

  async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
    this.items.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
  }
  async find(id: string) {
    const item = this.items.get(id);
    if (item && item.expiresAt <= Date.now()) this.items.delete(id);
    return this.items.get(id)?.payload;
  }
  async findByUid(uid: string) {
    for (const [id, { payload }] of this.items) if (payload.uid === uid) return this.find(id);
    return undefined;
  }
  async findByUserCode(userCode: string) {
    for (const [id, { payload }] of this.items) if (payload.userCode === userCode) return this.find(id);
    return undefined;
  }
  async consume(id: string) {
    const item = this.items.get(id);
    if (item) item.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    this.items.delete(id);
  }
  async revokeByGrantId(grantId: string) {
    for (const [id, { payload }] of this.items) if (payload.grantId === grantId) this.items.delete(id);
  }
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
