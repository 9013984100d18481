import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { openCache } from '../../electron/core/cache/database.js';
import type { Db } from '../../electron/core/cache/db.js';
import { EventsRepo } from '../../electron/core/cache/events-repo.js';
import { sqliteStorage, type SqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import { WEBHOOK_FAILURES } from '../../electron/core/events/port.js';
import { storeConsents } from '../../electron/core/postgres/consents.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { MARK_EVERY, pgEventStore, storeEvents } from '../../electron/core/postgres/events.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { readMemo } from '../../electron/core/postgres/read-memo.js';
import { postgresStorage, type PostgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { contentId } from '../../electron/core/sync/consent-sync.js';
import type { EventFilter } from '../../shared/ipc/contract.js';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { drain } from './fixture.js';
import { sampleWorld, SYNCED_AT } from './world.js';

/**
 * The PostgreSQL EventStore and ReportStore against the SQLite adapter's SQL path (the reference):
 * the same world loaded into both, in the same pages, then random filters and windows asked of
 * both, every answer compared whole (rows, order, tie-breaks). The world is made harder than the
 * sandbox's: events sharing an instant (ties), events without an id, timestamps in other zones,
 * copies of one event in a page, and events changed by a later page.
 */
const { consents, events: worldEvents } = sampleWorld();

function hardWorld(): { consents: Consent[]; pages: ConsentEvent[][] } {
  const rng = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { seed: 7, numRuns: 5000 });
  let k = 0;
  const next = (n: number) => rng[k++ % rng.length]! % n;
  const events: ConsentEvent[] = [];
  for (const e of worldEvents) {
    events.push(e);
    const r = next(20);
    // Another event at the same instant (a tie), sometimes of another consent and type.
    if (r === 0) {
      const other = worldEvents[next(worldEvents.length)]!;
      events.push({ ...other, eventId: `${e.eventId}-tie`, timestamp: e.timestamp });
    }
    // An event without an id (it gets one from its content), in another zone's notation.
    if (r === 1) {
      const t = new Date(Date.parse(e.timestamp));
      const local = new Date(t.getTime() + 10 * 3600_000).toISOString().replace('Z', '+10:00');
      const { eventId: _id, ...rest } = e;
      events.push({ ...rest, timestamp: local, eventDetail: e.eventDetail ?? 'no id' } as ConsentEvent);
    }
    // A webhook failure with a message that masks like others (an id, a number, an e-mail).
    if (r === 2) {
      events.push({
        ...e,
        eventId: `${e.eventId}-fail`,
        eventType: WEBHOOK_FAILURES[next(3)]!,
        eventDetail:
          next(3) === 0
            ? null
            : `HTTP 503 from https://hooks.example.com: request ${next(1e6)} for a${next(9)}@example.com timed out after ${next(30000)} ms`,
      });
    }
  }
  const pages: ConsentEvent[][] = [];
  for (let i = 0; i < events.length;) {
    const size = 1 + next(120);
    const page = events.slice(i, i + size);
    // A copy of an event later in the same page, with other content: the first's place, the last's content.
    if (page.length > 3 && next(3) === 0) page.push({ ...page[1]!, eventDetail: `${page[1]!.eventDetail ?? ''} (again)` });
    pages.push(page);
    i += size;
  }
  // A later page changing events already stored (their place in ties stays).
  pages.push(events.filter((_, i) => i % 17 === 0).map((e) => ({ ...e, eventDetail: `${e.eventDetail ?? ''} (changed)` })));
  return { consents, pages };
}

let sqlite: { db: Db; storage: SqliteStorage };
let pg: { db: PgDb; database: TestDatabase; storage: PostgresStorage };
const { pages } = hardWorld();
const allEvents = pages.flat();
const instants = [...new Set(allEvents.map((e) => new Date(Date.parse(e.timestamp)).toISOString()))].sort();
const types = [...new Set(allEvents.map((e) => e.eventType))].sort();

beforeAll(async () => {
  const db = openCache(':memory:');
  sqlite = { db, storage: sqliteStorage(db, { useIndexes: false }) };
  const database = await freshDatabase();
  const pgDb = new PgDb(database.url, { max: 4 });
  await migrate(pgDb);
  pg = { db: pgDb, database, storage: postgresStorage(pgDb) };
  // Some consents are unknown to the store (their events show no e-mail or data holder).
  const known = consents.filter((_, i) => i % 7 !== 3);
  new ConsentsRepo(db).upsertPage(known, SYNCED_AT);
  await pgDb.tx((tx) => storeConsents(tx, known, SYNCED_AT));
  const repo = new EventsRepo(db);
  for (const page of pages) {
    repo.upsertPage(page, contentId);
    await pgDb.tx((tx) => storeEvents(tx, page));
  }
  for (const s of [sqlite.storage, pg.storage]) {
    await s.audit.append({ operator: 'sam', action: 'revoke', target: 'a', reason: 'r', result: 'revoked' });
    await s.audit.append({ operator: 'sam', action: 'revoke', target: 'b', reason: 'r', result: 'Failed: offline' });
    await s.audit.append({ operator: 'sam', action: 'revoke', target: 'c', reason: 'r', result: 'failed: offline' });
    await s.audit.append({ operator: 'sam', action: 'revoke', target: 'd', reason: 'r', result: 'already inactive' });
  }
}, 60_000);

afterAll(async () => {
  sqlite?.storage.close();
  sqlite?.db.close();
  await pg?.db.close();
  await pg?.database.drop();
});

const instant = fc.oneof(
  fc.constantFrom(...instants),
  fc
    .integer({ min: Date.parse(instants[0]!) - 86_400_000, max: Date.parse(instants.at(-1)!) + 86_400_000 })
    .map((ms) => new Date(ms).toISOString()),
);
/** Filters: often none or one condition, so windows reach past ties at their edges. */
const filterArb: fc.Arbitrary<EventFilter> = fc
  .tuple(
    fc.option(fc.uniqueArray(fc.constantFrom(...types, ...WEBHOOK_FAILURES, 'NEVER_SEEN'), { minLength: 1, maxLength: 4 }), { freq: 2 }),
    fc.option(fc.constantFrom(...consents.slice(0, 30).map((c) => c.consentId)), { freq: 1 }),
    fc.option(instant, { freq: 2 }),
    fc.option(instant, { freq: 2 }),
  )
  .map(([types, consentId, from, to]) => ({
    ...(types ? { types } : {}),
    ...(consentId ? { consentId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  }));
const offsetArb = fc.oneof(fc.nat(12), fc.nat(700));
const limitArb = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 150 }));

