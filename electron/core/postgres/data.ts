import { createHash } from 'node:crypto';
import { CONSENT_SUMMARY_COLUMNS, consentSummaryOf } from '../data/consent-summary.js';
import { staleBefore, TRANSACTIONS_FULL_READ } from '../data/history.js';
import { normalizeRecord } from '../../../shared/banking/index.js';
import type { JsonObject } from '../../../shared/banking/values.js';
import type {
  DataRecordRow,
  DataView,
  ProductFilter,
  ProductRow,
  ProductVersion,
  TransactionFilter,
} from '../../../shared/ipc/contract.js';
import { consentOf, DATA_KINDS, type DataKind } from '../api/data-client.js';
import type { DataStore, RecordsInput, RetentionEntry } from '../data/port.js';
import { applyRetention, type PgDataOptions } from './data-retention.js';
import { descriptionWords, searchQuery } from './data-text.js';
import type { PgDb, Sql, Tx } from './db.js';

/**
 * Data API records, product versions and the retention log in the team store (part of schema
 * version 1), with the SQLite cache's behaviour (cache/data-repo.ts, data-query.ts, retention.ts):
 * the same answers to the same questions.
 *
 * - Payloads are `json`, not `jsonb`: the record as sent, its keys in their order, is what the
 *   data browser shows and exports.
 * - Text the browser sorts or compares is in the "C" collation (SQLite's BINARY: byte order),
 *   whatever the server's locale; NULLs sort as SQLite sorts them (first ascending, last descending).
 * - A transaction's columns the browser filters and sorts on (account, status, type, time, amount
 *   in cents, the description's words) are taken from its payload when it is stored, as SQLite's
 *   json_extract reads them (txColumns); de-identification clears them with the payload. (Generated
 *   columns did the same but cut storing to a quarter: \`json\` is parsed anew for every field.)
 *   Description search is a tsvector of the words cut as FTS5 cuts them (data-text.ts), GIN-indexed.
 */
export type { PgDataOptions };

type Json = Record<string, unknown>;

/* ---- storing a page ---- */

const NORMALISED_KINDS: ReadonlySet<DataKind> = new Set(['accounts', 'products']);

/**
 * Stores a page of Data API records of one kind as a sync does (cache/data-repo.ts upsertPage), in
 * one statement (two for products: their versions): each record's key, its consent from the
 * intermediary's block, for banking accounts and products the 2.0.0 form and the normaliser's
 * notes, for transactions the description's words; every distinct version of a product the first
 * time it is seen. Idempotent; of several copies of one record in a page the last wins.
 */
export async function storeData(tx: Tx, kind: DataKind, records: readonly Record<string, unknown>[], fetchedAt: string): Promise<void> {
  if (!records.length) return;
  const rows = new Map<string, Json>();
  const versions = new Map<string, Json>();
  for (const record of records) {
    let shape: string | null = null;
    let normalized: unknown = null;
    let notes: unknown = null;
    if (NORMALISED_KINDS.has(kind)) {
      const result = normalizeRecord(record as JsonObject);
      shape = result.shape;
      normalized = result.data;
      notes = result.notes;
    }
    const recordId = DATA_KINDS[kind].key(record);
    rows.set(recordId, {
      record_id: recordId,
      consent_id: consentOf(record),
      shape,
      raw: record,
      normalized,
      notes,
      ...(kind === 'transactions' ? txColumns(record) : {}),
    });
    if (kind === 'products') {
      const hash = createHash('sha256').update(JSON.stringify(record)).digest('hex');
      const key = `${recordId}\n${hash}`;
      if (!versions.has(key)) versions.set(key, { record_id: recordId, hash, shape, raw: record, normalized, notes });
    }
  }
  await tx.query(
    `INSERT INTO data_records (kind, record_id, consent_id, shape, raw, normalized, notes, fetched_at, deidentified,
       tx_words, tx_account, tx_status, tx_type, tx_at, tx_cents)
     SELECT $2, record_id, consent_id, shape, raw, normalized, notes, $3, false,
       CASE WHEN words IS NOT NULL THEN array_to_tsvector(string_to_array(words, ' ')) END, account, status, type, at, cents
     FROM json_to_recordset($1::json) AS x(record_id text, consent_id text, shape text, raw json, normalized json, notes json,
       words text, account text, status text, type text, at text, cents bigint)
     ON CONFLICT (kind, record_id) DO UPDATE SET consent_id = excluded.consent_id, shape = excluded.shape, raw = excluded.raw,
       normalized = excluded.normalized, notes = excluded.notes, fetched_at = excluded.fetched_at, deidentified = false,
       tx_words = excluded.tx_words, tx_account = excluded.tx_account, tx_status = excluded.tx_status, tx_type = excluded.tx_type,
       tx_at = excluded.tx_at, tx_cents = excluded.tx_cents`,
    [JSON.stringify([...rows.values()]), kind, fetchedAt],
  );
  if (versions.size)
    await tx.query(
      `INSERT INTO product_versions (record_id, hash, shape, raw, normalized, notes, seen_at)
       SELECT record_id, hash, shape, raw, normalized, notes, $2
       FROM ROWS FROM (json_to_recordset($1::json) AS (record_id text, hash text, shape text, raw json, normalized json, notes json))
         WITH ORDINALITY AS x(record_id, hash, shape, raw, normalized, notes, n)
       ORDER BY n
       ON CONFLICT (record_id, hash) DO NOTHING`,
      [JSON.stringify([...versions.values()]), fetchedAt],
    );
}

