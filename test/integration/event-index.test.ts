/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are loose JSON */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { EventQuery, WEBHOOK_FAILURES, type EventListFilter } from '../../electron/core/cache/event-query.js';
import { EventsRepo } from '../../electron/core/cache/events-repo.js';
import { EventIndex, stableOrderBy } from '../../electron/core/cache/event-index.js';
import { complianceReport } from '../../electron/core/reports/compliance.js';
import { sqliteReportStore } from '../../electron/core/cache/sqlite-storage.js';
import { sqliteQueryReader, sqliteQueryRunner } from '../../electron/core/cache/query-runner.js';
import { eventReads, type EventReads } from '../../electron/core/events/reads.js';
import { AuditLog } from '../../electron/core/cache/audit-log.js';
import { contentId } from '../../electron/core/sync/consent-sync.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';

/**
 * The events index must answer exactly what SQL answers — windows newest first, counts per type,
 * counts per local day, webhook failures grouped by masked response and by consent — for any
 * filter. Both run on one cache filled from the sandbox over HTTP (600 consents, their events).
 */
let sandbox: RunningSandbox;
let db: Db;
let sql: EventQuery;
let fast: EventQuery;
/** The reads written once for both engines (events/reads.ts), on SQLite: what the index stands in for. */
let reads: EventReads;
let events: ConsentEvent[] = [];
let cachedConsents: Consent[] = [];

