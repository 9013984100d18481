import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { ACCESS_FREQUENCIES, EVENT_TYPES, KNOWN_CONSENT_STATUSES, POST_USAGE_ACTIONS, type Consent } from '../../shared/schemas/consent.js';
import type { Route, SandboxContext } from './context.js';
import { DAY } from './consents.js';
import { dateParam, err, intParam, listParam, pageLinks, readJsonObject, sendErrors, sendJson } from './http.js';
import type { ConsentFilter } from './world.js';

/**
 * The Consent API: consent list (v2, and the bare v1 array), one consent, its update and
 * revocation, creation, the authorization flow (current and deprecated paths), events, use cases
 * and data holders. Rules follow the spec; what it leaves open follows the intermediary notes.
 */
const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();

function isOneOf<T extends string>(value: string | null, known: readonly T[]): value is T {
  return value !== null && (known as readonly string[]).includes(value);
}

/** The consent list filters; an error message for a bad value. */
function consentFilter(q: URLSearchParams, useCaseParam: 'useCaseIds' | 'useCases'): ConsentFilter | string {
  const f: ConsentFilter = {};
  const status = q.get('status');
  if (status !== null) {
    if (!isOneOf(status, KNOWN_CONSENT_STATUSES)) return `status must be one of ${KNOWN_CONSENT_STATUSES.join(', ')}`;
    f.status = status;
  }
  const access = q.get('accessFrequency');
  if (access !== null) {
    if (!isOneOf(access, ACCESS_FREQUENCIES)) return `accessFrequency must be one of ${ACCESS_FREQUENCIES.join(', ')}`;
    f.accessFrequency = access;
  }
  const pua = q.get('postUsageAction');
  if (pua !== null) {
    if (!isOneOf(pua, POST_USAGE_ACTIONS)) return `postUsageAction must be one of ${POST_USAGE_ACTIONS.join(', ')}`;
    f.postUsageAction = pua;
  }
  const dm = q.get('directMarketingAllowed');
  if (dm !== null) {
    if (dm !== 'true' && dm !== 'false') return 'directMarketingAllowed must be true or false';
    f.directMarketingAllowed = dm === 'true';
  }
  for (const name of ['consumerId', 'consumerEmail', 'dataHolderBrandId', 'externalId', 'consentId', 'cdrArrangementId'] as const) {
    const v = q.get(name);
    if (v !== null) f[name] = v;
  }
  const useCases = listParam(q, useCaseParam);
  if (useCases) f.useCaseIds = useCases;
  for (const name of ['oldestCreated', 'newestCreated', 'oldestRevoked', 'newestRevoked'] as const) {
    const t = dateParam(q, name);
    if (typeof t === 'string') return t;
    if (t !== undefined) f[name] = t;
  }
  return f;
}

function listConsentsV2(_req: IncomingMessage, res: ServerResponse, _p: string[], url: URL, ctx: SandboxContext): void {
  const q = url.searchParams;
  const page = intParam(q, 'page', 1, 1_000_000_000, 1);
  const pageSize = intParam(q, 'pageSize', 1, 1000, 1000);
  const filter = consentFilter(q, 'useCaseIds');
  const problem = [page, pageSize, filter].find((x) => typeof x === 'string') as string | undefined;
  if (problem) return sendErrors(res, 400, [err.invalidField(problem)]);
  const matches = ctx.world.filterConsents(filter as ConsentFilter);
  const total = Array.isArray(matches) ? matches.length : matches.count;
  const at = Array.isArray(matches) ? (k: number) => matches[k]! : matches.at;
  const offset = ((page as number) - 1) * (pageSize as number);
  const consents: Consent[] = [];
  for (let k = offset; k < Math.min(offset + (pageSize as number), total); k++) consents.push(wire(ctx.world.consent(at(k))));
  sendJson(res, 200, {
    consents,
    links: pageLinks(ctx.url, '/consents/v2', q, page as number, pageSize as number, total, 'pageSize'),
    meta: { totalPages: Math.ceil(total / (pageSize as number)), totalRecords: total },
  });
}

/**
 * A consent or an event as the published document has it: a field without a value is absent, not
 * null (none of ConsentResponse's fields is nullable). An event's `eventDetail` stays, null included:
 * the changelog made it nullable (30 May 2024).
 */
export function wire<T extends object>(record: T, keepNull: readonly string[] = []): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (v !== null || keepNull.includes(k)) out[k] = v;
  return out as T;
}

