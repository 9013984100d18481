import type { TransactionFilter } from '../../../shared/ipc/contract.js';
import type { Db } from './db.js';
import { BUILD_CHUNK, CacheVersion, Interner, turn } from './read-index.js';
import { AMOUNT_FIELD, BALANCE_FIELD, cents, searchWords as wordsSearched, TRANSACTION_FIELDS } from '../data/views.js';

/**
 * The data browser's transactions of one consent, held compactly in memory (issue 21): in the
 * order the browser shows them (newest first), each one's rowid, local day (as a rank among the
 * consent's days), amount in cents, account, type and status as small codes, its running balance,
 * and the words of its description as posting lists. A window of any filter, its count and a
 * search of the descriptions (a common word, a rare one, a prefix) are a scan of typed arrays or
 * of the words' postings: a millisecond or two at 200,000 transactions, where SQL reads and
 * parses every record's JSON (hundreds of milliseconds).
 *
 * Built per consent on its first window, in the background a chunk at a time (reads answer from
 * SQL meanwhile), kept for a few consents. Like the consent and event indexes it is only an
 * accelerator: when the cache changed (data_version, or this connection's own writes) the
 * consent's signature is read again (how many transactions and balances, their newest fetch and
 * how many carry it, its newest retention entry: covered by indexes, a few milliseconds) and a
 * consent whose signature changed answers from SQL until built again.
 *
 * Search matches SQL's full-text search (fts5 unicode61, every word a prefix) for words in ASCII;
 * a search with other letters goes to SQL.
 */
export interface TransactionWindow {
  /** The window's rowids in data_records, in order. */
  rowids: number[];
  /** Each one's running balance in cents, or null. */
  running: (number | null)[];
  total: number;
}

interface Built {
  n: number;
  rowid: Float64Array;
  /** Rank of substr(at, 1, 10) among `days`; -1 when the transaction has no time. */
  day: Int32Array;
  days: string[];
  amount: Float64Array;
  account: Int32Array;
  accounts: (string | null)[];
  type: Int32Array;
  types: (string | null)[];
  status: Int32Array;
  statuses: (string | null)[];
  running: Float64Array;
  /** Every distinct word of the descriptions, sorted, and the positions (ascending) of the transactions holding it. */
  vocab: string[];
  postings: Int32Array[];
  signature: string;
  version: string;
}

interface SqlTx {
  rid: number;
  record_id: string;
  account_id: string | null;
  status: string | null;
  type: string | null;
  at: string | null;
  amount_cents: number | null;
  description: string | null;
}

/** At most this many transactions held, over at most MAX_CONSENTS consents (about 60 bytes each). */
const MAX_ROWS = 1_500_000;
const MAX_CONSENTS = 8;

/** The words of a text as fts5's unicode61 tokenizer makes them (for ASCII): lower case, split on what is not a letter or digit. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A payload field as SQLite reads it. */
const json = (field: string) => `json_extract(raw, '$.${field}')`;
/** A payload field in whole cents (rounded half away from zero; text read as the number it starts with). */
const centsOf = (field: string) => `CAST(round(CAST(${json(field)} AS REAL) * 100) AS INTEGER)`;

/** A transaction's columns (data/views.ts TRANSACTION_FIELDS), in SQL over its payload: account_id, status, type, at, amount_cents. */
export const TRANSACTION_COLUMNS = [
  ...Object.entries(TRANSACTION_FIELDS).map(([column, fields]) =>
    fields.length > 1 ? `coalesce(${fields.map(json).join(', ')}) AS ${column}` : `${json(fields[0]!)} AS ${column}`,
  ),
  `${centsOf(AMOUNT_FIELD)} AS amount_cents`,
].join(', ');

/** A consent's accounts' current balances in cents (bound: the consent id). */
export const BALANCES = `SELECT ${json(TRANSACTION_FIELDS.account_id[0])} AS account_id, ${centsOf(BALANCE_FIELD)} AS balance_cents
  FROM data_records WHERE consent_id = ? AND kind = 'balances' AND ${json(BALANCE_FIELD)} IS NOT NULL`;

