import type { DataRecordRow, DataView, ProductFilter, StoredDataConsentMeta, TransactionFilter } from '../../../shared/ipc/contract.js';
import { consentSummaryOf } from './consent-summary.js';

/**
 * What the data browser's views mean, once for every store (issue 37): the order each kind is read
 * in, what a transaction filter and a product filter test, how the description search reads its
 * words, money in cents, and a stored record as a row of the browser. SQLite's SQL
 * (cache/data-query.ts), PostgreSQL's (postgres/data.ts) and the transaction index
 * (cache/transaction-index.ts) render these in their own terms; the storage contract suites hold
 * them to one answer.
 */
type Json = Record<string, unknown>;

/** A field of a record's payload, by its path ('recurrence', 'nextPaymentDate'). */
export type PayloadPath = readonly string[];

/**
 * One key of a view's order: a payload field, ascending unless `desc`. Absent fields sort first
 * ascending and last descending (SQLite's NULL order; PostgreSQL says it with NULLS FIRST/LAST),
 * and the record id breaks ties, ascending.
 */
export interface OrderKey {
  path: PayloadPath;
  desc?: true;
}

/** The order each kind reads best in (transactions: newest first, transactionParts). */
export const VIEW_ORDER: Record<Exclude<DataView, 'transactions'>, readonly OrderKey[]> = {
  customers: [],
  accounts: [{ path: ['displayName'] }],
  balances: [],
  payees: [{ path: ['nickname'] }],
  directDebits: [{ path: ['lastDebitDateTime'], desc: true }],
  scheduledPayments: [{ path: ['recurrence', 'nextPaymentDate'] }],
  energyAccounts: [],
  servicePoints: [],
  invoices: [{ path: ['issueDate'], desc: true }],
  bills: [{ path: ['executionDateTime'], desc: true }],
  usage: [{ path: ['servicePointId'] }, { path: ['readStartDate'] }],
};

/** A view's ORDER BY, each key written by the engine (`key`), the record id last. */
export const orderSql = (view: Exclude<DataView, 'transactions'>, key: (k: OrderKey) => string): string =>
  [...VIEW_ORDER[view].map(key), 'record_id'].join(', ');

/**
 * Where a transaction's columns come from in its payload: the first field present of each list (its
 * time: posted, else executed, else value). With its amount and its account's current balance in
 * whole cents, they are what the browser filters, orders and runs balances on.
 */
export const TRANSACTION_FIELDS = {
  account_id: ['accountId'],
  status: ['status'],
  type: ['type'],
  at: ['postingDateTime', 'executionDateTime', 'valueDateTime'],
} as const;
/** The payload fields read in cents: a transaction's amount, a balance's current balance. */
export const AMOUNT_FIELD = 'amount';
export const BALANCE_FIELD = 'currentBalance';

/** A transaction's columns the browser filters on. */
export type TransactionColumn = 'account_id' | 'type' | 'status';

/** One condition of a transaction filter; a transaction matches when it meets every part. */
export type TransactionPart =
  /** The column is one of these. */
  | { kind: 'in'; column: TransactionColumn; values: readonly string[] }
  /** The transaction's day (the first ten characters of its time: posted, else executed, else value) is on or after / before. */
  | { kind: 'day'; op: '>=' | '<='; day: string }
  /** Its amount in cents is at least / at most. */
  | { kind: 'cents'; op: '>=' | '<='; cents: number }
  /** Its description holds a word starting with each of these (all required). */
  | { kind: 'words'; words: readonly string[] };

/** A transaction filter as its parts; `undefined` when it can match nothing (a search with no word in it). */
export function transactionParts(f: TransactionFilter = {}): TransactionPart[] | undefined {
  const parts: TransactionPart[] = [];
  if (f.search) {
    const words = searchWords(f.search);
    if (!words.length) return undefined;
    parts.push({ kind: 'words', words });
  }
  const anyOf = (column: TransactionColumn, values: readonly string[] | undefined) => {
    if (values?.length) parts.push({ kind: 'in', column, values });
  };
  anyOf('account_id', f.accountIds);
  anyOf('type', f.types);
  anyOf('status', f.statuses);
  if (f.fromDay) parts.push({ kind: 'day', op: '>=', day: f.fromDay });
  if (f.toDay) parts.push({ kind: 'day', op: '<=', day: f.toDay });
  if (f.minAmount !== undefined) parts.push({ kind: 'cents', op: '>=', cents: cents(f.minAmount) });
  if (f.maxAmount !== undefined) parts.push({ kind: 'cents', op: '<=', cents: cents(f.maxAmount) });
  return parts;
}

