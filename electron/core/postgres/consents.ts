import { createHash } from 'node:crypto';
import type { ConsentFilter, ConsentRow, ConsentSort, ConsentSortField } from '../../../shared/ipc/contract.js';
import type { Consent, UseCase } from '../../../shared/schemas/consent.js';
import { byCountThenStatus, OptionCounts } from '../consents/option-counts.js';
import type { ConsentStore, DataHolderRef, ReferenceStore } from '../consents/port.js';
import { consentReads } from '../consents/reads.js';
import { pgQueryReader } from './query-runner.js';
import type { UpsertCounts } from '../sync/sync-store.js';
import type { PgDb, Sql, Tx } from './db.js';
import { parseSearch, tierWindows, type Search } from '../../../shared/consents/search.js';
import { WEBHOOK_FAILURES } from '../../../shared/consents/webhooks.js';
import { gramsText, likeAnywhere, searchVector, startQuery } from './consents-search.js';
import { columnOf, CONSENT_COLUMNS, filterParts, ROW_COLUMNS, sortKeySql } from '../consents/filter.js';

/**
 * Consents, their versions, use cases and data holders (part of schema version 1). A consent's
 * payload is kept whole (jsonb); the columns lists filter and sort on are generated from it. Text
 * columns compare byte-wise (COLLATE "C", as SQLite's BINARY), whatever the database's locale; the
 * sorts SQLite makes with NOCASE sort here on lower(…), which under "C" folds ASCII letters only, as
 * NOCASE does.
 *
 * `search` is the consent's full-text search vector, written by storeConsents from the payload
 * (consents-search.ts: FTS5's tokens, so a search finds what the SQLite cache finds).
 *
 * Every sort of the list has two indexes, one per direction: NULLs sort last in both (as in the
 * SQLite adapter), which one index read backwards cannot give. The schema is the migrations'
 * (migrations/): a new sort needs a migration that creates its two indexes.
 */
/** A sort's key in PostgreSQL: lower() for the sorts that ignore case (ASCII only under COLLATE "C", as NOCASE). */
const sortKey = (field: ConsentSortField) => sortKeySql(field, (column) => `lower(${column})`);

interface Where {
  sql: string;
  params: unknown[];
}

/**
 * Which matches of a search: all of them, those where every word starts a word (the first group of
 * a tiered search, shared/consents/search.ts), or the others.
 */
type Tier = 'all' | 'first' | 'rest';

/**
 * The SQL of a search's part of a filter (shared/consents/search.ts): every word at a word's start (the
 * tsvector), or each word anywhere (a word of 3 characters or more in the grams text, a shorter
 * one at a word's start). `false` when nothing can match, undefined when it searches nothing.
 */
function searchSql(search: Search | undefined, tier: Tier, param: (v: unknown) => string): string | undefined {
  if (!search) return undefined;
  const start = startQuery(search);
  const atStart = start === null ? 'false' : `search @@ ${param(start)}::tsquery`;
  if (!search.tiered) return tier === 'rest' ? 'false' : atStart;
  if (tier === 'first') return atStart;
  const parts = search.words.map((w) => {
    if (w.anywhere) return `grams LIKE ANY(${param(w.anywhere.map(likeAnywhere))}::text[])`;
    const q = startQuery({ words: [w], tiered: false });
    return q === null ? 'false' : `search @@ ${param(q)}::tsquery`;
  });
  const anywhere = `(${parts.join(' AND ')})`;
  return tier === 'rest' ? `${anywhere} AND NOT (${atStart})` : `(${atStart} OR ${anywhere})`;
}