async function all<T>(path: string, sizeParam: string, pick: (body: any) => T[], token: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const body = (await (
      await fetch(`${sandbox.url}${path}?page=${page}&${sizeParam}=1000`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as any;
    out.push(...pick(body));
    if (!body.links?.next) return out;
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 9, consents: 600, eventsPerConsent: 12, clockOrigin: '2026-11-20T00:00:00Z' });
  const token = (await (
    await fetch(`${sandbox.url}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    })
  ).json()) as { access_token: string };
  const consents = await all<Consent>('/consents/v2', 'pageSize', (b) => b.consents, token.access_token);
  events = await all<ConsentEvent>('/consents/events', 'page-size', (b) => b.data.events, token.access_token);
  db = openCache(':memory:');
  cachedConsents = consents.slice(0, 550);
  new ConsentsRepo(db).upsertPage(cachedConsents, '2026-11-20T00:00:00.000Z'); // some events' consents not cached
  new EventsRepo(db).upsertPage(events, contentId);
  sql = new EventQuery(db, { useIndex: false });
  fast = new EventQuery(db);
  reads = eventReads(sqliteQueryReader(db));
  fast.count({});
  await fast.ready();
});
afterAll(async () => {
  fast?.close();
  await sandbox?.close();
});

describe('the events index', () => {
  it('holds every event and answers from memory', () => {
    expect(events.length).toBeGreaterThan(5000);
    expect(events.some((e) => (WEBHOOK_FAILURES as readonly string[]).includes(e.eventType))).toBe(true);
    expect(fast.indexed()).toBe(true);
    expect(fast.count({})!.total).toBe(events.length);
  });

  it('answers every filter, window, count, day and failure grouping exactly as SQL does', async () => {
    const times = events.map((e) => e.timestamp);
    const types = [...new Set(events.map((e) => e.eventType)), 'NEVER_SEEN'];
    const filter: fc.Arbitrary<EventListFilter> = fc
      .record(
        {
          types: fc.subarray(types, { maxLength: 4 }),
          from: fc.constantFrom(...times),
          to: fc.constantFrom(...times),
        },
        { requiredKeys: [] },
      )
      .map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as EventListFilter);
    await fc.assert(
      fc.asyncProperty(
        filter,
        fc.nat({ max: 8000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('Pacific/Auckland', 'America/Los_Angeles', 'Australia/Sydney', 'Asia/Kathmandu'),
        async (f, offset, limit, days, zone) => {
          expect(fast.list({ filter: f, offset, limit })).toEqual(sql.list({ filter: f, offset, limit }));
          expect(fast.count(f)).toEqual(await reads.count(f));
          expect(fast.days(f, days)).toEqual(sql.days(f, days));
          expect(fast.days(f, days, zone)).toEqual(sql.days(f, days, zone));
          expect(fast.failuresByMessage(f)).toEqual(sql.failuresByMessage(f));
          expect(fast.failuresByConsent(f, limit)).toEqual(await reads.failuresByConsent(f, limit));
          expect(fast.consentsWithFailures(f)).toBe(await reads.consentsWithFailures(f));
          const from = f.from ? Date.parse(f.from) : 0;
          const to = f.to ? Date.parse(f.to) : Date.parse('2100-01-01T00:00:00Z');
          const period = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
          expect(fast.collectionsByHolder(period.from, period.to)).toEqual(await reads.collectionsByHolder(period.from, period.to));
          // The compliance report's counts, from the index and from SQL's counts per type.
          const at = new Date('2026-11-25T00:00:00Z');
          const runner = sqliteQueryRunner(db, new AuditLog(db));
          expect(await complianceReport(sqliteReportStore(fast, runner), period, at)).toEqual(
            await complianceReport(sqliteReportStore(sql, runner), period, at),
          );
        },
      ),
      { numRuns: 150 },
    );
    // The whole list, newest first, ties in one stable order.
    expect(fast.list({ filter: {}, offset: 0, limit: 100_000 })).toEqual(sql.list({ filter: {}, offset: 0, limit: 100_000 }));
  });

  it('leaves one consent’s events to SQL, and is not used once the cache changed until rebuilt', async () => {
    const one = events[0]!.consentId;
    expect(fast.list({ filter: { consentId: one }, offset: 0, limit: 50 })).toEqual(
      sql.list({ filter: { consentId: one }, offset: 0, limit: 50 }),
    );
    const extra = { ...events[0]!, eventId: 'a-new-event', timestamp: '2026-11-21T00:00:00.000Z' } as ConsentEvent;
    new EventsRepo(db).upsertPage([extra], contentId);
    expect(fast.indexed()).toBe(false);
    // Stale: the index answers nothing, SQL answers (events/reads.ts), and the list reads SQL itself.
    expect(fast.count({})).toBeUndefined();
    expect((await reads.count({})).total).toBe(events.length + 1);
    expect(fast.list({ filter: {}, offset: 0, limit: 1 })[0]!.timestamp).toBe('2026-11-21T00:00:00.000Z');
    await fast.ready();
    expect(fast.indexed()).toBe(true);
    expect(fast.count({})!.total).toBe(events.length + 1);
  });

  it('stays in use through writes that change nothing it holds; an event rewritten, or a consent’s e-mail, makes it stale (issue 40)', async () => {
    await fast.ready();
    new EventsRepo(db).upsertPage([events[1]!], contentId); // the same event again: nothing written
    db.prepare("INSERT INTO sync_state (key, value) VALUES ('issue-40-test', 'x') ON CONFLICT (key) DO UPDATE SET value = 'y'").run();
    expect(fast.indexed()).toBe(true);
    new EventsRepo(db).upsertPage([{ ...events[1]!, eventType: 'WEBHOOK_SENDING_FAILED', eventDetail: 'HTTP 500' }], contentId);
    expect(fast.indexed()).toBe(false);
    await fast.ready();
    expect(fast.failuresByMessage({})).toEqual(sql.failuresByMessage({}));
    // The list shows each event's consumer e-mail, from the index: a consent's new e-mail is seen at once.
    const consentId = events[1]!.consentId;
    db.prepare("UPDATE consents SET consumer_email = 'moved@example.com' WHERE consent_id = ?").run(consentId);
    expect(fast.indexed()).toBe(false);
    const shown = fast.list({ filter: {}, offset: 0, limit: 10_000 }).find((e) => e.consentId === consentId);
    expect(shown?.consumerEmail).toBe('moved@example.com');
    await fast.ready();
    expect(fast.list({ filter: {}, offset: 0, limit: 10_000 })).toEqual(sql.list({ filter: {}, offset: 0, limit: 10_000 }));
  });
});

describe('the events index as events are added (a sync writing)', () => {
  it('is extended with the new events, not built again, and answers as SQL does after each batch (issue 40)', async () => {
    const grown = openCache(':memory:');
    // The first half of the events first; then batches of the rest, some as old as those indexed,
    // some at the very times of indexed ones (ties go by rowid), some for consents not seen yet.
    const half = events.slice(0, events.length >> 1);
    new EventsRepo(grown).upsertPage(half, contentId);
    const indexed = new EventQuery(grown);
    const plain = new EventQuery(grown, { useIndex: false });
    const plainReads = eventReads(sqliteQueryReader(grown));
    await indexed.ready();
    const builds = vi.spyOn(EventIndex, 'build');
    const batches = [
      events.slice(events.length >> 1, (events.length >> 1) + 500),
      half.slice(0, 200).map((e, i) => ({ ...e, eventId: `tie-${i}` })),
      half.slice(0, 50).map((e, i) => ({
        ...e,
        eventId: `new-consent-${i}`,
        consentId: `not-seen-${i % 7}`,
        eventType: 'WEBHOOK_SENDING_FAILED',
        eventDetail: `HTTP 50${i % 3}`,
      })),
      events.slice((events.length >> 1) + 500),
    ];
    for (const [i, batch] of batches.entries()) {
      new EventsRepo(grown).upsertPage(batch as ConsentEvent[], contentId);
      // A consent cached meanwhile (the consents changed: their holders and e-mails are read again).
      if (i === 2) new ConsentsRepo(grown).upsertPage([{ ...cachedConsents[0]!, consentId: 'not-seen-3' }], '2026-11-21T00:00:00.000Z');
      await indexed.ready();
      expect(indexed.indexed()).toBe(true);
      const last = builds.mock.calls.at(-1)!;
      expect(last[5], `batch ${i}: an extension of the index built before it`).toBeDefined();
      expect(indexed.list({ filter: {}, offset: 0, limit: 100_000 })).toEqual(plain.list({ filter: {}, offset: 0, limit: 100_000 }));
      expect(indexed.failuresByMessage({})).toEqual(plain.failuresByMessage({}));
      expect(indexed.failuresByConsent({}, 1000)).toEqual(await plainReads.failuresByConsent({}, 1000));
      expect(indexed.count({ types: ['WEBHOOK_SENDING_FAILED'] })).toEqual(await plainReads.count({ types: ['WEBHOOK_SENDING_FAILED'] }));
    }
    // An event rewritten is not an addition: the index is built again, whole.
    new EventsRepo(grown).upsertPage([{ ...events[0]!, eventType: 'WEBHOOK_SENT' }], contentId);
    await indexed.ready();
    expect(builds.mock.calls.at(-1)![5]).toBeUndefined();
    expect(indexed.list({ filter: {}, offset: 0, limit: 100_000 })).toEqual(plain.list({ filter: {}, offset: 0, limit: 100_000 }));
    builds.mockRestore();
    indexed.close();
    grown.close();
  });
});

describe('the events index kept current by a console’s host', () => {
  it('follows the events as they are added, with no read asking for it (issue 40)', async () => {
    const grown = openCache(':memory:');
    new EventsRepo(grown).upsertPage(events.slice(0, 1000), contentId);
    const kept = new EventQuery(grown);
    const builds = vi.spyOn(EventIndex, 'build');
    try {
      kept.keepCurrent();
      await vi.waitFor(() => expect(builds).toHaveBeenCalledTimes(1), { timeout: 3_000 });
      await builds.mock.results[0]!.value;
      // A sync stores a page: within a second or so the index holds it, extended.
      new EventsRepo(grown).upsertPage(events.slice(1000, 1600), contentId);
      await vi.waitFor(() => expect(builds).toHaveBeenCalledTimes(2), { timeout: 3_000 });
      expect(builds.mock.calls[1]![5], 'an extension').toBeDefined();
      await builds.mock.results[1]!.value;
      expect(kept.indexed()).toBe(true);
      expect(kept.count({})!.total).toBe(1600);
    } finally {
      builds.mockRestore();
      kept.close();
      grown.close();
    }
  });
});

describe('webhook failure groups', () => {
  it('take as sample the message stored last of those at the latest time, from the index as from SQL', async () => {
    const tied = openCache(':memory:');
    const at = '2026-11-20T10:00:00.000Z';
    const failure = (id: string, timestamp: string, detail: string) =>
      ({ eventId: id, consentId: 'c-tied', eventType: 'WEBHOOK_SENDING_FAILED', timestamp, eventDetail: detail }) as ConsentEvent;
    new EventsRepo(tied).upsertPage(
      [
        failure('t-1', '2026-11-20T09:00:00.000Z', 'HTTP 503 attempt 1'),
        failure('t-2', at, 'HTTP 503 attempt 2'),
        failure('t-3', at, 'HTTP 503 attempt 3'),
      ],
      contentId,
    );
    const indexed = new EventQuery(tied);
    await indexed.ready();
    const groups = indexed.failuresByMessage({});
    expect(groups).toEqual(new EventQuery(tied, { useIndex: false }).failuresByMessage({}));
    expect(groups).toMatchObject([{ count: 3, consents: 1, sample: 'HTTP 503 attempt 3', lastSeen: at }]);
    tied.close();
  });
});

describe('the time order of the events index', () => {
  it('sorts whole-number keys ascending, equal keys in their first order, like a stable comparison sort', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2 ** 45 })), { maxLength: 3000 }),
        fc.integer({ min: 1, max: 500 }),
        async (values, step) => {
          const keys = Float64Array.from(values.map((v) => v + 1_700_000_000_000));
          const expected = [...keys.keys()].sort((a, b) => keys[a]! - keys[b]! || a - b);
          // In steps of `step` with a pause between them, as the build does it on 1,000,000 events.
          expect([...(await stableOrderBy(keys, async () => true, step))!]).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