/** The searched words (data/views.ts searchWords); undefined when the search needs SQL (FTS5 folds what is not ASCII). */
export function searchWords(search: string): string[] | undefined {
  // eslint-disable-next-line no-control-regex -- ASCII only
  if (/[^\x00-\x7f]/.test(search)) return undefined;
  return wordsSearched(search);
}

export class TransactionIndex {
  private readonly version;
  private readonly entries = new Map<string, Built>();
  private readonly building = new Map<string, Promise<void>>();
  private readonly readChunk;
  private readonly readBalances;
  private readonly readSignature;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.version = new CacheVersion(db);
    this.readChunk = db.prepare<[string, number, number], SqlTx>(
      `SELECT rowid AS rid, record_id, ${TRANSACTION_COLUMNS}, coalesce(json_extract(raw, '$.description'), '') AS description
       FROM data_records WHERE consent_id = ? AND kind = 'transactions' AND rowid > ? ORDER BY rowid LIMIT ?`,
    );
    this.readBalances = db.prepare<[string], { account_id: string | null; balance_cents: number }>(BALANCES);
    const part = (kind: string) => `
      (SELECT count(*) FROM data_records WHERE kind = '${kind}' AND consent_id = @c) || ':' ||
      coalesce((SELECT max(fetched_at) FROM data_records WHERE kind = '${kind}' AND consent_id = @c), '') || ':' ||
      (SELECT count(*) FROM data_records WHERE kind = '${kind}' AND consent_id = @c
         AND fetched_at = (SELECT max(fetched_at) FROM data_records WHERE kind = '${kind}' AND consent_id = @c))`;
    this.readSignature = db
      .prepare<[{ c: string }], string>(
        `SELECT ${part('transactions')} || '/' || ${part('balances')} || '/' ||
           coalesce((SELECT max(seq) FROM retention_log WHERE consent_id = @c), '')`,
      )
      .pluck();
  }

  private signature(consentId: string): string {
    return this.readSignature.get({ c: consentId })!;
  }

  /** The consent's index when it is as the cache is now; otherwise undefined, and a build started. */
  private current(consentId: string): Built | undefined {
    const entry = this.entries.get(consentId);
    const now = this.version.now();
    if (entry && entry.version === now) {
      // Most recently used last.
      this.entries.delete(consentId);
      this.entries.set(consentId, entry);
      return entry;
    }
    if (entry) {
      if (this.signature(consentId) === entry.signature) {
        entry.version = now;
        return entry;
      }
      this.entries.delete(consentId);
    }
    void this.ready(consentId);
    return undefined;
  }

  /** The distinct types and statuses of the consent's transactions, sorted, when held (otherwise a build starts). */
  values(consentId: string): { type: string[]; status: string[] } | undefined {
    const x = this.current(consentId);
    if (!x) return undefined;
    const sorted = (values: (string | null)[]) =>
      values.filter((v): v is string => typeof v === 'string').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { type: sorted(x.types), status: sorted(x.statuses) };
  }

  /** Whether the consent's transactions answer from memory now. */
  indexed(consentId: string): boolean {
    return this.current(consentId) !== undefined;
  }

  /** Resolves when a build of the consent's index (started now if none is) has ended. */
  ready(consentId: string): Promise<void> {
    let running = this.building.get(consentId);
    if (!running) {
      running = this.build(consentId)
        .catch((error: unknown) => this.onError(error))
        .finally(() => this.building.delete(consentId));
      this.building.set(consentId, running);
    }
    return running;
  }

  close(): void {
    this.closed = true;
    this.entries.clear();
  }

  private async build(consentId: string): Promise<void> {
    await turn();
    if (this.closed) return;
    const signature = this.signature(consentId);
    const rows: SqlTx[] = [];
    for (let last = 0; ;) {
      const chunk = this.readChunk.all(consentId, last, BUILD_CHUNK);
      for (const r of chunk) rows.push(r);
      if (chunk.length < BUILD_CHUNK) break;
      last = chunk.at(-1)!.rid;
      await turn();
      if (this.closed) return;
    }
    const balances = new Map<string | null, number>();
    for (const b of this.readBalances.all(consentId)) if (!balances.has(b.account_id)) balances.set(b.account_id, b.balance_cents);
    // The browser's order: at DESC (no time last), record_id DESC.
    const order = rows.map((_, i) => i);
    order.sort((x, y) => {
      const a = rows[x]!;
      const b = rows[y]!;
      if (a.at !== b.at) {
        if (a.at === null) return 1;
        if (b.at === null) return -1;
        return a.at < b.at ? 1 : -1;
      }
      return a.record_id === b.record_id ? 0 : a.record_id < b.record_id ? 1 : -1;
    });
    const n = rows.length;
    const dayOf = (at: string | null) => (typeof at === 'string' ? at.slice(0, 10) : null);
    const days = [...new Set(rows.map((r) => dayOf(r.at)).filter((d): d is string => d !== null))].sort((a, b) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    const dayRank = new Map(days.map((d, i) => [d, i]));
    const accounts = new Interner<string | null>();
    const types = new Interner<string | null>();
    const statuses = new Interner<string | null>();
    const built: Built = {
      n,
      rowid: new Float64Array(n),
      day: new Int32Array(n),
      days,
      amount: new Float64Array(n),
      account: new Int32Array(n),
      accounts: accounts.values,
      type: new Int32Array(n),
      types: types.values,
      status: new Int32Array(n),
      statuses: statuses.values,
      running: new Float64Array(n),
      vocab: [],
      postings: [],
      signature,
      version: '',
    };
    const sumAfter = new Map<string | null, number>();
    const lists = new Map<string, number[]>();
    for (let p = 0; p < n; p++) {
      const r = rows[order[p]!]!;
      built.rowid[p] = r.rid;
      const d = dayOf(r.at);
      built.day[p] = d === null ? -1 : dayRank.get(d)!;
      built.amount[p] = r.amount_cents ?? NaN;
      built.account[p] = accounts.code(r.account_id);
      built.type[p] = types.code(r.type);
      built.status[p] = statuses.code(r.status);
      // The running balance: the account's current balance less every posted transaction after this one.
      const posted = r.status === 'POSTED';
      const balance = balances.get(r.account_id);
      const after = sumAfter.get(r.account_id) ?? 0;
      built.running[p] = posted && balance !== undefined && r.account_id !== null ? balance - after : NaN;
      if (posted) sumAfter.set(r.account_id, after + (r.amount_cents ?? 0));
      for (const w of words(String(r.description ?? ''))) {
        let list = lists.get(w);
        if (!list) lists.set(w, (list = []));
        if (list.at(-1) !== p) list.push(p);
      }
    }
    built.vocab = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    built.postings = built.vocab.map((w) => Int32Array.from(lists.get(w)!));
    if (this.closed || this.signature(consentId) !== signature) return; // overtaken by a write: built again when next asked
    built.version = this.version.now();
    this.entries.delete(consentId);
    this.entries.set(consentId, built);
    let held = 0;
    for (const e of this.entries.values()) held += e.n;
    for (const [id, e] of this.entries) {
      if (this.entries.size <= 1 || (held <= MAX_ROWS && this.entries.size <= MAX_CONSENTS)) break;
      this.entries.delete(id);
      held -= e.n;
    }
  }

  /**
   * A window of the consent's transactions and the count of all that match, or undefined when the
   * index cannot answer yet (the caller asks SQL).
   */
  window(consentId: string, filter: TransactionFilter, offset: number, limit: number): TransactionWindow | undefined {
    let search: string[] | undefined;
    if (filter.search) {
      search = searchWords(filter.search);
      if (!search) return undefined;
      if (!search.length) return { rowids: [], running: [], total: 0 };
    }
    const x = this.current(consentId);
    if (!x) return undefined;
    const none = { rowids: [], running: [], total: 0 };
    const codes = (values: readonly (string | null)[], wanted: string[] | undefined) => {
      if (!wanted?.length) return undefined;
      const mask = new Uint8Array(values.length);
      const set = new Set(wanted);
      let any = false;
      values.forEach((v, i) => {
        if (v !== null && set.has(v)) {
          mask[i] = 1;
          any = true;
        }
      });
      return any ? mask : null;
    };
    const accountMask = codes(x.accounts, filter.accountIds);
    const typeMask = codes(x.types, filter.types);
    const statusMask = codes(x.statuses, filter.statuses);
    if (accountMask === null || typeMask === null || statusMask === null) return none;
    const dated = filter.fromDay !== undefined || filter.toDay !== undefined;
    const fromRank = filter.fromDay === undefined ? 0 : lowerBound(x.days, filter.fromDay);
    const toRank = filter.toDay === undefined ? x.days.length - 1 : upperBound(x.days, filter.toDay) - 1;
    if (dated && fromRank > toRank) return none;
    const min = filter.minAmount === undefined ? -Infinity : cents(filter.minAmount);
    const max = filter.maxAmount === undefined ? Infinity : cents(filter.maxAmount);
    const amounts = filter.minAmount !== undefined || filter.maxAmount !== undefined;
    const candidates = search ? this.searched(x, search) : undefined;
    if (candidates && candidates.length === 0) return none;
    const end = offset + limit;
    const rowids: number[] = [];
    const running: (number | null)[] = [];
    if (!candidates && !accountMask && !typeMask && !statusMask && !dated && !amounts) {
      // No filter: the window is where it is, the count is every transaction.
      for (let p = offset; p < Math.min(end, x.n); p++) {
        rowids.push(x.rowid[p]!);
        const r = x.running[p]!;
        running.push(Number.isNaN(r) ? null : r);
      }
      return { rowids, running, total: x.n };
    }
    let total = 0;
    const count = candidates ? candidates.length : x.n;
    for (let k = 0; k < count; k++) {
      const p = candidates ? candidates[k]! : k;
      if (accountMask && !accountMask[x.account[p]!]) continue;
      if (typeMask && !typeMask[x.type[p]!]) continue;
      if (statusMask && !statusMask[x.status[p]!]) continue;
      if (dated) {
        const d = x.day[p]!;
        if (d < fromRank || d > toRank) continue;
      }
      if (amounts) {
        const a = x.amount[p]!;
        if (!(a >= min && a <= max)) continue;
      }
      if (total >= offset && total < end) {
        rowids.push(x.rowid[p]!);
        const r = x.running[p]!;
        running.push(Number.isNaN(r) ? null : r);
      }
      total++;
    }
    return { rowids, running, total };
  }

  /** The positions (ascending) of the transactions whose description holds every word as a prefix of one of its words. */
  private searched(x: Built, search: string[]): Int32Array {
    let result: Int32Array | undefined;
    for (const w of search) {
      const lo = lowerBound(x.vocab, w);
      let hi = lo;
      while (hi < x.vocab.length && x.vocab[hi]!.startsWith(w)) hi++;
      if (hi === lo) return new Int32Array(0);
      let positions: Int32Array;
      if (hi - lo === 1) positions = x.postings[lo]!;
      else {
        // A prefix of several words: their postings merged through a mask of every transaction.
        const mask = new Uint8Array(x.n);
        let size = 0;
        for (let v = lo; v < hi; v++)
          for (const p of x.postings[v]!) {
            if (mask[p]) continue;
            mask[p] = 1;
            size++;
          }
        positions = new Int32Array(size);
        for (let p = 0, k = 0; p < x.n; p++) if (mask[p]) positions[k++] = p;
      }
      result = result ? intersect(result, positions) : positions;
      if (!result.length) return result;
    }
    return result!;
  }
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let k = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[k++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, k);
}