/** GET /consent: the bare array of the old API, streamed so memory does not grow with the data set. */
async function listConsentsV1(_req: IncomingMessage, res: ServerResponse, _p: string[], url: URL, ctx: SandboxContext): Promise<void> {
  const filter = consentFilter(url.searchParams, 'useCases');
  if (typeof filter === 'string') return sendErrors(res, 400, [err.invalidField(filter)]);
  const matches = ctx.world.filterConsents(filter);
  const total = Array.isArray(matches) ? matches.length : matches.count;
  const at = Array.isArray(matches) ? (k: number) => matches[k]! : matches.at;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', deprecation: 'true' });
  res.write('[');
  for (let k = 0; k < total; k++) {
    const more = res.write(`${k ? ',' : ''}${JSON.stringify(wire(ctx.world.consent(at(k))))}`);
    if (!more) await new Promise((r) => res.once('drain', r));
    if (res.destroyed) return;
  }
  res.end(']');
}

function findConsent(res: ServerResponse, ctx: SandboxContext, id: string): number | undefined {
  const index = ctx.world.indexOf(decodeURIComponent(id));
  if (index === undefined) sendErrors(res, 404, [err.notFound(`No consent ${decodeURIComponent(id)}`)]);
  return index;
}

function getConsent(_req: IncomingMessage, res: ServerResponse, [id]: string[], _url: URL, ctx: SandboxContext): void {
  const index = findConsent(res, ctx, id!);
  if (index !== undefined) sendJson(res, 200, wire(ctx.world.consent(index)));
}

/** PATCH: externalId, postUsageAction, directMarketingAllowed. sharingEndDate is not supported (19 Jun 2025). */
async function patchConsent(req: IncomingMessage, res: ServerResponse, [id]: string[], _url: URL, ctx: SandboxContext): Promise<void> {
  const index = findConsent(res, ctx, id!);
  if (index === undefined) return;
  const body = await readJsonObject(req, res);
  if (!body) return;
  const errors = [];
  const change: { externalId?: string | null; postUsageAction?: string; directMarketingAllowed?: boolean } = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'sharingEndDate')
      errors.push(err.invalidField('sharingEndDate cannot be changed with PATCH; extend the consent through its authorization'));
    else if (key === 'externalId') {
      if (value !== null && typeof value !== 'string') errors.push(err.invalidField('externalId must be a string or null'));
      else change.externalId = value;
    } else if (key === 'postUsageAction') {
      if (!isOneOf(typeof value === 'string' ? value : null, POST_USAGE_ACTIONS))
        errors.push(err.invalidField(`postUsageAction must be one of ${POST_USAGE_ACTIONS.join(', ')}`));
      else change.postUsageAction = value as string;
    } else if (key === 'directMarketingAllowed') {
      if (typeof value !== 'boolean') errors.push(err.invalidField('directMarketingAllowed must be true or false'));
      else change.directMarketingAllowed = value;
    } else errors.push(err.invalidField(`${key} cannot be updated`));
  }
  if (!errors.length && Object.keys(change).length === 0)
    errors.push(err.missingField('Nothing to update: send externalId, postUsageAction or directMarketingAllowed'));
  if (errors.length) return sendErrors(res, 400, errors);
  sendJson(res, 200, wire(ctx.world.update(index, change)));
}

/** Revokes an ACTIVE consent; 422 for any other (there is no authorised consent at the data holder). */
export function revoke(ctx: SandboxContext, index: number): 'revoked' | 'not-active' {
  if (ctx.world.consent(index).status !== 'ACTIVE') return 'not-active';
  const now = iso(ctx.world.now());
  ctx.world.update(index, { status: 'REVOKED', revoked: now, lastNotificationSentAt: now });
  ctx.world.recordEvent(index, 'REVOKED');
  return 'revoked';
}

function deleteConsent(_req: IncomingMessage, res: ServerResponse, [id]: string[], _url: URL, ctx: SandboxContext): void {
  const index = findConsent(res, ctx, id!);
  if (index === undefined) return;
  if (revoke(ctx, index) === 'not-active') {
    const status = ctx.world.consent(index).status;
    return sendErrors(res, 422, [
      err.unprocessable(`The consent is ${status}, not ACTIVE: there is no authorised consent to delete at the data holder`),
    ]);
  }
  // The document's answer is 200 without a body ("default response"); clients also meet 204 elsewhere.
  res.writeHead(200, { 'cache-control': 'no-store', 'content-length': 0 }).end();
}