/** The WHERE clause of a filter (consents/filter.ts: what each part means); `without` leaves the status part out (the status facets). */
function whereOf(filter: ConsentFilter, opts: { without?: 'statuses'; tier?: Tier } = {}): Where {
  const sql: string[] = [];
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  for (const part of filterParts(filter, opts.without)) {
    switch (part.kind) {
      case 'in':
        sql.push(`${columnOf(part)} = ANY(${param(part.values)}::text[])`);
        break;
      case 'is':
        sql.push(`${columnOf(part)} = ${param(part.value)}::boolean`);
        break;
      case 'present':
        sql.push(`${columnOf(part)} IS ${part.value ? 'NOT ' : ''}NULL`);
        break;
      case 'range':
        if (part.range.from) sql.push(`${columnOf(part)} >= ${param(part.range.from)}::text`);
        if (part.range.to) sql.push(`${columnOf(part)} < ${param(part.range.to)}::text`);
        break;
      case 'webhookFailures': {
        // Along events_by_type (event_type, at) INCLUDE (consent_id): an index-only scan per failure type.
        const { from, to } = part.range;
        const at = [...(from ? [`at >= ${param(from)}::timestamptz`] : []), ...(to ? [`at < ${param(to)}::timestamptz`] : [])];
        sql.push(
          `consent_id IN (SELECT consent_id FROM events WHERE event_type = ANY(${param(WEBHOOK_FAILURES)}::text[])${at.map((a) => ` AND ${a}`).join('')})`,
        );
        break;
      }
      case 'search': {
        const search = searchSql(parseSearch(part.text), opts.tier ?? 'all', param);
        if (search !== undefined) sql.push(search);
        break;
      }
    }
  }
  return { sql: sql.length ? `WHERE ${sql.join(' AND ')}` : '', params };
}

/**
 * A search matching fewer consents than this is answered from its matches (the search index, then
 * a sort of those few); more are answered along the sort's index, each row checked against the
 * search, the first rows found soon. PostgreSQL cannot tell the two apart beforehand (its estimate
 * of a prefix search is blind): at 100k, a search for one e-mail walked the list's order for 500 ms.
 */
const FEW_MATCHES = 1_000;

/** From this offset on, a window walks the offset on the sort's index and reads only its own rows (below it, OFFSET is as cheap). */
const SKIP_BY_KEY = 200;

/** The columns a list needs, gathered first when a search's matches are few. */
const LIST_COLUMNS = Object.values(CONSENT_COLUMNS).join(', ');

/**
 * Whether a search's matches are few, by a probe of the search index, remembered a minute (a
 * keystroke asks for the count and the first rows of one search; scrolling asks again). It only
 * chooses the plan: an answer out of date makes a read slower, never different.
 */
class FewMatches {
  private readonly known = new Map<string, { fewer: boolean; at: number }>();
  constructor(
    private readonly db: Sql,
    private readonly below: number,
  ) {}

