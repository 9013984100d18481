import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/core/cache/database.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { DataRepo } from '../../electron/core/cache/data-repo.js';
import { sqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import type { DataKind } from '../../electron/core/api/data-client.js';
import type { DataStore } from '../../electron/core/data/port.js';
import { storeConsents } from '../../electron/core/postgres/consents.js';
import { storeData } from '../../electron/core/postgres/data.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { toLegacyShape } from '../../electron/sandbox/products.js';
import { RecordSource, type RecordKind } from '../../electron/sandbox/records.js';
import { World } from '../../electron/sandbox/world.js';
import type { DataView, ProductFilter, TransactionFilter } from '../../shared/ipc/contract.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { drain } from './fixture.js';
import { sampleWorld, SYNCED_AT, transaction } from './world.js';

/**
 * The PostgreSQL DataStore against the SQLite one, the reference: the same data (the sandbox's
 * records of every kind, its product catalogues in both shapes, and transactions made to test the
 * edges: words with accents and punctuation, pending ones, missing times and amounts, stale ones)
 * loaded into both, then the same questions asked of both, many of them drawn at random.
 */
type Json = Record<string, unknown>;
const KINDS: RecordKind[] = [
  'customers',
  'accounts',
  'balances',
  'transactions',
  'payees',
  'directDebits',
  'scheduledPayments',
  'energyAccounts',
  'invoices',
  'bills',
  'servicePoints',
  'usage',
];
const FIRST = '2026-11-01T01:00:00.000Z';
const SECOND = '2026-11-02T01:00:00.000Z';
const NOW = new Date('2026-11-03T00:00:00.000Z');

const DESCRIPTIONS = [
  'Woolworths Sydney',
  'WOOLWORTHS NEWTOWN 2042',
  'Café Crème, Paris',
  'École du Louvre',
  'naïve coffee co.',
  'Pay 12.50 to O’Brien',
  'ACME-123 Pty Ltd',
  'acme123 refund',
  'salary ACME',
  'Transfer to savings (ref 77)',
  'Über Eats*Order',
  'ØRSTED ENERGY',
  '東京 store',
  '',
];

function edgeTransactions(consentId: string, n: number): Json[] {
  return Array.from({ length: n }, (_, i) => {
    const t = transaction(consentId, i, DESCRIPTIONS[i % DESCRIPTIONS.length]!);
    const account = `acc-${consentId.slice(0, 4)}-${i % 3}`;
    const r: Json = { ...t, accountId: account, type: ['PAYMENT', 'TRANSFER_OUTGOING', 'FEE', 'INTEREST_PAID'][i % 4] };
    if (i % 7 === 0) {
      r.status = 'PENDING';
      delete r.postingDateTime;
    }
    if (i % 11 === 0) delete r.executionDateTime;
    if (i % 13 === 0) delete r.description;
    if (i % 17 === 0) delete r.amount;
    if (i % 5 === 0) r.amount = ['1.005', '-0.015', '2.675', '-1234.5', '0'][(i / 5) % 5];
    if (i % 19 === 0) r.postingDateTime = `2026-10-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00.000Z`;
    return r;
  });
}

function edgeBalances(consentId: string): Json[] {
  return [0, 1].map((a) => ({
    accountId: `acc-${consentId.slice(0, 4)}-${a}`,
    currentBalance: a === 0 ? '1500.25' : '-20.10',
    availableBalance: '0.00',
    currency: 'AUD',
    adatree: { consentId },
  }));
}

interface Engine {
  data: DataStore;
  load(kind: DataKind, records: readonly Json[], fetchedAt: string): Promise<void>;
}

describe('PostgreSQL DataStore against SQLite’s', () => {
  const { consents } = sampleWorld();
  const world = new World({ seed: 11, consents: consents.length });
  const src = new RecordSource(world);
  const active = consents.filter((c) => c.status === 'ACTIVE').map((c) => c.consentId);
  const ended = consents.filter((c) => c.status === 'REVOKED' || c.status === 'EXPIRED');
  const big = active[0]!;
  const accountIds = [0, 1, 2].map((a) => `acc-${big.slice(0, 4)}-${a}`);
  let sqlite: Engine;
  let postgres: Engine;
  let database: TestDatabase;
  let db: PgDb;
  const closers: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    const cache = openCache(':memory:');
    const s = sqliteStorage(cache, { now: () => NOW });
    new ConsentsRepo(cache).upsertPage(consents, SYNCED_AT);
    closers.push(() => {
      s.close();
      cache.close();
    });
    sqlite = {
      data: s.data,
      load: async (kind, records, at) => void cache.transaction(() => new DataRepo(cache).upsertPage(kind, records, at))(),
    };
    database = await freshDatabase();
    db = new PgDb(database.url, { max: 4 });
    await migrate(db);
    const p = postgresStorage(db, { now: () => NOW });
    await db.tx((tx) => storeConsents(tx, consents, SYNCED_AT));
    closers.push(
      () => db.close(),
      () => database.drop(),
    );
    postgres = { data: p.data, load: (kind, records, at) => db.tx((tx) => storeData(tx, kind, records, at)) };

    const both = async (kind: DataKind, records: readonly Json[], at: string) => {
      for (let i = 0; i < records.length; i += 250) {
        await sqlite.load(kind, records.slice(i, i + 250), at);
        await postgres.load(kind, records.slice(i, i + 250), at);
      }
    };
    for (const kind of KINDS) {
      const records: Json[] = [];
      for (let index = 0; index < consents.length; index++)
        for (let k = 0; k < src.count(kind, index); k++) records.push(src.record(kind, index, k, index % 3 === 0));
      await both(kind, records, FIRST);
      // The second sync returns most records again: the others are stale.
      await both(
        kind,
        records.filter((_, i) => i % 4 !== 0),
        SECOND,
      );
    }
    const txs = edgeTransactions(big, 600);
    await both('transactions', txs, FIRST);
    await both(
      'transactions',
      txs.filter((_, i) => i % 3 !== 0),
      SECOND,
    );
    await both('balances', edgeBalances(big), SECOND);
    // Ended consents with data: retention's work (and a de-identification's accounts).
    for (const c of ended.slice(0, 12)) {
      await both('transactions', edgeTransactions(c.consentId, 20), FIRST);
      await both(
        'accounts',
        [{ accountId: `acc-${c.consentId}`, displayName: 'Everyday', maskedNumber: 'xxxx 1234', adatree: { consentId: c.consentId } }],
        FIRST,
      );
    }
    // Products: some holders' catalogues, in both shapes, one changed between two syncs.
    const products: Json[] = [];
    for (let h = 0; h < Math.min(6, world.gen.holders.length); h++)
      for (const pr of src.products(h)) products.push(h % 2 ? toLegacyShape(pr) : pr);
    await both('products', products, FIRST);
    await both(
      'products',
      products.slice(0, 40).map((pr, i) => (i % 2 ? { ...pr, name: `${String(pr.name)} (new)` } : pr)),
      SECOND,
    );
  }, 120_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  const same = async <T>(ask: (d: DataStore) => Promise<T>) => {
    const [a, b] = await Promise.all([ask(sqlite.data), ask(postgres.data)]);
    expect(b).toEqual(a);
    return a;
  };

  it('answers a consent’s windows of every kind, its meta and its collections as SQLite does', async () => {
    const withData = [big, ...active.slice(1, 20)];
    for (const consentId of withData) {
      await same((d) => d.meta(consentId));
      await same((d) => d.collectionsFor(consentId));
      for (const kind of KINDS as DataView[]) {
        await same((d) => d.records({ consentId, kind, offset: 0, limit: 200 }));
        await same((d) => d.records({ consentId, kind, offset: 3, limit: 7 }));
      }
      await same((d) => d.list({ kind: 'transactions', consentId, page: 2, pageSize: 9 }));
    }
    for (const kind of [...KINDS, 'products'] as const) await same((d) => d.list({ kind, page: 3, pageSize: 50 }));
    const rows = await same((d) => drain(d.windows({ consentId: big, kind: 'transactions' })));
    expect(rows.length).toBeGreaterThan(400);
    expect(rows.some((r) => r.runningBalance !== null && r.runningBalance !== undefined)).toBe(true);
    expect(rows.some((r) => r.stale)).toBe(true);
  });

  it('filters, searches and windows transactions as SQLite does (random filters)', async () => {
    const days = ['2024-06-01', '2025-03-15', '2025-09-30', '2026-10-01', '2026-10-05', '2026-10-14', '2026-10-28', '2026-11-02'];
    const amounts = ['-1234.5', '-20', '-1.01', '-0.02', '0', '1', '2.67', '2.68'];
    const searches = [
      'wool',
      'WOOLWORTHS new',
      'cafe',
      'café',
      'creme',
      'ecole',
      'éco',
      'naive',
      '12',
      '50',
      'o',
      'brien',
      'acme',
      'acme 123',
      'acme123',
      'über',
      'uber eats',
      'ørsted',
      'orsted',
      '東京',
      'pty-ltd',
      '--',
      ' ',
      'zzz',
      'ref 7',
    ];
    // Each part present in about one filter in four: most filters find something.
    const some = <T>(a: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: a, weight: 1 });
    const filter: fc.Arbitrary<TransactionFilter> = fc
      .record({
        search: some(fc.constantFrom(...searches)),
        accountIds: some(fc.subarray([...accountIds, 'nope'])),
        fromDay: some(fc.constantFrom(...days)),
        toDay: some(fc.constantFrom(...days)),
        minAmount: some(fc.constantFrom(...amounts)),
        maxAmount: some(fc.constantFrom(...amounts)),
        types: some(fc.subarray(['PAYMENT', 'TRANSFER_OUTGOING', 'FEE', 'INTEREST_PAID'])),
        statuses: some(fc.subarray(['POSTED', 'PENDING'])),
      })
      .map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as TransactionFilter);
    // Each search alone finds what SQLite's FTS5 finds.
    let found = 0;
    for (const search of searches) {
      const r = await same((d) => d.records({ consentId: big, kind: 'transactions', filter: { search }, offset: 0, limit: 200 }));
      if (r.total > 0) found++;
    }
    expect(found).toBeGreaterThan(searches.length / 2);
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(
        filter,
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 650 })),
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        async (f, offset, limit, bigOne) => {
          const consentId = bigOne || limit % 4 === 0 ? big : active[1 + (limit % 10)]!;
          const r = await same((d) => d.records({ consentId, kind: 'transactions', filter: f, offset, limit }));
          if (r.rows.length) nonEmpty++;
        },
      ),
      { numRuns: 300 },
    );
    expect(nonEmpty).toBeGreaterThan(60);
  });

  it('lists consents, groups and products as SQLite does', async () => {
    const holders = [...new Set(consents.map((c) => c.dataHolderBrandId).filter((h): h is string => !!h))];
    for (const search of [undefined, 'a', 'ex', 'BANK', 'zz', '%', '_']) {
      await same((d) => d.consents({ search, offset: 0, limit: 100 }));
      await same((d) => d.groups('consumer', search));
      await same((d) => d.groups('holder', search));
    }
    await same((d) => d.consents({ dataHolderBrandId: holders[0], offset: 2, limit: 5 }));
    const consumer = consents.find((c) => c.consentId === big)!;
    await same((d) => d.consents({ consumerId: consumer.consumerId ?? consumer.consumerEmail ?? 'x', offset: 0, limit: 10 }));
    const catalogue = await same((d) => d.products({}, 0, 1000));
    expect(catalogue.total).toBeGreaterThan(20);
    const productFilter: fc.Arbitrary<ProductFilter> = fc.record(
      {
        dataHolderBrandIds: fc.subarray(catalogue.dataHolders.map((h) => h.id)),
        categories: fc.subarray(catalogue.categories.map((c) => c.category)),
        search: fc.constantFrom('', 'saving', 'HOME', 'card', 'new', ' (', 'zz'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(productFilter, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 100 }), async (f, offset, limit) => {
        await same((d) => d.products(f, offset, limit));
      }),
      { numRuns: 60 },
    );
    await same((d) => drain(d.productWindows({})));
    for (const row of catalogue.rows.slice(0, 45)) {
      const detail = await same((d) => d.product(row.recordId));
      await same((d) =>
        d.productVersions(
          row.recordId,
          detail!.versions.map((v) => v.hash),
        ),
      );
    }
    await same((d) => d.product('nope'));
  });

  it('applies retention as SQLite does: the same results, log and de-identified data', async () => {
    const results = await same((d) => d.applyRetention('retention (automatic)'));
    expect(results.length).toBeGreaterThan(0);
    expect(results.some((r) => r.action === 'de-identified')).toBe(true);
    await same((d) => d.retentionLog());
    for (const r of results) {
      await same((d) => d.meta(r.consentId));
      await same((d) => d.records({ consentId: r.consentId, kind: 'transactions', offset: 0, limit: 50 }));
    }
    await same((d) => d.consents({ offset: 0, limit: 200 }));
    await same((d) => d.groups('holder'));
    // De-identified records: the same payloads, under new (random) keys.
    const deidentified = async (d: DataStore) => {
      const out: unknown[] = [];
      for (const kind of ['transactions', 'accounts'] as const)
        for (let page = 1; ; page++) {
          const { rows } = await d.list({ kind, page, pageSize: 500 });
          out.push(...rows.filter((r) => r.deidentified).map((r) => ({ ...r, recordId: r.recordId.startsWith('deidentified:') })));
          if (rows.length < 500) break;
        }
      return out.map((r) => JSON.stringify(r)).sort();
    };
    await same(deidentified);
    expect(await postgres.data.applyRetention('again')).toEqual([]);
    // Nothing of a de-identified record is searchable any more.
    const left = await db.one<{ n: number }>(
      'SELECT count(*) AS n FROM data_records WHERE deidentified AND (tx_words IS NOT NULL OR tx_account IS NOT NULL)',
    );
    expect(left!.n).toBe(0);
  });
});
