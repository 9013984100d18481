import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { AuditLog } from '../../electron/core/cache/audit-log.js';
import { ConsentIndex } from '../../electron/core/cache/consent-index.js';
import { openCache } from '../../electron/core/cache/database.js';
import { ConsentsRepo, SyncStateRepo } from '../../electron/core/cache/consents-repo.js';
import { ConsentQuery } from '../../electron/core/cache/consent-query.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { CONSENT_SORT_FIELDS, type ConsentFilter, type ConsentSort } from '../../shared/ipc/contract.js';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';
import { EventsRepo } from '../../electron/core/cache/events-repo.js';
import { contentId } from '../../electron/core/sync/consent-sync.js';

/**
 * The consent list's in-memory index must answer exactly what SQL answers: the same windows in the
 * same order, the same counts and status facets, the same filter options, for any filter and sort.
 * Both run on one cache: 1,500 sandbox consents plus odd ones (NULLs, case, unknown statuses).
 */
const gen = createConsentGenerator(5, 1500);
const consents: Consent[] = Array.from({ length: 1500 }, (_, i) => gen.at(i));
// Odd ones: what a real intermediary may send.
const odd = (i: number, change: Partial<Consent>): Consent => ({ ...gen.at(i), consentId: `odd-${i}`, ...change }) as Consent;
consents.push(
  odd(1, { status: 'SUSPENDED' as never }),
  odd(2, { consumerEmail: 'ZED@Example.com' } as Partial<Consent>),
  odd(3, { consumerEmail: 'zed@example.com' } as Partial<Consent>),
  odd(4, { externalId: undefined, postUsageAction: undefined } as Partial<Consent>),
  odd(5, { revoked: undefined, sharingEndDate: undefined } as Partial<Consent>),
  // No creation time, and one shared with another consent: the newest-first order is read in slices
  // along the index on (created, consent_id), so ties and NULLs must come out as ORDER BY puts them.
  odd(6, { created: undefined } as Partial<Consent>),
  odd(7, { created: undefined } as Partial<Consent>),
  odd(8, { created: gen.at(100).created }),
  // A data holder known under two names, and without one: the options name it by the greatest.
  odd(9, { dataHolderName: 'zzz Renamed Bank' } as Partial<Consent>),
  odd(10, { dataHolderName: undefined } as Partial<Consent>),
  // Sorts without an SQL index are sorted in memory: NOCASE ties go by consent id; a character
  // beyond U+FFFF against one in U+E000–U+FFFF orders differently in JavaScript (UTF-16) and SQLite
  // (UTF-8), so that column must come from SQL.
  odd(13, { externalId: 'mixed case' } as Partial<Consent>),
  odd(14, { externalId: 'MIXED CASE' } as Partial<Consent>),
  odd(15, { consumerMobileNumber: '\u{1F600} 0400 000 000' } as Partial<Consent>),
  odd(16, { consumerMobileNumber: '\uE000 0400 000 001' } as Partial<Consent>),
  // Text the in-memory search keeps no byte of (the characters after a match, Haystack.find).
  odd(17, { externalId: 'qxab東-12' } as Partial<Consent>),
  odd(18, { externalId: 'qxab京-12' } as Partial<Consent>),
  // Alike for 10 or 11 characters (a word's first 2 or 3, found by a scan, and the 8 kept after
  // them): the next is read in the text.
  odd(19, { externalId: 'zzlongsharea1' } as Partial<Consent>),
  odd(20, { externalId: 'zzlongshareb2' } as Partial<Consent>),
  odd(21, { externalId: 'yylongsharx1' } as Partial<Consent>),
  odd(22, { externalId: 'yylongshary2' } as Partial<Consent>),
);