  /** Whether the search (all its matches, or one group of a tiered search) matches few consents. */
  async of(text: string, tier: Tier): Promise<boolean> {
    const now = Date.now();
    const key = `${tier}\n${text}`;
    const hit = this.known.get(key);
    if (hit && now - hit.at < 60_000) return hit.fewer;
    const probe = whereOf({ search: text }, { tier });
    const n = probe.params.length;
    const found = await this.db.one<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM consents ${probe.sql} LIMIT $${n + 1}) m`, [
      ...probe.params,
      this.below,
    ]);
    const fewer = found!.n < this.below;
    if (this.known.size >= 100) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, { fewer, at: now });
    return fewer;
  }
}

/** FROM: the table, or the few matches of the filter's search (see FEW_MATCHES). */
async function sourceOf(
  filter: ConsentFilter,
  where: Where,
  fewMatches: FewMatches,
  tier: Tier,
): Promise<{ with: string; from: string; where: string }> {
  if (filter.search && parseSearch(filter.search) && (await fewMatches.of(filter.search, tier)))
    return { with: `WITH matches AS MATERIALIZED (SELECT ${LIST_COLUMNS} FROM consents ${where.sql})`, from: 'matches', where: '' };
  return { with: '', from: 'consents', where: where.sql };
}

function orderOf(sort: ConsentSort): string {
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
  return `ORDER BY ${sortKey(sort.field)} ${dir} NULLS LAST, consent_id ${dir}`;
}

/** `fewMatches`: see FEW_MATCHES (0: a search is always answered along the sort's index; the tests try both ways). */
export function pgConsentStore(db: PgDb, opts: { fewMatches?: number } = {}): ConsentStore {
  const fewMatches = new FewMatches(db, opts.fewMatches ?? FEW_MATCHES);

  /** One group's window (or all matches' when the search is not tiered). */
  async function window(filter: ConsentFilter, sort: ConsentSort, offset: number, limit: number, tier: Tier): Promise<ConsentRow[]> {
    const where = whereOf(filter, { tier });
    const src = await sourceOf(filter, where, fewMatches, tier);
    const n = where.params.length;
    if (offset >= SKIP_BY_KEY && src.from === 'consents') {
      // Deep in the list: the offset is walked on the sort's index (the sort key and the id: an
      // index-only scan where the key is a column), then the window's rows read by their ids.
      const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
      return db.query<ConsentRow>(
        `WITH page AS MATERIALIZED (SELECT consent_id, ${sortKey(sort.field)} AS k FROM consents ${where.sql} ${orderOf(sort)}
           LIMIT $${n + 1} OFFSET $${n + 2})
         SELECT ${ROW_COLUMNS} FROM page JOIN consents USING (consent_id) ORDER BY page.k ${dir} NULLS LAST, consent_id ${dir}`,
        [...where.params, limit, offset],
      );
    }
    return db.query<ConsentRow>(
      `${src.with} SELECT ${ROW_COLUMNS} FROM ${src.from} ${src.where} ${orderOf(sort)} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, limit, offset],
    );
  }

  /**
   * A window of the list: of a tiered search, the consents where every word starts a word first,
   * then the others (shared/consents/search.ts tierWindows), each group in the sort's order. The
   * first group is read first: when it fills the window (the common case: a word many consents
   * start with), it is not counted. (With a count at each window, a search by a common word took
   * 116 ms at p95 with 20 consoles at 100,000 consents; not measured since.)
   */
  async function tiered<R>(
    filter: ConsentFilter,
    offset: number,
    limit: number,
    read: (tier: Tier, offset: number, limit: number) => Promise<R[]>,
  ): Promise<R[]> {
    if (!parseSearch(filter.search)?.tiered) return read('all', offset, limit);
    const head = await read('first', offset, limit);
    if (head.length === limit) return head;
    // The first group ends in this window (its size is known) or before it (counted).
    let size = offset + head.length;
    if (!head.length && offset > 0) {
      const first = whereOf(filter, { tier: 'first' });
      size = (await db.one<{ n: number }>(`SELECT count(*) AS n FROM consents ${first.sql}`, first.params))!.n;
    }
    const w = tierWindows(offset, limit, size);
    return w.rest ? [...head, ...(await read('rest', w.rest.offset, w.rest.limit))] : head;
  }

  return {
    // The reads written once for both engines.
    ...consentReads(pgQueryReader(db)),
    async total() {
      return (await db.one<{ n: number }>('SELECT count(*) AS n FROM consents'))!.n;
    },

    async list({ filter, sort, offset, limit }) {
      return tiered(filter, offset, limit, (tier, o, l) => window(filter, sort, o, l, tier));
    },

    async count(filter) {
      const where = whereOf(filter, { without: 'statuses' });
      const byStatus = (
        await db.query<{ status: string | null; n: number }>(
          `SELECT status, count(*) AS n FROM consents ${where.sql} GROUP BY status`,
          where.params,
        )
      )
        .map((s) => ({ status: s.status, count: s.n }))
        .sort(byCountThenStatus);
      const chosen = filter.statuses?.length ? new Set(filter.statuses) : undefined;
      const total = byStatus.filter((s) => !chosen || (s.status !== null && chosen.has(s.status))).reduce((sum, s) => sum + s.count, 0);
      return { total, statuses: byStatus };
    },

    async options() {
      const counts = new OptionCounts();
      const rows = await db.query<{
        hid: string | null;
        hname: string | null;
        uid: string | null;
        uname: string | null;
        freq: string | null;
        action: string | null;
        n: number;
      }>(
        `SELECT data_holder_brand_id AS hid, data_holder_name AS hname, use_case_id AS uid, use_case_name AS uname,
           access_frequency AS freq, post_usage_action AS action, count(*) AS n
         FROM consents GROUP BY 1, 2, 3, 4, 5, 6`,
      );
      for (const r of rows) {
        if (r.hid !== null) counts.named('holders', r.hid, r.hname, r.n);
        if (r.uid !== null) counts.named('useCases', r.uid, r.uname, r.n);
        if (r.freq !== null) counts.value('freqs', r.freq, r.n);
        if (r.action !== null) counts.value('actions', r.action, r.n);
      }
      return counts.result();
    },

    async ids(filter, sort, limit) {
      const ids = await tiered(filter, 0, limit, async (tier, o, l) => {
        const where = whereOf(filter, { tier });
        const src = await sourceOf(filter, where, fewMatches, tier);
        const n = where.params.length;
        return db.query<{ id: string }>(
          `${src.with} SELECT consent_id AS id FROM ${src.from} ${src.where} ${orderOf(sort)} LIMIT $${n + 1} OFFSET $${n + 2}`,
          [...where.params, l, o],
        );
      });
      return ids.map((r) => r.id);
    },

    async get(consentId) {
      return (await db.one<{ payload: Consent }>('SELECT payload FROM consents WHERE consent_id = $1', [consentId]))?.payload;
    },

    async versions(consentId, limit) {
      // Oldest first (seen, then version, NULLs first as SQLite orders them), the newest `limit`.
      const rows = await db.query<{ version: number | null; seen_at: string; payload: Consent }>(
        `SELECT version, seen_at, payload FROM consent_versions WHERE consent_id = $1
         ORDER BY seen_at DESC, version DESC NULLS LAST, hash DESC LIMIT $2`,
        [consentId, Math.max(0, limit)],
      );
      return rows.reverse().map((r) => ({ version: r.version, seenAt: r.seen_at, consent: r.payload }));
    },
  };
}

