import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { DataQuery } from '../../electron/core/cache/data-query.js';
import { DataRepo } from '../../electron/core/cache/data-repo.js';
import { RecordSource } from '../../electron/sandbox/records.js';
import { World } from '../../electron/sandbox/world.js';
import type { DataRecordRow, TransactionFilter } from '../../shared/ipc/contract.js';

/**
 * The transactions index (issue 21) must answer exactly what SQL answers — the window newest
 * first, its running balances, the count — for any filter the contract allows and any search of
 * the descriptions. Both run on one cache filled from the sandbox's generator at a benchmark's
 * scale (a consent of 3,000 transactions, others skewed), with a few awkward records added: no
 * time, no amount, ties in time, an account without a balance, accents.
 */
type Json = Record<string, unknown>;
let db: Db;
let sql: DataQuery;
let fast: DataQuery;
const consents: { id: string; tx: Json[] }[] = [];
const FETCHED = '2026-11-20T00:00:00.000Z';

beforeAll(async () => {
  const world = new World({ seed: 21, consents: 80, transactions: { perAccount: 60, largest: 3000 } });
  const src = new RecordSource(world);
  db = openCache(':memory:');
  const repo = new DataRepo(db);
  for (let i = 0; i < 80 && consents.length < 4; i++) {
    const n = src.count('transactions', i);
    if (!n) continue;
    const tx = Array.from({ length: n }, (_, k) => src.record('transactions', i, k, false));
    const balances = Array.from({ length: src.count('balances', i) }, (_, k) => src.record('balances', i, k, false));
    const id = String((tx[0]!.adatree as Json).consentId);
    if (consents.length === 0) {
      // The awkward ones, in the largest consent.
      const block = (resourceId: string) => ({ ...(tx[0]!.adatree as Json), resourceId });
      const at = tx[5]!.postingDateTime;
      tx.push(
        { ...tx[1], transactionId: 'odd-no-time', postingDateTime: undefined, executionDateTime: undefined, adatree: block('odd-no-time') },
        { ...tx[2], transactionId: 'odd-no-amount', amount: undefined, adatree: block('odd-no-amount') },
        { ...tx[3], transactionId: 'odd-tie-a', postingDateTime: at, status: 'POSTED', adatree: block('odd-tie-a') },
        { ...tx[4], transactionId: 'odd-tie-b', postingDateTime: at, status: 'POSTED', adatree: block('odd-tie-b') },
        { ...tx[6], transactionId: 'odd-orphan', accountId: 'no-balance-account', adatree: block('odd-orphan') },
        { ...tx[7], transactionId: 'odd-accent', description: 'Café Crème WOOLLAHRA', adatree: block('odd-accent') },
      );
    }
    repo.upsertPage('transactions', tx, FETCHED);
    repo.upsertPage('balances', balances, FETCHED);
    consents.push({ id, tx });
  }
  sql = new DataQuery(db, { useIndex: false });
  fast = new DataQuery(db, { settleAbove: 1000 });
  for (const c of consents) {
    fast.records({ consentId: c.id, kind: 'transactions', offset: 0, limit: 1 });
    await fast.ready(c.id);
  }
});
afterAll(() => fast?.close());

const view = (r: { rows: DataRecordRow[]; total: number }) => ({
  total: r.total,
  rows: r.rows.map((x) => [x.recordId, x.runningBalance, x.stale, x.fetchedAt]),
});

