import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { JWK } from 'jose';
import {
  ALL_SCOPES,
  createAssertionVerifier,
  createTokenIssuer,
  JWT_BEARER_ASSERTION,
  readClientCredentials,
  secretMatches,
} from './auth.js';
import { consentRoutes, revoke } from './consent-routes.js';
import { changeProductFee, dataRoutes } from './data-routes.js';
import type { Route, SandboxContext } from './context.js';
import { DataHolder } from './data-holder.js';
import { Faults, FaultSpecError, parseFaultSpec } from './faults.js';
import { bodyFaults, BodyTooLarge, err, readBody, readJsonObject, sendErrors, sendJson } from './http.js';
import { WebhookSender } from './webhooks.js';
import { World } from './world.js';

/**
 * The intermediary sandbox: the Consent API, OAuth2 client credentials, a simulated data holder,
 * webhooks, fault injection and a loopback admin API, over deterministic seeded data.
 */
export interface SandboxOptions {
  port?: number;
  seed?: number;
  consents?: number;
  eventsPerConsent?: number;
  /** Data API transactions per account on average, skewed (benchmarks); default 10–40. */
  transactionsPerAccount?: number;
  /** With transactionsPerAccount: this many transactions in one consent (the first with any). */
  largestConsentTransactions?: number;
  /** The first K data holders serve Data API 1.x shapes. */
  legacyHolders?: number;
  clientId?: string;
  clientSecret?: string;
  /** Public keys registered for private_key_jwt client authentication. */
  clientJwks?: JWK[];
  webhookUrl?: string;
  webhookRetryDelaysMs?: number[];
  faults?: string;
  /** Where API changes persist across restarts. */
  stateFile?: string;
  clockOrigin?: string;
  /** The clock follows real time from the origin (a new state file: now); see World. */
  realTime?: boolean;
  tokenLifetimeSeconds?: number;
}

export const SANDBOX_DEFAULTS = {
  seed: 1,
  consents: 500,
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  tokenLifetimeSeconds: 3600,
} as const;

export interface RunningSandbox {
  url: string;
  port: number;
  world: World;
  /** Resolves when webhook deliveries in progress are done. */
  webhooksIdle(): Promise<void>;
  /** Every access token issued so far expires now (as POST /__sandbox/tokens/expire). */
  expireTokens(): number;
  /** Tells `listener` of each request as it arrives, before it is handled (tests: counting DELETEs, a kill as one reaches it); returns the way to stop. */
  onRequest(listener: (method: string, path: string) => void): () => void;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const faults = new Faults();
  if (opts.faults) faults.rules = parseFaultSpec(opts.faults);
  const world = new World({
    seed: opts.seed ?? SANDBOX_DEFAULTS.seed,
    consents: opts.consents ?? SANDBOX_DEFAULTS.consents,
    ...(opts.clockOrigin ? { clockOrigin: opts.clockOrigin } : {}),
    ...(opts.realTime ? { realTime: true } : {}),
    ...(opts.eventsPerConsent !== undefined ? { eventsPerConsent: opts.eventsPerConsent } : {}),
    ...(opts.stateFile ? { stateFile: opts.stateFile } : {}),
    ...(opts.transactionsPerAccount !== undefined
      ? {
          transactions: {
            perAccount: opts.transactionsPerAccount,
            ...(opts.largestConsentTransactions !== undefined ? { largest: opts.largestConsentTransactions } : {}),
          },
        }
      : {}),
  });
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const client = { clientId: opts.clientId ?? SANDBOX_DEFAULTS.clientId, clientSecret: opts.clientSecret ?? SANDBOX_DEFAULTS.clientSecret };
  const issuer = await createTokenIssuer(url, opts.tokenLifetimeSeconds ?? SANDBOX_DEFAULTS.tokenLifetimeSeconds);
  const dataHolder = await DataHolder.create(`${url}/__dataholder`, client.clientId, () => world.now());
  const ctx: SandboxContext = {
    url,
    world,
    issuer,
    dataHolder,
    faults,
    client,
    webhookTarget: opts.webhookUrl,
    legacyHolders: opts.legacyHolders ?? 0,
    webhooks: undefined as unknown as WebhookSender,
  };
  ctx.webhooks = new WebhookSender({
    target: () => ctx.webhookTarget,
    record: (consentId, type, detail) => {
      const i = world.indexOf(consentId);
      if (i !== undefined) world.recordEvent(i, type, detail, false);
    },
    ...(opts.webhookRetryDelaysMs ? { retryDelaysMs: opts.webhookRetryDelaysMs } : {}),
  });
  const unsubscribe = world.onEvent((e) => ctx.webhooks.deliver(e));
  const verifyAssertion = opts.clientJwks?.length
    ? createAssertionVerifier(client.clientId, opts.clientJwks, `${url}/oauth2/token`, () => world.now())
    : undefined;