export function pgReferenceStore(db: Sql): ReferenceStore {
  const holder = (r: { id: string; name: string | null; logo: string | null }): DataHolderRef => ({
    dataHolderBrandId: r.id,
    brandName: r.name,
    logoUri: r.logo,
  });
  const holderColumns = 'data_holder_brand_id AS id, brand_name AS name, logo_uri AS logo';
  return {
    // In the SQLite adapter's orders: by name (NULLs first), ties in the order the sync stored them.
    async useCases() {
      return (await db.query<{ p: UseCase }>('SELECT payload AS p FROM use_cases ORDER BY name NULLS FIRST, ord')).map((r) => r.p);
    },
    async combinedUseCases() {
      return (
        await db.query<{ p: UseCase }>('SELECT combined AS p FROM use_cases WHERE combined IS NOT NULL ORDER BY name NULLS FIRST, ord')
      ).map((r) => r.p);
    },
    async useCase(id) {
      return (await db.one<{ p: UseCase }>('SELECT payload AS p FROM use_cases WHERE id = $1', [id]))?.p;
    },
    async dataHolders() {
      return (
        await db.query<{ id: string; name: string | null; logo: string | null }>(
          `SELECT ${holderColumns} FROM data_holders ORDER BY lower(brand_name) NULLS FIRST, ord`,
        )
      ).map(holder);
    },
    async dataHolder(id) {
      const r = await db.one<{ id: string; name: string | null; logo: string | null }>(
        `SELECT ${holderColumns} FROM data_holders WHERE data_holder_brand_id = $1`,
        [id],
      );
      return r ? holder(r) : undefined;
    },
  };
}

/**
 * Stores a page of consents as a sync does, in one statement: new ones inserted, changed ones
 * updated and given a new version, unchanged ones left as they were (their synced_at too, as in
 * the SQLite adapter). The last of several copies of one consent in a page wins.
 */
