import { expect } from 'vitest';
import { ConsentClient } from '../../electron/core/api/consent-client.js';
import { DATA_KINDS, DataClient, type DataKind } from '../../electron/core/api/data-client.js';
import { createClientCredentialsTokenSource } from '../../electron/core/auth/token-source.js';
import { ConsentsRepo, DEFERRED_KEY, SyncStateRepo } from '../../electron/core/cache/consents-repo.js';
import { EventsRepo, ReferenceRepo } from '../../electron/core/cache/events-repo.js';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import type { PgDb } from '../../electron/core/postgres/db.js';
import type { SyncJob } from '../../electron/core/sync/sync-job.js';

/**
 * The sandbox's own state, read over HTTP without faults, and the check that a cache equals it:
 * every consent as served (key order included), every event once, the use cases and data holders,
 * and (when asked) every Data API record as served.
 */
export interface Truth {
  consents: Map<string, string>;
  eventIds: Set<string>;
  useCaseIds: string[];
  dataHolderIds: string[];
  /** kind → record key → the record as served (JSON). */
  data?: Map<string, Map<string, string>> | undefined;
}

export const tokenOptions = (url: string): SyncJob['tokens'] => ({
  tokenUrl: `${url}/oauth2/token`,
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  method: 'client_secret_basic',
  scopes: [],
});

/** A Consent API client of the sandbox at `url`. */
export const sandboxClient = (url: string) =>
  new ConsentClient({ baseUrl: url, tokens: createClientCredentialsTokenSource(tokenOptions(url)) });

/** What syncConsents needs to sync the sandbox at `url` into `db`: its client and the cache's repositories. */
export const syncDepsOn = (db: Db, url: string) => ({
  db,
  client: sandboxClient(url),
  consents: new ConsentsRepo(db),
  events: new EventsRepo(db),
  reference: new ReferenceRepo(db),
  state: new SyncStateRepo(db),
});

/** A sync job against a sandbox, writing to `file`. */
export const syncJobFor = (url: string, file: string, extra: Partial<SyncJob> = {}): SyncJob => ({
  file,
  tokens: tokenOptions(url),
  consentApiBaseUrl: url,
  dataApiBaseUrl: url,
  ...extra,
});

export async function readTruth(url: string, opts: { data?: boolean } = {}): Promise<Truth> {
  const tokens = createClientCredentialsTokenSource(tokenOptions(url));
  const client = new ConsentClient({ baseUrl: url, tokens });
  const consents = new Map<string, string>();
  for await (const p of client.listConsentPages({ pageSize: 1000 }))
    for (const c of p.consents) consents.set(c.consentId, JSON.stringify(c));
  const eventIds = new Set<string>();
  for await (const p of client.listEventPages({ pageSize: 1000 })) for (const e of p.items) eventIds.add(e.eventId!);
  const useCases = await client.listUseCases();
  const productId = useCases.find((u) => u.softwareProductId)?.softwareProductId;
  const holders = productId ? await client.listDataHolders(productId) : [];
  const truth: Truth = {
    consents,
    eventIds,
    useCaseIds: useCases.map((u) => u.id!).sort(),
    dataHolderIds: holders.map((h) => h.dataHolderBrandId!).sort(),
  };
  if (opts.data) {
    const data = new DataClient({ baseUrl: url, tokens });
    truth.data = new Map();
    for (const kind of Object.keys(DATA_KINDS) as DataKind[]) {
      const records = new Map<string, string>();
      // Everything the intermediary holds: explicit bounds far before any consent (its defaults are
      // the last 90 days of transactions and 24 months of usage).
      const query = ALL_HISTORY[kind];
      for await (const p of data.listPages(kind, { pageSize: 1000, ...(query ? { query } : {}) }))
        for (const r of p.records) records.set(DATA_KINDS[kind].key(r), JSON.stringify(r));
      truth.data.set(kind, records);
    }
  }
  return truth;
}

