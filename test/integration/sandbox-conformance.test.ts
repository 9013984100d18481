import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox-client.js';
import { tokenFor } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the OpenAPI document and API bodies are loose JSON */

/**
 * The sandbox answers as the intermediary's published Consent API document says
 * (test/fixtures/adatree-consent-1.4.0, 2025-01-09), amended by the later changes in the
 * intermediary's changelog (shared/spec/intermediary-api.md, "Consent API changes"). Every endpoint
 * the sandbox serves is called, on its happy path and its main errors; each answer's status must be
 * one the document lists for that operation, and its body must validate against that status's
 * response schema. The amendments are applied below, one by one, each citing its changelog line.
 */
const doc = load(readFileSync(new URL('../fixtures/adatree-consent-1.4.0/consent-v1.4.0.yaml', import.meta.url), 'utf8')) as any;
const errorList = {
  description: 'CDS error list',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ResponseErrorList' } } },
};
const schemas = doc.components.schemas;

/** The deliberate deviations from the 1.4.0 document: later changes of the intermediary, from its changelog. */
const AMENDMENTS: { changelog: string; apply: () => void }[] = [
  {
    changelog: '30 May 2024 | … Nullable `eventDetail` added.',
    apply: () => void (schemas.ConsentEvent.properties.eventDetail.nullable = true),
  },
  {
    changelog: '5 Jun 2025 | Event type EMAIL_SENT added. / 13 Aug 2025 | Event type WEBHOOK_MAX_RETRIES_REACHED added.',
    apply: () => void schemas.ConsentEventType.enum.push('EMAIL_SENT', 'WEBHOOK_MAX_RETRIES_REACHED'),
  },
  {
    changelog: '19 Jun 2025 | The unsupported sharingEndDate field is removed from PATCH /consents/{consentId}.',
    // A body that still sends it is refused with a CDS error list.
    apply: () => void (doc.paths['/consents/{consentId}'].patch.responses['400'] = errorList),
  },
  {
    changelog: '1 Sep 2025 | DELETE /consents/{consentId} returns 422 for an inactive consent.',
    apply: () => void (doc.paths['/consents/{consentId}'].delete.responses['422'] = errorList),
  },
  {
    changelog: '2 Sep 2025 | ConsentResponse gains customerIPAddress. The deprecated GET /consents is removed.',
    apply: () => {
      schemas.ConsentResponse.properties.customerIPAddress = { type: 'string' };
      doc.paths['/consents'].get.responses = { '404': errorList };
    },
  },
  {
    changelog: '15 Sep 2025 | UseCaseResponse gains `active` and `anonymisationDetails`.',
    apply: () => Object.assign(schemas.UseCaseResponse.properties, { active: { type: 'boolean' }, anonymisationDetails: {} }),
  },
  {
    changelog: 'Endpoints table: GET /consent … Array of Consent (the bare-array list of old deployments; not in 1.4.0).',
    apply: () =>
      void (doc.paths['/consent'] = {
        get: {
          responses: {
            '200': {
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/ConsentResponse' } } } },
            },
            '401': { description: 'Unauthorised' },
            '403': { description: 'Forbidden' },
          },
        },
      }),
  },
];
for (const a of AMENDMENTS) a.apply();

const ajv = new Ajv({ strict: false, allErrors: true });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
ajv.addFormat('date-time', (s: string) => ISO.test(s) && !Number.isNaN(Date.parse(s)));
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ $id: 'consent.yaml', components: doc.components });
const rebase = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"consent.yaml#/components/'));
const compiled = new Map<string, ValidateFunction>();