const db = openCache(':memory:');
new ConsentsRepo(db).upsertPage(consents, '2026-11-01T00:00:00.000Z');
// Webhook deliveries for some consents, failed or not, over a fortnight (the filter by failures in a period).
const FAILED = ['WEBHOOK_SENDING_FAILED', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'WEBHOOK_MAX_RETRIES_REACHED', 'WEBHOOK_SENT'] as const;
const events: ConsentEvent[] = consents
  .filter((_, i) => i % 7 === 0 || i % 11 === 0)
  .map((c, i) => ({
    eventId: `ev-${i}`,
    consentId: c.consentId,
    eventType: FAILED[i % FAILED.length]!,
    timestamp: new Date(Date.parse('2026-11-01T00:00:00.000Z') + i * 3_600_000).toISOString(),
  }));
new EventsRepo(db).upsertPage(events, contentId);
const eventTimes = events.map((e) => e.timestamp);
const sql = new ConsentQuery(db, { useIndex: false });
// SQL again, a search's matches always checked along an index (as for a common word at 100k).
const scanned = new ConsentQuery(db, { useIndex: false, scanSearchFrom: 0 });
// Slices of 97 rows: the build crosses many slice boundaries, in the rows and in the order.
const fast = new ConsentQuery(db, { indexSlice: 97 });

const pick = <T>(values: readonly T[]) => fc.subarray([...values], { maxLength: Math.min(3, values.length) });
const statuses = [...new Set(consents.map((c) => c.status as string)), 'NEVER_SEEN'];
const holders = [...new Set(consents.map((c) => c.dataHolderBrandId).filter((x): x is string => !!x))];
const useCases = [...new Set(consents.map((c) => c.useCaseId).filter((x): x is string => !!x))];
const consumerIds = [...new Set(consents.map((c) => c.consumerId).filter((x): x is string => !!x))]
  .slice(0, 40)
  .concat(['nobody', 'AUTH0|X']);
const instants = consents.flatMap((c) => [c.created, c.sharingEndDate, c.revoked]).filter((x): x is string => !!x);
const range = fc.option(
  fc.record({
    from: fc.option(fc.constantFrom(...instants), { nil: undefined }),
    to: fc.option(fc.constantFrom(...instants), { nil: undefined }),
  }),
  { nil: undefined },
);
const words = [
  'westpac',
  'budget',
  'home',
  consents[7]!.consumerEmail!.slice(0, 5),
  consents[9]!.consentId.slice(0, 6),
  'zed',
  'nothing-like-this',
  // The first keystroke of a word: this cache has text beyond ASCII, so the full-text search answers.
  'w',
  'B',
  'home l',
  // Anywhere in a field (3 characters or more): the matches in two groups, at a word's start first.
  consents[7]!.consumerEmail!.slice(2, 8),
  consents[9]!.consentId.slice(5, 12),
  'estpac',
  'udge',
  'ome l',
  'ample.c',
];
const filter: fc.Arbitrary<ConsentFilter> = fc
  .record(
    {
      search: fc.constantFrom(...words),
      statuses: pick(statuses),
      dataHolderBrandIds: pick(holders),
      useCaseIds: pick(useCases),
      consumerIds: pick(consumerIds),
      accessFrequencies: pick(['ONGOING', 'ONCE_OFF', 'NEVER']),
      postUsageActions: pick(['DELETION', 'DE_IDENTIFICATION']),
      directMarketing: fc.boolean(),
      collected: fc.boolean(),
      created: range,
      sharingEnd: range,
      revoked: range,
      webhookFailures: fc.option(
        fc.record({ from: fc.constantFrom(...eventTimes), to: fc.constantFrom(...eventTimes) }, { requiredKeys: [] }),
        { nil: undefined },
      ),
    },
    { requiredKeys: [] },
  )
  .map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as ConsentFilter);
const sort: fc.Arbitrary<ConsentSort> = fc.record({
  field: fc.constantFrom(...CONSENT_SORT_FIELDS),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
});

