import type { StoredDataConsentMeta, DataRecordRow, DataView, TransactionFilter } from '../../../shared/ipc/contract.js';
import { CONSENT_SUMMARY_COLUMNS } from '../data/consent-summary.js';
import { staleBefore, TRANSACTIONS_FULL_READ } from '../data/history.js';
import type { Db } from './db.js';
import { BALANCES, TRANSACTION_COLUMNS, TransactionIndex } from './transaction-index.js';
import { DATA_KINDS } from '../api/data-client.js';
import { consentMeta, META_LIMITS, orderSql, recordRow, TRANSACTION_DAY, transactionParts } from '../data/views.js';

/**
 * The data browser's reads of the cache that SQLite answers its own way: a consent's cached Data
 * API records a window at a time (never a whole kind over IPC), transactions with full-text search
 * over descriptions, filters and a running balance (from the transaction index when it holds them),
 * and what each answer is worth (when fetched, whether stale, what retention did). What the views
 * mean is data/views.ts; the navigation lists and the product catalogue are data/browse.ts (both
 * engines).
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

/** A view's order in SQLite: its payload fields by json_extract (NULLs first ascending, last descending: as the rule says). */
const ORDER = (view: Exclude<DataView, 'transactions'>) =>
  orderSql(view, (k) => `json_extract(raw, '$.${k.path.join('.')}')${k.desc ? ' DESC' : ''}`);

/** A stored record's JSON, read. */
const parsed = (r: { raw: string; normalized: string | null; notes: string | null }) => ({
  raw: JSON.parse(r.raw) as Json,
  normalized: r.normalized ? (JSON.parse(r.normalized) as Json) : null,
  notes: r.notes ? (JSON.parse(r.notes) as Json[]) : null,
});

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
    return recordRow({ ...r, ...parsed(r), deidentified: r.deidentified === 1 }, r.last_fetch);
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
        `SELECT consent_id AS consentId, action, records, kinds, reason, at FROM retention_log WHERE consent_id = ? ORDER BY seq LIMIT ${META_LIMITS.retention}`,
      )
      .all(consentId);
    const accounts = this.db
      .prepare<[string], { accountId: string; name: string | null; masked: string | null }>(
        `SELECT json_extract(raw, '$.accountId') AS accountId, json_extract(raw, '$.displayName') AS name,
                json_extract(raw, '$.maskedNumber') AS masked
         FROM data_records WHERE consent_id = ? AND kind = 'accounts' ORDER BY name, record_id LIMIT ${META_LIMITS.accounts}`,
      )
      .all(consentId);
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
    return consentMeta({
      consentId,
      consent,
      lastFetchedAt: last,
      kinds,
      retention,
      accounts,
      transactionTypes: distinct('type', META_LIMITS.transactionTypes),
      transactionStatuses: distinct('status', META_LIMITS.transactionStatuses),
    });
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
         FROM data_records WHERE consent_id = ? AND kind = ? ORDER BY ${ORDER(input.kind)} LIMIT ? OFFSET ?`,
      )
      .all(last, input.consentId, input.kind, input.limit, input.offset)
      .map((r) => this.toRow(r));
    const total = this.db
      .prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM data_records WHERE consent_id = ? AND kind = ?')
      .get(input.consentId, input.kind)!.n;
    return { rows, total };
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
    const parts = transactionParts(f);
    if (!parts) return { rows: [], total: 0 };
    const where: string[] = [];
    const params: Param[] = [];
    for (const part of parts) {
      if (part.kind === 'words') {
        where.push('rid IN (SELECT rowid FROM transactions_fts WHERE transactions_fts MATCH ?)');
        params.push(part.words.map((w) => `"${w}"*`).join(' '));
      } else if (part.kind === 'in') {
        where.push(`${part.column} IN (${part.values.map(() => '?').join(',')})`);
        params.push(...part.values);
      } else {
        where.push(`${part.kind === 'day' ? TRANSACTION_DAY : 'amount_cents'} ${part.op} ?`);
        params.push(part.kind === 'day' ? part.day : part.cents);
      }
    }
    // The running balance: the account's current balance less every posted transaction after this
    // one (current balances do not include pending transactions; a pending one has none).
    const base = `
      WITH tx AS (
        SELECT rowid AS rid, record_id, kind, shape, raw, normalized, notes, fetched_at, deidentified, ${TRANSACTION_COLUMNS}
        FROM data_records WHERE consent_id = ? AND kind = 'transactions'
      ),
      balances AS (${BALANCES}),
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
}
