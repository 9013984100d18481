import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox-client.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are loose JSON */

const api = useSandbox({ seed: 21, consents: 400 });
const first = async (query: string) => (await api.get(`/consents/v2?pageSize=1000&${query}`)).json.consents as any[];

describe('GET /consents/v2 filters', () => {
  it.each([
    ['status=ACTIVE', (c: any) => c.status === 'ACTIVE'],
    ['status=REVOKED', (c: any) => c.status === 'REVOKED' && c.revoked],
    ['accessFrequency=ONCE_OFF', (c: any) => c.useCase.accessFrequency === 'ONCE_OFF'],
    ['postUsageAction=DE_IDENTIFICATION', (c: any) => c.postUsageAction === 'DE_IDENTIFICATION'],
    ['directMarketingAllowed=true', (c: any) => c.directMarketingAllowed === true],
    ['directMarketingAllowed=false', (c: any) => c.directMarketingAllowed === false],
  ])('%s returns exactly the matching consents', async (query, predicate) => {
    const all = await api.allConsents();
    const filtered = await first(query);
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered).toEqual(all.filter(predicate));
  });

  it('filters by identifiers: consentId, cdrArrangementId, externalId, consumerId, consumerEmail, dataHolderBrandId', async () => {
    const all = await api.allConsents();
    const c = all.find((x) => x.status === 'ACTIVE' && x.externalId)!;
    expect(await first(`consentId=${c.consentId}`)).toEqual([c]);
    expect(await first(`cdrArrangementId=${c.cdrArrangementId}`)).toEqual([c]);
    expect(await first(`externalId=${c.externalId}`)).toEqual(all.filter((x) => x.externalId === c.externalId));
    const byConsumer = all.filter((x) => x.consumerId === c.consumerId);
    expect(await first(`consumerId=${encodeURIComponent(c.consumerId)}`)).toEqual(byConsumer);
    expect(await first(`consumerEmail=${encodeURIComponent(c.consumerEmail.toUpperCase())}`)).toEqual(byConsumer);
    expect(await first(`dataHolderBrandId=${c.dataHolderBrandId}`)).toEqual(all.filter((x) => x.dataHolderBrandId === c.dataHolderBrandId));
    expect(await first('consentId=00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('filters by use cases, sent repeated or comma-separated', async () => {
    const all = await api.allConsents();
    const [a, b] = [...new Set(all.map((c) => c.useCase.id))];
    const expected = all.filter((c) => c.useCase.id === a || c.useCase.id === b);
    expect(await first(`useCaseIds=${a}&useCaseIds=${b}`)).toEqual(expected);
    expect(await first(`useCaseIds=${a},${b}`)).toEqual(expected);
  });

  it('filters by created and revoked date ranges, inclusive', async () => {
    const all = await api.allConsents();
    const from = all[100].created;
    const to = all[150].created;
    expect(await first(`oldestCreated=${from}&newestCreated=${to}`)).toEqual(all.filter((c) => c.created >= from && c.created <= to));
    const revoked = all
      .filter((c) => c.revoked)
      .map((c) => c.revoked)
      .sort();
    const mid = revoked[Math.floor(revoked.length / 2)];
    expect(await first(`oldestRevoked=${mid}`)).toEqual(all.filter((c) => c.revoked && c.revoked >= mid));
  });

  it.each([
    'status=PAUSED',
    'accessFrequency=DAILY',
    'directMarketingAllowed=yes',
    'oldestCreated=last-week',
    'postUsageAction=KEEP',
    'pageSize=0',
  ])('answers 400 with a CDS error list for %s', async (query) => {
    const r = await api.get(`/consents/v2?${query}`);
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toMatchObject({
      code: expect.stringMatching(/^urn:au-cds:error:/),
      title: 'Invalid Field',
      detail: expect.any(String),
    });
  });
});

describe('GET /consent (v1, bare array) and the removed GET /consents', () => {
  it('returns every consent as a bare array, with the v1 filters', async () => {
    const all = await api.allConsents();
    const v1 = await api.get('/consent');
    expect(v1.status).toBe(200);
    expect(v1.json).toEqual(all);
    const uc = all[0].useCase.id;
    expect((await api.get(`/consent?useCases=${uc}&status=EXPIRED`)).json).toEqual(
      all.filter((c) => c.useCase.id === uc && c.status === 'EXPIRED'),
    );
  });

  it('GET /consents is 404, naming the replacement', async () => {
    const r = await api.get('/consents');
    expect(r.status).toBe(404);
    expect(r.json.errors[0].detail).toContain('/consents/v2');
  });
});

describe('one consent: read, update, revoke', () => {
  it('GET /consents/{id}: 200 with the consent, 404 for an unknown id', async () => {
    const [c] = await first('status=ACTIVE');
    expect((await api.get(`/consents/${c.consentId}`)).json).toEqual(c);
    const missing = await api.get('/consents/nope');
    expect(missing.status).toBe(404);
    expect(missing.json.errors[0].title).toBe('Resource Not Found');
  });

  it('PATCH updates externalId, postUsageAction and directMarketingAllowed, and bumps the version', async () => {
    const [c] = await first('status=ACTIVE');
    const r = await api.call('PATCH', `/consents/${c.consentId}`, {
      externalId: 'TICKET-42',
      postUsageAction: 'DE_IDENTIFICATION',
      directMarketingAllowed: !c.directMarketingAllowed,
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      consentId: c.consentId,
      externalId: 'TICKET-42',
      postUsageAction: 'DE_IDENTIFICATION',
      directMarketingAllowed: !c.directMarketingAllowed,
      version: c.version + 1,
    });
    expect((await api.get(`/consents/${c.consentId}`)).json).toEqual(r.json);
    expect(await first('externalId=TICKET-42')).toEqual([r.json]);
  });

  it.each([
    [{ sharingEndDate: '2030-01-01T00:00:00.000Z' }, /sharingEndDate cannot be changed/],
    [{ status: 'REVOKED' }, /status cannot be updated/],
    [{ postUsageAction: 'KEEP' }, /postUsageAction must be one of/],
    [{ directMarketingAllowed: 'yes' }, /true or false/],
    [{}, /Nothing to update/],
    ['{not json', /not valid JSON/],
  ])('PATCH answers 400 with an error list for %j', async (body, detail) => {
    const [c] = await first('status=ACTIVE');
    const r = await api.call('PATCH', `/consents/${c.consentId}`, body);
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: any) => e.detail).join(' ')).toMatch(detail);
    expect((await api.get(`/consents/${c.consentId}`)).json.version).toBe(c.version);
  });

  it('DELETE revokes an ACTIVE consent (REVOKED, revoked time, version, a REVOKED event), then answers 422', async () => {
    const [c] = await first('status=ACTIVE&accessFrequency=ONGOING');
    const r = await api.call('DELETE', `/consents/${c.consentId}`);
    expect(r.status).toBe(200); // the document's status for DELETE, without a body
    const after = (await api.get(`/consents/${c.consentId}`)).json;
    expect(after).toMatchObject({ status: 'REVOKED', version: c.version + 1 });
    expect(Date.parse(after.revoked)).toBeGreaterThan(Date.parse(c.created));
    const events = (await api.get(`/consents/events?consentId=${c.consentId}&eventTypes=REVOKED`)).json.data.events;
    expect(events).toEqual([expect.objectContaining({ eventType: 'REVOKED', consentId: c.consentId, timestamp: after.revoked })]);
    const again = await api.call('DELETE', `/consents/${c.consentId}`);
    expect(again.status).toBe(422);
    expect(again.json.errors[0].detail).toMatch(/REVOKED, not ACTIVE/);
  });

  it('DELETE of an EXPIRED consent is 422 and changes nothing; of an unknown one, 404', async () => {
    const [c] = await first('status=EXPIRED');
    expect((await api.call('DELETE', `/consents/${c.consentId}`)).status).toBe(422);
    expect((await api.get(`/consents/${c.consentId}`)).json).toEqual(c);
    expect((await api.call('DELETE', '/consents/unknown')).status).toBe(404);
  });
});