describe('the transactions index', () => {
  it('holds the consents’ transactions and answers from memory', () => {
    expect(consents[0]!.tx.length).toBeGreaterThan(3000);
    for (const c of consents) expect(fast.indexed(c.id)).toBe(true);
    const all = fast.records({ consentId: consents[0]!.id, kind: 'transactions', offset: 0, limit: 200 });
    expect(all.total).toBe(consents[0]!.tx.length);
    expect(view(all)).toEqual(view(sql.records({ consentId: consents[0]!.id, kind: 'transactions', offset: 0, limit: 200 })));
    // The consent's summary (kinds, the filters' values) too.
    for (const c of consents) expect(fast.meta(c.id)).toEqual(sql.meta(c.id));
  });

  it('answers every filter, search, window and count exactly as SQL does', () => {
    const all = consents.flatMap((c) => c.tx);
    const pick = <T>(values: T[]) => [...new Set(values)].filter((v) => v !== undefined);
    const accounts = pick(all.map((t) => String(t.accountId)));
    const types = pick(all.map((t) => String(t.type)));
    const days = pick(all.map((t) => String(t.postingDateTime ?? t.executionDateTime ?? '').slice(0, 10))).filter(Boolean);
    const amounts = pick(all.map((t) => t.amount as string | undefined)).slice(0, 200) as string[];
    const searches = [
      'salary',
      'wool',
      'woolworths',
      'chargeback',
      'w',
      's',
      'acme pty',
      'sal acm',
      'coles b',
      'nothingsuch',
      '',
      ' ',
      'café',
      'cafe',
      '!!',
      'x',
    ];
    let windows = 0;
    let counted = 0;
    // Each part absent three times in four, so that many answers hold rows.
    const sometimes = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
    const filter: fc.Arbitrary<TransactionFilter> = fc
      .record({
        search: sometimes(fc.constantFrom(...searches)),
        accountIds: sometimes(fc.subarray([...accounts, 'no-balance-account', 'never-seen'], { minLength: 1, maxLength: 6 })),
        types: sometimes(fc.subarray([...types, 'NEVER'], { minLength: 1, maxLength: 3 })),
        statuses: sometimes(fc.subarray(['POSTED', 'PENDING', 'NEVER'], { minLength: 1, maxLength: 2 })),
        fromDay: sometimes(fc.constantFrom(...days, '2000-01-01', '2100-01-01')),
        toDay: sometimes(fc.constantFrom(...days, '2000-01-01', '2100-01-01')),
        minAmount: sometimes(fc.constantFrom(...amounts, '0', '-50', '100.5')),
        maxAmount: sometimes(fc.constantFrom(...amounts, '0', '-50', '100.5')),
      })
      .map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as TransactionFilter);
    fc.assert(
      fc.property(
        fc.constantFrom(...consents.map((c) => c.id)),
        filter,
        fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 50 }) }, { weight: 1, arbitrary: fc.nat({ max: 3500 }) }),
        fc.integer({ min: 1, max: 200 }),
        (consentId, f, offset, limit) => {
          const input = { consentId, kind: 'transactions' as const, filter: f, offset, limit };
          const answer = view(fast.records(input));
          expect(answer).toEqual(view(sql.records(input)));
          if (answer.rows.length) windows++;
          if (answer.total) counted++;
        },
      ),
      { numRuns: 400 },
    );
    // Not only empty answers: many windows hold rows and most counts are more than none.
    expect(windows).toBeGreaterThan(80);
    expect(counted).toBeGreaterThan(120);
    expect(fast.indexed(consents[0]!.id)).toBe(true);
  });

  it('answers from SQL once the cache changes, and from memory again once built', async () => {
    const c = consents[0]!;
    const block = { ...(c.tx[0]!.adatree as Json), resourceId: 'late-one' };
    new DataRepo(db).upsertPage(
      'transactions',
      [{ ...c.tx[0], transactionId: 'late-one', description: 'Late refund', postingDateTime: '2099-01-01T00:00:00.000Z', adatree: block }],
      '2026-11-21T00:00:00.000Z',
    );
    const input = { consentId: c.id, kind: 'transactions' as const, filter: { search: 'refund' }, offset: 0, limit: 10 };
    expect(fast.indexed(c.id)).toBe(false);
    expect(view(fast.records(input))).toEqual(view(sql.records(input)));
    expect(fast.records(input).rows[0]?.recordId).toBe('late-one');
    await fast.ready(c.id);
    expect(fast.indexed(c.id)).toBe(true);
    expect(view(fast.records(input))).toEqual(view(sql.records(input)));
    const everything = { consentId: c.id, kind: 'transactions' as const, offset: 100, limit: 100 };
    expect(view(fast.records(everything))).toEqual(view(sql.records(everything)));
    // Another consent's index is untouched by this one's change.
    expect(fast.indexed(consents[1]!.id)).toBe(true);
  });

  it('has a read through the port wait for a large consent in memory rather than read it from SQL', async () => {
    const c = consents[0]!;
    new DataRepo(db).upsertPage('transactions', [{ ...c.tx[0], amount: '-1.00' }], '2026-11-22T00:00:00.000Z');
    expect(fast.indexed(c.id)).toBe(false);
    await fast.settle(c.id);
    expect(fast.indexed(c.id)).toBe(true);
    // A small consent is read from SQL at once: nothing to wait for.
    const small = consents.find((x) => x.tx.length < 1000)!;
    new DataRepo(db).upsertPage('transactions', [{ ...small.tx[0], amount: '-2.00' }], '2026-11-22T00:00:00.000Z');
    await fast.settle(small.id);
    expect(fast.indexed(small.id)).toBe(false);
    await fast.ready(small.id);
  });
});
