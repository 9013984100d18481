import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { ProductFilter, ProductVersion } from '../../../shared/ipc/contract.js';
import { pages, type QueryRunner } from '../query/query.js';
import type { DataStore, RetentionEntry } from './port.js';
import { decoded, likeAnywhere, productParts, type PayloadPath } from './views.js';

/**
 * The data browser's navigation (the consents and the consumers or data holders with cached data),
 * the product catalogue and the retention log, written once for both engines over the typed query
 * layer (query/query.ts). What differs is said where it differs: a payload field is read with
 * json_extract (SQLite) or ->> (PostgreSQL, under COLLATE "C": text sorts and compares bytewise, as
 * SQLite's BINARY), lower-casing folds ASCII letters only in both (SQLite's lower(), PostgreSQL's
 * cdr_lower_ascii()), SQLite hands JSON back as text and PostgreSQL parsed, and product versions are
 * numbered by SQLite's rowid or PostgreSQL's seq. NULLs sort first ascending, last descending, in
 * both (said explicitly: PostgreSQL's default is the other way).
 */
export type DataBrowse = Pick<
  DataStore,
  'consents' | 'groups' | 'products' | 'product' | 'productVersions' | 'productWindows' | 'collectionsFor' | 'retentionLog'
>;

type Json = Record<string, unknown>;

/** Records per window of a product export. */
const PRODUCT_WINDOW = 500;