/** POST /consents: a REQUESTED consent, to be authorised at the data holder. */
async function createConsent(req: IncomingMessage, res: ServerResponse, _p: string[], _url: URL, ctx: SandboxContext): Promise<void> {
  const body = await readJsonObject(req, res);
  if (!body) return;
  const errors = [];
  const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : undefined);
  for (const k of ['sharingEndDate', 'dataHolderBrandId', 'useCaseId']) if (!str(k)) errors.push(err.missingField(`${k} is required`));
  const useCase = ctx.world.gen.useCases.find((u) => u.id === str('useCaseId'));
  if (str('useCaseId') && !useCase)
    errors.push(err.invalidField(`useCaseId ${str('useCaseId')} is not a use case of this software product`));
  const holder = ctx.world.gen.holders.find((h) => h.dataHolderBrandId === str('dataHolderBrandId'));
  if (
    str('dataHolderBrandId') &&
    (!holder || (useCase && !useCase.dataHolders?.some((d) => d.dataHolderBrandId === holder.dataHolderBrandId)))
  ) {
    errors.push(err.invalidField(`dataHolderBrandId ${str('dataHolderBrandId')} is not available for this use case`));
  }
  const end = str('sharingEndDate') ? Date.parse(str('sharingEndDate')!) : NaN;
  if (str('sharingEndDate') && (Number.isNaN(end) || end <= ctx.world.now() || end > ctx.world.now() + 366 * DAY)) {
    errors.push(err.invalidField('sharingEndDate must be an ISO 8601 date-time after now and within one year'));
  }
  if (useCase?.notificationType === 'EMAIL' && !str('consumerEmail'))
    errors.push(err.missingField('consumerEmail is required: this use case notifies by e-mail'));
  if (!str('consumerId') && !str('consumerEmail'))
    errors.push(err.missingField('consumerId (back-channel creation) or consumerEmail is required'));
  if (body.postUsageAction !== undefined && !isOneOf(str('postUsageAction') ?? null, POST_USAGE_ACTIONS))
    errors.push(err.invalidField(`postUsageAction must be one of ${POST_USAGE_ACTIONS.join(', ')}`));
  if (body.directMarketingAllowed !== undefined && typeof body.directMarketingAllowed !== 'boolean')
    errors.push(err.invalidField('directMarketingAllowed must be true or false'));
  if (errors.length) return sendErrors(res, 400, errors);

  const consumer: ConsentFilter = str('consumerId') ? { consumerId: str('consumerId')! } : { consumerEmail: str('consumerEmail')! };
  const clash = ctx.world.filterConsents({
    ...consumer,
    useCaseIds: [useCase!.id],
    dataHolderBrandId: holder!.dataHolderBrandId,
    status: 'ACTIVE',
  });
  if ((Array.isArray(clash) ? clash.length : clash.count) > 0) {
    // As the document says: 422 "active consent exists for requested use case", with that consent.
    const existing = Array.isArray(clash) ? clash[0]! : clash.at(0);
    return sendJson(res, 422, wire(ctx.world.consent(existing)));
  }
  const consent: Consent = {
    consentId: randomUUID(),
    version: 1,
    created: iso(ctx.world.now()),
    revoked: null,
    lastNotificationSentAt: null,
    firstDataCollection: null,
    status: 'REQUESTED',
    sharingEndDate: iso(end),
    consumerEmail: str('consumerEmail') ?? null,
    consumerMobileNumber: null,
    consumerId: str('consumerId') ?? `sandbox|${randomUUID()}`,
    dataHolderName: holder!.brandName,
    dataHolderBrandId: holder!.dataHolderBrandId,
    useCase: {
      id: useCase!.id,
      name: useCase!.name,
      description: useCase!.description,
      notificationType: useCase!.notificationType,
      accessFrequency: useCase!.accessFrequency,
      scopes: useCase!.scopes,
    },
    postUsageAction: str('postUsageAction') ?? 'DELETION',
    cdrArrangementId: null,
    directMarketingAllowed: (body.directMarketingAllowed as boolean | undefined) ?? false,
    externalId: str('externalId') ?? null,
    customerIPAddress: typeof req.headers['adatree-consumer-ip-address'] === 'string' ? req.headers['adatree-consumer-ip-address'] : null,
  };
  const index = ctx.world.addConsent(consent);
  sendJson(res, 200, wire(ctx.world.consent(index)));
}

