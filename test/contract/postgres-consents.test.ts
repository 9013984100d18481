import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { openCache } from '../../electron/core/cache/database.js';
import { EventsRepo, ReferenceRepo } from '../../electron/core/cache/events-repo.js';
import { storeEvents } from '../../electron/core/postgres/events.js';
import { contentId } from '../../electron/core/sync/consent-sync.js';
import { WEBHOOK_FAILURES } from '../../shared/consents/webhooks.js';
import { sqliteStorage, type SqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import type { ConsentStore, ReferenceStore } from '../../electron/core/consents/port.js';
import { pgConsentStore, pgReferenceStore, storeConsents, storeReference } from '../../electron/core/postgres/consents.js';
import { gramFold, tokens } from '../../shared/consents/search.js';
import { searchQuery } from '../../electron/core/postgres/consents-search.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { CONSENT_SORT_FIELDS, type ConsentFilter, type ConsentSort } from '../../shared/ipc/contract.js';
import type { Consent, UseCase } from '../../shared/schemas/consent.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { sampleWorld, SYNCED_AT } from './world.js';

/**
 * The PostgreSQL ConsentStore and ReferenceStore against the SQLite adapter (its SQL path, the
 * reference): the same consents in both, then random filters, sorts, searches and windows, every
 * answer compared. The data is the sandbox's, with some consents bent to reach the corners: missing
 * fields (NULLs), names differing in case only, letters beyond ASCII, apostrophes, unknown statuses.
 */

/** A small seeded generator (mulberry32): a failure names its seed and can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick<T>(xs: readonly T[]): T {
      return xs[Math.floor(next() * xs.length)]!;
    },
    some<T>(xs: readonly T[], max = 3): T[] {
      const n = 1 + Math.floor(next() * max);
      return Array.from({ length: n }, () => xs[Math.floor(next() * xs.length)]!);
    },
  };
}

const ODD_NAMES = [
  'Bank of Example',
  'bank of example',
  'BANK OF EXAMPLE',
  'Éclair Bank',
  'éclair bank',
  'Straße Credit',
  "O'Brien Mutual",
  'Zed',
  'zed',
  '_under',
  'Ünïcode Ltd',
];
const ODD_IDS = ['crm-1', 'CRM-1', 'Crm-2', 'x y z', 'ümlaut-9', 'ab cd', 'abc cd-e', 'abc-cd ef'];
const ODD_EMAILS = ['Jane.Doe@Example.com', 'jane.doe@example.com', 'JANE.DOE@example.com', 'o’brien@x.io', 'zoë@müller.de', 'a+b@c.d'];

function bentConsents(count: number): Consent[] {
  const { consents } = sampleWorld(count);
  const r = rng(7);
  return consents.map((c, i) => {
    if (i % 4 !== 0) return c;
    const b: Record<string, unknown> = { ...c };
    for (const key of [
      'consumerEmail',
      'externalId',
      'revoked',
      'firstDataCollection',
      'version',
      'directMarketingAllowed',
      'consumerMobileNumber',
      'cdrArrangementId',
    ])
      if (r.chance(0.25)) delete b[key];
    if (i % 12 === 0) b.dataHolderName = ODD_NAMES[(i / 12) % ODD_NAMES.length];
    if (i % 12 === 4) b.consumerEmail = ODD_EMAILS[((i - 4) / 12) % ODD_EMAILS.length];
    if (i % 8 === 0) b.externalId = ODD_IDS[(i / 8) % ODD_IDS.length];
    if (r.chance(0.1)) b.status = r.pick(['WEIRD', 'pending', 'ACTIVE']);
    if (r.chance(0.1)) b.created = c.created?.slice(0, 19); // a time without milliseconds, compared as text
    if (r.chance(0.2) && c.useCase) b.useCase = { ...c.useCase, name: r.pick(ODD_NAMES) };
    return b as unknown as Consent;
  });
}

describe('PostgreSQL consents match the SQLite adapter', () => {
  const consents = bentConsents(400);
  const { useCases, holders } = sampleWorld(10);
  const { events } = sampleWorld(400);
  const failureTimes = events
    .filter((e) => (WEBHOOK_FAILURES as readonly string[]).includes(e.eventType))
    .map((e) => new Date(e.timestamp).toISOString());
  let sqlite: SqliteStorage;
  let cache: ReturnType<typeof openCache>;
  let database: TestDatabase;
  let db: PgDb;
  let pg: { consents: ConsentStore; reference: ReferenceStore };
  /** The same, every search answered along the sort's index (as a search with many matches is). */
  let pgScan: ConsentStore;

  beforeAll(async () => {
    cache = openCache(':memory:');
    sqlite = sqliteStorage(cache, { useIndexes: false });
    database = await freshDatabase();
    db = new PgDb(database.url, { max: 4 });
    await migrate(db);
    pg = { consents: pgConsentStore(db), reference: pgReferenceStore(db) };
    pgScan = pgConsentStore(db, { fewMatches: 0 });
    // Two syncs: the second changes some consents (new versions) and repeats others.
    const later = consents
      .filter((_, i) => i % 5 === 0)
      .map((c, i) => ({ ...c, status: i % 2 ? 'REVOKED' : c.status, version: (c.version ?? 0) + 1 }));
    new ConsentsRepo(cache).upsertPage(consents, SYNCED_AT);
    new ConsentsRepo(cache).upsertPage(later, '2026-11-02T00:00:00.000Z');
    await db.tx((tx) => storeConsents(tx, consents, SYNCED_AT));
    await db.tx((tx) => storeConsents(tx, later, '2026-11-02T00:00:00.000Z'));
    const oddHolders = [
      ...holders,
      { dataHolderBrandId: 'h-odd-1', brandName: 'alpha' },
      { dataHolderBrandId: 'h-odd-2', brandName: 'Alpha' },
      { dataHolderBrandId: 'h-odd-3', brandName: null },
      { dataHolderBrandId: 'h-odd-4', brandName: 'Éa', logoUri: 'https://x/l.png' },
    ];
    const oddUseCases = [
      ...useCases,
      { ...useCases[0]!, id: 'uc-odd', name: 'aaa' },
      { ...useCases[0]!, id: 'uc-odd-2', name: 'AAA' },
    ] as UseCase[];
    const combined = oddUseCases.slice(0, 2).map((u) => ({ ...u, scopes: [] }) as unknown as UseCase);
    new ReferenceRepo(cache).replaceUseCases(oddUseCases, SYNCED_AT, combined);
    new ReferenceRepo(cache).replaceDataHolders(oddHolders, SYNCED_AT);
    await db.tx((tx) => storeReference(tx, oddUseCases, oddHolders, SYNCED_AT, combined));
    // Their events (webhook deliveries among them), for the filter by failures in a period.
    new EventsRepo(cache).upsertPage(events, contentId);
    await db.tx((tx) => storeEvents(tx, events));
  });

  afterAll(async () => {
    sqlite?.close();
    cache?.close();
    await db?.close();
    await database?.drop();
  });

  it('tokenizes every character as SQLite’s FTS5 does (unicode61, the cache’s tokenchars)', () => {
    const fts = new Database(':memory:');
    fts.exec(`CREATE VIRTUAL TABLE f USING fts5(a, tokenize = "unicode61 tokenchars '@.-_|+'");
              CREATE VIRTUAL TABLE v USING fts5vocab(f, instance);`);
    const insert = fts.prepare('INSERT INTO f (rowid, a) VALUES (?, ?)');
    const text = (cp: number) => `q${String.fromCodePoint(cp)}z A${String.fromCodePoint(cp)}`;
    const cps: number[] = [];
    for (let cp = 1; cp < 0x30000 + 500; cp++) if (cp < 0xd800 || cp > 0xdfff) cps.push(cp);
    fts.transaction(() => cps.forEach((cp) => insert.run(cp, text(cp))))();
    const want = new Map<number, string[]>();
    for (const r of fts.prepare<[], { doc: number; term: string }>('SELECT doc, term FROM v ORDER BY doc, col, offset').iterate())
      want.set(r.doc, [...(want.get(r.doc) ?? []), r.term]);
    fts.close();
    const wrong = cps.filter((cp) => JSON.stringify(tokens(text(cp))) !== JSON.stringify(want.get(cp) ?? []));
    expect(wrong.map((cp) => cp.toString(16))).toEqual([]);
  });

  it('keeps the text searched anywhere under a pg_trgm index', async () => {
    expect(await db.one("SELECT indexdef AS d FROM pg_indexes WHERE indexname = 'consents_grams'")).toEqual({
      d: expect.stringContaining('gin (grams gin_trgm_ops)'),
    });
  });

  it('folds every character as SQLite’s trigram index does (the search anywhere)', () => {
    const fts = new Database(':memory:');
    fts.exec(`CREATE VIRTUAL TABLE f USING fts5(a, tokenize = "trigram remove_diacritics 1");
              CREATE VIRTUAL TABLE v USING fts5vocab(f, instance);`);
    const insert = fts.prepare('INSERT INTO f (rowid, a) VALUES (?, ?)');
    const cps: number[] = [];
    for (let cp = 1; cp < 0x30000 + 500; cp++) if (cp < 0xd800 || cp > 0xdfff) cps.push(cp);
    // q·z: one trigram, the character folded in the middle (none when it is dropped).
    fts.transaction(() => cps.forEach((cp) => insert.run(cp, `q${String.fromCodePoint(cp)}z`)))();
    const want = new Map<number, string>();
    for (const r of fts.prepare<[], { doc: number; term: string }>('SELECT doc, term FROM v').iterate()) want.set(r.doc, r.term);
    fts.close();
    const wrong = cps.filter((cp) => `q${gramFold(String.fromCodePoint(cp))}z` !== (want.get(cp) ?? 'qz'));
    expect(wrong.map((cp) => cp.toString(16))).toEqual([]);
  });

  it('answers the same list windows, counts and ids for random filters, sorts and searches', async () => {
    const r = rng(20261101);
    const values = <K extends keyof Consent>(k: K) =>
      [...new Set(consents.map((c) => c[k]).filter((v) => v !== undefined && v !== null))] as string[];
    const statuses = [...values('status'), 'NOPE'];
    const holderIds = values('dataHolderBrandId');
    const useCaseIds = [...new Set(consents.map((c) => c.useCase?.id).filter(Boolean))] as string[];
    const freqs = [...new Set(consents.map((c) => c.useCase?.accessFrequency).filter(Boolean))] as string[];
    const actions = values('postUsageAction');
    const times = (k: 'created' | 'sharingEndDate' | 'revoked') => values(k).map((t) => new Date(t).toISOString());
    const searchable = consents.flatMap((c) =>
      [
        c.consentId,
        c.cdrArrangementId,
        c.consumerId,
        c.consumerEmail,
        c.consumerMobileNumber,
        c.externalId,
        c.dataHolderName,
        c.useCase?.name,
      ].filter((v): v is string => typeof v === 'string' && v.length > 0),
    );
    const searchOf = (): string => {
      const v = r.pick(searchable);
      switch (r.int(9)) {
        case 0:
          return v;
        case 1:
          return v.slice(0, 1 + r.int(v.length));
        case 2:
          return v.toUpperCase().slice(0, 1 + r.int(v.length));
        case 3: {
          const ts = v.split(/[\s'’]+/);
          return r.pick(ts).slice(0, 1 + r.int(6));
        }
        case 4:
          return `${r.pick(searchable).slice(0, 3)} ${v.slice(0, 4)}`;
        case 5:
          return v.startsWith('+61') ? `0${v.slice(3, 6)} ${v.slice(6, 9)} ${v.slice(9)}` : `${v.slice(2, 7)}`;
        case 6:
          return r.pick([
            '!!',
            '  ',
            'o’b',
            "o'b",
            'jane doe',
            'é',
            'E',
            'straße',
            'strasse',
            'bank of',
            '"bank"',
            'a*',
            'x OR y',
            'NEAR(a b)',
            '-',
            '@',
            'auth0|',
          ]);
        case 7:
          return v.slice(1 + r.int(4), 6 + r.int(6));
        default:
          return `${v.slice(0, 5)} ${r.pick(searchable).slice(0, 2)} ${r.pick(searchable).slice(0, 2)}`;
      }
    };
    const range = (ts: string[]) => {
      const a = r.pick(ts);
      const b = r.pick(ts);
      const [from, to] = a < b ? [a, b] : [b, a];
      return r.chance(0.3) ? { from } : r.chance(0.4) ? { to } : { from, to };
    };
    const filterOf = (): ConsentFilter => {
      const f: ConsentFilter = {};
      if (r.chance(0.3)) f.statuses = r.some(statuses);
      if (r.chance(0.2)) f.dataHolderBrandIds = r.some(holderIds);
      if (r.chance(0.2)) f.useCaseIds = r.some(useCaseIds);
      if (r.chance(0.1)) f.consumerIds = r.some([...values('consumerId'), 'nobody']);
      if (r.chance(0.15)) f.accessFrequencies = r.some(freqs);
      if (r.chance(0.15)) f.postUsageActions = r.some(actions);
      if (r.chance(0.15)) f.directMarketing = r.chance(0.5);
      if (r.chance(0.15)) f.collected = r.chance(0.5);
      if (r.chance(0.15)) f.created = range(times('created'));
      if (r.chance(0.1)) f.sharingEnd = range(times('sharingEndDate'));
      if (r.chance(0.1)) f.revoked = range(times('revoked'));
      if (r.chance(0.15)) f.webhookFailures = r.chance(0.3) ? {} : range(failureTimes);
      if (r.chance(0.45)) f.search = searchOf();
      return f;
    };
    // Searches alone first: every fixed oddity, and many drawn from the consents' fields.
    const fixed = [
      '!!',
      'jane !!',
      '  ',
      'o’b',
      "o'b",
      "O'Brien",
      'jane doe',
      'é',
      'E',
      'straße',
      'STRASSE',
      'bank of',
      'of bank',
      '"bank"',
      'a*',
      'x OR y',
      'NEAR(a b)',
      '-',
      '@',
      'auth0|',
      'Jane.Doe@',
      'zoë',
      'zoe',
      'müller',
      'ünicode',
      'crm-',
      'x y z',
      'y z',
      'ab cd',
      'ab c',
      'abc cd',
      'abc-c',
      'ab/cd',
      'ab,c',
      'x/y/z',
      'y/z',
      'x/z',
      'abc/cd-',
      '0412',
      '+61',
      '61',
      // Anywhere in a field (3 characters or more), and in two groups: at a word's start first.
      'ample.com',
      'XAMPLE',
      'ane.d',
      'brien',
      '’brien',
      'clair',
      'ÉCLAIR',
      'raße',
      'nïcode',
      'nicode',
      'rm-1',
      'ab c',
      'bc cd',
      '4000',
      '0400 000',
      '000 001',
      'exa ane',
      'x y',
      '%%%',
      'a_b',
      '\\x',
    ];
    let found = 0;
    for (const search of [...fixed, ...Array.from({ length: 600 }, searchOf)]) {
      const filter = { search };
      const sort: ConsentSort = { field: 'consentId', direction: 'asc' };
      const at = `search ${JSON.stringify(search)} → ${searchQuery(search)}`;
      const want = await sqlite.consents.ids(filter, sort, 500);
      expect(await pg.consents.ids(filter, sort, 500), at).toEqual(want);
      expect(await pgScan.ids(filter, sort, 500), at).toEqual(want);
      expect(await pg.consents.count(filter), at).toEqual(await sqlite.consents.count(filter));
      if (want.length) found++;
    }
    expect(found).toBeGreaterThan(400);
    let nonEmpty = 0;
    for (let i = 0; i < 400; i++) {
      const filter = filterOf();
      const sort: ConsentSort = { field: r.pick(CONSENT_SORT_FIELDS), direction: r.chance(0.5) ? 'asc' : 'desc' };
      const count = await sqlite.consents.count(filter);
      const at = `case ${i}: ${JSON.stringify({ filter, sort, query: searchQuery(filter.search) })}`;
      expect(await pg.consents.count(filter), at).toEqual(count);
      if (count.total > 0) nonEmpty++;
      const offset = r.chance(0.5) ? 0 : r.int(count.total + 2);
      const limit = 1 + r.int(r.chance(0.2) ? 500 : 40);
      const input = { filter, sort, offset, limit };
      const rows = await sqlite.consents.list(input);
      expect(await pg.consents.list(input), at).toEqual(rows);
      expect(await pgScan.list(input), at).toEqual(rows);
      const n = 1 + r.int(60);
      const ids = await sqlite.consents.ids(filter, sort, n);
      expect(await pg.consents.ids(filter, sort, n), at).toEqual(ids);
      expect(await pgScan.ids(filter, sort, n), at).toEqual(ids);
    }
    expect(nonEmpty).toBeGreaterThan(150);
  });

  it('lists everything in the same order for every sort', async () => {
    for (const field of CONSENT_SORT_FIELDS)
      for (const direction of ['asc', 'desc'] as const) {
        const input = { filter: {}, sort: { field, direction }, offset: 0, limit: 500 };
        expect(await pg.consents.list(input), `${field} ${direction}`).toEqual(await sqlite.consents.list(input));
      }
  });

  it('answers the same totals, options, resolutions, payloads and versions', async () => {
    expect(await pg.consents.total()).toBe(await sqlite.consents.total());
    expect(await pg.consents.options()).toEqual(await sqlite.consents.options());
    const ids = [...consents.slice(0, 30).map((c) => c.consentId), 'nope', consents[3]!.consentId, 'also-nope'];
    expect(await pg.consents.resolve(ids)).toEqual(await sqlite.consents.resolve(ids));
    for (const c of consents.slice(0, 40)) {
      expect(await pg.consents.get(c.consentId)).toEqual(await sqlite.consents.get(c.consentId));
      expect(await pg.consents.syncedAt(c.consentId)).toBe(await sqlite.consents.syncedAt(c.consentId));
      for (const limit of [1, 2, 10])
        expect(await pg.consents.versions(c.consentId, limit)).toEqual(await sqlite.consents.versions(c.consentId, limit));
    }
    expect(await pg.consents.get('nope')).toBeUndefined();
    expect(await pg.consents.syncedAt('nope')).toBeNull();
  });

  it('answers the same reference lists, in the same order', async () => {
    expect(await pg.reference.useCases()).toEqual(await sqlite.reference.useCases());
    expect(await pg.reference.combinedUseCases()).toEqual(await sqlite.reference.combinedUseCases());
    expect(await pg.reference.dataHolders()).toEqual(await sqlite.reference.dataHolders());
    for (const id of ['h-odd-3', 'h-odd-4', 'nope'])
      expect(await pg.reference.dataHolder(id)).toEqual(await sqlite.reference.dataHolder(id));
    for (const id of ['uc-odd', 'nope']) expect(await pg.reference.useCase(id)).toEqual(await sqlite.reference.useCase(id));
  });
});