/** What is wrong with one answer, by the document: [] when it conforms. */
function problems(method: string, template: string, status: number, body: unknown): string[] {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) return [`${method} ${template} is not in the document`];
  let response = op.responses[String(status)] ?? op.responses.default;
  if (!response) return [`${method} ${template} answered ${status}; the document lists ${Object.keys(op.responses).join(', ')}`];
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [];
  const key = `${method} ${template} ${status}`;
  if (!compiled.has(key)) compiled.set(key, ajv.compile(rebase(schema) as object));
  const validate = compiled.get(key)!;
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => `${key}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
}

const api = useSandbox({ seed: 91, consents: 300 });
const REDIRECT = 'https://recipient.example/callback';
const seen = new Set<string>();
const checked: string[] = [];

/** Calls the sandbox and checks the answer against the document; returns it for the flow to go on. */
async function call(method: string, template: string, path: string, opts: { body?: unknown; token?: string | null; expect?: number } = {}) {
  const r = await api.call(method, path, opts.body, opts.token === undefined ? api.token : opts.token);
  const body = r.text === '' ? undefined : (r.json ?? r.text);
  if (opts.expect !== undefined) expect(r.status, `${method} ${path}`).toBe(opts.expect);
  expect(problems(method, template, r.status, body), `${method} ${path} → ${r.status}`).toEqual([]);
  seen.add(`${method} ${template}`);
  checked.push(`${method} ${template} ${r.status}`);
  return r;
}
afterAll(() => {
  console.info(`conformance: ${checked.length} answers checked, ${new Set(checked).size} distinct (operation, status)`);
});

const first = async (query: string) => (await api.get(`/consents/v2?pageSize=1000&${query}`)).json.consents as any[];
async function visit(uri: string): Promise<string> {
  const res = await fetch(uri, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('response')!;
}

describe('the sandbox against the published Consent API document (with the changelog applied)', () => {
  it('consent lists and single consents', async () => {
    await call('GET', '/consents/v2', '/consents/v2?pageSize=25&page=2', { expect: 200 });
    await call('GET', '/consents/v2', '/consents/v2?status=REVOKED&pageSize=500', { expect: 200 });
    await call('GET', '/consents/v2', '/consents/v2', { token: null, expect: 401 });
    const narrow = await tokenFor(api.sandbox.url, { scope: 'use-cases:read' });
    await call('GET', '/consents/v2', '/consents/v2', { token: narrow, expect: 403 });
    await call('GET', '/consents', '/consents', { expect: 404 });
    await call('GET', '/consent', '/consent?status=EXPIRED', { expect: 200 });
    const [c] = await first('status=ACTIVE');
    await call('GET', '/consents/{consentId}', `/consents/${c.consentId}`, { expect: 200 });
    await call('GET', '/consents/{consentId}', '/consents/00000000-0000-4000-8000-000000000000', { expect: 404 });
    await call('GET', '/consents/{consentId}', `/consents/${c.consentId}`, { token: null, expect: 401 });
  });

  it('update and revoke', async () => {
    const [a, b] = await first('status=ACTIVE');
    await call('PATCH', '/consents/{consentId}', `/consents/${a.consentId}`, { body: { externalId: 'CRM-1' }, expect: 200 });
    await call('PATCH', '/consents/{consentId}', `/consents/${a.consentId}`, {
      body: { sharingEndDate: '2030-01-01T00:00:00Z' },
      expect: 400,
    });
    await call('PATCH', '/consents/{consentId}', '/consents/00000000-0000-4000-8000-000000000000', {
      body: { externalId: 'x' },
      expect: 404,
    });
    await call('DELETE', '/consents/{consentId}', `/consents/${b.consentId}`, { expect: 200 });
    await call('DELETE', '/consents/{consentId}', `/consents/${b.consentId}`, { expect: 422 });
    await call('DELETE', '/consents/{consentId}', '/consents/00000000-0000-4000-8000-000000000000', { expect: 404 });
  });

  it('creation, authorization (current and deprecated flows), and their refusals', async () => {
    const uc = (await api.get('/use-cases')).json.find((u: any) => u.accessFrequency === 'ONGOING' && u.industries.includes('BANKING'));
    const create = (suffix: string) => ({
      useCaseId: uc.id,
      dataHolderBrandId: uc.dataHolders[0].dataHolderBrandId,
      consumerId: `auth0|conf-${suffix}`,
      consumerEmail: `conf.${suffix}@example.com`,
      sharingEndDate: '2027-06-01T00:00:00.000Z',
    });
    const requested = (await call('POST', '/consents', '/consents', { body: create('1'), expect: 200 })).json;
    const start = await call('POST', '/consents/{consentId}/authorization', `/consents/${requested.consentId}/authorization`, {
      body: { state: 'st-1', redirectUri: REDIRECT, sharingEndDate: '2027-06-01T00:00:00.000Z' },
      expect: 200,
    });
    await call('PATCH', '/consents/{consentId}/authorization', `/consents/${requested.consentId}/authorization`, {
      body: { response: 'not-a-jwt' },
      expect: 400,
    });
    await call('PATCH', '/consents/{consentId}/authorization', `/consents/${requested.consentId}/authorization`, {
      body: { response: await visit(start.json.uri) },
      expect: 200,
    });
    // Now ACTIVE: another one for the same consumer, use case and data holder is refused with the active consent.
    const clash = await call('POST', '/consents', '/consents', { body: create('1'), expect: 422 });
    expect(clash.json).toMatchObject({ consentId: requested.consentId, status: 'ACTIVE' });

    // The deprecated flow: GET …/authorization, then POST /tokens with the data holder's response.
    const legacy = (await call('POST', '/consents', '/consents', { body: create('2'), expect: 200 })).json;
    const old = await call(
      'GET',
      '/consents/{consentId}/authorization',
      `/consents/${legacy.consentId}/authorization?state=st-2&redirectUri=${encodeURIComponent(REDIRECT)}`,
      {
        expect: 200,
      },
    );
    await call('POST', '/tokens', '/tokens', { body: { response: await visit(old.json.uri) }, expect: 200 });

    const [expired] = await first('status=EXPIRED');
    await call('POST', '/consents/{consentId}/authorization', `/consents/${expired.consentId}/authorization`, {
      body: { state: 's', redirectUri: REDIRECT, sharingEndDate: '2028-01-01T00:00:00Z' },
      expect: 409,
    });
    await call('POST', '/consents/{consentId}/authorization', '/consents/00000000-0000-4000-8000-000000000000/authorization', {
      body: { state: 's', redirectUri: REDIRECT },
      expect: 404,
    });
    await call('POST', '/consents/{consentId}/authorization', `/consents/${legacy.consentId}/authorization`, {
      body: { state: 's', redirectUri: REDIRECT },
      token: null,
      expect: 401,
    });
  });

  it('events, use cases, data holders, and a rate limit', async () => {
    const [c] = await first('status=REVOKED');
    await call('GET', '/consents/events', '/consents/events?page-size=200', { expect: 200 });
    await call('GET', '/consents/events', `/consents/events?consentId=${c.consentId}&eventTypes=GRANTED&eventTypes=REVOKED`, {
      expect: 200,
    });
    await call('GET', '/consents/events', '/consents/events?eventTypes=WEBHOOK_SENDING_FAILED_CLIENT_ERROR,WEBHOOK_MAX_RETRIES_REACHED', {
      expect: 200,
    });
    await call('GET', '/consents/events', '/consents/events?oldest=yesterday', { expect: 400 });
    await call('GET', '/consents/events', '/consents/events', { token: null, expect: 401 });
    const useCases = (await call('GET', '/use-cases', '/use-cases', { expect: 200 })).json;
    await call('GET', '/use-cases', '/use-cases?combineScopes=true', { expect: 200 });
    await call('GET', '/use-cases', '/use-cases', { token: null, expect: 401 });
    await call(
      'GET',
      '/software-products/{softwareProductId}/data-holders',
      `/software-products/${useCases[0].softwareProductId}/data-holders`,
      {
        expect: 200,
      },
    );
    await api.admin('POST', '/faults', { spec: '429=1:n1:/use-cases' });
    await call('GET', '/use-cases', '/use-cases', { expect: 429 });
  });

  it('every operation of the document that the sandbox serves was called', () => {
    const served = Object.entries(doc.paths)
      .flatMap(([path, ops]: [string, any]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      // Consumer-facing (a passwordless login e-mail): not part of a data recipient's back office, not emulated.
      .filter((op) => op !== 'POST /passwordless-login' && !op.startsWith('PARAMETERS '));
    expect([...seen].sort()).toEqual(served.sort());
  });
});