// ---- authorization: creation (REQUESTED) and extension (ACTIVE)

function startAuthorization(
  res: ServerResponse,
  ctx: SandboxContext,
  index: number,
  input: { state?: unknown; redirectUri?: unknown; sharingEndDate?: unknown },
): void {
  const consent = ctx.world.consent(index);
  const errors = [];
  if (typeof input.state !== 'string' || !input.state) errors.push(err.missingField('state is required'));
  let redirect: URL | undefined;
  try {
    redirect = new URL(String(input.redirectUri));
    if (redirect.protocol !== 'https:' && redirect.hostname !== '127.0.0.1' && redirect.hostname !== 'localhost')
      throw new Error('not https');
  } catch {
    errors.push(err.invalidField('redirectUri must be an absolute https URI (or a loopback http URI)'));
  }
  const kind = consent.status === 'REQUESTED' ? 'creation' : consent.status === 'ACTIVE' ? 'extension' : undefined;
  let end = typeof input.sharingEndDate === 'string' ? Date.parse(input.sharingEndDate) : NaN;
  if (input.sharingEndDate === undefined && kind === 'creation' && consent.sharingEndDate) end = Date.parse(consent.sharingEndDate);
  if (Number.isNaN(end)) errors.push(err.invalidField('sharingEndDate must be an ISO 8601 date-time'));
  else if (kind === 'extension' && end <= Date.parse(consent.sharingEndDate!))
    errors.push(err.invalidField('sharingEndDate must be later than the current sharing end date to extend'));
  else if (end <= ctx.world.now()) errors.push(err.invalidField('sharingEndDate must be in the future'));
  // The document's refusal for this operation is 409 "Request cannot be processed", with the CDS error list.
  if (errors.length) return sendErrors(res, 409, errors);
  if (!kind)
    return sendErrors(res, 409, [
      err.unprocessable(`The consent is ${consent.status}: only a REQUESTED consent can be authorised and only an ACTIVE one extended`),
    ]);
  const pending = ctx.dataHolder.begin({
    consentId: consent.consentId,
    kind,
    state: input.state as string,
    redirectUri: redirect!.href,
    sharingEndDate: iso(end),
  });
  sendJson(res, 200, { success: true, uri: ctx.dataHolder.authorizeUri(ctx.url, pending), expiry: iso(pending.expiresAt) });
}

async function postAuthorization(req: IncomingMessage, res: ServerResponse, [id]: string[], _url: URL, ctx: SandboxContext): Promise<void> {
  const index = findConsent(res, ctx, id!);
  if (index === undefined) return;
  const body = await readJsonObject(req, res);
  if (body) startAuthorization(res, ctx, index, body);
}

/** Deprecated GET on the same path, with state and redirectUri in the query. */
function getAuthorization(_req: IncomingMessage, res: ServerResponse, [id]: string[], url: URL, ctx: SandboxContext): void {
  const index = findConsent(res, ctx, id!);
  if (index === undefined) return;
  const q = url.searchParams;
  startAuthorization(res, ctx, index, {
    state: q.get('state') ?? undefined,
    redirectUri: q.get('redirectUri') ?? undefined,
    sharingEndDate: q.get('sharingEndDate') ?? undefined,
  });
}

function complete(ctx: SandboxContext, pending: { consentId: string; kind: 'creation' | 'extension'; sharingEndDate: string }): Consent {
  const index = ctx.world.indexOf(pending.consentId)!;
  if (pending.kind === 'creation') {
    const now = iso(ctx.world.now());
    ctx.world.update(index, {
      status: 'ACTIVE',
      cdrArrangementId: randomUUID(),
      sharingEndDate: pending.sharingEndDate,
      lastNotificationSentAt: now,
    });
    ctx.world.recordEvent(index, 'GRANTED');
  } else {
    ctx.world.update(index, { sharingEndDate: pending.sharingEndDate });
    ctx.world.recordEvent(index, 'EXTENDED');
  }
  return ctx.world.consent(index);
}

