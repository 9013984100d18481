import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxContext } from '../../electron/sandbox/context.js';
import { consentRecordsPage, recordFilters, transactionWindow, type RecordFilter } from '../../electron/sandbox/data-routes.js';
import { listParam } from '../../electron/sandbox/http.js';
import { RecordSource, type RecordKind, type TxWindow } from '../../electron/sandbox/records.js';
import { World } from '../../electron/sandbox/world.js';
import { useSandbox } from '../helpers/sandbox-client.js';

/**
 * The Data API's pages come from a cached list of candidate consents and their running record
 * totals. These tests hold every page to a straightforward reference that walks every consent
 * and every record for each page, as the sandbox did before: the same records, the same totals,
 * also after a revocation, a new consent, a clock move or an expiry by the clock alone.
 */

type Json = Record<string, unknown>;

/** Every record of `kind` for the query, in serving order, walking every consent. */
function reference(world: World, legacyHolders: number, kind: RecordKind, query: string, legacyHeader = false): Json[] {
  const q = new URLSearchParams(query);
  const src = new RecordSource(world);
  const filters = recordFilters(kind, q, world.dataNow()) as RecordFilter[];
  if (kind === 'transactions') {
    // The document's window, read from each record's own effective time (not the sandbox's ranges).
    const w = transactionWindow(q, world.dataNow()) as TxWindow;
    filters.push((r) => {
      const t = Date.parse(String(r.postingDateTime ?? r.executionDateTime));
      return t >= w.oldest && t <= w.newest;
    });
  }
  const consentIds = listParam(q, 'consentIds');
  const arrangements = listParam(q, 'cdrArrangementIds');
  const consumers = listParam(q, 'consumerIds');
  const holders = listParam(q, 'dataHolderBrandIds');
  const useCases = listParam(q, 'useCaseIds');
  const order = consentIds
    ? consentIds.map((id) => world.indexOf(id)).filter((i): i is number => i !== undefined)
    : Array.from({ length: world.total }, (_, i) => i);
  const out: Json[] = [];
  for (const i of order) {
    const n = src.count(kind, i);
    if (n === 0) continue;
    const c = world.consent(i);
    if (arrangements && !arrangements.includes(c.cdrArrangementId ?? '')) continue;
    if (consumers && !consumers.includes(c.consumerId ?? '')) continue;
    if (holders && !holders.includes(c.dataHolderBrandId ?? '')) continue;
    if (useCases && !useCases.includes(c.useCase?.id ?? '')) continue;
    const legacy = legacyHeader || src.consentBasis(i)!.holder < legacyHolders;
    for (let k = 0; k < n; k++) {
      const r = src.record(kind, i, k, legacy);
      if (filters.every((f) => f(r))) out.push(r);
    }
  }
  return out;
}

const api = useSandbox({ seed: 21, consents: 120, legacyHolders: 1 });

const PATHS: [string, RecordKind, string][] = [
  ['/data/banking/accounts', 'accounts', 'accounts'],
  ['/data/banking/transactions', 'transactions', 'transactions'],
  ['/data/banking/payees', 'payees', 'payees'],
  ['/data/energy/electricity/usage', 'usage', 'reads'],
];

/** Every page of a listing over HTTP, each checked against the reference's slice and total. */
async function checkPages(path: string, kind: RecordKind, collection: string, query: string, pageSize: number, headers = false) {
  const expected = reference(api.sandbox.world, 1, kind, query, headers);
  const pages = Math.max(1, Math.ceil(expected.length / pageSize));
  // Out of order, and one past the end: a page must not depend on the one asked before it.
  const order = [...Array.from({ length: pages }, (_, k) => pages - k), pages + 1];
  for (const page of order) {
    const url = `${path}?page=${page}&pageSize=${pageSize}${query ? `&${query}` : ''}`;
    const res = headers
      ? await fetch(`${api.sandbox.url}${url}`, { headers: { authorization: `Bearer ${api.token}`, 'x-v': '1' } }).then(async (x) => ({
          status: x.status,
          json: JSON.parse(await x.text()),
        }))
      : await api.get(url);
    expect(res.status).toBe(200);
    const slice = expected.slice((page - 1) * pageSize, page * pageSize);
    expect(JSON.stringify(res.json.data[collection])).toBe(JSON.stringify(slice));
    expect(res.json.meta).toEqual({ totalRecords: expected.length, totalPages: Math.ceil(expected.length / pageSize) });
  }
  return expected;
}

