import type {
  StoredDataConsentMeta,
  DataConsentRow,
  DataGroup,
  DataRecordRow,
  DataView,
  ProductFilter,
  ProductRow,
  ProductVersion,
  TransactionFilter,
} from '../../../shared/ipc/contract.js';
import { CONSENT_SUMMARY_COLUMNS, consentSummaryOf } from '../data/consent-summary.js';
import { staleBefore, TRANSACTIONS_FULL_READ } from '../data/history.js';
import type { Db } from './db.js';
import { TransactionIndex } from './transaction-index.js';
import { DATA_KINDS } from '../api/data-client.js';

/**
 * The data browser's reads of the cache: a consent's cached Data API records a window at a time
 * (never a whole kind over IPC), transactions with full-text search over descriptions, filters and a
 * running balance; what each answer is worth (when fetched, whether stale, what retention did); the
 * navigation lists (consumers, consents, data holders); and the product catalogue with every
 * version of a product the cache has seen.
 */
type Json = Record<string, unknown>;
type Param = string | number | null;

interface RecordSqlRow {
  record_id: string;
  kind: string;
  shape: string | null;
  raw: string;
  normalized: string | null;
  notes: string | null;
  fetched_at: string;
  deidentified: number;
  last_fetch: string | null;
  running: number | null;
}

/** The order each kind reads best in: newest first for dated records, by time for usage. */
const ORDER: Record<DataView, string> = {
  customers: 'record_id',
  accounts: "json_extract(raw, '$.displayName'), record_id",
  balances: 'record_id',
  transactions: 'at DESC, record_id DESC',
  payees: "json_extract(raw, '$.nickname'), record_id",
  directDebits: "json_extract(raw, '$.lastDebitDateTime') DESC, record_id",
  scheduledPayments: "json_extract(raw, '$.recurrence.nextPaymentDate'), record_id",
  energyAccounts: 'record_id',
  servicePoints: 'record_id',
  invoices: "json_extract(raw, '$.issueDate') DESC, record_id",
  bills: "json_extract(raw, '$.executionDateTime') DESC, record_id",
  usage: "json_extract(raw, '$.servicePointId'), json_extract(raw, '$.readStartDate'), record_id",
};

