import * as z from 'zod';
import { Identifier } from '../identifier.js';
import { ConsentId, ExportFormat, MAX_PAGE_SIZE, type ChannelSchema } from './common.js';
import { COMPLIANCE, EVERYONE } from '../roles.js';
import { RetentionEntry } from './consents.js';
import { JobStarted } from './jobs.js';

/** The data browser (Data API records) and the banking products. */

/* ---- The data browser and the products (issue 11) ---- */

/** The views of a consent's cached data, one per Data API kind (the customer is one record). */
export const DATA_VIEWS = [
  'customers',
  'accounts',
  'balances',
  'transactions',
  'payees',
  'directDebits',
  'scheduledPayments',
  'energyAccounts',
  'servicePoints',
  'invoices',
  'bills',
  'usage',
] as const;
export const DataView = z.enum(DATA_VIEWS);
export type DataView = z.infer<typeof DataView>;
const Day = z.iso.date();
const Money = z.string().regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'an amount such as 12.50 or -3');
/** Which transactions the browser shows: every part optional, all parts together. */
export const TransactionFilter = z.strictObject({
  /** Words in the description (full-text, prefixes). */
  search: z.string().max(200).optional(),
  accountIds: z.array(z.string().min(1).max(200)).max(50).optional(),
  /** Local days, inclusive, of the posting (or execution) time. */
  fromDay: Day.optional(),
  toDay: Day.optional(),
  minAmount: Money.optional(),
  maxAmount: Money.optional(),
  types: z.array(z.string().min(1).max(60)).max(30).optional(),
  statuses: z.array(z.string().min(1).max(30)).max(5).optional(),
});
export type TransactionFilter = z.infer<typeof TransactionFilter>;
/** A record as the normaliser left it: the 2.0.0 form beside the payload as sent, with its notes. */
const Normalised = z.object({
  /** The shape the payload arrived in (banking accounts and products), e.g. cds-legacy. */
  shape: z.string().nullable(),
  record: z.record(z.string(), z.unknown()),
  raw: z.record(z.string(), z.unknown()),
  notes: z.array(z.record(z.string(), z.unknown())).max(2000),
});
/** One cached record: the normalised form beside the payload as sent, with the normaliser's notes. */
export const DataRecordRow = z.object({
  recordId: z.string(),
  kind: z.string(),
  ...Normalised.shape,
  fetchedAt: z.string(),
  /** Fetched by an earlier sync than the consent's last one (the last sync did not return it). */
  stale: z.boolean(),
  deidentified: z.boolean(),
  /** Transactions: the balance after it, where the account's balance and posted transactions allow. */
  runningBalance: z.string().nullable().optional(),
});
export type DataRecordRow = z.infer<typeof DataRecordRow>;
export const DataConsentMeta = z.object({
  consentId: z.string(),
  /** The consent as cached (null when the cache does not hold it). */
  consent: z
    .object({
      status: z.string().nullable(),
      consumerEmail: z.string().nullable(),
      consumerId: z.string().nullable(),
      dataHolderName: z.string().nullable(),
      dataHolderBrandId: z.string().nullable(),
      useCaseName: z.string().nullable(),
      postUsageAction: z.string().nullable(),
      syncedAt: z.string().nullable(),
    })
    .nullable(),
  /** The newest fetch of any of its records: its last data sync. */
  lastFetchedAt: z.string().nullable(),
  kinds: z
    .array(z.object({ kind: z.string(), count: z.number().int(), fetchedAt: z.string().nullable(), stale: z.number().int() }))
    .max(50),
  /** What retention did to its data (deleted or de-identified, when, why). */
  retention: z.array(RetentionEntry).max(100),
  accounts: z.array(z.object({ accountId: z.string(), label: z.string() })).max(500),
  transactionTypes: z.array(z.string()).max(100),
  transactionStatuses: z.array(z.string()).max(20),
  /**
   * The period of transactions the cache holds for it: from its sharing start less its use case's
   * historical collection period (`days`; `assumed` when the use case does not say and the console
   * asked for seven years) to its last data sync. Null before its transactions were fetched.
   */
  history: z.object({ from: z.string(), to: z.string(), days: z.number().int().nonnegative(), assumed: z.boolean() }).nullable(),
});
export type DataConsentMeta = z.infer<typeof DataConsentMeta>;
/** What a store answers of a consent's data; the domain adds the period held. */
export type StoredDataConsentMeta = Omit<DataConsentMeta, 'history'>;
export const DataConsentRow = z.object({
  consentId: z.string(),
  status: z.string().nullable(),
  consumerEmail: z.string().nullable(),
  consumerId: z.string().nullable(),
  dataHolderName: z.string().nullable(),
  dataHolderBrandId: z.string().nullable(),
  records: z.number().int(),
  lastFetchedAt: z.string().nullable(),
  /** The latest retention action on its data, if any. */
  retention: z.string().nullable(),
});
export type DataConsentRow = z.infer<typeof DataConsentRow>;
export const DataGroup = z.object({
  id: z.string(),
  label: z.string(),
  consents: z.number().int(),
  records: z.number().int(),
  lastFetchedAt: z.string().nullable(),
});
export type DataGroup = z.infer<typeof DataGroup>;

