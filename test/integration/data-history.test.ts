import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { ipcClient } from '../helpers/ipc.js';
import { tempDir, tokenFor } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are loose JSON */

/**
 * The intermediary's Data API document: `oldestTime` "If absent defaults to newest-time minus 90
 * days". The sandbox applies that default, as the real intermediary does; the console's data sync
 * must not rely on it. A "Budgeting insights" consent may collect 730 days of history before its
 * start: after the console's sync, its cache holds every one of that consent's transactions (the
 * sandbox asked with explicit bounds far before any consent), and the data browser says which
 * period it holds.
 */
let core: Core;
let url: string;
let token: string;
beforeAll(async () => {
  core = await startCore({
    dataDir: tempDir(),
    host: 'browser',
    appVersion: 'test',
    log: { info() {}, error() {} },
    sandbox: { seed: 83, consents: 80 },
  });
  url = core.sandboxUrl!;
  token = await tokenFor(url);
  // A consent sync (the data sync follows it, as Settings say for the embedded sandbox).
  await core.sync();
}, 60_000);
afterAll(() => core.close());

const { ok } = ipcClient(() => core);
const DAY = 86_400_000;

/** Every transaction the sandbox serves for the consent with these query parameters. */
async function served(consentId: string, query: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/data/banking/transactions?consentIds=${consentId}&pageSize=1000&page=${page}${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    out.push(...body.data.transactions);
    if (!body.links.next) return out;
  }
}

describe('the whole consented history', () => {
  let consent: any;
  let all: any[];

  it('a two-year consent: the sandbox defaults to 90 days, as the document says; explicit bounds give all of it', async () => {
    const { rows } = await ok('consents:list', {
      filter: { statuses: ['ACTIVE'], search: '' },
      sort: { field: 'created', direction: 'asc' },
      offset: 0,
      limit: 100,
    });
    for (const row of rows) {
      const c = (await ok('consents:get', { consentId: row.consentId })).consent;
      if (c.useCase?.name === 'Budgeting insights' && Date.now() - Date.parse(c.created) < 200 * DAY) {
        consent = c;
        break;
      }
    }
    expect(consent, 'an ACTIVE Budgeting insights consent').toBeDefined();
    const useCases = (await (await fetch(`${url}/use-cases`, { headers: { authorization: `Bearer ${token}` } })).json()) as any[];
    expect(useCases.find((u) => u.id === consent.useCase.id).historicalCollectionPeriodInDays).toBe(730);
    all = await served(consent.consentId, '&oldestTime=2000-01-01T00:00:00Z');
    const defaulted = await served(consent.consentId, '');
    const now = Date.now();
    const time = (t: any) => Date.parse(t.postingDateTime ?? t.executionDateTime);
    // Its history reaches back about two years before its start.
    const oldest = Math.min(...all.map(time));
    expect(oldest).toBeLessThan(Date.parse(consent.created) - 600 * DAY);
    expect(oldest).toBeGreaterThanOrEqual(Date.parse(consent.created) - 730 * DAY);
    // Without bounds: only the last 90 days, a fraction of it.
    expect(defaulted.length).toBeGreaterThan(0);
    expect(defaulted.length).toBeLessThan(all.length / 2);
    for (const t of defaulted) expect(time(t)).toBeGreaterThanOrEqual(now - 90 * DAY - 60_000);
  });

  it('the console’s data sync asked with explicit bounds and cached every transaction the consent allows', async () => {
    const cached = await ok('data:records', { consentId: consent.consentId, kind: 'transactions', offset: 0, limit: 1 });
    expect(cached.total).toBe(all.length);
    const ids = new Set<string>();
    for (let offset = 0; offset < cached.total; offset += 200)
      for (const r of (await ok('data:records', { consentId: consent.consentId, kind: 'transactions', offset, limit: 200 })).rows)
        ids.add(r.record.transactionId);
    expect([...ids].sort()).toEqual(all.map((t) => t.transactionId).sort());
    const requests: string[] = (await (await fetch(`${url}/__sandbox/requests`)).json()).requests;
    const asked = requests.filter((r) => r.startsWith('GET /data/banking/transactions?') && !r.includes(`consentIds=${consent.consentId}`));
    expect(asked.length).toBeGreaterThan(0);
    for (const r of asked) {
      const q = new URL(r.slice(4), 'http://x').searchParams;
      expect(Date.parse(q.get('oldestTime')!)).toBeLessThanOrEqual(Date.parse(consent.created) - 730 * DAY);
      // Past now (a year): what the intermediary dates ahead of the console's clock is not left out.
      expect(Date.parse(q.get('newestTime')!)).toBeGreaterThan(Date.now() + 300 * DAY);
    }
    const usage = requests.filter((r) => r.startsWith('GET /data/energy/electricity/usage?'));
    expect(usage.length).toBeGreaterThan(0);
    for (const r of usage) expect(r).toMatch(/oldestDate=\d{4}-\d{2}-\d{2}.*newestDate=\d{4}-\d{2}-\d{2}/);
  });

  it('the data browser says which period of transactions the cache holds', async () => {
    const meta = await ok('data:meta', { consentId: consent.consentId });
    expect(meta.history).toEqual({
      from: new Date(Date.parse(consent.created) - 730 * DAY).toISOString(),
      to: meta.kinds.find((k: any) => k.kind === 'transactions').fetchedAt,
      days: 730,
      assumed: false,
    });
  });
});