async function patchAuthorization(
  req: IncomingMessage,
  res: ServerResponse,
  [id]: string[],
  _url: URL,
  ctx: SandboxContext,
): Promise<void> {
  const index = findConsent(res, ctx, id!);
  if (index === undefined) return;
  const body = await readJsonObject(req, res);
  if (!body) return;
  const check = await ctx.dataHolder.check(body.response, ctx.world.consent(index).consentId);
  if (!check.ok) return sendErrors(res, 400, [err.invalidField(check.reason)]);
  const consent = ctx.world.consent(index);
  if (
    (check.pending.kind === 'creation' && consent.status !== 'REQUESTED') ||
    (check.pending.kind === 'extension' && consent.status !== 'ACTIVE')
  ) {
    return sendErrors(res, 400, [err.invalidField(`The consent is now ${consent.status}; this response can no longer be used`)]);
  }
  ctx.dataHolder.consume(check.pending);
  const done = complete(ctx, check.pending);
  sendJson(res, 200, { success: true, activeConsentId: done.consentId, state: check.pending.state });
}

/** Deprecated POST /tokens: `response` (Authorization Code Flow) or `code` + `state` + `id_token` (Hybrid Flow). */
async function postTokens(req: IncomingMessage, res: ServerResponse, _p: string[], _url: URL, ctx: SandboxContext): Promise<void> {
  const body = await readJsonObject(req, res);
  if (!body) return;
  let pending;
  if (body.response !== undefined) {
    const check = await ctx.dataHolder.check(body.response, undefined);
    if (!check.ok) return sendErrors(res, 400, [err.invalidField(check.reason)]);
    pending = check.pending;
  } else if (typeof body.code === 'string' && typeof body.state === 'string' && typeof body.id_token === 'string') {
    pending = ctx.dataHolder.findByCode(body.code);
    if (!pending) return sendErrors(res, 400, [err.invalidField('code is unknown or already used')]);
    if (pending.state !== body.state) return sendErrors(res, 400, [err.invalidField('state does not match the authorization request')]);
    const idToken = await ctx.dataHolder
      .check(body.id_token, pending.consentId, pending.state)
      .catch(() => ({ ok: false as const, reason: 'id_token invalid' }));
    if (!idToken.ok) return sendErrors(res, 400, [err.invalidField(`id_token: ${idToken.reason}`)]);
  } else return sendErrors(res, 400, [err.missingField('Send response, or code with state and id_token')]);
  ctx.dataHolder.consume(pending);
  const done = complete(ctx, pending);
  sendJson(res, 200, { activeConsentId: done.consentId, state: pending.state });
}

// ---- events

function listEvents(_req: IncomingMessage, res: ServerResponse, _p: string[], url: URL, ctx: SandboxContext): void {
  const q = url.searchParams;
  const page = intParam(q, 'page', 1, 1_000_000_000, 1);
  const pageSize = intParam(q, 'page-size', 1, 1000, 25);
  const types = listParam(q, 'eventTypes');
  const unknown = types?.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  const oldest = dateParam(q, 'oldest');
  const newest = dateParam(q, 'newest');
  const problem =
    [page, pageSize, oldest, newest].find((x) => typeof x === 'string') ??
    (unknown?.length ? `eventTypes: unknown ${unknown.join(', ')}` : undefined);
  if (problem) return sendErrors(res, 400, [err.invalidField(problem as string)]);
  const consentId = q.get('consentId') ?? undefined;
  const { total, events } = ctx.world.events(
    {
      ...(consentId ? { consentId } : {}),
      ...(types ? { eventTypes: types } : {}),
      ...(oldest !== undefined ? { oldest: oldest as number } : {}),
      ...(newest !== undefined ? { newest: newest as number } : {}),
    },
    ((page as number) - 1) * (pageSize as number),
    pageSize as number,
  );
  sendJson(res, 200, {
    data: { events: events.map((e) => wire(e, ['eventDetail'])) },
    links: pageLinks(ctx.url, '/consents/events', q, page as number, pageSize as number, total, 'page-size'),
    meta: { totalPages: Math.ceil(total / (pageSize as number)), totalRecords: total },
  });
}

// ---- use cases and data holders

/**
 * combineScopes: the clusters the CDS Consumer Experience Standards allow to be shown together are
 * merged, one entry fewer for the consumer (account name, type and balance with account numbers and
 * features; name and occupation with contact details; energy account basic with detail).
 */
const COMBINABLE: ReadonlyArray<[string, string, string]> = [
  ['bank:accounts.basic:read', 'bank:accounts.detail:read', 'Account balance and details'],
  ['common:customer.basic:read', 'common:customer.detail:read', 'Name, occupation, contact details'],
  ['energy:accounts.basic:read', 'energy:accounts.detail:read', 'Accounts and plans'],
];

