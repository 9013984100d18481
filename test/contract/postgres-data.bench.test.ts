import { afterAll, describe, expect, it } from 'vitest';
import type { TransactionFilter } from '../../shared/ipc/contract.js';
import { storeConsents } from '../../electron/core/postgres/consents.js';
import { storeData } from '../../electron/core/postgres/data.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { sampleWorld, SYNCED_AT, transaction } from './world.js';

/**
 * The PostgreSQL DataStore's speed with one consent holding 50,000 transactions: storing them a
 * page at a time, then windows, searches and counts (p50/p95). Run on demand only:
 * CDR_BENCH=1 npx vitest run --project node test/contract/postgres-data.bench.test.ts
 */
const N = 50_000;
const PAGE = 1000;
const WORDS = [
  'Woolworths Sydney',
  'Coles Express',
  'Salary ACME',
  'Woolworths Newtown',
  'Bunnings Warehouse',
  'Uber Eats Order',
  'Opal Travel',
];

describe.skipIf(!process.env.CDR_BENCH)('PostgreSQL DataStore: 50,000 transactions of one consent', () => {
  let database: TestDatabase | undefined;
  let db: PgDb | undefined;
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('stores and reads them', { timeout: 600_000 }, async () => {
    database = await freshDatabase();
    db = new PgDb(database.url, { max: 4 });
    await migrate(db);
    const { consents } = sampleWorld();
    await db.tx((tx) => storeConsents(tx, consents, SYNCED_AT));
    const storage = postgresStorage(db);
    const consentId = consents.find((c) => c.status === 'ACTIVE')!.consentId;
    const txs = Array.from({ length: N }, (_, i) => {
      const t = transaction(consentId, i, `${WORDS[i % WORDS.length]!} ${i % 97}`);
      return { ...t, postingDateTime: new Date(Date.UTC(2024, 0, 1) + i * 600_000).toISOString(), status: i % 50 ? 'POSTED' : 'PENDING' };
    });
    const store = async (at: string) => {
      const start = performance.now();
      for (let i = 0; i < N; i += PAGE) await db!.tx((tx) => storeData(tx, 'transactions', txs.slice(i, i + PAGE), at));
      return Math.round(N / ((performance.now() - start) / 1000));
    };
    const insertRate = await store('2026-11-01T01:00:00.000Z');
    const updateRate = await store('2026-11-02T01:00:00.000Z');
    await db.tx((tx) =>
      storeData(
        tx,
        'balances',
        [{ accountId: `acc-${consentId.slice(0, 8)}`, currentBalance: '1000.00', adatree: { consentId } }],
        '2026-11-02T01:00:00.000Z',
      ),
    );
    await db.query('VACUUM ANALYZE data_records');

    const time = async (name: string, fn: () => Promise<unknown>, runs = 20) => {
      await fn();
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        await fn();
        ms.push(performance.now() - start);
      }
      ms.sort((a, b) => a - b);
      return `${name}: p50 ${ms[Math.floor(runs / 2)]!.toFixed(1)} ms, p95 ${ms[Math.floor(runs * 0.95)]!.toFixed(1)} ms`;
    };
    const records = (filter: TransactionFilter | undefined, offset = 0, limit = 100) =>
      storage.data.records({ consentId, kind: 'transactions', filter, offset, limit });
    expect((await records(undefined)).total).toBe(N);
    expect((await records({ search: 'wool' })).total).toBe(Math.ceil(N / 7) + Math.ceil((N - 3) / 7));
    const lines = [
      `storeData: ${insertRate} rows/s inserted, ${updateRate} rows/s updated (pages of ${PAGE})`,
      await time('window of 100, newest', () => records(undefined)),
      await time('window of 100 at offset 25,000', () => records(undefined, 25_000)),
      await time('search "wool" (window of 100 + count)', () => records({ search: 'wool' })),
      await time('search "salary acme" + amount and day filters', () =>
        records({ search: 'salary acme', minAmount: '-40000', fromDay: '2024-03-01', toDay: '2024-09-30' }),
      ),
      await time('count only (filtered: statuses, types)', () =>
        db!.one(
          "SELECT count(*) FROM data_records WHERE consent_id = $1 AND kind = 'transactions' AND tx_status = ANY($2) AND tx_type = ANY($3)",
          [consentId, ['POSTED'], ['PAYMENT']],
        ),
      ),
      await time('meta', () => storage.data.meta(consentId)),
      await time('data:consents (all consents)', () => storage.data.consents({ offset: 0, limit: 100 })),
    ];
    console.log(lines.join('\n'));
  });
});