const ALL_HISTORY: Partial<Record<DataKind, Record<string, string>>> = {
  transactions: { oldestTime: '2000-01-01T00:00:00Z', newestTime: '2100-01-01T00:00:00Z' },
  usage: { oldestDate: '2000-01-01', newestDate: '2100-01-01' },
};

/** How many records the truth holds, all kinds together. */
export const dataRecordCount = (truth: Truth) => [...(truth.data?.values() ?? [])].reduce((n, m) => n + m.size, 0);

/** The consents' indexes and triggers as a new cache has them: a sorted list of their statements. */
export function consentSchema(db: Db): string[] {
  return db
    .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE tbl_name = 'consents' AND sql IS NOT NULL ORDER BY name")
    .all()
    .map((r) => r.sql);
}

/**
 * Every index of the consents there (none left to build by a first load), and the search index
 * holding exactly the table's rows: FTS5's integrity check against its content table.
 */
export function expectWholeIndexes(db: Db): void {
  const fresh = openCache(':memory:');
  try {
    expect(consentSchema(db)).toEqual(consentSchema(fresh));
  } finally {
    fresh.close();
  }
  expect(db.prepare('SELECT value FROM sync_state WHERE key = ?').get(DEFERRED_KEY)).toBeUndefined();
  expect(() => db.exec("INSERT INTO consents_fts (consents_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
}

export function expectEqualToTruth(db: Db, truth: Truth): void {
  expectWholeIndexes(db);
  const ids = db.prepare<[], { consent_id: string }>('SELECT consent_id FROM consents').all();
  expect(ids).toHaveLength(truth.consents.size);
  const repo = new ConsentsRepo(db);
  for (const { consent_id } of ids) expect(JSON.stringify(repo.get(consent_id))).toBe(truth.consents.get(consent_id));
  const events = db
    .prepare<[], { event_id: string }>('SELECT event_id FROM events')
    .all()
    .map((r) => r.event_id);
  expect(events).toHaveLength(truth.eventIds.size);
  expect(new Set(events)).toEqual(truth.eventIds);
  expect(
    db
      .prepare<[], { id: string }>('SELECT id FROM use_cases ORDER BY id')
      .all()
      .map((r) => r.id),
  ).toEqual(truth.useCaseIds);
  expect(
    db
      .prepare<[], { id: string }>('SELECT data_holder_brand_id AS id FROM data_holders ORDER BY id')
      .all()
      .map((r) => r.id),
  ).toEqual(truth.dataHolderIds);
  if (truth.data) {
    for (const [kind, records] of truth.data) {
      const rows = db
        .prepare<[string], { record_id: string; raw: string }>('SELECT record_id, raw FROM data_records WHERE kind = ?')
        .all(kind);
      expect(rows.length, `${kind} records`).toBe(records.size);
      for (const r of rows) expect(r.raw, `${kind} ${r.record_id}`).toBe(records.get(r.record_id));
    }
  }
}

/**
 * A team store holds exactly what the intermediary serves: every consent as served, once, one
 * version each (the sandbox's consents did not change); every event once; its use cases.
 */
export async function expectTeamStoreEqualToTruth(db: Pick<PgDb, 'query' | 'one'>, truth: Truth): Promise<void> {
  const consents = await db.query<{ consent_id: string; payload: unknown }>('SELECT consent_id, payload FROM consents');
  expect(consents).toHaveLength(truth.consents.size);
  for (const c of consents) expect(c.payload).toEqual(JSON.parse(truth.consents.get(c.consent_id)!));
  expect((await db.one<{ n: number }>('SELECT count(*) AS n FROM consent_versions'))!.n).toBe(truth.consents.size);
  const events = await db.query<{ event_id: string }>('SELECT event_id FROM events');
  expect(events).toHaveLength(truth.eventIds.size);
  expect(new Set(events.map((e) => e.event_id))).toEqual(truth.eventIds);
  expect((await db.query<{ id: string }>('SELECT id FROM use_cases ORDER BY id')).map((u) => u.id)).toEqual(truth.useCaseIds);
}
