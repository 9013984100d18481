import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../electron/sandbox/server.js';
import { EVENT_TYPES } from '../../shared/schemas/consent.js';
import { useSandbox } from '../helpers/sandbox-client.js';
import { tempDir, tokenFor } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are loose JSON */

const api = useSandbox({ seed: 5, consents: 300, webhookRetryDelaysMs: [10, 20] });
const consents = (q: string) => api.get(`/consents/v2?pageSize=1000&${q}`).then((r) => r.json.consents as any[]);
const REDIRECT = 'https://recipient.example/callback';

/** Visits the data holder's authorization URI like a browser and returns the response JWT. */
async function visit(uri: string): Promise<string> {
  const res = await fetch(uri, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(REDIRECT);
  return location.searchParams.get('response')!;
}

async function newRequestedConsent(suffix: string): Promise<any> {
  const uc = (await api.get('/use-cases')).json.find((u: any) => u.accessFrequency === 'ONGOING' && u.industries.includes('BANKING'));
  const r = await api.call('POST', '/consents', {
    useCaseId: uc.id,
    dataHolderBrandId: uc.dataHolders[0].dataHolderBrandId,
    consumerId: `auth0|flow-${suffix}`,
    consumerEmail: `flow.${suffix}@example.com`,
    sharingEndDate: '2027-06-01T00:00:00.000Z',
  });
  expect(r.status).toBe(200); // the document's status for POST /consents
  return r.json;
}

describe('authorization: creation and extension through the simulated data holder', () => {
  it('POST → data holder → PATCH makes a REQUESTED consent ACTIVE and writes GRANTED', async () => {
    const c = await newRequestedConsent('create');
    const start = await api.call('POST', `/consents/${c.consentId}/authorization`, {
      state: 'st-1',
      redirectUri: REDIRECT,
      sharingEndDate: '2027-06-01T00:00:00.000Z',
    });
    expect(start.status).toBe(200);
    expect(start.json).toMatchObject({
      success: true,
      uri: expect.stringContaining('/__dataholder/authorize?'),
      expiry: expect.any(String),
    });
    const response = await visit(start.json.uri);
    const claims = decodeJwt(response);
    expect(claims).toMatchObject({
      state: 'st-1',
      iss: `${api.sandbox.url}/__dataholder`,
      aud: 'sandbox-client',
      code: expect.any(String),
      exp: expect.any(Number),
    });

    const done = await api.call('PATCH', `/consents/${c.consentId}/authorization`, { response });
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ success: true, activeConsentId: c.consentId, state: 'st-1' });
    const after = (await api.get(`/consents/${c.consentId}`)).json;
    expect(after).toMatchObject({ status: 'ACTIVE', cdrArrangementId: expect.any(String), version: 2 });
    const events = (await api.get(`/consents/events?consentId=${c.consentId}`)).json.data.events;
    expect(events.map((e: any) => e.eventType)).toContain('GRANTED');
    // The code cannot be replayed.
    expect((await api.call('PATCH', `/consents/${c.consentId}/authorization`, { response })).status).toBe(400);
  });

  it('extending an ACTIVE consent moves sharingEndDate and writes EXTENDED', async () => {
    const [c] = await consents('status=ACTIVE&accessFrequency=ONGOING');
    const target = new Date(Date.parse(c.sharingEndDate) + 90 * 86_400_000).toISOString();
    const start = await api.call('POST', `/consents/${c.consentId}/authorization`, {
      state: 'ext',
      redirectUri: REDIRECT,
      sharingEndDate: target,
    });
    const done = await api.call('PATCH', `/consents/${c.consentId}/authorization`, { response: await visit(start.json.uri) });
    expect(done.status).toBe(200);
    expect((await api.get(`/consents/${c.consentId}`)).json).toMatchObject({
      status: 'ACTIVE',
      sharingEndDate: target,
      version: c.version + 1,
    });
    expect((await api.get(`/consents/events?consentId=${c.consentId}&eventTypes=EXTENDED`)).json.data.events.at(-1)).toMatchObject({
      eventType: 'EXTENDED',
      sharingEndDate: target,
    });
  });

  it('PATCH answers 400 when the response JWT is malformed, badly signed, for another consent, has another state, or expired', async () => {
    const c = await newRequestedConsent('bad');
    const other = await newRequestedConsent('other');
    const start = await api.call('POST', `/consents/${c.consentId}/authorization`, { state: 'good', redirectUri: REDIRECT });
    const response = await visit(start.json.uri);
    const code = decodeJwt(response).code;
    const patch = (jwt: unknown, id = c.consentId) => api.call('PATCH', `/consents/${id}/authorization`, { response: jwt });
    const reason = async (jwt: unknown, id?: string) => {
      const r = await patch(jwt, id);
      expect(r.status).toBe(400);
      return r.json.errors[0].detail as string;
    };
    expect(await reason('not-a-jwt')).toMatch(/not a JWT/);
    expect(await reason(42)).toMatch(/not a JWT/);
    const { privateKey } = await generateKeyPair('PS256');
    const forged = await new SignJWT({ code, state: 'good' })
      .setProtectedHeader({ alg: 'PS256' })
      .setIssuer(`${api.sandbox.url}/__dataholder`)
      .setAudience('sandbox-client')
      .setExpirationTime('5m')
      .sign(privateKey);
    expect(await reason(forged)).toMatch(/signature does not verify/);
    expect(await reason(response, other.consentId)).toMatch(/for another consent/);
    const wrongState = (await api.admin('POST', '/dataholder/sign', { claims: { code, state: 'evil' } })).json.jwt;
    expect(await reason(wrongState)).toMatch(/state does not match/);
    const expired = (await api.admin('POST', '/dataholder/sign', { claims: { code, state: 'good' }, lifetimeSeconds: -60 })).json.jwt;
    expect(await reason(expired)).toMatch(/expired/);
    // Nothing changed, and the genuine response still works.
    expect((await api.get(`/consents/${c.consentId}`)).json.status).toBe('REQUESTED');
    expect((await patch(response)).status).toBe(200);
  });

  it('refuses to authorise a consent that is neither REQUESTED nor ACTIVE, and bad requests: 409 as the document says', async () => {
    const [expired] = await consents('status=EXPIRED');
    expect(
      (
        await api.call('POST', `/consents/${expired.consentId}/authorization`, {
          state: 's',
          redirectUri: REDIRECT,
          sharingEndDate: '2028-01-01T00:00:00Z',
        })
      ).status,
    ).toBe(409);
    const [active] = await consents('status=ACTIVE');
    const bad = await api.call('POST', `/consents/${active.consentId}/authorization`, {
      redirectUri: 'ftp://x',
      sharingEndDate: '2020-01-01T00:00:00Z',
    });
    expect(bad.status).toBe(409);
    expect(bad.json.errors.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the deprecated paths: GET …/authorization, POST /tokens with response, and with code + state + id_token', async () => {
    const a = await newRequestedConsent('legacy-a');
    const viaGet = await api.get(`/consents/${a.consentId}/authorization?state=old&redirectUri=${encodeURIComponent(REDIRECT)}`);
    expect(viaGet.status).toBe(200);
    const tokens = await api.call('POST', '/tokens', { response: await visit(viaGet.json.uri) });
    expect(tokens.status).toBe(200);
    expect(tokens.json).toEqual({ activeConsentId: a.consentId, state: 'old' });
    expect((await api.get(`/consents/${a.consentId}`)).json.status).toBe('ACTIVE');

    const b = await newRequestedConsent('legacy-b');
    const start = await api.call('POST', `/consents/${b.consentId}/authorization`, { state: 'hybrid', redirectUri: REDIRECT });
    const code = decodeJwt(await visit(start.json.uri)).code as string;
    const idToken = (await api.admin('POST', '/dataholder/sign', { claims: { code, state: 'hybrid', nonce: 'n' } })).json.jwt;
    expect((await api.call('POST', '/tokens', { code, state: 'wrong', id_token: idToken })).status).toBe(400);
    const hybrid = await api.call('POST', '/tokens', { code, state: 'hybrid', id_token: idToken });
    expect(hybrid.json).toEqual({ activeConsentId: b.consentId, state: 'hybrid' });
  });
});