/** Whole words as typed become prefix terms, all required: "wool nsw" → "wool"* "nsw"*. */
export function ftsQuery(search: string): string | undefined {
  const words = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 12);
  return words.length ? words.map((w) => `"${w}"*`).join(' ') : undefined;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (c: number) => {
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** A stored record as the views read it: the 2.0.0 form (or the payload itself), the payload, the notes. */
function decoded(r: { raw: string; normalized: string | null; notes: string | null }): { record: Json; raw: Json; notes: Json[] } {
  const raw = JSON.parse(r.raw) as Json;
  return { record: r.normalized ? (JSON.parse(r.normalized) as Json) : raw, raw, notes: r.notes ? (JSON.parse(r.notes) as Json[]) : [] };
}

/** Transactions in a consent above which a read through the port waits for them in memory (SQL: ~50 ms at 5,000). */
const SETTLE_ABOVE = 5_000;

/** Every kind but the catalogue: a consent's newest fetch is the newest of theirs. */
const CONSENT_KINDS = Object.keys(DATA_KINDS).filter((k) => k !== 'products');

export class DataQuery {
  /** The transactions of the consents browsed, in memory (transaction-index.ts); undefined: SQL only. */
  private readonly index: TransactionIndex | undefined;
  private readonly lastFetchStmt;
  private readonly fullReadStmt;
  private readonly byRowid;
  private readonly txCount;
  /** When a build of a consent's transactions was last overtaken by a write. */
  private readonly overtaken = new Map<string, number>();
  private readonly settleAbove: number;

  constructor(
    private readonly db: Db,
    opts: { useIndex?: boolean; onIndexError?: (error: unknown) => void; settleAbove?: number } = {},
  ) {
    this.settleAbove = opts.settleAbove ?? SETTLE_ABOVE;
    this.index = opts.useIndex === false ? undefined : new TransactionIndex(db, opts.onIndexError);
    // The newest of each kind's newest (each one read from the end of an index), not a scan of the consent's records.
    this.lastFetchStmt = db
      .prepare<{ c: string }, string | null>(
        `SELECT max(t) FROM (${CONSENT_KINDS.map(
          (k) => `SELECT (SELECT max(fetched_at) FROM data_records WHERE kind = '${k}' AND consent_id = @c) AS t`,
        ).join(' UNION ALL ')})`,
      )
      .pluck();
    this.fullReadStmt = db.prepare<[string], { value: string }>('SELECT value FROM sync_state WHERE key = ?');
    this.txCount = db
      .prepare<{ c: string }, number>("SELECT count(*) FROM data_records WHERE kind = 'transactions' AND consent_id = @c")
      .pluck();
    this.byRowid = db.prepare<[string], Omit<RecordSqlRow, 'last_fetch' | 'running'> & { rid: number }>(
      `SELECT rowid AS rid, record_id, kind, shape, raw, normalized, notes, fetched_at, deidentified
       FROM data_records WHERE rowid IN (SELECT value FROM json_each(?))`,
    );
  }

  /**
   * Before a read of a large consent's transactions (or its summary) through the port: waits for
   * its transactions to be in memory rather than reading them from SQL, which at 200,000 holds the
   * thread for seconds where the build yields every few milliseconds. Not for a small consent (SQL
   * is quick), nor while builds are overtaken by writes (a sync of that consent): SQL then.
   */
  async settle(consentId: string): Promise<void> {
    if (!this.index || this.index.indexed(consentId)) return;
    if ((this.overtaken.get(consentId) ?? 0) > Date.now() - 5_000) return;
    if (this.txCount.get({ c: consentId })! < this.settleAbove) return;
    await this.index.ready(consentId);
    if (!this.index.indexed(consentId)) this.overtaken.set(consentId, Date.now());
  }

  /** Whether a consent's transactions answer from memory now (tests, the benchmark). */
  indexed(consentId: string): boolean {
    return this.index?.indexed(consentId) ?? false;
  }

  /** Resolves when the consent's transactions are in memory (or the build gave up: a write overtook it). */
  async ready(consentId: string): Promise<void> {
    await this.index?.ready(consentId);
  }

  close(): void {
    this.index?.close();
  }

  private toRow(r: RecordSqlRow): DataRecordRow {
    return {
      recordId: r.record_id,
      kind: r.kind,
      shape: r.shape,
      ...decoded(r),
      fetchedAt: r.fetched_at,
      stale: r.last_fetch !== null && r.fetched_at < r.last_fetch,
      deidentified: r.deidentified === 1,
      ...(r.kind === 'transactions' ? { runningBalance: r.running === null ? null : money(r.running) } : {}),
    };
  }

  /** What the data of a consent is worth: per kind, when fetched and how much is stale; retention; filter options. */
  meta(consentId: string): StoredDataConsentMeta {
    const consent = this.db
      .prepare<[string], Record<string, string | null>>(
        `SELECT ${CONSENT_SUMMARY_COLUMNS}
         FROM consents WHERE consent_id = ?`,
      )
      .get(consentId);
    const last = this.lastFetch(consentId);
    // Per kind, from the index of (kind, consent, fetch time): no read of the records themselves.
    const kinds = this.db
      .prepare<[{ last: string; tx: string; c: string }], { kind: string; count: number; fetchedAt: string | null; stale: number }>(
        `SELECT kind, count(*) AS count, max(fetched_at) AS fetchedAt,
                sum(fetched_at < CASE kind WHEN 'transactions' THEN @tx ELSE @last END) AS stale
         FROM data_records INDEXED BY data_records_by_kind_fetched
         WHERE kind IN (${CONSENT_KINDS.map((k) => `'${k}'`).join(', ')}) AND consent_id = @c AND @last IS NOT NULL GROUP BY kind ORDER BY kind`,
      )
      .all({ last: last ?? '', tx: staleBefore('transactions', last, this.fullReadAt()) ?? '', c: consentId });
    const retention = this.db
      .prepare<[string], { consentId: string; action: string; records: number; kinds: string; reason: string; at: string }>(
        'SELECT consent_id AS consentId, action, records, kinds, reason, at FROM retention_log WHERE consent_id = ? ORDER BY seq LIMIT 100',
      )
      .all(consentId);
    const accounts = this.db
      .prepare<[string], { accountId: string; name: string | null; masked: string | null }>(
        `SELECT json_extract(raw, '$.accountId') AS accountId, json_extract(raw, '$.displayName') AS name,
                json_extract(raw, '$.maskedNumber') AS masked
         FROM data_records WHERE consent_id = ? AND kind = 'accounts' ORDER BY name, record_id LIMIT 500`,
      )
      .all(consentId)
      .map((a) => ({ accountId: a.accountId, label: [a.name ?? a.accountId, a.masked].filter(Boolean).join(' ') }));
    // The filters' values: from the consent's transactions in memory when held (SQL parses every record).
    const held = this.index?.values(consentId);
    const distinct = (field: 'type' | 'status', limit: number) =>
      held?.[field].slice(0, limit) ??
      this.db
        .prepare<[string], { v: string }>(
          `SELECT DISTINCT json_extract(raw, '$.${field}') AS v FROM data_records
           WHERE consent_id = ? AND kind = 'transactions' AND v IS NOT NULL ORDER BY v LIMIT ${limit}`,
        )
        .all(consentId)
        .map((r) => r.v);
    return {
      consentId,
      consent: consentSummaryOf(consent),
      lastFetchedAt: last,
      kinds,
      retention,
      accounts,
      transactionTypes: distinct('type', 100),
      transactionStatuses: distinct('status', 20),
    };
  }

  /** When every transaction was last read (the data sync's state). */
  private fullReadAt(): string | null {
    return this.fullReadStmt.get(TRANSACTIONS_FULL_READ)?.value ?? null;
  }

  private lastFetch(consentId: string): string | null {
    return this.lastFetchStmt.get({ c: consentId }) ?? null;
  }

  /** A window of one kind of a consent's records (transactions: filtered, with a running balance). */
  records(input: { consentId: string; kind: DataView; filter?: TransactionFilter | undefined; offset: number; limit: number }): {
    rows: DataRecordRow[];
    total: number;
  } {
    const last = this.lastFetch(input.consentId);
    if (input.kind === 'transactions') return this.transactions(input, staleBefore('transactions', last, this.fullReadAt()));
    const rows = this.db
      .prepare<Param[], RecordSqlRow>(
        `SELECT record_id, kind, shape, raw, normalized, notes, fetched_at, deidentified, ? AS last_fetch, NULL AS running
         FROM data_records WHERE consent_id = ? AND kind = ? ORDER BY ${ORDER[input.kind]} LIMIT ? OFFSET ?`,
      )
      .all(last, input.consentId, input.kind, input.limit, input.offset)
      .map((r) => this.toRow(r));
    const total = this.db
      .prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM data_records WHERE consent_id = ? AND kind = ?')
      .get(input.consentId, input.kind)!.n;
    return { rows, total };
  }

  /** Every record of a view, a window at a time (exports). */
  *windows(input: { consentId: string; kind: DataView; filter?: TransactionFilter | undefined }): Generator<DataRecordRow[]> {
    for (let offset = 0; ; offset += 200) {
      const { rows } = this.records({ ...input, offset, limit: 200 });
      if (rows.length) yield rows;
      if (rows.length < 200) return;
    }
  }

  private transactions(
    input: { consentId: string; filter?: TransactionFilter | undefined; offset: number; limit: number },
    last: string | null,
  ): { rows: DataRecordRow[]; total: number } {
    const f = input.filter ?? {};
    const fast = this.index?.window(input.consentId, f, input.offset, input.limit);
    if (fast) {
      const found = new Map(this.byRowid.all(JSON.stringify(fast.rowids)).map((r) => [r.rid, r]));
      const rows: DataRecordRow[] = [];
      fast.rowids.forEach((rid, i) => {
        const r = found.get(rid);
        if (r) rows.push(this.toRow({ ...r, last_fetch: last, running: fast.running[i] ?? null }));
      });
      return { rows, total: fast.total };
    }
    const where: string[] = [];
    const params: Param[] = [];
    const match = f.search ? ftsQuery(f.search) : undefined;
    if (f.search && !match) return { rows: [], total: 0 };
    if (match) {
      where.push('rid IN (SELECT rowid FROM transactions_fts WHERE transactions_fts MATCH ?)');
      params.push(match);
    }
    const list = (column: string, values: string[] | undefined) => {
      if (!values?.length) return;
      where.push(`${column} IN (${values.map(() => '?').join(',')})`);
      params.push(...values);
    };
    list('account_id', f.accountIds);
    list('type', f.types);
    list('status', f.statuses);
    if (f.fromDay) {
      where.push('substr(at, 1, 10) >= ?');
      params.push(f.fromDay);
    }
    if (f.toDay) {
      where.push('substr(at, 1, 10) <= ?');
      params.push(f.toDay);
    }
    if (f.minAmount !== undefined) {
      where.push('amount_cents >= ?');
      params.push(cents(f.minAmount));
    }
    if (f.maxAmount !== undefined) {
      where.push('amount_cents <= ?');
      params.push(cents(f.maxAmount));
    }
    // The running balance: the account's current balance less every posted transaction after this
    // one (current balances do not include pending transactions; a pending one has none).
    const base = `
      WITH tx AS (
        SELECT rowid AS rid, record_id, kind, shape, raw, normalized, notes, fetched_at, deidentified,
          json_extract(raw, '$.accountId') AS account_id, json_extract(raw, '$.status') AS status, json_extract(raw, '$.type') AS type,
          coalesce(json_extract(raw, '$.postingDateTime'), json_extract(raw, '$.executionDateTime'), json_extract(raw, '$.valueDateTime')) AS at,
          CAST(round(CAST(json_extract(raw, '$.amount') AS REAL) * 100) AS INTEGER) AS amount_cents
        FROM data_records WHERE consent_id = ? AND kind = 'transactions'
      ),
      balances AS (
        SELECT json_extract(raw, '$.accountId') AS account_id,
          CAST(round(CAST(json_extract(raw, '$.currentBalance') AS REAL) * 100) AS INTEGER) AS balance_cents
        FROM data_records WHERE consent_id = ? AND kind = 'balances' AND json_extract(raw, '$.currentBalance') IS NOT NULL
      ),
      ran AS (
        SELECT tx.*, CASE WHEN tx.status = 'POSTED' AND b.balance_cents IS NOT NULL THEN
          b.balance_cents - coalesce(sum(CASE WHEN tx.status = 'POSTED' THEN tx.amount_cents ELSE 0 END) OVER (
            PARTITION BY tx.account_id ORDER BY tx.at DESC, tx.record_id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
          END AS running
        FROM tx LEFT JOIN balances b ON b.account_id = tx.account_id
      )`;
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.db
      .prepare<Param[], RecordSqlRow>(
        `${base} SELECT record_id, kind, shape, raw, normalized, notes, fetched_at, deidentified, ? AS last_fetch, running
         FROM ran ${whereSql} ORDER BY at DESC, record_id DESC LIMIT ? OFFSET ?`,
      )
      .all(input.consentId, input.consentId, last, ...params, input.limit, input.offset)
      .map((r) => this.toRow(r));
    const total = this.db
      // The count needs no running balance: the filters are all on tx's columns.
      .prepare<Param[], { n: number }>(`${base} SELECT count(*) AS n FROM tx ${whereSql}`)
      .get(input.consentId, input.consentId, ...params)!.n;
    return { rows, total };
  }

  /** Consents with cached data or a retention record, optionally of one consumer or data holder, or matching words. */
  consents(input: {
    consumerId?: string | undefined;
    dataHolderBrandId?: string | undefined;
    search?: string | undefined;
    offset: number;
    limit: number;
  }): {
    rows: DataConsentRow[];
    total: number;
  } {
    const where = ['(d.records > 0 OR r.action IS NOT NULL)'];
    const params: Param[] = [];
    if (input.consumerId) {
      where.push('coalesce(c.consumer_id, c.consumer_email) = ?');
      params.push(input.consumerId);
    }
    if (input.dataHolderBrandId) {
      where.push('c.data_holder_brand_id = ?');
      params.push(input.dataHolderBrandId);
    }
    const search = input.search?.trim().toLowerCase();
    if (search) {
      where.push(
        "(lower(c.consent_id) LIKE ? ESCAPE '\\' OR lower(coalesce(c.consumer_email, '')) LIKE ? ESCAPE '\\' OR lower(coalesce(c.data_holder_name, '')) LIKE ? ESCAPE '\\')",
      );
      const like = `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      params.push(like, like, like);
    }
    const from = `
      FROM consents c
      LEFT JOIN (SELECT consent_id, count(*) AS records, max(fetched_at) AS last FROM data_records
                 WHERE consent_id IS NOT NULL AND kind <> 'products' GROUP BY consent_id) d ON d.consent_id = c.consent_id
      LEFT JOIN (SELECT consent_id, action || ' ' || at AS action FROM retention_log
                 WHERE seq IN (SELECT max(seq) FROM retention_log GROUP BY consent_id)) r ON r.consent_id = c.consent_id
      WHERE ${where.join(' AND ')}`;
    const rows = this.db
      .prepare<Param[], DataConsentRow>(
        `SELECT c.consent_id AS consentId, c.status, c.consumer_email AS consumerEmail, c.consumer_id AS consumerId,
                c.data_holder_name AS dataHolderName, c.data_holder_brand_id AS dataHolderBrandId,
                coalesce(d.records, 0) AS records, d.last AS lastFetchedAt, r.action AS retention
         ${from} ORDER BY d.last DESC NULLS LAST, c.consent_id LIMIT ? OFFSET ?`,
      )
      .all(...params, input.limit, input.offset);
    const total = this.db.prepare<Param[], { n: number }>(`SELECT count(*) AS n ${from}`).get(...params)!.n;
    return { rows, total };
  }

  /** Consumers or data holders whose consents have cached data (or had, before retention). */
  groups(by: 'consumer' | 'holder', search?: string): { groups: DataGroup[]; total: number } {
    const key = by === 'consumer' ? 'coalesce(c.consumer_id, c.consumer_email)' : 'c.data_holder_brand_id';
    const label =
      by === 'consumer'
        ? 'coalesce(max(c.consumer_email), max(c.consumer_id))'
        : 'coalesce(max(c.data_holder_name), c.data_holder_brand_id)';
    const params: Param[] = [];
    let having = '';
    const s = search?.trim().toLowerCase();
    if (s) {
      having = `HAVING lower(${label}) LIKE ? ESCAPE '\\' OR lower(${key}) LIKE ? ESCAPE '\\'`;
      const like = `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      params.push(like, like);
    }
    const sql = `
      SELECT ${key} AS id, ${label} AS label, count(*) AS consents, sum(coalesce(d.records, 0)) AS records, max(d.last) AS lastFetchedAt
      FROM consents c
      LEFT JOIN (SELECT consent_id, count(*) AS records, max(fetched_at) AS last FROM data_records
                 WHERE consent_id IS NOT NULL AND kind <> 'products' GROUP BY consent_id) d ON d.consent_id = c.consent_id
      WHERE ${key} IS NOT NULL AND (d.records > 0 OR c.consent_id IN (SELECT consent_id FROM retention_log))
      GROUP BY ${key} ${having}`;
    const groups = this.db
      .prepare<Param[], DataGroup>(`${sql} ORDER BY records DESC, label LIMIT 500`)
      .all(...params)
      .map((g) => ({ ...g, label: g.label ?? g.id }));
    const total = this.db.prepare<Param[], { n: number }>(`SELECT count(*) AS n FROM (${sql})`).get(...params)!.n;
    return { groups, total };
  }

  /* ---- products ---- */

  private productWhere(filter: ProductFilter, skip?: 'category' | 'holder'): { sql: string; params: Param[] } {
    const where = ["kind = 'products'"];
    const params: Param[] = [];
    if (skip !== 'holder' && filter.dataHolderBrandIds?.length) {
      where.push(`json_extract(raw, '$.dataHolderId') IN (${filter.dataHolderBrandIds.map(() => '?').join(',')})`);
      params.push(...filter.dataHolderBrandIds);
    }
    if (skip !== 'category' && filter.categories?.length) {
      where.push(`json_extract(raw, '$.productCategory') IN (${filter.categories.map(() => '?').join(',')})`);
      params.push(...filter.categories);
    }
    const s = filter.search?.trim().toLowerCase();
    if (s) {
      where.push("lower(coalesce(json_extract(raw, '$.name'), '')) LIKE ? ESCAPE '\\'");
      params.push(`%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    }
    return { sql: where.join(' AND '), params };
  }

  products(filter: ProductFilter, offset: number, limit: number) {
    const w = this.productWhere(filter);
    const rows = this.db
      .prepare<Param[], ProductRow>(
        `SELECT record_id AS recordId, coalesce(json_extract(raw, '$.productId'), record_id) AS productId, json_extract(raw, '$.name') AS name,
           coalesce(json_extract(raw, '$.brandName'), json_extract(raw, '$.brand')) AS brandName, json_extract(raw, '$.dataHolderId') AS dataHolderBrandId,
           json_extract(raw, '$.productCategory') AS category, shape, fetched_at AS fetchedAt,
           (SELECT count(*) FROM product_versions v WHERE v.record_id = data_records.record_id) AS versions
         FROM data_records WHERE ${w.sql} ORDER BY brandName, category, name, record_id LIMIT ? OFFSET ?`,
      )
      .all(...w.params, limit, offset);
    const total = this.db.prepare<Param[], { n: number }>(`SELECT count(*) AS n FROM data_records WHERE ${w.sql}`).get(...w.params)!.n;
    const c = this.productWhere(filter, 'category');
    const categories = this.db
      .prepare<Param[], { category: string; count: number }>(
        `SELECT coalesce(json_extract(raw, '$.productCategory'), 'UNKNOWN') AS category, count(*) AS count FROM data_records
         WHERE ${c.sql} GROUP BY category ORDER BY category LIMIT 100`,
      )
      .all(...c.params);
    const h = this.productWhere(filter, 'holder');
    const dataHolders = this.db
      .prepare<Param[], { id: string; name: string; count: number }>(
        `SELECT coalesce(json_extract(raw, '$.dataHolderId'), '') AS id,
           coalesce(max(json_extract(raw, '$.dataHolderBrandName')), max(json_extract(raw, '$.brandName')), max(json_extract(raw, '$.brand')), '') AS name,
           count(*) AS count
         FROM data_records WHERE ${h.sql} GROUP BY id ORDER BY name LIMIT 2000`,
      )
      .all(...h.params);
    return { rows, total, categories, dataHolders };
  }

  *productWindows(filter: ProductFilter): Generator<ProductRow[]> {
    for (let offset = 0; ; offset += 500) {
      const { rows } = this.products(filter, offset, 500);
      if (rows.length) yield rows;
      if (rows.length < 500) return;
    }
  }

  product(recordId: string) {
    const r = this.db
      .prepare<
        [string],
        { record_id: string; shape: string | null; raw: string; normalized: string | null; notes: string | null; fetched_at: string }
      >("SELECT record_id, shape, raw, normalized, notes, fetched_at FROM data_records WHERE kind = 'products' AND record_id = ?")
      .get(recordId);
    if (!r) return undefined;
    return {
      recordId: r.record_id,
      fetchedAt: r.fetched_at,
      shape: r.shape,
      ...decoded(r),
      versions: this.db
        .prepare<[string], { seenAt: string; hash: string }>(
          'SELECT seen_at AS seenAt, hash FROM product_versions WHERE record_id = ? ORDER BY seen_at, rowid LIMIT 1000',
        )
        .all(recordId),
    };
  }

  productVersions(recordId: string, hashes: string[]): ProductVersion[] {
    return this.db
      .prepare<
        Param[],
        { seen_at: string; hash: string; shape: string | null; raw: string; normalized: string | null; notes: string | null }
      >(
        `SELECT seen_at, hash, shape, raw, normalized, notes FROM product_versions WHERE record_id = ? AND hash IN (${hashes.map(() => '?').join(',')})
         ORDER BY seen_at, rowid`,
      )
      .all(recordId, ...hashes)
      .map((v) => ({ seenAt: v.seen_at, hash: v.hash, shape: v.shape, ...decoded(v) }));
  }
}
