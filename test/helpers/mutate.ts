/**
 * Changes made to the intermediary by someone else, through its public API (no back door): some
 * ACTIVE consents revoked, some extended through the data holder, some updated (PATCH), and new
 * consents requested. Used by the incremental sync test and by the benchmark. No vitest here.
 */
export interface MutationCounts {
  revoke: number;
  extend: number;
  update: number;
  create: number;
}
export interface Mutated {
  revoked: string[];
  extended: string[];
  updated: string[];
  created: string[];
}

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read as loose JSON */

const REDIRECT = 'https://recipient.example/callback';

export async function mutate(baseUrl: string, counts: MutationCounts, concurrency = 8): Promise<Mutated> {
  const tokenRes = await fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const expectStatus = (r: { status: number; json: any }, status: number, what: string) => {
    if (r.status !== status) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  const pool = async <T>(items: T[], fn: (item: T, i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, items.length) }, async () => {
        for (let i = next++; i < items.length; i = next++) await fn(items[i]!, i);
      }),
    );
  };

  // ACTIVE consents spread over the whole list, each changed one way only.
  const wanted = counts.revoke + counts.extend + counts.update;
  const first = expectStatus(await call('GET', '/consents/v2?status=ACTIVE&pageSize=1&page=1'), 200, 'list');
  const active: number = first.meta.totalRecords;
  if (active < wanted) throw new Error(`only ${active} ACTIVE consents to change, ${wanted} asked`);
  const picks: any[] = [];
  const stride = Math.floor(active / wanted);
  const pages = new Map<number, any[]>();
  for (let k = 0; k < wanted; k++) {
    const index = k * stride;
    const page = Math.floor(index / 1000) + 1;
    if (!pages.has(page))
      pages.set(page, expectStatus(await call('GET', `/consents/v2?status=ACTIVE&pageSize=1000&page=${page}`), 200, 'list').consents);
    picks.push(pages.get(page)![index % 1000]);
  }
  const out: Mutated = { revoked: [], extended: [], updated: [], created: [] };
  const revoke = picks.slice(0, counts.revoke);
  const extend = picks.slice(counts.revoke, counts.revoke + counts.extend);
  const update = picks.slice(counts.revoke + counts.extend);

  await pool(revoke, async (c) => {
    expectStatus(await call('DELETE', `/consents/${c.consentId}`), 200, 'revoke');
    out.revoked.push(c.consentId);
  });
  await pool(extend, async (c) => {
    const sharingEndDate = new Date(Date.parse(c.sharingEndDate) + 60 * 86_400_000).toISOString();
    const start = expectStatus(
      await call('POST', `/consents/${c.consentId}/authorization`, {
        state: `bench-${c.consentId}`,
        redirectUri: REDIRECT,
        sharingEndDate,
      }),
      200,
      'start extension',
    );
    // The consumer goes through the simulated data holder, which redirects with its signed response.
    const visit = await fetch(start.uri, { redirect: 'manual' });
    const response = new URL(visit.headers.get('location')!).searchParams.get('response');
    expectStatus(await call('PATCH', `/consents/${c.consentId}/authorization`, { response }), 200, 'complete extension');
    out.extended.push(c.consentId);
  });
  await pool(update, async (c, i) => {
    expectStatus(await call('PATCH', `/consents/${c.consentId}`, { externalId: `CRM-CHANGED-${i}` }), 200, 'update');
    out.updated.push(c.consentId);
  });

  const useCases = expectStatus(await call('GET', '/use-cases'), 200, 'use cases') as any[];
  const status = expectStatus(await call('GET', '/__sandbox/status'), 200, 'status');
  const sharingEndDate = new Date(Date.parse(status.now) + 180 * 86_400_000).toISOString();
  await pool(
    Array.from({ length: counts.create }, (_, i) => i),
    async (i) => {
      const uc = useCases[i % useCases.length];
      const created = expectStatus(
        await call('POST', '/consents', {
          useCaseId: uc.id,
          dataHolderBrandId: uc.dataHolders[i % uc.dataHolders.length].dataHolderBrandId,
          consumerId: `auth0|new-${i}`,
          consumerEmail: `new.consumer.${i}@example.com`,
          sharingEndDate,
        }),
        200,
        'create',
      );
      out.created.push(created.consentId);
    },
  );
  return out;
}