function listUseCases(_req: IncomingMessage, res: ServerResponse, _p: string[], url: URL, ctx: SandboxContext): void {
  const combine = url.searchParams.get('combineScopes') === 'true';
  const out = ctx.world.gen.useCases.map(({ industry, ...u }) => {
    let scopes = u.scopes ?? [];
    if (combine) {
      for (const [basic, detail, name] of COMBINABLE) {
        const b = scopes.find((s) => s.id === basic);
        const d = scopes.find((s) => s.id === detail);
        if (!b || !d) continue;
        const merged = {
          ...d,
          name,
          description: `${b.description}; ${d.description}`,
          claims: [...(b.claims ?? []), ...(d.claims ?? [])],
          priority: Math.min(b.priority ?? 0, d.priority ?? 0),
          combinedScopeIds: [basic, detail],
        };
        scopes = scopes
          .filter((s) => s !== b && s !== d)
          .concat(merged)
          .sort((x, y) => (x.priority ?? 0) - (y.priority ?? 0));
      }
    }
    return {
      ...u,
      scopes,
      industries: [industry.toUpperCase()],
      consumerType: 'INDIVIDUAL',
      active: true,
      features: industry === 'energy' ? ['DE_IDENTIFICATION'] : [],
      ...(industry === 'energy'
        ? { anonymisationDetails: 'Your de-identified usage may be combined with others in your neighbourhood to compare plans.' }
        : {}),
    };
  });
  sendJson(res, 200, out);
}

function listDataHolders(_req: IncomingMessage, res: ServerResponse, [id]: string[], _url: URL, ctx: SandboxContext): void {
  const product = ctx.world.gen.useCases[0]!.softwareProductId;
  if (decodeURIComponent(id!) !== product) return sendErrors(res, 404, [err.notFound(`No software product ${decodeURIComponent(id!)}`)]);
  sendJson(
    res,
    200,
    ctx.world.gen.holders.map((h) => ({
      dataHolderBrandId: h.dataHolderBrandId,
      brandName: h.brandName,
      logoUri: h.logoUri,
      industries: [h.industry.toUpperCase()],
    })),
  );
}

// A consent id, but never the fixed segments that share the prefix (/consents/v2, /consents/events).
const ID = '((?!v2$|events$)[^/]+)';
export const consentRoutes: Route[] = [
  { method: 'GET', pattern: /^\/consents\/v2$/, scope: 'consents:read', handler: listConsentsV2 },
  { method: 'GET', pattern: /^\/consent$/, scope: 'consents:read', handler: listConsentsV1 },
  { method: 'POST', pattern: /^\/consents$/, scope: 'consents:write', handler: createConsent },
  // Deprecated 19 Dec 2024 and removed 2 Sep 2025: 404, saying where the list went.
  {
    method: 'GET',
    pattern: /^\/consents$/,
    scope: null,
    handler: (_q, res) => sendErrors(res, 404, [err.notFound('GET /consents was removed; use GET /consents/v2')]),
  },
  { method: 'GET', pattern: /^\/consents\/events$/, scope: 'consents:read', handler: listEvents },
  { method: 'GET', pattern: new RegExp(`^/consents/${ID}/authorization$`), scope: 'consents:read', handler: getAuthorization },
  { method: 'POST', pattern: new RegExp(`^/consents/${ID}/authorization$`), scope: 'consents:write', handler: postAuthorization },
  { method: 'PATCH', pattern: new RegExp(`^/consents/${ID}/authorization$`), scope: 'tokens:write', handler: patchAuthorization },
  { method: 'GET', pattern: new RegExp(`^/consents/${ID}$`), scope: 'consents:read', handler: getConsent },
  { method: 'PATCH', pattern: new RegExp(`^/consents/${ID}$`), scope: 'consents:write', handler: patchConsent },
  { method: 'DELETE', pattern: new RegExp(`^/consents/${ID}$`), scope: 'consents:write', handler: deleteConsent },
  { method: 'POST', pattern: /^\/tokens$/, scope: 'tokens:write', handler: postTokens },
  { method: 'GET', pattern: /^\/use-cases$/, scope: 'use-cases:read', handler: listUseCases },
  { method: 'GET', pattern: new RegExp(`^/software-products/${ID}/data-holders$`), scope: 'data-holders:read', handler: listDataHolders },
];