/** A payload field as SQLite's json_extract gives it to a text comparison (numbers as their text). */
function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** SQLite's CAST(round(CAST(x AS REAL) * 100) AS INTEGER) of a payload field (json_extract's value). */
export function sqliteCents(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  let real: number;
  if (typeof v === 'number') real = v;
  else if (typeof v === 'boolean') real = v ? 1 : 0;
  else {
    // Text: the longest number at its start, 0 when none.
    const m = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/.exec(typeof v === 'string' ? v : JSON.stringify(v));
    real = m ? Number(m[1]) : 0;
  }
  const x = real * 100;
  // round(): half away from zero.
  const rounded = Math.sign(x) * Math.trunc(Math.abs(x) + 0.5);
  return Number.isFinite(rounded) ? rounded + 0 : null;
}

/** What the browser filters transactions on, from the payload (cache/data-query.ts reads the same with json_extract). */
function txColumns(r: Json) {
  return {
    words: descriptionWords(r.description).join(' '),
    account: text(r.accountId),
    status: text(r.status),
    type: text(r.type),
    at: text(r.postingDateTime) ?? text(r.executionDateTime) ?? text(r.valueDateTime),
    cents: sqliteCents(r.amount),
  };
}

/* ---- reading ---- */

/** Parameters of one statement, numbered as they are added. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A payload field as text in the "C" collation (nested: 'recurrence', 'nextPaymentDate'). */
const field = (...path: string[]) =>
  `((raw${path
    .slice(0, -1)
    .map((p) => `->'${p}'`)
    .join('')}->>'${path[path.length - 1]!}') COLLATE "C")`;

/** The order each kind reads best in (cache/data-query.ts ORDER), NULLs where SQLite puts them. */
const ORDER: Record<Exclude<DataView, 'transactions'>, string> = {
  customers: 'record_id',
  accounts: `${field('displayName')} NULLS FIRST, record_id`,
  balances: 'record_id',
  payees: `${field('nickname')} NULLS FIRST, record_id`,
  directDebits: `${field('lastDebitDateTime')} DESC NULLS LAST, record_id`,
  scheduledPayments: `${field('recurrence', 'nextPaymentDate')} NULLS FIRST, record_id`,
  energyAccounts: 'record_id',
  servicePoints: 'record_id',
  invoices: `${field('issueDate')} DESC NULLS LAST, record_id`,
  bills: `${field('executionDateTime')} DESC NULLS LAST, record_id`,
  usage: `${field('servicePointId')} NULLS FIRST, ${field('readStartDate')} NULLS FIRST, record_id`,
};