describe('incremental data sync', () => {
  const finished = async (jobId: string) => {
    await expect
      .poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId)?.state, { timeout: 30_000 })
      .toMatch(/finished|failed/);
    return (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId);
  };
  const log = async (): Promise<string[]> => (await (await fetch(`${url}/__sandbox/requests`)).json()).requests;
  const transactionRequests = (requests: string[]) =>
    requests.filter((r) => r.startsWith('GET /data/banking/transactions?')).map((r) => new URL(r.slice(4), 'http://x').searchParams);
  const cachedTotal = async () => {
    let n = 0;
    for (const c of (await ok('data:consents', { search: '', offset: 0, limit: 500 })).rows)
      n += (await ok('data:records', { consentId: c.consentId, kind: 'transactions', offset: 0, limit: 1 })).total;
    return n;
  };

  it('with nothing new, reads one page of transactions, which is empty', async () => {
    const before = (await log()).length;
    const job = await finished((await ok('data:sync', { allActive: true })).jobId);
    expect(job.state).toBe('finished');
    const asked = transactionRequests((await log()).slice(before));
    expect(asked.length).toBe(1);
    expect(asked[0]!.get('oldestRetrievalTime')).toMatch(/^\d{4}-/);
    expect(job.counts.transactions).toBe(0);
    // Nothing it did not return is stale: the full read returned it.
    const meta = await ok('data:meta', { consentId: (await ok('data:consents', { search: '', offset: 0, limit: 1 })).rows[0].consentId });
    const transactions = meta.kinds.find((k: any) => k.kind === 'transactions');
    expect(transactions?.stale ?? 0).toBe(0);
    // The period held reaches this sync, though no transaction was new: the cache holds them to now.
    expect(meta.lastFetchedAt > transactions.fetchedAt).toBe(true);
    expect(meta.history.to).toBe(meta.lastFetchedAt);
  }, 60_000);

  it('with new transactions, fetches only those and holds everything the intermediary does', async () => {
    const held = await cachedTotal();
    // Six weeks pass: the accounts gain transactions (and the intermediary retrieves them).
    expect((await fetch(`${url}/__sandbox/clock`, { method: 'POST', body: JSON.stringify({ advanceDays: 42 }) })).status).toBe(200);
    const before = (await log()).length;
    const job = await finished((await ok('data:sync', { allActive: true })).jobId);
    expect(job.state).toBe('finished');
    const asked = transactionRequests((await log()).slice(before));
    expect(asked.every((q) => q.get('oldestRetrievalTime'))).toBe(true);
    expect(job.counts.transactions).toBeGreaterThan(0);
    expect(job.counts.transactions).toBeLessThan(held / 5);
    // The cache now holds, per consent still ACTIVE, exactly what the intermediary holds.
    for (const c of (await ok('data:consents', { search: '', offset: 0, limit: 500 })).rows.filter((r: any) => r.status === 'ACTIVE')) {
      const cached = await ok('data:records', { consentId: c.consentId, kind: 'transactions', offset: 0, limit: 1 });
      expect(cached.total, c.consentId).toBe((await served(c.consentId, '&oldestTime=2000-01-01T00:00:00Z')).length);
    }
    // A full re-read asks without a retrieval bound and stores every record again.
    const fullBefore = (await log()).length;
    const full = await finished((await ok('data:sync', { allActive: true, full: true })).jobId);
    expect(transactionRequests((await log()).slice(fullBefore)).every((q) => !q.get('oldestRetrievalTime'))).toBe(true);
    expect(full.counts.transactions).toBeGreaterThan(held / 2);
  }, 120_000);
});
