import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentClient } from '../../electron/core/api/consent-client.js';
import { ApiError } from '../../electron/core/api/errors.js';
import { createClientCredentialsTokenSource } from '../../electron/core/auth/token-source.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 3, consents: 260 });
});
afterAll(() => sandbox.close());

const tokensFor = (
  tokenUrl: string,
  secret = 'sandbox-secret',
  method: 'client_secret_basic' | 'client_secret_post' = 'client_secret_basic',
) => createClientCredentialsTokenSource({ tokenUrl, clientId: 'sandbox-client', clientSecret: secret, method, scopes: ['consents:read'] });

async function collect(client: ConsentClient, pageSize: number) {
  const pages = [];
  for await (const page of client.listConsentPages({ pageSize })) pages.push(page);
  return pages;
}

/** A scripted intermediary for the failure cases the sandbox does not produce yet. */
async function scripted(
  handler: (path: string, n: number) => { status: number; body: unknown },
): Promise<{ url: string; server: Server; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    if (req.url === '/token') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: `t${calls.length}`, expires_in: 3600 }));
      return;
    }
    const { status, body } = handler(req.url ?? '', calls.length);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls };
}

describe('Consent API client', () => {
  it.each(['client_secret_basic', 'client_secret_post'] as const)('reads every consent by following links.next (%s)', async (method) => {
    const client = new ConsentClient({ baseUrl: sandbox.url, tokens: tokensFor(`${sandbox.url}/oauth2/token`, 'sandbox-secret', method) });
    const pages = await collect(client, 100);
    expect(pages.map((p) => p.consents.length)).toEqual([100, 100, 60]);
    expect(new Set(pages.flatMap((p) => p.consents.map((c) => c.consentId))).size).toBe(260);
    expect(pages[0]).toMatchObject({ page: 1, totalPages: 3, totalRecords: 260 });
  });

  it('fails with a typed Unauthorized error naming the endpoint when the secret is wrong', async () => {
    const client = new ConsentClient({ baseUrl: sandbox.url, tokens: tokensFor(`${sandbox.url}/oauth2/token`, 'wrong') });
    const error = await collect(client, 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'Unauthorized', status: 401, endpoint: 'POST token' });
    expect((error as Error).message).toContain('invalid_client');
    expect((error as Error).message).not.toContain('wrong');
  });

  it('fails with a Network error when nothing listens', async () => {
    const dead = await startSandbox();
    await dead.close();
    const client = new ConsentClient({ baseUrl: dead.url, tokens: tokensFor(`${dead.url}/oauth2/token`) });
    await expect(collect(client, 10)).rejects.toMatchObject({ kind: 'Network' });
  });

  it('renews the token once after a 401, then succeeds', async () => {
    const api = await scripted((_path, n) =>
      n === 2
        ? { status: 401, body: '' }
        : { status: 200, body: { consents: [{ consentId: 'a' }], links: {}, meta: { totalPages: 1, totalRecords: 1 } } },
    );
    try {
      const client = new ConsentClient({ baseUrl: api.url, tokens: tokensFor(`${api.url}/token`) });
      const pages = await collect(client, 10);
      expect(pages[0]!.consents[0]!.consentId).toBe('a');
      expect(api.calls.filter((c) => c === 'POST /token')).toHaveLength(2);
    } finally {
      api.server.close();
    }
  });

  it('refuses to follow a links.next to another origin (the token would leak)', async () => {
    const api = await scripted(() => ({
      status: 200,
      body: { consents: [], links: { next: 'https://collector.example/consents/v2?page=2' }, meta: { totalPages: 2, totalRecords: 1 } },
    }));
    try {
      const client = new ConsentClient({ baseUrl: api.url, tokens: tokensFor(`${api.url}/token`) });
      await expect(collect(client, 10)).rejects.toThrow(/another origin/);
    } finally {
      api.server.close();
    }
  });

  it('reports a malformed payload as a Schema error with the failing path', async () => {
    const api = await scripted(() => ({
      status: 200,
      body: {
        consents: [{ consentId: 'a' }, { consentId: 'b', created: 'yesterday' }],
        links: {},
        meta: { totalPages: 1, totalRecords: 2 },
      },
    }));
    try {
      const client = new ConsentClient({ baseUrl: api.url, tokens: tokensFor(`${api.url}/token`) });
      await expect(collect(client, 10)).rejects.toMatchObject({ kind: 'Schema', message: expect.stringContaining('consents[1].created') });
    } finally {
      api.server.close();
    }
  });

  it('reports a body that is not JSON, and a links.next loop, instead of spinning', async () => {
    const notJson = await scripted(() => ({ status: 200, body: '{"consents": [' }));
    const loop = await scripted(() => ({
      status: 200,
      body: { consents: [], links: { next: '/consents/v2?page=1&pageSize=10' }, meta: { totalPages: 1, totalRecords: 0 } },
    }));
    try {
      await expect(collect(new ConsentClient({ baseUrl: notJson.url, tokens: tokensFor(`${notJson.url}/token`) }), 10)).rejects.toThrow(
        /not JSON/,
      );
      await expect(collect(new ConsentClient({ baseUrl: loop.url, tokens: tokensFor(`${loop.url}/token`) }), 10)).rejects.toThrow(
        /repeats/,
      );
    } finally {
      notJson.server.close();
      loop.server.close();
    }
  });
});