describe('POST /consents', () => {
  it('creates a REQUESTED consent; a second one while an active one exists is 422', async () => {
    const [active] = await first('status=ACTIVE');
    const useCases = (await api.get('/use-cases')).json;
    const uc = useCases.find((u: any) => u.id === active.useCase.id);
    const body = {
      useCaseId: uc.id,
      dataHolderBrandId: active.dataHolderBrandId,
      consumerId: active.consumerId,
      consumerEmail: active.consumerEmail,
      sharingEndDate: '2027-03-01T00:00:00.000Z',
    };
    const clash = await api.call('POST', '/consents', body);
    expect(clash.status).toBe(422);
    // As the document says: the 422 carries the active consent that exists.
    expect(clash.json).toMatchObject({ consentId: active.consentId, status: 'ACTIVE' });

    const fresh = await api.call('POST', '/consents', {
      ...body,
      consumerId: 'auth0|new-consumer-1',
      consumerEmail: 'new.consumer@example.com',
      externalId: 'ONBOARD-1',
    });
    expect(fresh.status).toBe(200);
    expect(fresh.json).toMatchObject({
      status: 'REQUESTED',
      version: 1,
      externalId: 'ONBOARD-1',
      sharingEndDate: '2027-03-01T00:00:00.000Z',
    });
    expect(fresh.json).not.toHaveProperty('cdrArrangementId'); // absent until authorised, not null
    expect((await api.get(`/consents/${fresh.json.consentId}`)).json).toEqual(fresh.json);
    expect(await first(`consentId=${fresh.json.consentId}`)).toEqual([fresh.json]);
  });

  it('answers 400 listing every problem of a bad request', async () => {
    const r = await api.call('POST', '/consents', { useCaseId: 'nope', sharingEndDate: '2001-01-01T00:00:00Z' });
    expect(r.status).toBe(400);
    const details = r.json.errors.map((e: any) => e.detail);
    expect(details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/dataHolderBrandId is required/),
        expect.stringMatching(/useCaseId nope/),
        expect.stringMatching(/sharingEndDate must be/),
      ]),
    );
  });
});

describe('scopes and tokens on every Consent API endpoint', () => {
  it.each([
    ['GET', '/consents/v2', 'consents:read'],
    ['GET', '/consents/events', 'consents:read'],
    ['POST', '/consents', 'consents:write'],
    ['DELETE', '/consents/x', 'consents:write'],
    ['PATCH', '/consents/x/authorization', 'tokens:write'],
    ['GET', '/use-cases', 'use-cases:read'],
  ])('%s %s: 401 without a token, 403 without %s', async (method, path, scope) => {
    expect((await api.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, null)).status).toBe(401);
    const { tokenFor } = await import('../helpers/temp.js');
    const other = scope === 'tokens:write' ? 'consents:read' : 'tokens:write';
    const r = await api.call(
      method,
      path,
      method === 'GET' || method === 'DELETE' ? undefined : {},
      await tokenFor(api.sandbox.url, { scope: other }),
    );
    expect(r.status).toBe(403);
    expect(r.headers.get('www-authenticate')).toContain(`scope="${scope}"`);
  });

  it('answers 405 with Allow for a wrong method on a real path', async () => {
    const r = await api.call('PUT', '/consents/v2', {});
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
  });
});
