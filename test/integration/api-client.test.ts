import { describe, expect, it } from 'vitest';
import { ConsentClient } from '../../electron/core/api/consent-client.js';
import { ApiError } from '../../electron/core/api/errors.js';
import { retryAfterMs } from '../../electron/core/api/retry.js';
import { createClientCredentialsTokenSource } from '../../electron/core/auth/token-source.js';
import { useSandbox } from '../helpers/sandbox-client.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are loose JSON */

const api = useSandbox({ seed: 17, consents: 120 });

/** A client whose waits are recorded instead of slept, so retry behaviour is checked without timing. */
function client(retry?: { retries?: number }, doFetch?: typeof fetch) {
  const waits: number[] = [];
  const c = new ConsentClient({
    baseUrl: api.sandbox.url,
    tokens: createClientCredentialsTokenSource({
      tokenUrl: `${api.sandbox.url}/oauth2/token`,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      method: 'client_secret_basic',
      scopes: [],
    }),
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
    ...(retry ? { retry } : {}),
    ...(doFetch ? { fetch: doFetch } : {}),
  });
  return { c, waits };
}
const fault = (spec: string) => api.admin('POST', '/faults', { spec });
const activeConsent = async () =>
  (await api.get('/consents/v2?status=ACTIVE&accessFrequency=ONGOING&pageSize=1000')).json.consents.at(
    -1 - Math.floor(Math.random() * 20),
  ) as any;

describe('API client: retries and failures', () => {
  it('honours Retry-After on 429 and then succeeds', async () => {
    const { c, waits } = client();
    await fault('429=3:n2:/use-cases');
    expect((await c.listUseCases()).length).toBeGreaterThan(0);
    expect(waits).toEqual([3000, 3000]);
  });

  it('retries 5xx and dropped connections with jittered exponential backoff', async () => {
    const { c, waits } = client();
    await fault('503:n1:/use-cases,drop:n1:/use-cases');
    expect((await c.listUseCases()).length).toBeGreaterThan(0);
    expect(waits).toEqual([225, 450]);
  });

  it('gives up after its retries with a typed Server error carrying the endpoint and request id', async () => {
    const { c, waits } = client({ retries: 2 });
    await fault('502:n5:/use-cases');
    const error = await c.listUseCases().catch((e: unknown) => e);
    await api.admin('DELETE', '/faults');
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'Server',
      status: 502,
      endpoint: 'GET /use-cases',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(waits).toHaveLength(2);
  });

  it('retries a 200 whose body is malformed, cut off or reset mid-body; after its retries a Schema error says so', async () => {
    const { c, waits } = client();
    // Body faults combine on one request, so one at a time.
    for (const kind of ['malformed', 'truncated', 'reset']) {
      await fault(`${kind}:n1:/use-cases`);
      expect((await c.listUseCases()).length).toBeGreaterThan(0);
    }
    expect(waits).toEqual([225, 225, 225]);
    const { c: giving } = client({ retries: 1 });
    await fault('malformed:n2:/use-cases');
    await expect(giving.listUseCases()).rejects.toMatchObject({
      kind: 'Schema',
      message: expect.stringMatching(/not JSON, or cut off .*gave up after 2 attempts/),
    });
  });

  it('a connection reset while the body is read is a clear Network error, not a bare "TypeError: terminated"', async () => {
    const { c } = client({ retries: 0 });
    await fault('reset:n1:/use-cases');
    const error = await c.listUseCases().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'Network',
      message: expect.stringMatching(/GET \/use-cases: the connection was lost while reading the answer/),
    });
  });

  it('never repeats a revocation of unknown outcome without re-reading the consent first', async () => {
    const { c, waits } = client();
    const consent = await activeConsent();
    // The DELETE is dropped before the sandbox acts: the re-read finds it still ACTIVE, so it is sent again.
    await fault(`drop:n1:/consents/${consent.consentId}`);
    expect(await c.revokeConsent(consent.consentId)).toBe('revoked');
    expect(waits).toHaveLength(1);
    expect((await api.get(`/consents/${consent.consentId}`)).json.status).toBe('REVOKED');
    // Revoking again is a 422: "already inactive", not an error.
    expect(await c.revokeConsent(consent.consentId)).toBe('already-inactive');
  });

  it('treats a revocation whose answer was lost as done, without sending it again', async () => {
    const consent = await activeConsent();
    // The server revokes, then the connection drops before the answer arrives.
    let lost = false;
    const { c } = client(undefined, async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'DELETE' && !lost) {
        lost = true;
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      }
      return res;
    });
    expect(await c.revokeConsent(consent.consentId)).toBe('revoked');
    expect(lost).toBe(true);
    // Exactly one revocation happened: the re-read found the version moved, so nothing was resent.
    expect((await api.get(`/consents/events?consentId=${consent.consentId}&eventTypes=REVOKED`)).json.data.events).toHaveLength(1);
    expect((await api.get(`/consents/${consent.consentId}`)).json).toMatchObject({ status: 'REVOKED', version: consent.version + 1 });
  });

  it('stops at once when cancelled', async () => {
    const { c } = client();
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    await expect(c.listUseCases({}, controller.signal)).rejects.toThrow('user cancelled');
  });

  it('covers the rest of the Consent API: one consent, update, events, use cases, data holders, v1 list', async () => {
    const { c } = client();
    const consent = await activeConsent();
    expect((await c.getConsent(consent.consentId)).consentId).toBe(consent.consentId);
    const updated = await c.updateConsent(consent.consentId, { externalId: 'CLIENT-1' });
    expect(updated).toMatchObject({ externalId: 'CLIENT-1', version: consent.version + 1 });
    const events = [];
    for await (const page of c.listEventPages({ pageSize: 50, filter: { eventTypes: ['GRANTED', 'REVOKED'] } })) events.push(...page.items);
    expect(events.length).toBeGreaterThan(10);
    expect(new Set(events.map((e) => e.eventType))).toEqual(new Set(['GRANTED', 'REVOKED']));
    const useCases = await c.listUseCases({ combineScopes: true });
    const holders = await c.listDataHolders(useCases[0]!.softwareProductId!);
    expect(holders.length).toBeGreaterThan(5);
    expect((await c.listConsentsV1({ status: 'EXPIRED' })).every((x) => x.status === 'EXPIRED')).toBe(true);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