  const routes: Route[] = [
    { method: 'POST', pattern: /^\/oauth2\/token$/, scope: null, handler: (req, res) => token(ctx, req, res, verifyAssertion) },
    {
      method: 'GET',
      pattern: /^\/\.well-known\/jwks\.json$/,
      scope: null,
      handler: (_q, res) => sendJson(res, 200, { keys: [issuer.publicJwk] }),
    },
    {
      method: 'GET',
      pattern: /^\/__dataholder\/jwks\.json$/,
      scope: null,
      handler: (_q, res) => sendJson(res, 200, { keys: [dataHolder.publicJwk] }),
    },
    { method: 'GET', pattern: /^\/__dataholder\/authorize$/, scope: null, handler: (_q, res, _p, u) => dataHolderAuthorize(ctx, res, u) },
    ...consentRoutes,
    ...dataRoutes,
    ...adminRoutes,
  ];

  const listeners = new Set<(method: string, path: string) => void>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    for (const listener of listeners) listener(req.method ?? 'GET', new URL(req.url ?? '/', url).pathname);
    handle(ctx, routes, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendErrors(res, 500, [err.unexpected((error as Error).message)]);
      else res.destroy();
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url,
    port,
    world,
    webhooksIdle: () => ctx.webhooks.idle(),
    expireTokens: () => issuer.expireAll(),
    onRequest: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

async function handle(ctx: SandboxContext, routes: Route[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', ctx.url);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const internal = path.startsWith('/__');
  if (!internal) {
    // A rule's prefix is matched against the path and its query ("/consents/v2?page=3&" picks one page).
    for (const fault of ctx.faults.pick(`${path}${url.search}`, req.method)) {
      if (fault.kind === 'latency') await new Promise((r) => setTimeout(r, fault.value));
      else if (fault.kind === 'drop') return void req.socket.destroy();
      else if (fault.kind === 'drop-after') loseAnswer(req, res);
      else if (fault.kind === 'malformed' || fault.kind === 'truncated' || fault.kind === 'reset') bodyFaults.set(res, fault.kind);
      else if (fault.status === 429)
        return sendErrors(
          res,
          429,
          [{ code: 'urn:au-cds:error:cds-all:GeneralError/TooManyRequests', title: 'Too Many Requests', detail: 'Injected fault' }],
          { 'retry-after': String(fault.value ?? 1) },
        );
      else if (fault.status) return sendErrors(res, fault.status, [err.unexpected('Injected fault')]);
    }
  }
  const matching = routes.filter((r) => r.pattern.test(path));
  const route = matching.find((r) => r.method === req.method);
  if (!route) {
    if (matching.length)
      return sendErrors(res, 405, [err.invalidField(`${req.method} is not allowed on ${path}`)], {
        allow: matching.map((r) => r.method).join(', '),
      });
    return sendErrors(res, 404, [err.notFound(`${req.method} ${path} does not exist`)]);
  }
  if (route.scope !== null && !(await authorize(ctx, req, res, route.scope))) return;
  const params = route.pattern.exec(path)!.slice(1);
  await route.handler(req, res, params, url, ctx);
}

/** The request is carried out, but its answer never leaves: the connection is destroyed instead. */
function loseAnswer(req: IncomingMessage, res: ServerResponse): void {
  const drop = () => {
    req.socket.destroy();
    return res;
  };
  res.writeHead = drop as unknown as ServerResponse['writeHead'];
  res.write = (() => (drop(), true)) as unknown as ServerResponse['write'];
  res.end = drop as unknown as ServerResponse['end'];
}

async function token(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  verifyAssertion?: ReturnType<typeof createAssertionVerifier>,
): Promise<void> {
  let body: string;
  try {
    body = await readBody(req, 64_000);
  } catch (error) {
    if (error instanceof BodyTooLarge) return sendJson(res, 413, { error: 'invalid_request', error_description: error.message });
    throw error;
  }
  const form = new URLSearchParams(body);
  const grant = form.get('grant_type');
  if (grant !== 'client_credentials') {
    return sendJson(res, 400, {
      error: 'unsupported_grant_type',
      error_description: `grant_type ${grant ?? '(missing)'} is not supported; use client_credentials`,
    });
  }
  let clientId: string | undefined;
  const assertion = form.get('client_assertion');
  if (assertion !== null) {
    if (form.get('client_assertion_type') !== JWT_BEARER_ASSERTION)
      return sendJson(res, 400, { error: 'invalid_request', error_description: `client_assertion_type must be ${JWT_BEARER_ASSERTION}` });
    if (!verifyAssertion)
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'no key is registered for private_key_jwt' });
    const checked = await verifyAssertion(assertion);
    if (!checked.ok) return sendJson(res, 401, { error: 'invalid_client', error_description: checked.reason });
    clientId = ctx.client.clientId;
  } else {
    const creds = readClientCredentials(req.headers.authorization, form);
    if (!creds || creds.clientId !== ctx.client.clientId || !secretMatches(creds.clientSecret, ctx.client.clientSecret)) {
      const headers: Record<string, string> = creds?.via === 'post' ? {} : { 'www-authenticate': 'Basic realm="cdr-sandbox"' };
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' }, headers);
    }
    clientId = creds.clientId;
  }
  const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
  const unknown = requested.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  if (unknown.length) return sendJson(res, 400, { error: 'invalid_scope', error_description: `unknown scope: ${unknown.join(' ')}` });
  sendJson(res, 200, await ctx.issuer.issue(clientId, requested.length ? requested : ALL_SCOPES));
}

/** Checks the bearer token and the scope; answers 401 or 403 itself and returns false when refused. */
async function authorize(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, scope: string): Promise<boolean> {
  const header = req.headers.authorization;
  const token = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : '';
  if (!token) {
    sendErrors(
      res,
      401,
      [{ code: 'urn:au-cds:error:cds-all:Authorisation/Unauthorized', title: 'Unauthorized', detail: 'A bearer access token is required' }],
      { 'www-authenticate': 'Bearer realm="cdr-sandbox"' },
    );
    return false;
  }
  const result = await ctx.issuer.verify(token);
  if ('error' in result) {
    sendErrors(
      res,
      401,
      [{ code: 'urn:au-cds:error:cds-all:Authorisation/InvalidBearerToken', title: 'Invalid Bearer Token', detail: result.error }],
      {
        'www-authenticate': `Bearer realm="cdr-sandbox", error="invalid_token", error_description="${result.error}"`,
      },
    );
    return false;
  }
  if (scope !== '' && !result.scopes.has(scope)) {
    sendErrors(
      res,
      403,
      [
        {
          code: 'urn:au-cds:error:cds-all:Authorisation/InsufficientScope',
          title: 'Insufficient Scope',
          detail: `The token lacks the scope ${scope}`,
        },
      ],
      {
        'www-authenticate': `Bearer realm="cdr-sandbox", error="insufficient_scope", scope="${scope}"`,
      },
    );
    return false;
  }
  return true;
}

/** The consumer's visit to the data holder: authenticated at once, redirected with the signed response. */
async function dataHolderAuthorize(ctx: SandboxContext, res: ServerResponse, url: URL): Promise<void> {
  const result = await ctx.dataHolder.authorize(url.searchParams.get('request_uri'));
  if ('error' in result) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end(`Sandbox data holder: ${result.error}`);
  }
  res.writeHead(302, { location: result.location, 'cache-control': 'no-store' });
  res.end();
}