export function dataBrowse(db: QueryRunner): DataBrowse {
  const pg = db.engine === 'postgres';
  /** Text compared and ordered bytewise. */
  const bytewise = <T>(e: Expression<T>): RawBuilder<T> => (pg ? sql<T>`${e} COLLATE "C"` : sql<T>`${e}`);
  /** ASCII letters lower-cased (nothing else). */
  const lower = (e: Expression<unknown>): RawBuilder<string> => (pg ? sql<string>`cdr_lower_ascii(${e})` : sql<string>`lower(${e})`);
  /** `e` holds the LIKE pattern `pattern` (escaped with `\`, likeAnywhere). */
  const like = (e: Expression<unknown>, pattern: string) => sql<SqlBool>`${lower(e)} LIKE ${pattern} ESCAPE '\\'`;
  /** A payload field of data_records.raw as text (nested: 'recurrence', 'nextPaymentDate'). */
  const field = (path: PayloadPath): RawBuilder<string | null> =>
    pg
      ? sql<string | null>`(raw${sql.join(
          path.map((key, i) => sql`${sql.raw(i < path.length - 1 ? '->' : '->>')}${sql.lit(key)}`),
          sql.raw(''),
        )}) COLLATE "C"`
      : sql<string | null>`json_extract(raw, ${sql.lit(`$.${path.join('.')}`)})`;
  /** A JSON column as read: SQLite gives its text. */
  const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  const stored = (r: { raw: unknown; normalized: unknown; notes: unknown }) =>
    decoded({ raw: json<Json>(r.raw), normalized: json<Json | null>(r.normalized), notes: json<Json[] | null>(r.notes) });
  const versionOrder = sql.raw(pg ? 'seq' : 'rowid');

  /** Each consent's cached records (products are no consent's), how many and the newest fetch. */
  const perConsent = async () =>
    (await db.queries())
      .selectFrom('data_records')
      .select(['consent_id', (eb) => eb.fn.countAll<number>().as('records'), (eb) => eb.fn.max('fetched_at').as('last')])
      .where('consent_id', 'is not', null)
      .where('kind', '<>', 'products')
      .groupBy('consent_id');

  async function products(filter: ProductFilter, offset: number, limit: number) {
    const q = await db.queries();
    const where = (skip?: 'category' | 'holder') =>
      q
        .selectFrom('data_records')
        .where('kind', '=', 'products')
        .where((eb) =>
          eb.and(
            productParts(filter, skip).map((part) =>
              part.kind === 'in' ? eb(field(part.path), 'in', [...part.values]) : like(sql`coalesce(${field(['name'])}, '')`, part.like),
            ),
          ),
        );
    const nullsFirst = (column: string) => sql`${sql.ref(column)} NULLS FIRST`;
    const [rows, [total], categories, dataHolders] = await Promise.all([
      db.all(
        where()
          .select([
            'record_id as recordId',
            sql<string>`coalesce(${field(['productId'])}, record_id)`.as('productId'),
            field(['name']).as('name'),
            sql<string | null>`coalesce(${field(['brandName'])}, ${field(['brand'])})`.as('brandName'),
            field(['dataHolderId']).as('dataHolderBrandId'),
            field(['productCategory']).as('category'),
            'shape',
            'fetched_at as fetchedAt',
            (eb) =>
              eb
                .selectFrom('product_versions as v')
                .select((v) => v.fn.countAll<number>().as('n'))
                .whereRef('v.record_id', '=', 'data_records.record_id')
                .as('versions'),
          ])
          .orderBy(nullsFirst('brandName'))
          .orderBy(nullsFirst('category'))
          .orderBy(nullsFirst('name'))
          .orderBy('record_id')
          .limit(limit)
          .offset(offset),
      ),
      db.all(where().select((eb) => eb.fn.countAll<number>().as('n'))),
      db.all(
        where('category')
          .select([
            sql<string>`coalesce(${field(['productCategory'])}, 'UNKNOWN')`.as('category'),
            (eb) => eb.fn.countAll<number>().as('count'),
          ])
          .groupBy(sql`1`)
          .orderBy(sql`1`)
          .limit(100),
      ),
      db.all(
        where('holder')
          .select([
            sql<string>`coalesce(${field(['dataHolderId'])}, '')`.as('id'),
            sql<string>`coalesce(max(${field(['dataHolderBrandName'])}), max(${field(['brandName'])}), max(${field(['brand'])}), '')`.as(
              'name',
            ),
            (eb) => eb.fn.countAll<number>().as('count'),
          ])
          .groupBy(sql`1`)
          .orderBy(sql`2`)
          .orderBy(sql`1`)
          .limit(2000),
      ),
    ]);
    return {
      rows: rows.map((r) => ({ ...r, versions: Number(r.versions) })),
      total: Number(total!.n),
      categories: categories.map((c) => ({ ...c, count: Number(c.count) })),
      dataHolders: dataHolders.map((h) => ({ ...h, count: Number(h.count) })),
    };
  }

  return {
    async consents(input) {
      const q = await db.queries();
      const search = input.search?.trim().toLowerCase();
      const latestRetention = q
        .selectFrom('retention_log')
        .select(['consent_id', sql<string>`action || ' ' || at`.as('action')])
        .where(
          'seq',
          'in',
          q
            .selectFrom('retention_log')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .groupBy('consent_id'),
        );
      const from = q
        .selectFrom('consents as c')
        .leftJoin((await perConsent()).as('d'), 'd.consent_id', 'c.consent_id')
        .leftJoin(latestRetention.as('r'), 'r.consent_id', 'c.consent_id')
        .where((eb) => eb.or([eb('d.records', '>', 0), eb('r.action', 'is not', null)]))
        .$if(!!input.consumerId, (w) => w.where(sql`coalesce(c.consumer_id, c.consumer_email)`, '=', input.consumerId!))
        .$if(!!input.dataHolderBrandId, (w) => w.where('c.data_holder_brand_id', '=', input.dataHolderBrandId!))
        .$if(!!search, (w) =>
          w.where((eb) =>
            eb.or([
              like(sql.ref('c.consent_id'), likeAnywhere(search!)),
              like(sql`coalesce(c.consumer_email, '')`, likeAnywhere(search!)),
              like(sql`coalesce(c.data_holder_name, '')`, likeAnywhere(search!)),
            ]),
          ),
        );
      const [rows, [total]] = await Promise.all([
        db.all(
          from
            .select([
              'c.consent_id as consentId',
              'c.status',
              'c.consumer_email as consumerEmail',
              'c.consumer_id as consumerId',
              'c.data_holder_name as dataHolderName',
              'c.data_holder_brand_id as dataHolderBrandId',
              sql<number>`coalesce(d.records, 0)`.as('records'),
              'd.last as lastFetchedAt',
              'r.action as retention',
            ])
            .orderBy('d.last', (o) => o.desc().nullsLast())
            .orderBy(bytewise(sql.ref('c.consent_id')))
            .limit(input.limit)
            .offset(input.offset),
        ),
        db.all(from.select((eb) => eb.fn.countAll<number>().as('n'))),
      ]);
      return {
        rows: rows.map((r) => ({ ...r, records: Number(r.records), lastFetchedAt: r.lastFetchedAt ?? null })),
        total: Number(total!.n),
      };
    },

    async groups(by, search) {
      const q = await db.queries();
      const key = bytewise(
        by === 'consumer' ? sql<string>`coalesce(c.consumer_id, c.consumer_email)` : sql<string>`c.data_holder_brand_id`,
      );
      const label =
        by === 'consumer'
          ? sql<string | null>`coalesce(max(${bytewise(sql.ref('c.consumer_email'))}), max(${bytewise(sql.ref('c.consumer_id'))}))`
          : sql<string | null>`coalesce(max(${bytewise(sql.ref('c.data_holder_name'))}), ${key})`;
      const s = search?.trim().toLowerCase();
      const grouped = q
        .selectFrom('consents as c')
        .leftJoin((await perConsent()).as('d'), 'd.consent_id', 'c.consent_id')
        .select([
          key.as('id'),
          label.as('label'),
          (eb) => eb.fn.countAll<number>().as('consents'),
          sql<number>`sum(coalesce(d.records, 0))`.as('records'),
          (eb) => eb.fn.max('d.last').as('lastFetchedAt'),
        ])
        .where(key, 'is not', null)
        .where((eb) => eb.or([eb('d.records', '>', 0), eb('c.consent_id', 'in', eb.selectFrom('retention_log').select('consent_id'))]))
        .groupBy(sql`1`)
        .$if(!!s, (g) => g.having((eb) => eb.or([like(label, likeAnywhere(s!)), like(key, likeAnywhere(s!))])));
      const [groups, [total]] = await Promise.all([
        db.all(
          grouped
            .orderBy('records', 'desc')
            .orderBy(sql`label NULLS FIRST`)
            .orderBy('id')
            .limit(500),
        ),
        db.all(q.selectFrom(grouped.as('g')).select((eb) => eb.fn.countAll<number>().as('n'))),
      ]);
      return {
        groups: groups.map((g) => ({
          id: g.id,
          label: g.label ?? g.id,
          consents: Number(g.consents),
          records: Number(g.records),
          lastFetchedAt: g.lastFetchedAt ?? null,
        })),
        total: Number(total!.n),
      };
    },

    products,

    productWindows: (filter) => pages(async (offset) => (await products(filter, offset, PRODUCT_WINDOW)).rows, PRODUCT_WINDOW),

    async product(recordId) {
      const q = await db.queries();
      const [r] = await db.all(
        q
          .selectFrom('data_records')
          .select(['record_id', 'shape', 'raw', 'normalized', 'notes', 'fetched_at'])
          .where('kind', '=', 'products')
          .where('record_id', '=', recordId),
      );
      if (!r) return undefined;
      const versions = await db.all(
        q
          .selectFrom('product_versions')
          .select(['seen_at as seenAt', 'hash'])
          .where('record_id', '=', recordId)
          .orderBy('seen_at')
          .orderBy(versionOrder)
          .limit(1000),
      );
      return { recordId: r.record_id, fetchedAt: r.fetched_at, shape: r.shape, ...stored(r), versions };
    },

    async productVersions(recordId, hashes) {
      if (!hashes.length) return [];
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('product_versions')
          .select(['seen_at', 'hash', 'shape', 'raw', 'normalized', 'notes'])
          .where('record_id', '=', recordId)
          .where('hash', 'in', hashes)
          .orderBy('seen_at')
          .orderBy(versionOrder),
      );
      return rows.map((v): ProductVersion => ({ seenAt: v.seen_at, hash: v.hash, shape: v.shape, ...stored(v) }));
    },

    async collectionsFor(consentId) {
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('data_records')
          .select(['kind', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.max('fetched_at').as('fetchedAt')])
          .where('consent_id', '=', consentId)
          .groupBy('kind')
          .orderBy(bytewise(sql.ref('kind'))),
      );
      return rows.map((r) => ({ kind: r.kind, count: Number(r.count), fetchedAt: r.fetchedAt ?? null }));
    },

    async retentionLog(consentId) {
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('retention_log')
          .select(['consent_id', 'action', 'records', 'kinds', 'reason', 'at'])
          .$if(!!consentId, (w) => w.where('consent_id', '=', consentId!))
          .orderBy('seq'),
      );
      return rows.map(({ consent_id, ...r }): RetentionEntry => ({ consentId: consent_id, ...r, records: Number(r.records) }));
    },
  };
}