describe('the consent list index', () => {
  it('is built from the cache and then used', async () => {
    expect(fast.indexed()).toBe(false); // nothing built before the first read asks
    await fast.ready();
    expect(fast.indexed()).toBe(true);
    expect(sql.indexed()).toBe(false);
    // A query that SQL answers with a scan, and the index in memory: both give the same.
    expect(fast.count({ accessFrequencies: ['ONGOING'] })).toEqual(sql.count({ accessFrequencies: ['ONGOING'] }));
  });

  it('orders the whole list as SQL does for every sort, NULLs last both ways', async () => {
    await fast.ready();
    for (const field of CONSENT_SORT_FIELDS)
      for (const direction of ['asc', 'desc'] as const)
        for (const f of [{}, { statuses: ['ACTIVE'] }, { search: 'westpac' }] as ConsentFilter[])
          expect(fast.ids(f, { field, direction }, 5000), `${field} ${direction} ${JSON.stringify(f)}`).toEqual(
            sql.ids(f, { field, direction }, 5000),
          );
  });

  it('answers every filter, sort and window exactly as SQL does', async () => {
    await fast.ready();
    fc.assert(
      fc.property(filter, sort, fc.nat({ max: 1600 }), fc.integer({ min: 1, max: 120 }), (f, s, offset, limit) => {
        expect(fast.count(f)).toEqual(sql.count(f));
        expect(fast.list({ filter: f, sort: s, offset, limit })).toEqual(sql.list({ filter: f, sort: s, offset, limit }));
        expect(fast.ids(f, s, limit)).toEqual(sql.ids(f, s, limit));
        expect(scanned.count(f)).toEqual(sql.count(f));
        expect(scanned.list({ filter: f, sort: s, offset, limit })).toEqual(sql.list({ filter: f, sort: s, offset, limit }));
      }),
      { numRuns: 400 },
    );
    // The filter options: the index, and the one pass over the table that answers while it is
    // stale, both as SQL's GROUP BYs would list them.
    const values = <T>(text: string) => db.prepare<[], T>(text).all();
    const grouped = {
      dataHolders: values(
        `SELECT data_holder_brand_id AS id, max(data_holder_name) AS name, count(*) AS count FROM consents
         WHERE data_holder_brand_id IS NOT NULL GROUP BY data_holder_brand_id ORDER BY name COLLATE NOCASE, id`,
      ),
      useCases: values(
        `SELECT use_case_id AS id, max(use_case_name) AS name, count(*) AS count FROM consents
         WHERE use_case_id IS NOT NULL GROUP BY use_case_id ORDER BY name COLLATE NOCASE, id`,
      ),
      accessFrequencies: values(
        'SELECT access_frequency AS value, count(*) AS count FROM consents WHERE access_frequency IS NOT NULL GROUP BY 1 ORDER BY 1',
      ),
      postUsageActions: values(
        'SELECT post_usage_action AS value, count(*) AS count FROM consents WHERE post_usage_action IS NOT NULL GROUP BY 1 ORDER BY 1',
      ),
    };
    expect(fast.options()).toEqual(grouped);
    expect(sql.options()).toEqual(grouped);
  });

  it('is not used while the cache has changed since it was built, and is rebuilt', async () => {
    await fast.ready();
    const before = fast.count({}).total;
    new ConsentsRepo(db).upsertPage(
      [{ ...gen.at(3), consentId: 'brand-new-consent', status: 'ACTIVE' } as Consent],
      '2026-11-02T00:00:00.000Z',
    );
    // At once: the answer reflects the new consent (SQL answers while the index is stale)…
    expect(fast.indexed()).toBe(false);
    expect(fast.count({}).total).toBe(before + 1);
    expect(
      fast.list({ filter: { search: 'brand-new-consent' }, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 5 }),
    ).toHaveLength(1);
    // …and once rebuilt, the index agrees.
    await fast.ready();
    expect(fast.indexed()).toBe(true);
    expect(fast.count({ statuses: ['ACTIVE'] })).toEqual(sql.count({ statuses: ['ACTIVE'] }));
    expect(fast.count({}).total).toBe(before + 1);
  });

  it('stays in use through writes that change nothing it holds, and not through one that does (issue 40)', async () => {
    await fast.ready();
    expect(fast.indexed()).toBe(true);
    // The sync's own state, an audit entry, and a consent synced again as it was (a new synced_at and
    // hash): no rebuild — each of these once threw the index away.
    new SyncStateRepo(db).set('issue-40-test', 'x');
    new AuditLog(db).append({ operator: 'test', action: 'test', target: null, reason: null, result: 'ok' });
    new ConsentsRepo(db).upsertPage([consents[5]!], '2026-11-03T00:00:00.000Z');
    expect(fast.indexed()).toBe(true);
    // A status changed (by any SQL: a trigger marks it), then a consent gone: each makes it stale, and SQL answers.
    const id = consents[5]!.consentId;
    const revoked = fast.count({ statuses: ['REVOKED'] }).total;
    const was = db.prepare<[string], string>('SELECT status FROM consents WHERE consent_id = ?').pluck().get(id);
    db.prepare("UPDATE consents SET status = CASE status WHEN 'REVOKED' THEN 'ACTIVE' ELSE 'REVOKED' END WHERE consent_id = ?").run(id);
    expect(fast.indexed()).toBe(false);
    expect(fast.count({ statuses: ['REVOKED'] }).total).toBe(revoked + (was === 'REVOKED' ? -1 : 1));
    await fast.ready();
    expect(fast.count({ statuses: ['REVOKED'] })).toEqual(sql.count({ statuses: ['REVOKED'] }));
    const total = fast.count({}).total;
    db.prepare('DELETE FROM consents WHERE consent_id = ?').run(id);
    expect(fast.indexed()).toBe(false);
    expect(fast.count({}).total).toBe(total - 1);
  });
});