// ---- admin API: loopback only (the server binds 127.0.0.1; the address is checked anyway)

function loopback(req: IncomingMessage): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '127.0.0.1' || a === '::1' || a === '::ffff:127.0.0.1';
}

function admin(handler: Route['handler']): Route['handler'] {
  return (req, res, params, url, ctx) =>
    loopback(req)
      ? handler(req, res, params, url, ctx)
      : sendErrors(res, 403, [err.invalidField('The admin API answers loopback callers only')]);
}

const adminRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/__sandbox\/status$/,
    scope: null,
    handler: admin((_q, res, _p, _u, ctx) =>
      sendJson(res, 200, {
        seed: ctx.world.gen.seed,
        consents: ctx.world.total,
        now: new Date(ctx.world.now()).toISOString(),
        webhook: ctx.webhookTarget ?? null,
        faults: ctx.faults.rules,
        faultsFired: ctx.faults.fired,
        requests: ctx.faults.requests,
        faulted: ctx.faults.faulted,
      }),
    ),
  },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/clock$/,
    scope: null,
    handler: admin(async (req, res, _p, _u, ctx) => {
      const body = await readJsonObject(req, res);
      if (!body) return;
      const ms = Number(body.advanceMs ?? 0) + Number(body.advanceDays ?? 0) * 86_400_000;
      if (!Number.isFinite(ms) || ms < 0)
        return sendErrors(res, 400, [
          err.invalidField('advanceMs / advanceDays must be non-negative numbers: the clock only moves forward'),
        ]);
      ctx.world.advanceClock(ms);
      sendJson(res, 200, { now: new Date(ctx.world.now()).toISOString() });
    }),
  },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/consents\/([^/]+)\/revoke$/,
    scope: null,
    handler: admin((_q, res, [id], _u, ctx) => {
      const index = ctx.world.indexOf(decodeURIComponent(id!));
      if (index === undefined) return sendErrors(res, 404, [err.notFound(`No consent ${id}`)]);
      if (revoke(ctx, index) === 'not-active') return sendErrors(res, 422, [err.unprocessable('The consent is not ACTIVE')]);
      sendJson(res, 200, ctx.world.consent(index));
    }),
  },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/faults$/,
    scope: null,
    handler: admin(async (req, res, _p, _u, ctx) => {
      const body = await readJsonObject(req, res);
      if (!body) return;
      try {
        ctx.faults.rules.push(...parseFaultSpec(String(body.spec ?? '')));
      } catch (error) {
        if (error instanceof FaultSpecError) return sendErrors(res, 400, [err.invalidField(error.message)]);
        throw error;
      }
      sendJson(res, 200, { faults: ctx.faults.rules });
    }),
  },
  {
    method: 'DELETE',
    pattern: /^\/__sandbox\/faults$/,
    scope: null,
    handler: admin((_q, res, _p, _u, ctx) => ((ctx.faults.rules = []), sendJson(res, 200, { faults: [] }))),
  },
  {
    method: 'GET',
    pattern: /^\/__sandbox\/requests$/,
    scope: null,
    handler: admin((_q, res, _p, _u, ctx) => sendJson(res, 200, { requests: ctx.faults.log })),
  },
  {
    // Every access token issued so far expires now (as if its lifetime had run out): the next call with one is a 401.
    method: 'POST',
    pattern: /^\/__sandbox\/tokens\/expire$/,
    scope: null,
    handler: admin((_q, res, _p, _u, ctx) => sendJson(res, 200, { expired: ctx.issuer.expireAll() })),
  },
  {
    method: 'PUT',
    pattern: /^\/__sandbox\/webhook$/,
    scope: null,
    handler: admin(async (req, res, _p, _u, ctx) => {
      const body = await readJsonObject(req, res);
      if (!body) return;
      if (body.url !== null && (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)))
        return sendErrors(res, 400, [err.invalidField('url must be an http(s) URL or null')]);
      ctx.webhookTarget = (body.url as string | null) ?? undefined;
      sendJson(res, 200, { webhook: ctx.webhookTarget ?? null });
    }),
  },
  {
    // A data holder reprices a product: {"name": "Monthly account fee", "amount": "7.00"}.
    method: 'POST',
    pattern: /^\/__sandbox\/products\/([^/]+)\/fee$/,
    scope: null,
    handler: admin(async (req, res, [id], _u, ctx) => {
      const body = await readJsonObject(req, res);
      if (!body) return;
      if (typeof body.name !== 'string' || typeof body.amount !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(body.amount))
        return sendErrors(res, 400, [err.invalidField('name (the fee’s name) and amount (such as "7.00") are required')]);
      const product = changeProductFee(ctx, decodeURIComponent(id!), body.name, body.amount);
      if (!product) return sendErrors(res, 404, [err.notFound(`No product ${id} with a fee named ${body.name}`)]);
      sendJson(res, 200, product);
    }),
  },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/reset$/,
    scope: null,
    handler: admin((_q, res, _p, _u, ctx) => (ctx.world.reset(), sendJson(res, 200, { reset: true }))),
  },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/dataholder\/sign$/,
    scope: null,
    handler: admin(async (req, res, _p, _u, ctx) => {
      const body = await readJsonObject(req, res);
      if (!body) return;
      const claims = typeof body.claims === 'object' && body.claims ? (body.claims as Record<string, unknown>) : {};
      sendJson(res, 200, { jwt: await ctx.dataHolder.sign(claims, Number(body.lifetimeSeconds ?? 600) * 1000) });
    }),
  },
];