describe('PostgreSQL EventStore and ReportStore answer as the SQLite adapter', () => {
  it('loaded the same events', async () => {
    expect((await pg.storage.events.count({})).total).toBe((await sqlite.storage.events.count({})).total);
  });

  it('lists the same from marked keys (a team server’s index over the list order) as by walking the offset', async () => {
    const memo = readMemo();
    const marked = postgresStorage(pg.db, { memo });
    const filters: EventFilter[] = [{}, { types: [types[0]!] }, { types: ['WEBHOOK_SENT'] }, { from: instants[10]! }];
    // The first deep window asks for the marks; the next ones start from them.
    for (const filter of filters) await marked.events.list({ filter, offset: 1000, limit: 10 });
    await new Promise((r) => setTimeout(r, 300));
    const total = (await sqlite.storage.events.count({})).total;
    expect(total).toBeGreaterThan(MARK_EVERY * 4);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...filters), fc.nat(total + 10), limitArb, async (filter, offset, limit) => {
        expect(await marked.events.list({ filter, offset, limit })).toEqual(await sqlite.storage.events.list({ filter, offset, limit }));
      }),
      { numRuns: 150 },
    );
    // A change heard of: the marks are read again, and until then the offset is walked; the answers stay the same.
    memo.invalidate();
    expect(await marked.events.list({ filter: {}, offset: total - 5, limit: 10 })).toEqual(
      await sqlite.storage.events.list({ filter: {}, offset: total - 5, limit: 10 }),
    );
  });

  it('lists, counts, days and windows', async () => {
    await fc.assert(
      fc.asyncProperty(filterArb, offsetArb, limitArb, async (filter, offset, limit) => {
        const both = async <T>(f: (s: SqliteStorage | PostgresStorage) => Promise<T>) => {
          const [a, b] = await Promise.all([f(sqlite.storage), f(pg.storage)]);
          expect(b).toEqual(a);
        };
        await both((s) => s.events.list({ filter, offset, limit }));
        await both((s) => s.events.count(filter));
        await both((s) => s.events.days(filter, 1 + (offset % 40)));
        await both((s) => s.events.consentsWithFailures(filter));
        await both((s) => s.events.failuresByConsent(filter, 1 + (offset % 60)));
        await both((s) => s.events.failuresByMessage(filter, 1 + (limit % 20)));
      }),
      { numRuns: 200 },
    );
  });

  it('exports every event of a filter, a window at a time', async () => {
    // Windows of 3 rows: many window edges, some of them between events at the same instant.
    const small = pgEventStore(pg.db, { window: 3 });
    await fc.assert(
      fc.asyncProperty(filterArb, async (filter) => {
        const expected = await drain(sqlite.storage.events.windows(filter));
        expect(await drain(pg.storage.events.windows(filter))).toEqual(expected);
        expect(await drain(small.windows(filter))).toEqual(expected);
      }),
      { numRuns: 60 },
    );
    expect(await drain(pg.storage.events.windows({}))).toEqual(await drain(sqlite.storage.events.windows({})));
  });

  it('pages events of some types, and gives consents’ timelines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...types, 'NEVER_SEEN'), { maxLength: 4 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(...consents.map((c) => c.consentId)),
        async (some, page, pageSize, consentId) => {
          expect(await pg.storage.events.ofTypes(some, page, pageSize)).toEqual(await sqlite.storage.events.ofTypes(some, page, pageSize));
          expect(await pg.storage.events.forConsent(consentId, pageSize)).toEqual(
            await sqlite.storage.events.forConsent(consentId, pageSize),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('counts the reports’ figures', async () => {
    await fc.assert(
      fc.asyncProperty(
        instant,
        instant,
        fc.uniqueArray(fc.constantFrom(...types, 'NEVER_SEEN'), { maxLength: 6 }),
        async (from, to, some) => {
          expect(await pg.storage.reports.eventsByType(from, to, some)).toEqual(await sqlite.storage.reports.eventsByType(from, to, some));
          expect(await pg.storage.reports.collectionsByHolder(from, to)).toEqual(
            await sqlite.storage.reports.collectionsByHolder(from, to),
          );
          expect(await pg.storage.events.collectionsByHolder(from, to)).toEqual(await sqlite.storage.events.collectionsByHolder(from, to));
        },
      ),
      { numRuns: 60 },
    );
    const start = new Date(Date.now() - 3600_000).toISOString();
    const end = new Date(Date.now() + 3600_000).toISOString();
    for (const result of [undefined, 'revoked', 'failed: offline', 'nothing'])
      expect(await pg.storage.reports.audited('revoke', start, end, result)).toBe(
        await sqlite.storage.reports.audited('revoke', start, end, result),
      );
    expect(await pg.storage.reports.retention(start, end)).toEqual(await sqlite.storage.reports.retention(start, end));
  });
});
