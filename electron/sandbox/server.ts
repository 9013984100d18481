import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { KNOWN_CONSENT_STATUSES, type Consent } from '../../shared/schemas/consent.js';
import { ALL_SCOPES, createTokenIssuer, readClientCredentials, secretMatches, type TokenIssuer } from './auth.js';
import { createConsentGenerator, DEFAULT_CLOCK_ORIGIN, type ConsentGenerator } from './consents.js';
import { BodyTooLarge, intParam, readBody, sendErrors, sendJson } from './http.js';

/**
 * The intermediary sandbox (first cut): the OAuth2 token endpoint and `GET /consents/v2` over
 * deterministic seeded consents, on a loopback port. Later issues add the rest of the API.
 */
export interface SandboxOptions {
  port?: number;
  seed?: number;
  consents?: number;
  clientId?: string;
  clientSecret?: string;
  clockOrigin?: string;
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
  close(): Promise<void>;
}

const V2_MAX_PAGE_SIZE = 1000;

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = opts.seed ?? SANDBOX_DEFAULTS.seed;
  const generator = createConsentGenerator(seed, opts.consents ?? SANDBOX_DEFAULTS.consents, opts.clockOrigin ?? DEFAULT_CLOCK_ORIGIN);
  const client = { clientId: opts.clientId ?? SANDBOX_DEFAULTS.clientId, clientSecret: opts.clientSecret ?? SANDBOX_DEFAULTS.clientSecret };
  const server = createServer();
  // The issuer needs the URL, the URL needs the port: listen first, then build the issuer.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const issuer = await createTokenIssuer(url, opts.tokenLifetimeSeconds ?? SANDBOX_DEFAULTS.tokenLifetimeSeconds);
  const ctx: Ctx = { url, issuer, client, generator };
  server.on('request', (req, res) => {
    route(ctx, req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendErrors(res, 500, [
          { code: 'urn:au-cds:error:cds-all:GeneralError/Unexpected', title: 'Unexpected Error', detail: (error as Error).message },
        ]);
      else res.destroy();
    });
  });
  // Keep-alive sockets would hold close() open; track and end them.
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

interface Ctx {
  url: string;
  issuer: TokenIssuer;
  client: { clientId: string; clientSecret: string };
  generator: ConsentGenerator;
}

async function route(ctx: Ctx, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', ctx.url);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (path === '/oauth2/token') {
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST' });
    return token(ctx, req, res);
  }
  if (path === '/.well-known/jwks.json' && req.method === 'GET') return sendJson(res, 200, { keys: [ctx.issuer.publicJwk] });
  if (path === '/consents/v2' && req.method === 'GET') {
    if (!(await authorize(ctx, req, res, 'consents:read'))) return;
    return listConsentsV2(ctx, url, res);
  }
  sendErrors(res, 404, [
    { code: 'urn:au-cds:error:cds-all:Resource/NotFound', title: 'Resource Not Found', detail: `${req.method} ${path} does not exist` },
  ]);
}

async function token(ctx: Ctx, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
  const creds = readClientCredentials(req.headers.authorization, form);
  if (!creds || creds.clientId !== ctx.client.clientId || !secretMatches(creds.clientSecret, ctx.client.clientSecret)) {
    const headers: Record<string, string> = creds?.via === 'post' ? {} : { 'www-authenticate': 'Basic realm="cdr-sandbox"' };
    return sendJson(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' }, headers);
  }
  const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
  const unknown = requested.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  if (unknown.length) return sendJson(res, 400, { error: 'invalid_scope', error_description: `unknown scope: ${unknown.join(' ')}` });
  sendJson(res, 200, await ctx.issuer.issue(creds.clientId, requested.length ? requested : ALL_SCOPES));
}

/** Checks the bearer token and the scope; answers 401 or 403 itself and returns false when refused. */
async function authorize(ctx: Ctx, req: IncomingMessage, res: ServerResponse, scope: string): Promise<boolean> {
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
  if (!result.scopes.has(scope)) {
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

function invalidField(res: ServerResponse, detail: string): void {
  sendErrors(res, 400, [{ code: 'urn:au-cds:error:cds-all:Field/Invalid', title: 'Invalid Field', detail }]);
}

function listConsentsV2(ctx: Ctx, url: URL, res: ServerResponse): void {
  const q = url.searchParams;
  const page = intParam(q, 'page', 1, 1_000_000_000, 1);
  if (typeof page === 'string') return invalidField(res, page);
  const pageSize = intParam(q, 'pageSize', 1, V2_MAX_PAGE_SIZE, V2_MAX_PAGE_SIZE);
  if (typeof pageSize === 'string') return invalidField(res, pageSize);
  const status = q.get('status');
  if (status !== null && !(KNOWN_CONSENT_STATUSES as readonly string[]).includes(status)) {
    return invalidField(res, `status must be one of ${KNOWN_CONSENT_STATUSES.join(', ')}`);
  }

  // Without a filter, a page is generated directly from its indexes; with one, records are
  // streamed and only the requested window is kept, so memory follows the page, not the data set.
  const { generator } = ctx;
  let consents: Consent[];
  let total: number;
  const offset = (page - 1) * pageSize;
  if (status === null) {
    total = generator.count;
    consents = [];
    for (let i = offset; i < Math.min(offset + pageSize, total); i++) consents.push(generator.at(i));
  } else {
    total = 0;
    consents = [];
    for (let i = 0; i < generator.count; i++) {
      const c = generator.at(i);
      if (c.status !== status) continue;
      if (total >= offset && total < offset + pageSize) consents.push(c);
      total++;
    }
  }
  const totalPages = Math.ceil(total / pageSize);
  const link = (p: number) => {
    const u = new URL('/consents/v2', ctx.url);
    for (const [k, v] of q) if (k !== 'page' && k !== 'pageSize') u.searchParams.append(k, v);
    u.searchParams.set('page', String(p));
    u.searchParams.set('pageSize', String(pageSize));
    return u.href;
  };
  const links: Record<string, string> = { self: link(page) };
  if (totalPages > 0) {
    links.first = link(1);
    links.last = link(totalPages);
  }
  if (page > 1) links.prev = link(Math.min(page - 1, Math.max(totalPages, 1)));
  if (page < totalPages) links.next = link(page + 1);
  sendJson(res, 200, { consents, links, meta: { totalPages, totalRecords: total } });
}