export async function storeConsents(tx: Tx, consents: readonly Consent[], syncedAt: string): Promise<UpsertCounts> {
  const byId = new Map<string, { id: string; hash: string; version: number | null; payload: Consent; search: string; grams: string }>();
  for (const c of consents) {
    const json = JSON.stringify(c);
    byId.set(c.consentId, {
      id: c.consentId,
      hash: createHash('sha1').update(json).digest('hex'),
      version: typeof c.version === 'number' && Number.isInteger(c.version) && Math.abs(c.version) < 1e9 ? c.version : null,
      payload: c,
      search: '',
      grams: '',
    });
  }
  if (!byId.size) return { new: 0, changed: 0, unchanged: consents.length };
  // The search's vector and grams only for the new and changed ones (most pages of a resync change nothing).
  const stored = await tx.query<{ id: string; hash: string }>(
    'SELECT consent_id AS id, payload_hash AS hash FROM consents WHERE consent_id = ANY($1::text[])',
    [[...byId.keys()]],
  );
  const unchanged = new Set(stored.filter((s) => byId.get(s.id)?.hash === s.hash).map((s) => s.id));
  for (const entry of byId.values())
    if (!unchanged.has(entry.id)) {
      entry.search = searchVector(entry.payload);
      entry.grams = gramsText(entry.payload);
    }
  const written = await tx.query<{ inserted: boolean }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id text, hash text, version integer, payload jsonb, search text, grams text)
     ), written AS (
       INSERT INTO consents (consent_id, payload, payload_hash, synced_at, search, grams)
       SELECT id, payload, hash, $2, search::tsvector, grams FROM input
       ON CONFLICT (consent_id) DO UPDATE SET payload = excluded.payload, payload_hash = excluded.payload_hash,
         synced_at = excluded.synced_at, search = excluded.search, grams = excluded.grams
       WHERE consents.payload_hash <> excluded.payload_hash
       RETURNING consent_id, xmax = 0 AS inserted
     ), versions AS (
       INSERT INTO consent_versions (consent_id, version, hash, payload, seen_at)
       SELECT id, version, hash, payload, $2 FROM input WHERE id IN (SELECT consent_id FROM written)
       ON CONFLICT (consent_id, hash) DO NOTHING
     )
     SELECT inserted FROM written`,
    [JSON.stringify([...byId.values()]), syncedAt],
  );
  const added = written.filter((r) => r.inserted).length;
  return { new: added, changed: written.length - added, unchanged: consents.length - written.length };
}

type HolderInput = { dataHolderBrandId: string; brandName?: string | null | undefined; logoUri?: string | null | undefined };

/**
 * Replaces the use cases and data holders, as a sync does; `combined` is the same use cases as the
 * combined-scopes view shows them, when synced (kept beside the use case of the same id).
 */
export async function storeReference(
  tx: Tx,
  useCases: readonly UseCase[],
  holders: readonly HolderInput[],
  at: string,
  combined?: readonly UseCase[],
): Promise<void> {
  await storeUseCases(tx, useCases, at, combined);
  await storeDataHolders(tx, holders, at);
}

/** Replaces the use cases (in the order given: ties in the lists keep it). */
export async function storeUseCases(tx: Tx, useCases: readonly UseCase[], at: string, combined?: readonly UseCase[]): Promise<void> {
  await tx.query('DELETE FROM use_cases');
  await tx.query(
    `INSERT INTO use_cases (id, payload, combined, synced_at, ord)
     SELECT u->>'id', u, $2::jsonb->(u->>'id'), $3, n::integer FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(u, n)`,
    [JSON.stringify(useCases), JSON.stringify(Object.fromEntries((combined ?? []).map((u) => [u.id, u]))), at],
  );
}

/** Replaces the data holders (in the order given). */
export async function storeDataHolders(tx: Tx, holders: readonly HolderInput[], at: string): Promise<void> {
  await tx.query('DELETE FROM data_holders');
  await tx.query(
    `INSERT INTO data_holders (data_holder_brand_id, brand_name, logo_uri, synced_at, ord)
     SELECT h->>'dataHolderBrandId', h->>'brandName', h->>'logoUri', $2, n::integer FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(h, n)`,
    [JSON.stringify(holders), at],
  );
}