export const ProductFilter = z.strictObject({
  dataHolderBrandIds: z.array(z.string().min(1).max(200)).max(200).optional(),
  categories: z.array(z.string().min(1).max(60)).max(30).optional(),
  search: z.string().max(200).optional(),
});
export type ProductFilter = z.infer<typeof ProductFilter>;
export const ProductRow = z.object({
  recordId: z.string(),
  productId: z.string(),
  name: z.string().nullable(),
  brandName: z.string().nullable(),
  dataHolderBrandId: z.string().nullable(),
  category: z.string().nullable(),
  shape: z.string().nullable(),
  fetchedAt: z.string(),
  versions: z.number().int(),
});
export type ProductRow = z.infer<typeof ProductRow>;
export const ProductVersion = z.object({
  seenAt: z.string(),
  hash: z.string(),
  ...Normalised.shape,
});
export type ProductVersion = z.infer<typeof ProductVersion>;
const RecordId = z.string().min(1).max(400);

export const dataChannels = {
  'data:list': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Reading cached data',
    input: z.strictObject({
      kind: z.enum([
        'accounts',
        'balances',
        'transactions',
        'payees',
        'directDebits',
        'scheduledPayments',
        'customers',
        'energyAccounts',
        'invoices',
        'bills',
        'servicePoints',
        'usage',
        'products',
      ]),
      consentId: ConsentId.optional(),
      page: z.number().int().min(1),
      pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE),
    }),
    output: z.object({
      rows: z
        .array(
          z.object({
            kind: z.string(),
            recordId: z.string(),
            consentId: z.string().nullable(),
            shape: z.string().nullable(),
            record: z.record(z.string(), z.unknown()),
            notes: z.array(z.unknown()),
            deidentified: z.boolean(),
          }),
        )
        .max(MAX_PAGE_SIZE),
      total: z.number().int().nonnegative(),
    }),
  },
  'data:consents': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Browsing cached data',
    input: z.strictObject({
      /** Matched against the cache only (never put in a URL): any text a consumer id may be. */
      consumerId: z.string().min(1).max(200).optional(),
      dataHolderBrandId: Identifier.optional(),
      search: z.string().max(200).optional(),
      offset: z.number().int().min(0).max(10_000_000),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    }),
    output: z.object({ rows: z.array(DataConsentRow).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'data:groups': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Browsing cached data',
    input: z.strictObject({ by: z.enum(['consumer', 'holder']), search: z.string().max(200).optional() }),
    output: z.object({ groups: z.array(DataGroup).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'data:meta': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Reading a consent’s cached data',
    input: z.strictObject({ consentId: ConsentId }),
    output: DataConsentMeta,
  },
  'data:records': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Reading cached data',
    input: z.strictObject({
      consentId: ConsentId,
      kind: DataView,
      filter: TransactionFilter.optional(),
      offset: z.number().int().min(0).max(10_000_000),
      limit: z.number().int().min(1).max(200),
    }),
    output: z.object({ rows: z.array(DataRecordRow).max(200), total: z.number().int().nonnegative() }),
  },
  'data:export': {
    roles: COMPLIANCE,
    action: 'Exporting customer data',
    input: z.strictObject({ consentId: ConsentId, kind: DataView, filter: TransactionFilter.optional(), format: ExportFormat }),
    output: JobStarted,
  },
  'data:sync': {
    roles: EVERYONE,
    action: 'Fetching Data API records',
    changes: true,
    // allActive: what the intermediary retrieved since the last data sync (every record the first
    // time); with full, every record again.
    input: z.union([
      z.strictObject({ consentIds: z.array(ConsentId).min(1).max(1000) }),
      z.strictObject({ allActive: z.literal(true), full: z.literal(true).optional() }),
    ]),
    output: z.object({ jobId: z.string() }),
  },
  'products:list': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Listing products',
    input: z.strictObject({
      filter: ProductFilter,
      offset: z.number().int().min(0).max(10_000_000),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    }),
    output: z.object({
      rows: z.array(ProductRow).max(MAX_PAGE_SIZE),
      total: z.number().int().nonnegative(),
      /** Per category, the products matching the rest of the filter. */
      categories: z.array(z.object({ category: z.string(), count: z.number().int() })).max(100),
      dataHolders: z.array(z.object({ id: z.string(), name: z.string(), count: z.number().int() })).max(2000),
    }),
  },
  'products:get': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Reading a product',
    input: z.strictObject({ recordId: RecordId }),
    output: z.object({
      recordId: z.string(),
      fetchedAt: z.string(),
      shape: z.string().nullable(),
      record: z.record(z.string(), z.unknown()),
      raw: z.record(z.string(), z.unknown()),
      notes: z.array(z.record(z.string(), z.unknown())).max(2000),
      /** Every version the cache has seen, oldest first (without the payloads). */
      versions: z.array(z.object({ seenAt: z.string(), hash: z.string() })).max(1000),
    }),
  },
  'products:versions': {
    reads: ['data'],
    roles: EVERYONE,
    action: 'Comparing product versions',
    input: z.strictObject({ recordId: RecordId, hashes: z.array(z.string().min(1).max(100)).min(1).max(4) }),
    output: z.array(ProductVersion).max(4),
  },
  'products:export': {
    roles: EVERYONE,
    action: 'Exporting products',
    input: z.strictObject({ filter: ProductFilter, format: ExportFormat }),
    output: JobStarted,
  },
} as const satisfies Record<string, ChannelSchema>;