/**
 * One-character words of a search (the first keystroke of each word) are answered by the index's
 * first-character bits when every searched text is ASCII: the same consents as the full-text
 * search's prefix query ("b"*), whatever the separators, the case, the marks that make words
 * (@ . - _ | +) and the other words of the search.
 */
describe('the consent list index, one-character searches', () => {
  const plain = Array.from({ length: 600 }, (_, i) => gen.at(i));
  const tricky = (i: number, change: Partial<Consent>): Consent => ({ ...gen.at(i), consentId: `tricky-${i}`, ...change }) as Consent;
  plain.push(
    tricky(1, { externalId: 'Qx#Jy/KZ:vw' } as Partial<Consent>),
    tricky(2, { externalId: '@qat .jet -kay _vex |yak +zed 9nine' } as Partial<Consent>),
    tricky(3, { externalId: "o'brien (x) [y] {z} 7,8;9" } as Partial<Consent>),
    tricky(4, { consumerEmail: 'Q.Ueen+tag@Example.COM', externalId: undefined } as Partial<Consent>),
    tricky(5, { dataHolderName: 'Xylo & Co-op Bank', useCaseName: 'Jump!start' } as Partial<Consent>),
    tricky(6, { externalId: 'a\tb\nc d' } as Partial<Consent>),
  );
  const asciiDb = openCache(':memory:');
  new ConsentsRepo(asciiDb).upsertPage(plain, '2026-11-01T00:00:00.000Z');
  const asciiSql = new ConsentQuery(asciiDb, { useIndex: false });
  const asciiFast = new ConsentQuery(asciiDb, { indexSlice: 53 });
  const chars = [...'abcdefghijklmnopqrstuvwxyzQJKXZ0123456789'];
  const search = fc.oneof(
    fc.constantFrom(...chars),
    fc.tuple(fc.constantFrom(...chars), fc.constantFrom(...chars)).map(([a, b]) => `${a} ${b}`),
    fc
      .tuple(fc.constantFrom(...chars), fc.constantFrom('home', 'westpac', 'budget', 'zed', 'example.com', '@qat', '-kay', 'nine'))
      .map(([a, w]) => `${a} ${w}`),
    fc.tuple(fc.constantFrom('home', 'bank', 'q.ueen', 'jump'), fc.constantFrom(...chars)).map(([w, a]) => `${w} ${a}`),
    fc.constantFrom('@', '-', '.', '+', '|', '_', '#', "'"),
    // Anywhere (3 characters or more), with one-character words beside.
    fc
      .tuple(fc.constantFrom('ome', 'estpac', 'ample.com', 'ueen', 'yak +z', 'udg'), fc.constantFrom(...chars))
      .map(([w, a]) => `${w} ${a}`),
    fc.constantFrom('ome', 'estpac', 'ample.com', 'ueen', "'brien", 'ine'),
  );

  it('answers each keystroke of a word typed letter by letter as SQL does, each narrowing the places of the one before (issue 40)', async () => {
    await fast.ready();
    const texts = [
      ...consents.slice(0, 40).flatMap((c) => [c.consumerEmail, c.consentId, c.cdrArrangementId, c.dataHolderName]),
      'example.com',
    ].filter((t): t is string => !!t && !/\s/.test(t));
    const sort: ConsentSort = { field: 'created', direction: 'desc' };
    const same = (search: string) => {
      expect(fast.count({ search }), search).toEqual(sql.count({ search }));
      expect(fast.list({ filter: { search }, sort, offset: 0, limit: 30 }), search).toEqual(
        sql.list({ filter: { search }, sort, offset: 0, limit: 30 }),
      );
    };
    // After "qxab" come 東 in one consent and 京 in another: characters the bytes kept cannot hold.
    for (const search of ['qx', 'qxa', 'qxab', 'qxab京', 'qxab京-', 'qxab京-1']) same(search);
    expect(fast.count({ search: 'qxab京' }).total).toBe(1);
    // From its first letter (its first two found ahead), and from its third.
    for (let i = 1; i <= 'yylongshary2'.length; i++) {
      same('yylongshary2'.slice(0, i));
      // One step of finding "yy" ahead: the next keystroke finds it part found, and finishes it.
      await new Promise((r) => setImmediate(r));
    }
    for (let i = 3; i <= 'zzlongshareb2'.length; i++) same('zzlongshareb2'.slice(0, i));
    expect([fast.count({ search: 'yylongshary' }).total, fast.count({ search: 'zzlongshareb' }).total]).toEqual([1, 1]);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...texts),
        fc.nat(),
        fc.integer({ min: 3, max: 20 }),
        fc.constantFrom('forwards', 'backwards'),
        fc.boolean(),
        async (text, at, length, way, pauses) => {
          const from = at % text.length;
          const word = text.slice(from, from + length);
          for (let i = 1; i <= word.length; i++) {
            // Forwards as one types; backwards, each form the last one and a character before it.
            same(way === 'forwards' ? word.slice(0, i) : word.slice(word.length - i));
            // A pause lets the places of a word's first two characters be found ahead (ConsentIndex.foresee).
            if (pauses) await new Promise((r) => setImmediate(r));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('finds what the full-text search finds, with the bits when the text is ASCII', async () => {
    await asciiFast.ready();
    const bits = vi.spyOn(ConsentIndex.prototype, 'firstCharacterHits');
    fc.assert(
      fc.property(search, sort, pick(statuses), fc.nat({ max: 700 }), fc.integer({ min: 1, max: 80 }), (text, s, st, offset, limit) => {
        const f: ConsentFilter = { search: text, ...(st.length ? { statuses: st } : {}) };
        expect(asciiFast.count(f)).toEqual(asciiSql.count(f));
        expect(asciiFast.list({ filter: f, sort: s, offset, limit })).toEqual(asciiSql.list({ filter: f, sort: s, offset, limit }));
        expect(asciiFast.ids(f, s, limit)).toEqual(asciiSql.ids(f, s, limit));
      }),
      { numRuns: 300 },
    );
    // The bits answered (rather than the full-text search).
    expect(bits.mock.results.some((r) => r.value instanceof Uint8Array)).toBe(true);
    bits.mockClear();
    // In the other cache, with text beyond ASCII, they do not.
    await fast.ready();
    expect(fast.count({ search: 'w' })).toEqual(sql.count({ search: 'w' }));
    expect(bits.mock.results.every((r) => r.value === undefined)).toBe(true);
    bits.mockRestore();
  });
});
