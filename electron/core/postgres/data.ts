import { createHash } from 'node:crypto';
import { CONSENT_SUMMARY_COLUMNS } from '../data/consent-summary.js';
import { staleBefore, TRANSACTIONS_FULL_READ } from '../data/history.js';
import { normalizeRecord } from '../../../shared/banking/index.js';
import type { JsonObject } from '../../../shared/banking/values.js';
import type { DataRecordRow, DataView, TransactionFilter } from '../../../shared/ipc/contract.js';
import { consentOf, DATA_KINDS, type DataKind } from '../api/data-client.js';
import { dataBrowse } from '../data/browse.js';
import type { DataStore, RecordsInput, RetentionEntry } from '../data/port.js';
import {
  consentMeta,
  DATA_WINDOW,
  META_LIMITS,
  AMOUNT_FIELD,
  BALANCE_FIELD,
  orderSql,
  recordRow,
  TRANSACTION_DAY,
  TRANSACTION_FIELDS,
  transactionParts,
  type StoredRecord,
} from '../data/views.js';
import { pages, type QueryRunner } from '../query/query.js';
import { applyRetention, type PgDataOptions } from './data-retention.js';
import { descriptionWords, searchQuery } from './data-text.js';
import type { PgDb, Sql, Tx } from './db.js';

/**
 * Data API records, product versions and the retention log in the team store (part of schema
 * version 1): storing a sync's pages, and the reads PostgreSQL answers its own way (a consent's
 * windows, its transactions with their running balance, its meta). What the views mean — orders,
 * filters, search words, cents, rows — is data/views.ts; the navigation lists, the catalogue and
 * the retention log are data/browse.ts, for both engines.
 *
 * - Payloads are `json`, not `jsonb`: the record as sent, its keys in their order, is what the
 *   data browser shows and exports.
 * - Text the browser sorts or compares is in the "C" collation (byte order), whatever the server's
 *   locale; NULLs first ascending, last descending (views.ts OrderKey).
 * - A transaction's columns (views.ts TRANSACTION_FIELDS) and the description's words are taken
 *   from its payload when it is stored (txColumns); de-identification clears them with the payload.
 *   (Generated columns did the same but cut storing to a quarter: `json` is parsed anew for every
 *   field.) A payload value becomes text and cents as json_extract and CAST would make them
 *   (`text`, `sqliteCents`: the rule a solo cache computes in SQL). Description search is a tsvector
 *   of the words cut as FTS5 cuts them (data-text.ts), GIN-indexed.
 */
export type { PgDataOptions };

type Json = Record<string, unknown>;

/* ---- storing a page ---- */

const NORMALISED_KINDS: ReadonlySet<DataKind> = new Set(['accounts', 'products']);

/**
 * Stores a page of Data API records of one kind as a sync does, in
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

/** A transaction's columns (data/views.ts TRANSACTION_FIELDS), kept beside its payload, and its description's words. */
function txColumns(r: Json) {
  const first = (fields: readonly string[]) => fields.reduce<string | null>((found, f) => found ?? text(r[f]), null);
  return {
    words: descriptionWords(r.description).join(' '),
    account: first(TRANSACTION_FIELDS.account_id),
    status: first(TRANSACTION_FIELDS.status),
    type: first(TRANSACTION_FIELDS.type),
    at: first(TRANSACTION_FIELDS.at),
    cents: sqliteCents(r[AMOUNT_FIELD]),
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

/** A view's order: payload fields in the "C" collation, NULLs where the rule puts them (data/views.ts VIEW_ORDER). */
const ORDER = (view: Exclude<DataView, 'transactions'>) =>
  orderSql(view, (k) => `${field(...k.path)}${k.desc ? ' DESC NULLS LAST' : ' NULLS FIRST'}`);

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
    db.query<StoredRecord>(
      `SELECT ${RECORD_COLUMNS}, NULL AS running FROM data_records WHERE consent_id = $1 AND kind = $2
       ORDER BY ${ORDER(input.kind)} LIMIT $3 OFFSET $4`,
      [input.consentId, input.kind, input.limit, input.offset],
    ),
    db.one<{ n: number }>('SELECT count(*) AS n FROM data_records WHERE consent_id = $1 AND kind = $2', [input.consentId, input.kind]),
  ]);
  return { rows: rows.map((r) => recordRow(r, last)), total: total!.n };
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
  const parts = transactionParts(f);
  if (!parts) return { rows: [], total: 0 };
  const where: string[] = [];
  for (const part of parts) {
    if (part.kind === 'words') {
      const query = searchQuery(part.words);
      if (!query) return { rows: [], total: 0 };
      where.push(`words @@ ${p.add(query)}::tsquery`);
    } else if (part.kind === 'in') where.push(`${part.column} = ANY(${p.add(part.values)}::text[])`);
    else if (part.kind === 'day') where.push(`${TRANSACTION_DAY} ${part.op} ${p.add(part.day)}`);
    else where.push(`amount_cents ${part.op} ${p.add(part.cents)}::bigint`);
  }
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const tx = `
    SELECT record_id, tx_account AS account_id, tx_status AS status, tx_type AS type, tx_at AS at, tx_cents AS amount_cents, tx_words AS words
    FROM data_records WHERE consent_id = ${consent} AND kind = 'transactions'`;
  const countParams = [...p.values];
  const limit = p.add(input.limit);
  const offset = p.add(input.offset);
  const [rows, total] = await Promise.all([
    db.query<StoredRecord>(
      `WITH tx AS (${tx}),
       -- Materialised: each balance converted once, not once per transaction joined to it.
       balances AS MATERIALIZED (
         SELECT (raw->>'${TRANSACTION_FIELDS.account_id[0]}') COLLATE "C" AS account_id, cdr_cents(raw->>'${BALANCE_FIELD}') AS balance_cents
         FROM data_records WHERE consent_id = ${consent} AND kind = 'balances' AND raw->>'${BALANCE_FIELD}' IS NOT NULL
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
  return { rows: rows.map((r) => recordRow(r, last)), total: total!.n };
}

export function pgDataStore(db: PgDb, runner: QueryRunner, opts: PgDataOptions): DataStore {
  return {
    ...dataBrowse(runner),
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
           ORDER BY seq LIMIT ${META_LIMITS.retention}`,
          [consentId],
        ),
        db.query<{ accountId: string; name: string | null; masked: string | null }>(
          `SELECT raw->>'accountId' AS "accountId", (raw->>'displayName') COLLATE "C" AS name, raw->>'maskedNumber' AS masked
           FROM data_records WHERE consent_id = $1 AND kind = 'accounts' ORDER BY name NULLS FIRST, record_id LIMIT ${META_LIMITS.accounts}`,
          [consentId],
        ),
        distinct('tx_type', META_LIMITS.transactionTypes),
        distinct('tx_status', META_LIMITS.transactionStatuses),
      ]);
      return consentMeta({ consentId, consent, lastFetchedAt: last, kinds, retention, accounts, transactionTypes, transactionStatuses });
    },

    records: (input) => records(db, input),

    windows: (input) => pages(async (offset) => (await records(db, { ...input, offset, limit: DATA_WINDOW })).rows, DATA_WINDOW),

    applyRetention: (operator) => applyRetention(db, opts, operator),
  };
}