interface RecordSqlRow {
  record_id: string;
  kind: string;
  shape: string | null;
  raw: Json;
  normalized: Json | null;
  notes: Json[] | null;
  fetched_at: string;
  deidentified: boolean;
  running: number | null;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (c: number) => {
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};
const like = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
const decoded = (r: { raw: Json; normalized: Json | null; notes: Json[] | null }) => ({
  record: r.normalized ?? r.raw,
  raw: r.raw,
  notes: r.notes ?? [],
});

function toRow(r: RecordSqlRow, last: string | null): DataRecordRow {
  return {
    recordId: r.record_id,
    kind: r.kind,
    shape: r.shape,
    ...decoded(r),
    fetchedAt: r.fetched_at,
    stale: last !== null && r.fetched_at < last,
    deidentified: r.deidentified,
    ...(r.kind === 'transactions' ? { runningBalance: r.running === null ? null : money(r.running) } : {}),
  };
}

/** When every transaction was last read (the data sync's state). */
async function fullReadAt(db: Sql): Promise<string | null> {
  return (await db.one<{ value: string }>('SELECT value FROM sync_state WHERE key = $1', [TRANSACTIONS_FULL_READ]))?.value ?? null;
}

async function lastFetch(db: Sql, consentId: string): Promise<string | null> {
  return (
    (
      await db.one<{ t: string | null }>("SELECT max(fetched_at) AS t FROM data_records WHERE consent_id = $1 AND kind <> 'products'", [
        consentId,
      ])
    )?.t ?? null
  );
}

const RECORD_COLUMNS = 'record_id, kind, shape, raw, normalized, notes, fetched_at, deidentified';

async function records(
  db: Sql,
  input: RecordsInput & { offset: number; limit: number },
): Promise<{ rows: DataRecordRow[]; total: number }> {
  const last = await lastFetch(db, input.consentId);
  if (input.kind === 'transactions') return transactions(db, input, staleBefore('transactions', last, await fullReadAt(db)));
  const [rows, total] = await Promise.all([
    db.query<RecordSqlRow>(
      `SELECT ${RECORD_COLUMNS}, NULL AS running FROM data_records WHERE consent_id = $1 AND kind = $2
       ORDER BY ${ORDER[input.kind]} LIMIT $3 OFFSET $4`,
      [input.consentId, input.kind, input.limit, input.offset],
    ),
    db.one<{ n: number }>('SELECT count(*) AS n FROM data_records WHERE consent_id = $1 AND kind = $2', [input.consentId, input.kind]),
  ]);
  return { rows: rows.map((r) => toRow(r, last)), total: total!.n };
}

/**
 * A window of a consent's transactions, filtered, newest first, each with its running balance: the
 * account's current balance less every posted transaction after it (current balances exclude
 * pending ones; a pending one has none). The balance needs every transaction of the consent, so it
 * is computed over the narrow generated columns (an index-only scan) and the payloads are read for
 * the window's rows only.
 */
async function transactions(
  db: Sql,
  input: { consentId: string; filter?: TransactionFilter | undefined; offset: number; limit: number },
  last: string | null,
): Promise<{ rows: DataRecordRow[]; total: number }> {
  const f = input.filter ?? {};
  const p = new Params();
  const consent = p.add(input.consentId);
  const where: string[] = [];
  const query = f.search ? searchQuery(f.search) : undefined;
  if (f.search && !query) return { rows: [], total: 0 };
  if (query) where.push(`words @@ ${p.add(query)}::tsquery`);
  const list = (column: string, values: string[] | undefined) => {
    if (values?.length) where.push(`${column} = ANY(${p.add(values)}::text[])`);
  };
  list('account_id', f.accountIds);
  list('type', f.types);
  list('status', f.statuses);
  if (f.fromDay) where.push(`left(at, 10) >= ${p.add(f.fromDay)}`);
  if (f.toDay) where.push(`left(at, 10) <= ${p.add(f.toDay)}`);
  if (f.minAmount !== undefined) where.push(`amount_cents >= ${p.add(cents(f.minAmount))}::bigint`);
  if (f.maxAmount !== undefined) where.push(`amount_cents <= ${p.add(cents(f.maxAmount))}::bigint`);
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const tx = `
    SELECT record_id, tx_account AS account_id, tx_status AS status, tx_type AS type, tx_at AS at, tx_cents AS amount_cents, tx_words AS words
    FROM data_records WHERE consent_id = ${consent} AND kind = 'transactions'`;
  const countParams = [...p.values];
  const limit = p.add(input.limit);
  const offset = p.add(input.offset);
  const [rows, total] = await Promise.all([
    db.query<RecordSqlRow>(
      `WITH tx AS (${tx}),
       -- Materialised: each balance converted once, not once per transaction joined to it.
       balances AS MATERIALIZED (
         SELECT (raw->>'accountId') COLLATE "C" AS account_id, cdr_cents(raw->>'currentBalance') AS balance_cents
         FROM data_records WHERE consent_id = ${consent} AND kind = 'balances' AND raw->>'currentBalance' IS NOT NULL
       ),
       ran AS (
         -- The sum of the posted rows before this one, as the running sum up to it less its own.
         SELECT tx.*, CASE WHEN tx.status = 'POSTED' AND b.balance_cents IS NOT NULL THEN
           b.balance_cents - (coalesce(sum(CASE WHEN tx.status = 'POSTED' THEN tx.amount_cents ELSE 0 END) OVER (
             PARTITION BY tx.account_id ORDER BY tx.at DESC NULLS LAST, tx.record_id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), 0)
             - coalesce(tx.amount_cents, 0))
           END AS running
         FROM tx LEFT JOIN balances b ON b.account_id = tx.account_id
       ),
       page AS (
         SELECT record_id, at, running FROM ran ${whereSql} ORDER BY at DESC NULLS LAST, record_id DESC LIMIT ${limit} OFFSET ${offset}
       )
       SELECT d.record_id, d.kind, d.shape, d.raw, d.normalized, d.notes, d.fetched_at, d.deidentified, page.running
       FROM page JOIN data_records d ON d.kind = 'transactions' AND d.record_id = page.record_id
       ORDER BY page.at DESC NULLS LAST, page.record_id DESC`,
      p.values,
    ),
    // The count needs no running balance: the filters are all on tx's columns.
    db.one<{ n: number }>(`WITH tx AS (${tx}) SELECT count(*) AS n FROM tx ${whereSql}`, countParams),
  ]);
  return { rows: rows.map((r) => toRow(r, last)), total: total!.n };
}

async function* windowsOf<T>(page: (offset: number) => Promise<T[]>, size: number): AsyncIterable<T[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await page(offset);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

/* ---- products ---- */

function productWhere(p: Params, filter: ProductFilter, skip?: 'category' | 'holder'): string {
  const where = ["kind = 'products'"];
  if (skip !== 'holder' && filter.dataHolderBrandIds?.length)
    where.push(`(raw->>'dataHolderId') = ANY(${p.add(filter.dataHolderBrandIds)}::text[])`);
  if (skip !== 'category' && filter.categories?.length) where.push(`(raw->>'productCategory') = ANY(${p.add(filter.categories)}::text[])`);
  const s = filter.search?.trim().toLowerCase();
  if (s) where.push(`cdr_lower_ascii(coalesce(raw->>'name', '')) LIKE ${p.add(like(s))} ESCAPE '\\'`);
  return where.join(' AND ');
}

async function products(db: Sql, filter: ProductFilter, offset: number, limit: number) {
  const w = new Params();
  const where = productWhere(w, filter);
  const countParams = [...w.values];
  const c = new Params();
  const cWhere = productWhere(c, filter, 'category');
  const h = new Params();
  const hWhere = productWhere(h, filter, 'holder');
  const [rows, total, categories, dataHolders] = await Promise.all([
    db.query<ProductRow>(
      `SELECT record_id AS "recordId", coalesce(raw->>'productId', record_id) AS "productId", (raw->>'name') COLLATE "C" AS name,
         coalesce(raw->>'brandName', raw->>'brand') COLLATE "C" AS "brandName", raw->>'dataHolderId' AS "dataHolderBrandId",
         (raw->>'productCategory') COLLATE "C" AS category, shape, fetched_at AS "fetchedAt",
         (SELECT count(*) FROM product_versions v WHERE v.record_id = data_records.record_id) AS versions
       FROM data_records WHERE ${where}
       ORDER BY "brandName" NULLS FIRST, category NULLS FIRST, name NULLS FIRST, record_id
       LIMIT ${w.add(limit)} OFFSET ${w.add(offset)}`,
      w.values,
    ),
    db.one<{ n: number }>(`SELECT count(*) AS n FROM data_records WHERE ${where}`, countParams),
    db.query<{ category: string; count: number }>(
      `SELECT coalesce(raw->>'productCategory', 'UNKNOWN') COLLATE "C" AS category, count(*) AS count FROM data_records
       WHERE ${cWhere} GROUP BY 1 ORDER BY 1 LIMIT 100`,
      c.values,
    ),
    db.query<{ id: string; name: string; count: number }>(
      `SELECT coalesce(raw->>'dataHolderId', '') COLLATE "C" AS id,
         coalesce(max((raw->>'dataHolderBrandName') COLLATE "C"), max((raw->>'brandName') COLLATE "C"), max((raw->>'brand') COLLATE "C"), '') AS name,
         count(*) AS count
       FROM data_records WHERE ${hWhere} GROUP BY 1 ORDER BY 2, 1 LIMIT 2000`,
      h.values,
    ),
  ]);
  return { rows, total: total!.n, categories, dataHolders };
}

export function pgDataStore(db: PgDb, opts: PgDataOptions): DataStore {
  return {
    async list(o) {
      const p = new Params();
      const where = [`kind = ${p.add(o.kind)}`, ...(o.consentId ? [`consent_id = ${p.add(o.consentId)}`] : [])].join(' AND ');
      const countParams = [...p.values];
      const [rows, total] = await Promise.all([
        db.query<{
          kind: string;
          record_id: string;
          consent_id: string | null;
          shape: string | null;
          raw: Json;
          normalized: Json | null;
          notes: unknown[] | null;
          deidentified: boolean;
        }>(
          `SELECT kind, record_id, consent_id, shape, raw, normalized, notes, deidentified FROM data_records WHERE ${where}
           ORDER BY record_id LIMIT ${p.add(o.pageSize)} OFFSET ${p.add((o.page - 1) * o.pageSize)}`,
          p.values,
        ),
        db.one<{ n: number }>(`SELECT count(*) AS n FROM data_records WHERE ${where}`, countParams),
      ]);
      return {
        rows: rows.map((r) => ({
          kind: r.kind,
          recordId: r.record_id,
          consentId: r.consent_id,
          shape: r.shape,
          record: r.normalized ?? r.raw,
          notes: r.notes ?? [],
          deidentified: r.deidentified,
        })),
        total: total!.n,
      };
    },

    async consents(input) {
      const p = new Params();
      const where = ['(d.records > 0 OR r.action IS NOT NULL)'];
      if (input.consumerId) where.push(`coalesce(c.consumer_id, c.consumer_email) = ${p.add(input.consumerId)}`);
      if (input.dataHolderBrandId) where.push(`c.data_holder_brand_id = ${p.add(input.dataHolderBrandId)}`);
      const search = input.search?.trim().toLowerCase();
      if (search) {
        const l = p.add(like(search));
        where.push(
          `(cdr_lower_ascii(c.consent_id) LIKE ${l} ESCAPE '\\' OR cdr_lower_ascii(coalesce(c.consumer_email, '')) LIKE ${l} ESCAPE '\\'
            OR cdr_lower_ascii(coalesce(c.data_holder_name, '')) LIKE ${l} ESCAPE '\\')`,
        );
      }
      const from = `
        FROM consents c
        LEFT JOIN (SELECT consent_id, count(*) AS records, max(fetched_at) AS last FROM data_records
                   WHERE consent_id IS NOT NULL AND kind <> 'products' GROUP BY consent_id) d ON d.consent_id = c.consent_id
        LEFT JOIN (SELECT DISTINCT ON (consent_id) consent_id, action || ' ' || at AS action FROM retention_log
                   ORDER BY consent_id, seq DESC) r ON r.consent_id = c.consent_id
        WHERE ${where.join(' AND ')}`;
      const countParams = [...p.values];
      const [rows, total] = await Promise.all([
        db.query<ChannelRow>(
          `SELECT c.consent_id AS "consentId", c.status, c.consumer_email AS "consumerEmail", c.consumer_id AS "consumerId",
                  c.data_holder_name AS "dataHolderName", c.data_holder_brand_id AS "dataHolderBrandId",
                  coalesce(d.records, 0) AS records, d.last AS "lastFetchedAt", r.action AS retention
           ${from} ORDER BY d.last DESC NULLS LAST, c.consent_id COLLATE "C" LIMIT ${p.add(input.limit)} OFFSET ${p.add(input.offset)}`,
          p.values,
        ),
        db.one<{ n: number }>(`SELECT count(*) AS n ${from}`, countParams),
      ]);
      return { rows, total: total!.n };
    },

    async groups(by, search) {
      const key = by === 'consumer' ? 'coalesce(c.consumer_id, c.consumer_email) COLLATE "C"' : 'c.data_holder_brand_id COLLATE "C"';
      const label =
        by === 'consumer'
          ? 'coalesce(max(c.consumer_email COLLATE "C"), max(c.consumer_id COLLATE "C"))'
          : 'coalesce(max(c.data_holder_name COLLATE "C"), c.data_holder_brand_id COLLATE "C")';
      const p = new Params();
      let having = '';
      const s = search?.trim().toLowerCase();
      if (s) {
        const l = p.add(like(s));
        having = `HAVING cdr_lower_ascii(${label}) LIKE ${l} ESCAPE '\\' OR cdr_lower_ascii(${key}) LIKE ${l} ESCAPE '\\'`;
      }
      const sql = `
        SELECT ${key} AS id, ${label} AS label, count(*) AS consents, sum(coalesce(d.records, 0)) AS records, max(d.last) AS "lastFetchedAt"
        FROM consents c
        LEFT JOIN (SELECT consent_id, count(*) AS records, max(fetched_at) AS last FROM data_records
                   WHERE consent_id IS NOT NULL AND kind <> 'products' GROUP BY consent_id) d ON d.consent_id = c.consent_id
        WHERE ${key} IS NOT NULL AND (d.records > 0 OR c.consent_id IN (SELECT consent_id FROM retention_log))
        GROUP BY 1 ${having}`;
      const [groups, total] = await Promise.all([
        db.query<{ id: string; label: string | null; consents: number; records: number; lastFetchedAt: string | null }>(
          `${sql} ORDER BY records DESC, label NULLS FIRST, id LIMIT 500`,
          p.values,
        ),
        db.one<{ n: number }>(`SELECT count(*) AS n FROM (${sql}) g`, p.values),
      ]);
      return { groups: groups.map((g) => ({ ...g, label: g.label ?? g.id })), total: total!.n };
    },

    async meta(consentId) {
      const last = await lastFetch(db, consentId);
      const distinct = (column: string, limit: number) =>
        db
          .query<{ v: string }>(
            `SELECT DISTINCT ${column} AS v FROM data_records
             WHERE consent_id = $1 AND kind = 'transactions' AND ${column} IS NOT NULL ORDER BY v LIMIT ${limit}`,
            [consentId],
          )
          .then((rows) => rows.map((r) => r.v));
      const [consent, kinds, retention, accounts, transactionTypes, transactionStatuses] = await Promise.all([
        db.one<Record<string, string | null>>(
          `SELECT ${CONSENT_SUMMARY_COLUMNS}
           FROM consents WHERE consent_id = $1`,
          [consentId],
        ),
        db.query<{ kind: string; count: number; fetchedAt: string | null; stale: number }>(
          `SELECT kind, count(*) AS count, max(fetched_at) AS "fetchedAt",
                  count(*) FILTER (WHERE fetched_at < CASE kind WHEN 'transactions' THEN $3 ELSE $2 END) AS stale
           FROM data_records WHERE consent_id = $1 AND kind <> 'products' GROUP BY kind ORDER BY kind`,
          [consentId, last ?? '', staleBefore('transactions', last, await fullReadAt(db)) ?? ''],
        ),
        db.query<RetentionEntry>(
          `SELECT consent_id AS "consentId", action, records, kinds, reason, at FROM retention_log WHERE consent_id = $1
           ORDER BY seq LIMIT 100`,
          [consentId],
        ),
        db.query<{ accountId: string; name: string | null; masked: string | null }>(
          `SELECT raw->>'accountId' AS "accountId", (raw->>'displayName') COLLATE "C" AS name, raw->>'maskedNumber' AS masked
           FROM data_records WHERE consent_id = $1 AND kind = 'accounts' ORDER BY name NULLS FIRST, record_id LIMIT 500`,
          [consentId],
        ),
        distinct('tx_type', 100),
        distinct('tx_status', 20),
      ]);
      return {
        consentId,
        consent: consentSummaryOf(consent),
        lastFetchedAt: last,
        kinds,
        retention,
        accounts: accounts.map((a) => ({ accountId: a.accountId, label: [a.name ?? a.accountId, a.masked].filter(Boolean).join(' ') })),
        transactionTypes,
        transactionStatuses,
      };
    },

    records: (input) => records(db, input),

    windows: (input) => windowsOf((offset) => records(db, { ...input, offset, limit: 200 }).then((r) => r.rows), 200),

    collectionsFor: (consentId) =>
      db.query<{ kind: string; count: number; fetchedAt: string | null }>(
        'SELECT kind, count(*) AS count, max(fetched_at) AS "fetchedAt" FROM data_records WHERE consent_id = $1 GROUP BY kind ORDER BY kind',
        [consentId],
      ),

    products: (filter, offset, limit) => products(db, filter, offset, limit),

    async product(recordId) {
      const r = await db.one<{
        record_id: string;
        shape: string | null;
        raw: Json;
        normalized: Json | null;
        notes: Json[] | null;
        fetched_at: string;
      }>("SELECT record_id, shape, raw, normalized, notes, fetched_at FROM data_records WHERE kind = 'products' AND record_id = $1", [
        recordId,
      ]);
      if (!r) return undefined;
      return {
        recordId: r.record_id,
        fetchedAt: r.fetched_at,
        shape: r.shape,
        ...decoded(r),
        versions: await db.query<{ seenAt: string; hash: string }>(
          'SELECT seen_at AS "seenAt", hash FROM product_versions WHERE record_id = $1 ORDER BY seen_at, seq LIMIT 1000',
          [recordId],
        ),
      };
    },

    async productVersions(recordId, hashes) {
      const rows = await db.query<{
        seen_at: string;
        hash: string;
        shape: string | null;
        raw: Json;
        normalized: Json | null;
        notes: Json[] | null;
      }>(
        `SELECT seen_at, hash, shape, raw, normalized, notes FROM product_versions WHERE record_id = $1 AND hash = ANY($2::text[])
         ORDER BY seen_at, seq`,
        [recordId, hashes],
      );
      return rows.map((v): ProductVersion => ({ seenAt: v.seen_at, hash: v.hash, shape: v.shape, ...decoded(v) }));
    },

    productWindows: (filter) => windowsOf((offset) => products(db, filter, offset, 500).then((r) => r.rows), 500),

    applyRetention: (operator) => applyRetention(db, opts, operator),

    retentionLog: (consentId) =>
      db.query<RetentionEntry>(
        `SELECT consent_id AS "consentId", action, records, kinds, reason, at FROM retention_log
         ${consentId ? 'WHERE consent_id = $1' : ''} ORDER BY seq`,
        consentId ? [consentId] : [],
      ),
  };
}

type ChannelRow = Awaited<ReturnType<DataStore['consents']>>['rows'][number];