describe('GET /consents/events', () => {
  it('pages with page and page-size, every event type occurs, and each event has its identifiers', async () => {
    const firstPage = await api.get('/consents/events?page=1&page-size=50');
    expect(firstPage.json.data.events).toHaveLength(50);
    expect(firstPage.json.links.next).toContain('page-size=50');
    const total = firstPage.json.meta.totalRecords;
    const events: any[] = [];
    for (let page = 1; ; page++) {
      const r = (await api.get(`/consents/events?page=${page}&page-size=1000`)).json;
      events.push(...r.data.events);
      if (!r.links.next) break;
    }
    expect(events.length).toBe(total);
    expect(new Set(events.map((e: any) => e.eventType))).toEqual(new Set(EVENT_TYPES));
    for (const e of events.slice(0, 200))
      expect(e).toMatchObject({
        eventId: expect.any(String),
        eventType: expect.any(String),
        timestamp: expect.any(String),
        consentId: expect.any(String),
        consumerId: expect.any(String),
      });
    expect(events.find((e: any) => e.eventType === 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR').eventDetail).toMatch(/^4\d\d /);
    expect(events.find((e: any) => e.eventType === 'GRANTED').eventDetail).toBeNull();
    const times = events.map((e: any) => e.timestamp);
    expect(times).toEqual([...times].sort());
  });

  it('filters by consentId, by eventTypes (repeated or comma-separated) and by oldest/newest', async () => {
    const [c] = await consents('status=REVOKED');
    const mine = (await api.get(`/consents/events?consentId=${c.consentId}&page-size=100`)).json.data.events;
    expect(mine.length).toBeGreaterThan(1);
    expect(mine.every((e: any) => e.consentId === c.consentId)).toBe(true);
    expect(mine.map((e: any) => e.eventType)).toEqual(expect.arrayContaining(['GRANTED', 'REVOKED']));
    const repeated = await api.get(
      '/consents/events?eventTypes=WEBHOOK_SENDING_FAILED&eventTypes=WEBHOOK_MAX_RETRIES_REACHED&page-size=1000',
    );
    const comma = await api.get('/consents/events?eventTypes=WEBHOOK_SENDING_FAILED,WEBHOOK_MAX_RETRIES_REACHED&page-size=1000');
    expect(repeated.json).toEqual({ ...comma.json, links: repeated.json.links });
    expect(new Set(repeated.json.data.events.map((e: any) => e.eventType))).toEqual(
      new Set(['WEBHOOK_SENDING_FAILED', 'WEBHOOK_MAX_RETRIES_REACHED']),
    );
    const window = await api.get('/consents/events?oldest=2026-06-01T00:00:00Z&newest=2026-06-30T23:59:59Z&page-size=1000');
    expect(window.json.data.events.every((e: any) => e.timestamp >= '2026-06-01' && e.timestamp <= '2026-06-30T23:59:59.999Z')).toBe(true);
    expect((await api.get('/consents/events?eventTypes=GRANTED,SMS_SENT')).status).toBe(400);
    expect((await api.get('/consents/events?page-size=0')).status).toBe(400);
  });

  it('oldest and newest are "at or after" and "at or before" the printed millisecond (seeded times carry fractions)', async () => {
    const [c] = await consents('status=REVOKED');
    const mine = (await api.get(`/consents/events?consentId=${c.consentId}&page-size=100`)).json.data.events as any[];
    const all = (await api.get('/consents/events?page=1&page-size=300')).json.data.events as any[];
    // Every event, asked for by its own printed timestamp as both bounds, comes back: on the
    // per-consent path and on the all-events path.
    for (const e of mine) {
      const at = encodeURIComponent(e.timestamp);
      const got = (await api.get(`/consents/events?consentId=${c.consentId}&oldest=${at}&newest=${at}&page-size=100`)).json.data.events;
      expect(got.map((x: any) => x.eventId)).toContain(e.eventId);
    }
    for (const e of all.filter((_, i) => i % 15 === 0)) {
      const at = encodeURIComponent(e.timestamp);
      const got = (await api.get(`/consents/events?oldest=${at}&newest=${at}&page-size=1000`)).json.data.events;
      expect(got.map((x: any) => x.eventId)).toContain(e.eventId);
      expect(got.every((x: any) => x.timestamp === e.timestamp)).toBe(true);
    }
  });
});

describe('use cases and data holders', () => {
  it('GET /use-cases: spec fields, features, active, anonymisationDetails; combineScopes merges one cluster', async () => {
    const plain = (await api.get('/use-cases')).json;
    const combined = (await api.get('/use-cases?combineScopes=true')).json;
    const budget = (list: any[]) => list.find((u) => u.name === 'Budgeting insights');
    expect(budget(plain)).toMatchObject({
      id: expect.any(String),
      softwareProductId: expect.any(String),
      priority: expect.any(Number),
      historicalCollectionPeriodInDays: 730,
      notificationType: 'EMAIL',
      accessFrequency: 'ONGOING',
      active: true,
      features: [],
    });
    expect(budget(combined).scopes.length).toBe(budget(plain).scopes.length - 1);
    expect(budget(combined).scopes.find((s: any) => s.name === 'Account balance and details')).toBeDefined();
    expect(plain.find((u: any) => u.industries.includes('ENERGY')).anonymisationDetails).toMatch(/neighbourhood/);
  });

  it('GET /software-products/{id}/data-holders: 200 for ours, 404 for another', async () => {
    const product = (await api.get('/use-cases')).json[0].softwareProductId;
    const holders = await api.get(`/software-products/${product}/data-holders`);
    expect(holders.json.length).toBeGreaterThan(5);
    expect(holders.json[0]).toMatchObject({
      dataHolderBrandId: expect.any(String),
      brandName: expect.any(String),
      logoUri: expect.any(String),
      industries: ['BANKING'],
    });
    expect((await api.get('/software-products/other/data-holders')).status).toBe(404);
  });
});

describe('webhooks', () => {
  let target: Server;
  const received: any[] = [];
  let answer = 200;
  afterAll(() => target?.close());

  it('POSTs lifecycle events: 2xx → WEBHOOK_SENT, 4xx → CLIENT_ERROR with the body, 5xx → retries then MAX_RETRIES_REACHED', async () => {
    target = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 400 ? 'unknown consent id' : '');
      });
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    await api.admin('PUT', '/webhook', { url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook` });
    const outcome = async (status: number) => {
      answer = status;
      const [c] = await consents('status=ACTIVE');
      await api.call('DELETE', `/consents/${c.consentId}`);
      await api.sandbox.webhooksIdle();
      return {
        c,
        events: (await api.get(`/consents/events?consentId=${c.consentId}&page-size=100`)).json.data.events
          .filter((e: any) => e.timestamp >= c.created && e.eventType.startsWith('WEBHOOK'))
          .slice(-4),
      };
    };
    const ok = await outcome(200);
    expect(received.at(-1)).toMatchObject({ eventType: 'REVOKED', consentId: ok.c.consentId });
    expect(ok.events.at(-1)).toMatchObject({ eventType: 'WEBHOOK_SENT' });
    const rejected = await outcome(400);
    expect(rejected.events.at(-1)).toMatchObject({
      eventType: 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR',
      eventDetail: '400 Bad Request: unknown consent id',
    });
    const before = received.length;
    const failing = await outcome(503);
    expect(received.length - before).toBe(3);
    expect(failing.events.slice(-4).map((e: any) => e.eventType)).toEqual([
      'WEBHOOK_SENDING_FAILED',
      'WEBHOOK_SENDING_FAILED',
      'WEBHOOK_SENDING_FAILED',
      'WEBHOOK_MAX_RETRIES_REACHED',
    ]);
    await api.admin('PUT', '/webhook', { url: null });
  });
});

describe('faults and administration', () => {
  it('injects 429 with Retry-After on the next N requests to a path, then recovers', async () => {
    await api.admin('POST', '/faults', { spec: '429=7:n2:/consents/v2' });
    const a = await api.get('/consents/v2?pageSize=1');
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('7');
    expect((await api.get('/use-cases')).status).toBe(200);
    expect((await api.get('/consents/v2?pageSize=1')).status).toBe(429);
    expect((await api.get('/consents/v2?pageSize=1')).status).toBe(200);
  });

  it('injects 5xx, dropped connections, malformed and truncated JSON, and latency', async () => {
    await api.admin('POST', '/faults', { spec: '503:n1' });
    expect((await api.get('/use-cases')).status).toBe(503);
    await api.admin('POST', '/faults', { spec: 'drop:n1' });
    await expect(fetch(`${api.sandbox.url}/use-cases`, { headers: { authorization: `Bearer ${api.token}` } })).rejects.toThrow();
    await api.admin('POST', '/faults', { spec: 'malformed:n1,truncated:n1' });
    const broken = await api.get('/use-cases');
    expect(broken.status).toBe(200);
    expect(() => JSON.parse(broken.text)).toThrow();
    await api.admin('POST', '/faults', { spec: 'truncated:n1' });
    const cut = await api.get('/use-cases');
    expect(() => JSON.parse(cut.text)).toThrow();
    await api.admin('POST', '/faults', { spec: 'latency=30:p1' });
    expect((await api.get('/use-cases')).status).toBe(200);
    await api.admin('DELETE', '/faults');
    expect((await api.admin('POST', '/faults', { spec: 'explode:p1' })).status).toBe(400);
  });

  it('advances the clock (consents expire), revokes from the data holder side, and resets', async () => {
    const [c] = await consents('status=ACTIVE');
    const end = Date.parse(c.sharingEndDate);
    const now = Date.parse((await api.admin('GET', '/status')).json.now);
    await api.admin('POST', '/clock', { advanceMs: end - now + 1000 });
    expect((await api.get(`/consents/${c.consentId}`)).json.status).toBe('EXPIRED');
    expect((await api.get(`/consents/events?consentId=${c.consentId}&eventTypes=EXPIRED`)).json.data.events).toHaveLength(1);
    expect((await api.admin('POST', '/clock', { advanceMs: -5 })).status).toBe(400);

    const [d] = await consents('status=ACTIVE');
    const revoked = await api.admin('POST', `/consents/${d.consentId}/revoke`);
    expect(revoked.json).toMatchObject({ status: 'REVOKED' });
    expect((await api.admin('POST', `/consents/${d.consentId}/revoke`)).status).toBe(422);

    await api.admin('POST', '/reset');
    expect((await api.get(`/consents/${d.consentId}`)).json).toEqual(d);
  });
});

describe('caller authentication with private_key_jwt', () => {
  it('accepts a client assertion signed with the registered key; refuses another key, a wrong audience and a replay', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const sandbox = await startSandbox({ consents: 5, clientJwks: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });
    try {
      const tokenUrl = `${sandbox.url}/oauth2/token`;
      const assertion = (key = privateKey, aud = tokenUrl, jti = crypto.randomUUID()) =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setIssuer('sandbox-client')
          .setSubject('sandbox-client')
          .setAudience(aud)
          .setJti(jti)
          .setIssuedAt()
          .setExpirationTime('2m')
          .sign(key);
      const ask = async (jwt: string) =>
        fetch(tokenUrl, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
            client_assertion: jwt,
          }),
        });
      const good = await assertion();
      const ok = await ask(good);
      expect(ok.status).toBe(200);
      const { access_token } = (await ok.json()) as { access_token: string };
      expect((await fetch(`${sandbox.url}/consents/v2`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(200);
      expect((await ask(good)).status).toBe(401);
      const other = (await generateKeyPair('ES256')).privateKey;
      const bad = await ask(await assertion(other));
      expect(bad.status).toBe(401);
      expect(await bad.json()).toMatchObject({ error: 'invalid_client' });
      expect((await ask(await assertion(privateKey, 'https://elsewhere.example/token'))).status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});

describe('state across restarts', () => {
  it('keeps revocations, new consents and the clock in the state file; refuses a file of another seed', async () => {
    const file = join(tempDir(), 'state.json');
    const one = await startSandbox({ seed: 9, consents: 50, stateFile: file });
    const token = await tokenFor(one.url);
    const list = (await (
      await fetch(`${one.url}/consents/v2?status=ACTIVE`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as any;
    const id = list.consents[0].consentId;
    await fetch(`${one.url}/consents/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    await fetch(`${one.url}/__sandbox/clock`, { method: 'POST', body: JSON.stringify({ advanceDays: 1 }) });
    await one.close();

    const two = await startSandbox({ seed: 9, consents: 50, stateFile: file });
    try {
      const t2 = await tokenFor(two.url);
      const after = (await (await fetch(`${two.url}/consents/${id}`, { headers: { authorization: `Bearer ${t2}` } })).json()) as any;
      expect(after.status).toBe('REVOKED');
      expect((await (await fetch(`${two.url}/__sandbox/status`)).json()).now).toBe('2026-11-02T00:00:00.000Z');
    } finally {
      await two.close();
    }
    await expect(startSandbox({ seed: 10, consents: 50, stateFile: file })).rejects.toThrow(/holds changes to seed 9 with 50 consents/);
  });
});

describe('scale', () => {
  it('serves 100,000 consents and 1,000,000 events, paging to the end', async () => {
    const big = await startSandbox({ seed: 3, consents: 100_000, eventsPerConsent: 10 });
    try {
      const token = await tokenFor(big.url);
      const get = async (p: string) =>
        (await fetch(`${big.url}${p}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<any>;
      const last = await get('/consents/v2?page=100&pageSize=1000');
      expect(last.consents).toHaveLength(1000);
      expect(last.links.next).toBeUndefined();
      expect(last.meta).toEqual({ totalPages: 100, totalRecords: 100_000 });
      const events = await get('/consents/events?page=1000&page-size=1000');
      expect(events.meta.totalRecords).toBe(1_000_000);
      expect(events.data.events).toHaveLength(1000);
      expect((await get('/consents/v2?status=ACTIVE&pageSize=1')).meta.totalRecords).toBeGreaterThan(10_000);
    } finally {
      await big.close();
    }
  }, 60_000);
});

describe('token expiry and the data holder JWKS', () => {
  it('answers 401 invalid_token to an expired access token', async () => {
    const s = await startSandbox({ consents: 3, tokenLifetimeSeconds: 0 });
    try {
      const expired = await tokenFor(s.url);
      const r = await fetch(`${s.url}/consents/v2`, { headers: { authorization: `Bearer ${expired}` } });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toContain('The access token expired');
    } finally {
      await s.close();
    }
  });

  it('publishes the data holder keys, which verify its response JWTs', async () => {
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    const c = await newRequestedConsent('jwks');
    const start = await api.call('POST', `/consents/${c.consentId}/authorization`, { state: 'k', redirectUri: REDIRECT });
    const response = await visit(start.json.uri);
    const keys = createRemoteJWKSet(new URL(`${api.sandbox.url}/__dataholder/jwks.json`));
    const now = new Date((await api.admin('GET', '/status')).json.now);
    const { payload } = await jwtVerify(response, keys, {
      issuer: `${api.sandbox.url}/__dataholder`,
      audience: 'sandbox-client',
      currentDate: now,
    });
    expect(payload.state).toBe('k');
  });
});