/** The day of a transaction's time in SQL (both engines): its first ten characters. */
export const TRANSACTION_DAY = 'substr(at, 1, 10)';

/**
 * The description search's words: lower case, cut at what is not a letter or digit, at most 12,
 * each a prefix, all required (SQLite's FTS5 query, PostgreSQL's tsquery, the index's lookup).
 */
export function searchWords(search: string): string[] {
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 12);
}

/** One condition of the product catalogue's filter. */
export type ProductPart =
  /** The payload field is one of these. */
  | { kind: 'in'; path: PayloadPath; values: readonly string[] }
  /** The product's name holds this text, ASCII letters compared without case (a LIKE pattern, `\` escapes). */
  | { kind: 'name'; like: string };

/**
 * A product filter as its parts; `skip` leaves one facet out (its counts are of the rest of the filter).
 * Every part is on `kind = 'products'` records.
 */
export function productParts(filter: ProductFilter, skip?: 'category' | 'holder'): ProductPart[] {
  const parts: ProductPart[] = [];
  if (skip !== 'holder' && filter.dataHolderBrandIds?.length)
    parts.push({ kind: 'in', path: ['dataHolderId'], values: filter.dataHolderBrandIds });
  if (skip !== 'category' && filter.categories?.length) parts.push({ kind: 'in', path: ['productCategory'], values: filter.categories });
  const s = filter.search?.trim().toLowerCase();
  if (s) parts.push({ kind: 'name', like: likeAnywhere(s) });
  return parts;
}

/** A LIKE pattern for text anywhere (ESCAPE '\'). */
export const likeAnywhere = (text: string): string => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** Records per window of a view's export. */
export const DATA_WINDOW = 200;

/** A decimal amount as whole cents. */
export const cents = (amount: string): number => Math.round(Number(amount) * 100);

/** Whole cents as a decimal amount ("-12.05"). */
export function money(c: number): string {
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A stored record as the views read it: the 2.0.0 form (or the payload itself), the payload, the normaliser's notes. */
export const decoded = (r: { raw: Json; normalized: Json | null; notes: Json[] | null }) => ({
  record: r.normalized ?? r.raw,
  raw: r.raw,
  notes: r.notes ?? [],
});

/** A stored record, its JSON read. */
export interface StoredRecord {
  record_id: string;
  kind: string;
  shape: string | null;
  raw: Json;
  normalized: Json | null;
  notes: Json[] | null;
  fetched_at: string;
  deidentified: boolean;
  /** A transaction's running balance in cents (null: pending, or no balance known). */
  running: number | null;
}

/** A record as a row of the browser: stale when fetched before `last` (the consent's newest fetch, or the last full read). */
export function recordRow(r: StoredRecord, last: string | null): DataRecordRow {
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

/** How many of each of its lists a consent's meta carries at most. */
export const META_LIMITS = { retention: 100, accounts: 500, transactionTypes: 100, transactionStatuses: 20 } as const;

/** A consent's meta from what a store read of it: its summary, its kinds, its retention, the transaction filter's choices. */
export function consentMeta(m: {
  consentId: string;
  consent: Record<string, string | null> | undefined;
  lastFetchedAt: string | null;
  kinds: StoredDataConsentMeta['kinds'];
  retention: StoredDataConsentMeta['retention'];
  /** Ordered by name (absent first), then record id. */
  accounts: readonly { accountId: string; name: string | null; masked: string | null }[];
  transactionTypes: string[];
  transactionStatuses: string[];
}): StoredDataConsentMeta {
  return {
    consentId: m.consentId,
    consent: consentSummaryOf(m.consent),
    lastFetchedAt: m.lastFetchedAt,
    kinds: m.kinds,
    retention: m.retention,
    // An account as the transaction filter offers it: its name (or id) and masked number.
    accounts: m.accounts.map((a) => ({ accountId: a.accountId, label: [a.name ?? a.accountId, a.masked].filter(Boolean).join(' ') })),
    transactionTypes: m.transactionTypes,
    transactionStatuses: m.transactionStatuses,
  };
}
