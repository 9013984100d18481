import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { tokenFor } from '../helpers/temp.js';

let sandbox: RunningSandbox;
let token: string;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, consents: 137 });
  token = await tokenFor(sandbox.url);
});
afterAll(() => sandbox.close());

const get = (path: string, bearer: string | null = token) =>
  fetch(`${sandbox.url}${path}`, { headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` } });

async function allPages(baseUrl: string, bearer: string, pageSize: number): Promise<string> {
  const consents: unknown[] = [];
  let next: string | undefined = `${baseUrl}/consents/v2?page=1&pageSize=${pageSize}`;
  while (next) {
    const body = (await (await fetch(next, { headers: { authorization: `Bearer ${bearer}` } })).json()) as {
      consents: unknown[];
      links: { next?: string };
    };
    consents.push(...body.consents);
    next = body.links.next;
  }
  return JSON.stringify(consents);
}

describe('sandbox: token endpoint', () => {
  it('issues a signed JWT with scopes and an expiry for HTTP Basic client authentication', async () => {
    const claims = decodeJwt(token);
    expect(claims.sub).toBe('sandbox-client');
    expect(claims.scope).toContain('consents:read');
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('accepts client_id and client_secret as form fields too', async () => {
    const res = await fetch(`${sandbox.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  });

  it('answers a wrong secret with 401 invalid_client', async () => {
    const res = await fetch(`${sandbox.url}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('sandbox-client:wrong').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses other grant types and unknown scopes', async () => {
    const grant = await fetch(`${sandbox.url}/oauth2/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password' }) });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    await expect(tokenFor(sandbox.url, { scope: 'consents:read admin:everything' })).rejects.toThrow('token: 400');
  });
});

describe('sandbox: GET /consents/v2', () => {
  it('requires a bearer token (401 with WWW-Authenticate)', async () => {
    const res = await get('/consents/v2', null);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({ errors: [{ title: 'Unauthorized' }] });
  });

  it('rejects a token signed by another key, even with valid-looking claims', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ scope: 'consents:read' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(sandbox.url)
      .setAudience(sandbox.url)
      .setSubject('sandbox-client')
      .setExpirationTime('1h')
      .sign(privateKey);
    const res = await get('/consents/v2', forged);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('answers 403 when the token lacks consents:read', async () => {
    const narrow = await tokenFor(sandbox.url, { scope: 'use-cases:read' });
    const res = await get('/consents/v2', narrow);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
  });

  it('pages with links and meta, and omits links.next on the last page', async () => {
    const first = (await (await get('/consents/v2?page=1&pageSize=50')).json()) as {
      consents: unknown[];
      links: Record<string, string>;
      meta: unknown;
    };
    expect(first.consents).toHaveLength(50);
    expect(first.meta).toEqual({ totalPages: 3, totalRecords: 137 });
    expect(first.links.next).toBe(`${sandbox.url}/consents/v2?page=2&pageSize=50`);
    expect(first.links.prev).toBeUndefined();
    const last = (await (await get('/consents/v2?page=3&pageSize=50')).json()) as { consents: unknown[]; links: Record<string, string> };
    expect(last.consents).toHaveLength(37);
    expect(last.links.next).toBeUndefined();
    expect(last.links.prev).toContain('page=2');
  });

  it.each(['pageSize=0', 'pageSize=1001', 'page=0', 'page=abc', 'status=PAUSED'])(
    'answers 400 with a CDS error list for %s',
    async (query) => {
      const res = await get(`/consents/v2?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: { code: string; title: string; detail: string }[] };
      expect(body.errors[0]).toMatchObject({ title: 'Invalid Field' });
      expect(body.errors[0]!.detail.length).toBeGreaterThan(5);
    },
  );

  it('filters by status and keeps the filter in the links', async () => {
    const body = (await (await get('/consents/v2?status=REVOKED&pageSize=5')).json()) as {
      consents: { status: string; revoked: string }[];
      links: Record<string, string>;
    };
    expect(body.consents.length).toBeGreaterThan(0);
    expect(body.consents.every((c) => c.status === 'REVOKED' && c.revoked)).toBe(true);
    expect(body.links.next).toContain('status=REVOKED');
  });

  it('serves the same bytes for a seed whatever the page size, and across restarts', async () => {
    const a = await allPages(sandbox.url, token, 7);
    const b = await allPages(sandbox.url, token, 1000);
    expect(a).toBe(b);
    expect(JSON.parse(a)).toHaveLength(137);
    const again = await startSandbox({ seed: 7, consents: 137 });
    try {
      expect(await allPages(again.url, await tokenFor(again.url), 50)).toBe(a);
    } finally {
      await again.close();
    }
    const other = await startSandbox({ seed: 8, consents: 137 });
    try {
      expect(await allPages(other.url, await tokenFor(other.url), 50)).not.toBe(a);
    } finally {
      await other.close();
    }
  });

  it('generates consents whose fields agree with their status', async () => {
    const all = JSON.parse(await allPages(sandbox.url, token, 1000)) as {
      status: string;
      revoked: string | null;
      created: string;
      sharingEndDate: string;
      cdrArrangementId: string | null;
    }[];
    const origin = Date.parse('2026-11-01T00:00:00.000Z');
    for (const c of all) {
      expect(Date.parse(c.created)).toBeLessThanOrEqual(origin);
      expect(Date.parse(c.sharingEndDate)).toBeGreaterThan(Date.parse(c.created));
      if (c.status === 'REVOKED') expect(Date.parse(c.revoked!)).toBeGreaterThan(Date.parse(c.created));
      // A field without a value is absent, as the published document has it (none is nullable).
      else expect(c).not.toHaveProperty('revoked');
      if (c.status === 'EXPIRED') expect(Date.parse(c.sharingEndDate)).toBeLessThan(origin);
      if (c.status === 'REQUESTED') expect(c).not.toHaveProperty('cdrArrangementId');
    }
    expect(new Set(all.map((c) => c.status))).toEqual(new Set(['ACTIVE', 'REVOKED', 'EXPIRED', 'REQUESTED']));
  });

  it('answers 404 for the removed GET /consents and for unknown paths', async () => {
    expect((await get('/consents')).status).toBe(404);
    expect((await get('/nope')).status).toBe(404);
  });
});

describe('sandbox: seeded consents', () => {
  it.each([
    [1, 500],
    [3, 2000],
    [4, 2000],
  ])('seed %i, %i consents: every REQUESTED consent ends after the clock, so it can still be authorised', async (seed, consents) => {
    const s = await startSandbox({ seed, consents });
    try {
      const t = await tokenFor(s.url);
      const body = (await (
        await fetch(`${s.url}/consents/v2?status=REQUESTED&pageSize=1000`, { headers: { authorization: `Bearer ${t}` } })
      ).json()) as { consents: { sharingEndDate: string }[] };
      expect(body.consents.length).toBeGreaterThan(0);
      for (const c of body.consents) expect(Date.parse(c.sharingEndDate)).toBeGreaterThan(Date.parse('2026-11-01T00:00:00.000Z'));
    } finally {
      await s.close();
    }
  });
});