describe('Data API pages from cached candidate consents', () => {
  it.each(PATHS)('%s: every page equals the reference, at two page sizes', async (path, kind, collection) => {
    expect((await checkPages(path, kind, collection, '', 1000)).length).toBeGreaterThan(0);
    await checkPages(path, kind, collection, '', 7);
  });

  it('with id filters, record filters and the 1.x header, pages equal the reference', async () => {
    const all = reference(api.sandbox.world, 1, 'transactions', '');
    const a = all[3]!.adatree as Json;
    const b = all[all.length - 5]!.adatree as Json;
    const account = String(all[10]!.accountId);
    for (const query of [
      `consentIds=${b.consentId},${a.consentId},not-a-consent`,
      `consumerIds=${a.consumerId}`,
      `dataHolderBrandIds=${a.dataHolderBrandId}`,
      `useCaseIds=${b.useCaseId}`,
      `dataHolderBrandIds=${b.dataHolderBrandId}&useCaseIds=${b.useCaseId}`,
      `cdrArrangementIds=${a.cdrArrangementId}`,
      `statuses=PENDING`,
      `accountIds=${account}`,
      `types=FEE,PAYMENT&dataHolderBrandIds=${a.dataHolderBrandId}`,
    ]) {
      await checkPages('/data/banking/transactions', 'transactions', 'transactions', query, 5);
      await checkPages('/data/banking/transactions', 'transactions', 'transactions', query, 1000);
    }
    await checkPages('/data/banking/accounts', 'accounts', 'accounts', '', 9, true);
  });

  it('a revocation and a clock move are served at once, not from a stale list', async () => {
    const before = await checkPages('/data/banking/transactions', 'transactions', 'transactions', '', 50);
    const victim = String((before[Math.floor(before.length / 2)]!.adatree as Json).consentId);
    expect((await api.call('DELETE', `/consents/${victim}`)).status).toBe(200);
    const after = await checkPages('/data/banking/transactions', 'transactions', 'transactions', '', 50);
    expect(after.length).toBeLessThan(before.length);
    expect(after.some((r) => (r.adatree as Json).consentId === victim)).toBe(false);
    // Far enough that consents expire: the served totals shrink with the reference's.
    const accountsBefore = await checkPages('/data/banking/accounts', 'accounts', 'accounts', '', 10);
    expect((await api.admin('POST', '/clock', { advanceDays: 200 })).status).toBe(200);
    const accountsAfter = await checkPages('/data/banking/accounts', 'accounts', 'accounts', '', 10);
    expect(accountsAfter.length).toBeLessThan(accountsBefore.length);
  });
});

describe('Data API pages on a real-time clock', () => {
  afterEach(() => vi.useRealTimers());

  it('a consent that expires by the clock alone stops being served once its sharing end passes', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-01T00:00:00Z'));
    const world = new World({ seed: 5, consents: 80, realTime: true });
    const ctx = { world, legacyHolders: 0 } as SandboxContext;
    const q = new URLSearchParams();
    const page = () => consentRecordsPage(ctx, 'accounts', q, [], 0, 1000, false);
    const first = page();
    expect(JSON.stringify(first.records)).toBe(JSON.stringify(reference(world, 0, 'accounts', '')));
    // The first sharing end among consents with accounts: just past it, that consent is gone.
    const ends = [...new Set(first.records.map((r) => String((r.adatree as Json).consentId)))].map((id) =>
      world.expiresAt(world.indexOf(id)!),
    );
    const soonest = Math.min(...ends);
    expect(Number.isFinite(soonest)).toBe(true);
    vi.setSystemTime(new Date(soonest + 1));
    const later = page();
    const expected = reference(world, 0, 'accounts', '');
    expect(expected.length).toBeLessThan(first.records.length);
    expect(later.total).toBe(expected.length);
    expect(JSON.stringify(later.records)).toBe(JSON.stringify(expected));
  });
});

describe('consent event pages', () => {
  it('every event of a page of the whole feed is the event the consent’s own listing serves', () => {
    const world = new World({ seed: 9, consents: 60, eventsPerConsent: 6 });
    world.update(3, { status: 'REVOKED', revoked: new Date(world.now()).toISOString() });
    const { total } = world.events({}, 0, 0);
    const feed = [0, 1, 2, 3].flatMap((p) => world.events({}, p * Math.ceil(total / 4), Math.ceil(total / 4)).events);
    expect(feed.length).toBe(total);
    const own = new Map<string, unknown>();
    for (const id of new Set(feed.map((e) => String(e.consentId))))
      for (const e of world.events({ consentId: id }, 0, 10_000).events) own.set(String(e.eventId), e);
    expect(own.size).toBe(total);
    for (const e of feed) expect(JSON.stringify(e)).toBe(JSON.stringify(own.get(String(e.eventId))));
  });
});
