import { z } from 'zod';
import type { Channel, EventName, MethodName } from './channels.js';
import type { Envelope } from './errors.js';
import { consentApi } from '../schemas/consent.js';
import { Identifier } from './identifier.js';

/**
 * The IPC contract: for every channel, the zod schema of its input and its output; for every
 * event, the schema of its payload. Main parses every input against it (a compromised renderer
 * can send anything); the bridge types are derived from it, so nothing is written twice.
 */

export const Environment = z.enum(['sandbox', 'nonprod', 'prod']);
export type Environment = z.infer<typeof Environment>;

export const HostKind = z.enum(['electron', 'browser', 'cli']);

export const AppStatus = z.object({
  appVersion: z.string(),
  host: HostKind,
  profile: z.object({ id: z.string(), name: z.string(), environment: Environment, embedded: z.boolean() }),
  lastSyncAt: z.string().nullable(),
  lastSyncError: z.string().nullable(),
  /** Whether the last network contact with the intermediary succeeded. */
  online: z.boolean(),
  syncing: z.boolean(),
  consentCount: z.number().int().nonnegative(),
  /** How secrets and the cache key are protected on this machine (the browser host says it is a key file). */
  keyStorage: z.object({ kind: z.enum(['os-keychain', 'key-file']), description: z.string() }),
});
export type AppStatus = z.infer<typeof AppStatus>;

/** Every column of the consent list; each can be shown, ordered and sorted by. */
export const CONSENT_SORT_FIELDS = [
  'created',
  'sharingEndDate',
  'revoked',
  'firstDataCollection',
  'status',
  'consumerEmail',
  'consumerMobile',
  'consumerId',
  'dataHolderName',
  'useCaseName',
  'accessFrequency',
  'postUsageAction',
  'directMarketingAllowed',
  'externalId',
  'cdrArrangementId',
  'consentId',
  'version',
] as const;
export const ConsentSortField = z.enum(CONSENT_SORT_FIELDS);
export type ConsentSortField = z.infer<typeof ConsentSortField>;
export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;
export const ConsentSort = z.strictObject({ field: ConsentSortField, direction: SortDirection });
export type ConsentSort = z.infer<typeof ConsentSort>;

/** Most rows one request may ask for: no unbounded result set crosses IPC. */
export const MAX_PAGE_SIZE = 500;
/** Most consents one bulk action may name. */
export const MAX_BULK = 10_000;

const Instant = z.iso.datetime({ offset: true });
/** A time range: from (inclusive) and to (exclusive), either open. */
export const TimeRange = z.strictObject({ from: Instant.optional(), to: Instant.optional() });
export type TimeRange = z.infer<typeof TimeRange>;

/** What the consent list shows: every part optional, all parts together (AND), values of one part OR-ed. */
export const ConsentFilter = z.strictObject({
  /** Words or an identifier to find: consent id, arrangement id, external id, consumer id, e-mail, mobile, names. */
  search: z.string().max(200).optional(),
  /** Any string: unknown statuses are kept and findable. */
  statuses: z.array(z.string().min(1).max(40)).max(20).optional(),
  dataHolderBrandIds: z.array(Identifier).max(500).optional(),
  useCaseIds: z.array(Identifier).max(500).optional(),
  accessFrequencies: z.array(z.string().min(1).max(40)).max(20).optional(),
  postUsageActions: z.array(z.string().min(1).max(40)).max(20).optional(),
  directMarketing: z.boolean().optional(),
  /** Whether data was ever collected under the consent (firstDataCollection set). */
  collected: z.boolean().optional(),
  created: TimeRange.optional(),
  sharingEnd: TimeRange.optional(),
  revoked: TimeRange.optional(),
});
export type ConsentFilter = z.infer<typeof ConsentFilter>;

export const ConsentListInput = z.strictObject({
  filter: ConsentFilter,
  sort: ConsentSort,
  /** A window of the list: rows [offset, offset + limit). */
  offset: z.number().int().min(0).max(10_000_000),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
});
export type ConsentListInput = z.infer<typeof ConsentListInput>;

/** One row of the consent list, as read from the cache. */
export const ConsentRow = z.object({
  consentId: z.string(),
  status: z.string().nullable(),
  consumerEmail: z.string().nullable(),
  consumerMobile: z.string().nullable(),
  consumerId: z.string().nullable(),
  dataHolderName: z.string().nullable(),
  dataHolderBrandId: z.string().nullable(),
  useCaseId: z.string().nullable(),
  useCaseName: z.string().nullable(),
  accessFrequency: z.string().nullable(),
  postUsageAction: z.string().nullable(),
  directMarketingAllowed: z.boolean().nullable(),
  externalId: z.string().nullable(),
  cdrArrangementId: z.string().nullable(),
  created: z.string().nullable(),
  sharingEndDate: z.string().nullable(),
  revoked: z.string().nullable(),
  firstDataCollection: z.string().nullable(),
  version: z.number().int().nullable(),
});
export type ConsentRow = z.infer<typeof ConsentRow>;

export const ConsentListOutput = z.object({ rows: z.array(ConsentRow).max(MAX_PAGE_SIZE) });
export type ConsentListOutput = z.infer<typeof ConsentListOutput>;

export const ConsentCountOutput = z.object({
  /** Consents matching the whole filter. */
  total: z.number().int().nonnegative(),
  /** Per status, the consents matching the rest of the filter (what each status chip would add). */
  statuses: z.array(z.object({ status: z.string().nullable(), count: z.number().int().nonnegative() })).max(100),
});
export type ConsentCountOutput = z.infer<typeof ConsentCountOutput>;

const Counted = z.object({ id: z.string(), name: z.string().nullable(), count: z.number().int().nonnegative() });
const CountedValue = z.object({ value: z.string(), count: z.number().int().nonnegative() });
export const ConsentOptionsOutput = z.object({
  dataHolders: z.array(Counted).max(2000),
  useCases: z.array(Counted).max(2000),
  accessFrequencies: z.array(CountedValue).max(100),
  postUsageActions: z.array(CountedValue).max(100),
});
export type ConsentOptionsOutput = z.infer<typeof ConsentOptionsOutput>;

export const SyncSummary = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  consents: z.object({
    fetched: z.number().int().nonnegative(),
    new: z.number().int().nonnegative(),
    changed: z.number().int().nonnegative(),
    unchanged: z.number().int().nonnegative(),
  }),
  events: z.object({ fetched: z.number().int().nonnegative(), new: z.number().int().nonnegative() }),
  useCases: z.number().int().nonnegative(),
  dataHolders: z.number().int().nonnegative(),
  /** Parts that failed while the rest went on, each with its reason. */
  failures: z.array(z.object({ phase: z.string(), reason: z.string() })),
  /** True when this run continued an interrupted one. */
  resumed: z.boolean(),
  /** Calls repeated after a transient fault (5xx, 429, a dropped connection, a cut-off body), token included. */
  retries: z.number().int().nonnegative().optional(),
  /**
   * full: every consent listed (the first sync, one asked for, or the periodic reconcile);
   * incremental: only the consents the events feed says changed, and the new ones.
   */
  mode: z.enum(['full', 'incremental']).optional(),
  /** Data API records stored per kind, when the data was synced too. */
  data: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Consents whose CDR data retention deleted or de-identified in this run. */
  retention: z
    .array(z.object({ consentId: z.string(), action: z.enum(['deleted', 'de-identified']), records: z.number().int() }))
    .optional(),
});
export type SyncSummary = z.infer<typeof SyncSummary>;

const Empty = z.strictObject({});
const ConsentId = Identifier;
const Reason = z.string().max(500);
/** A consent as the API sent it (tolerant: unknown fields kept). */
const ConsentPayload = consentApi.tolerant.Consent;

export const EventRow = z.object({
  eventId: z.string(),
  consentId: z.string(),
  eventType: z.string(),
  timestamp: z.string(),
  eventDetail: z.string().nullable(),
});
export const AuditRecord = z.object({
  seq: z.number().int(),
  at: z.string(),
  operator: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  reason: z.string().nullable(),
  result: z.string(),
  prevHash: z.string(),
  hash: z.string(),
});
export const Operator = z.object({ account: z.string(), displayName: z.string().nullable() });
export const ConsentChange = z.strictObject({
  externalId: z.string().max(200).nullable().optional(),
  postUsageAction: z.enum(['DELETION', 'DE_IDENTIFICATION']).optional(),
  directMarketingAllowed: z.boolean().optional(),
});
export const BulkItem = z.object({
  seq: z.number().int(),
  consentId: z.string(),
  status: z.enum(['pending', 'revoked', 'already-inactive', 'failed']),
  detail: z.string().nullable(),
});
export type BulkItem = z.infer<typeof BulkItem>;

/** A scope or use case as cached from GET /use-cases (tolerant). */
const UseCasePayload = consentApi.tolerant.UseCase;

export const ConsentVersion = z.object({
  version: z.number().int().nullable(),
  seenAt: z.string(),
  consent: ConsentPayload,
});
export const RetentionEntry = z.object({
  consentId: z.string(),
  action: z.string(),
  records: z.number().int(),
  kinds: z.string(),
  reason: z.string(),
  at: z.string(),
});
export const ConsentDetail = z.object({
  consent: ConsentPayload,
  /** When the cache last stored this consent. */
  syncedAt: z.string().nullable(),
  /** Every distinct payload the cache has seen, oldest first. */
  versions: z.array(ConsentVersion).max(1000),
  events: z.array(EventRow).max(5000),
  /** What staff did to it (the audit log entries that name it). */
  audit: z.array(AuditRecord).max(5000),
  /** What retention did to its cached data. */
  retention: z.array(RetentionEntry).max(1000),
  /** Cached Data API records of this consent, per kind. */
  data: z.array(z.object({ kind: z.string(), count: z.number().int(), fetchedAt: z.string().nullable() })).max(100),
  /** The use case as the use-case list describes it (richer than the copy in the consent), when cached. */
  useCase: UseCasePayload.nullable(),
  dataHolder: z.object({ dataHolderBrandId: z.string(), brandName: z.string().nullable(), logoUri: z.string().nullable() }).nullable(),
});
export type ConsentDetail = z.infer<typeof ConsentDetail>;

/** Long work in main (bulk revocation, exports, evidence packs): started, then followed through events. */
export const JobKind = z.enum([
  'bulk-revoke',
  'export-consents',
  'export-results',
  'export-events',
  'export-audit',
  'export-report',
  'evidence-pack',
  'data-sync',
  'export-data',
  'export-products',
]);
export const JobState = z.enum(['running', 'paused', 'interrupted', 'cancelled', 'finished', 'failed']);
export const JobResult = z.object({
  /** Where the file went (Electron: the path the user chose). */
  path: z.string().optional(),
  /** The browser host's one-time download link, and the file's name. */
  download: z.object({ url: z.string(), name: z.string() }).optional(),
  bytes: z.number().int().nonnegative().optional(),
  rows: z.number().int().nonnegative().optional(),
  sha256: z.string().optional(),
});
export const Job = z.object({
  jobId: z.string(),
  kind: JobKind,
  title: z.string(),
  state: JobState,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  /** Outcome counts (bulk revocation: revoked, already-inactive, failed, pending). */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  message: z.string().nullable(),
  /** Items per second the job may send (bulk revocation), adjustable while it runs. */
  perSecond: z.number().positive().nullable(),
  result: JobResult.nullable(),
});
export type Job = z.infer<typeof Job>;
const JobId = Identifier;

/** A job was started, or the user cancelled the save dialog before anything ran. */
export const JobStarted = z.union([z.object({ jobId: z.string() }), z.object({ cancelled: z.literal(true) })]);

export const ExportFormat = z.enum(['csv', 'json']);

/** What the console remembers for its user across restarts (not CDR data). */
export const SavedView = z.strictObject({
  name: z.string().min(1).max(80),
  filter: ConsentFilter,
  sort: ConsentSort,
  columns: z.array(ConsentSortField).min(1).max(CONSENT_SORT_FIELDS.length),
});
export type SavedView = z.infer<typeof SavedView>;
export const ThemePreference = z.enum(['auto', 'light', 'dark']);
export const Settings = z.strictObject({
  theme: ThemePreference,
  /** Minutes between scheduled syncs; 0: never (only Sync now). */
  syncEveryMinutes: z.number().int().min(0).max(1440),
  /** Whether syncs also fetch Data API records (accounts, transactions…) of active consents. */
  syncData: z.boolean(),
  consentColumns: z.array(ConsentSortField).min(1).max(CONSENT_SORT_FIELDS.length),
  savedViews: z.array(SavedView).max(100),
});
export type Settings = z.infer<typeof Settings>;

/** Which events the Events and Webhook failures screens show. */
export const EventFilter = z.strictObject({
  types: z.array(z.string().min(1).max(60)).max(20).optional(),
  consentId: ConsentId.optional(),
  from: Instant.optional(),
  to: Instant.optional(),
});
export type EventFilter = z.infer<typeof EventFilter>;
export const EventListRow = EventRow.extend({ consumerEmail: z.string().nullable(), dataHolderName: z.string().nullable() });
export type EventListRow = z.infer<typeof EventListRow>;
const TypeCount = z.object({ type: z.string(), count: z.number().int().nonnegative() });
export const DayCounts = z.object({ day: z.string(), counts: z.record(z.string(), z.number().int()), total: z.number().int() });
export type DayCounts = z.infer<typeof DayCounts>;

export const WebhookSummary = z.object({
  /** Consents with at least one failure in the filter (the by-consent list holds the first 500). */
  consentsAffected: z.number().int().nonnegative(),
  byMessage: z
    .array(
      z.object({
        key: z.string(),
        sample: z.string().nullable(),
        count: z.number().int(),
        consents: z.number().int(),
        firstSeen: z.string(),
        lastSeen: z.string(),
        types: z.array(z.string()),
      }),
    )
    .max(500),
  byConsent: z
    .array(
      z.object({
        consentId: z.string(),
        consumerEmail: z.string().nullable(),
        dataHolderName: z.string().nullable(),
        failures: z.number().int(),
        maxRetries: z.number().int(),
        lastAt: z.string(),
      }),
    )
    .max(500),
});
export type WebhookSummary = z.infer<typeof WebhookSummary>;

/** The staff action log, filtered. */
export const AuditFilter = z.strictObject({
  operator: z.string().min(1).max(200).optional(),
  action: z.string().min(1).max(60).optional(),
  target: z.string().min(1).max(200).optional(),
  from: Instant.optional(),
  to: Instant.optional(),
});
export type AuditFilter = z.infer<typeof AuditFilter>;

/** What a data recipient counts for its CDR reports and records (rules 9.3, 9.4), for a period. */
export const ComplianceReport = z.object({
  from: z.string(),
  to: z.string(),
  generatedAt: z.string(),
  counts: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      count: z.number().int().nonnegative(),
      /** Where its records are: the screen and its filter (the renderer adds the period). */
      records: z.union([
        z.object({ screen: z.literal('events'), types: z.array(z.string()) }),
        z.object({ screen: z.literal('audit'), action: z.string() }),
      ]),
      note: z.string().nullable(),
    }),
  ),
  collectionsByHolder: z.array(z.object({ dataHolderName: z.string(), count: z.number().int() })).max(2000),
  retention: z.array(z.object({ action: z.string(), consents: z.number().int(), records: z.number().int() })).max(20),
});
export type ComplianceReport = z.infer<typeof ComplianceReport>;

/** A connection profile as the renderer sees it: never its secret or key, only whether one is stored. */
export const ProfileSummary = z.object({
  id: z.string(),
  name: z.string(),
  environment: Environment,
  embedded: z.boolean(),
  consentApiBaseUrl: z.string().nullable(),
  dataApiBaseUrl: z.string().nullable().optional(),
  tokenUrl: z.string().nullable(),
  clientId: z.string(),
  authMethod: z.string(),
  keyId: z.string().nullable().optional(),
  algorithm: z.string().nullable().optional(),
  scopes: z.array(z.string()).optional(),
  softwareProductId: z.string().nullable().optional(),
  redirectUri: z.string().nullable().optional(),
  isDefault: z.boolean(),
  isCurrent: z.boolean(),
  /** Whether its secret or key is in the vault (never the value). */
  hasCredential: z.boolean(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;
const ProfileId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and hyphens');

/**
 * A profile added or edited in Settings. The secret (client secret, or the PEM private key for
 * private_key_jwt) crosses IPC this once, into main's vault: write-only, never returned, logged or
 * cached. Absent on an edit: the stored one is kept.
 */
export const ProfileInput = z.strictObject({
  id: ProfileId,
  name: z.string().trim().min(1).max(80),
  environment: z.enum(['nonprod', 'prod']),
  consentApiBaseUrl: z.url().max(2000),
  dataApiBaseUrl: z.url().max(2000).optional(),
  tokenUrl: z.url().max(2000),
  clientId: z.string().trim().min(1).max(200),
  authMethod: z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt']),
  keyId: z.string().trim().min(1).max(200).optional(),
  algorithm: z.enum(['PS256', 'ES256', 'RS256']).optional(),
  scopes: z.array(z.string().min(1).max(100)).max(50),
  softwareProductId: z.string().max(200).optional(),
  redirectUri: z.url().max(2000).optional(),
  secret: z.string().min(1).max(20_000).optional(),
  makeDefault: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

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
/** One cached record: the normalised form beside the payload as sent, with the normaliser's notes. */
export const DataRecordRow = z.object({
  recordId: z.string(),
  kind: z.string(),
  /** The shape the payload arrived in (banking accounts and products), e.g. cds-legacy. */
  shape: z.string().nullable(),
  record: z.record(z.string(), z.unknown()),
  raw: z.record(z.string(), z.unknown()),
  notes: z.array(z.record(z.string(), z.unknown())).max(2000),
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
});
export type DataConsentMeta = z.infer<typeof DataConsentMeta>;
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
  shape: z.string().nullable(),
  record: z.record(z.string(), z.unknown()),
  raw: z.record(z.string(), z.unknown()),
  notes: z.array(z.record(z.string(), z.unknown())).max(2000),
});
export type ProductVersion = z.infer<typeof ProductVersion>;
const RecordId = z.string().min(1).max(400);

export const contract = {
  'app:status': { input: Empty, output: AppStatus },
  'consents:list': { input: ConsentListInput, output: ConsentListOutput },
  'consents:count': { input: z.strictObject({ filter: ConsentFilter }), output: ConsentCountOutput },
  'consents:options': { input: Empty, output: ConsentOptionsOutput },
  'consents:ids': {
    input: z.strictObject({ filter: ConsentFilter, sort: ConsentSort, limit: z.number().int().min(1).max(MAX_BULK) }),
    output: z.object({ ids: z.array(z.string()).max(MAX_BULK), total: z.number().int().nonnegative() }),
  },
  'consents:resolve': {
    input: z.strictObject({ consentIds: z.array(ConsentId).min(1).max(MAX_BULK) }),
    output: z.object({
      known: z.array(z.object({ consentId: z.string(), status: z.string().nullable() })).max(MAX_BULK),
      unknown: z.array(z.string()).max(MAX_BULK),
    }),
  },
  'consents:get': { input: z.strictObject({ consentId: ConsentId }), output: ConsentDetail },
  'consents:export': {
    input: z.strictObject({
      filter: ConsentFilter,
      sort: ConsentSort,
      columns: z.array(ConsentSortField).min(1).max(CONSENT_SORT_FIELDS.length),
      format: ExportFormat,
    }),
    output: JobStarted,
  },
  'consents:create': {
    input: z.strictObject({
      useCaseId: ConsentId,
      dataHolderBrandId: ConsentId,
      sharingEndDate: Instant,
      consumerEmail: z.string().max(320).optional(),
      consumerId: z.string().max(200).optional(),
      externalId: z.string().max(200).optional(),
      postUsageAction: z.enum(['DELETION', 'DE_IDENTIFICATION']).optional(),
      directMarketingAllowed: z.boolean().optional(),
    }),
    output: ConsentPayload,
  },
  'evidence:export': { input: z.strictObject({ consentId: ConsentId }), output: JobStarted },
  'reference:list': {
    input: Empty,
    output: z.object({
      useCases: z.array(UseCasePayload).max(1000),
      /** The same use cases as the combined-scopes view (combineScopes=true) shows them, when synced. */
      combinedUseCases: z.array(UseCasePayload).max(1000),
      dataHolders: z
        .array(z.object({ dataHolderBrandId: z.string(), brandName: z.string().nullable(), logoUri: z.string().nullable() }))
        .max(5000),
    }),
  },
  'jobs:list': { input: Empty, output: z.array(Job).max(200) },
  'jobs:items': {
    input: z.strictObject({
      jobId: JobId,
      offset: z.number().int().min(0).max(MAX_BULK),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    }),
    output: z.object({ items: z.array(BulkItem).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'jobs:control': {
    input: z.strictObject({
      jobId: JobId,
      action: z.enum(['pause', 'resume', 'cancel', 'rate']),
      perSecond: z.number().min(0.1).max(50).optional(),
    }),
    output: Job,
  },
  'jobs:export': { input: z.strictObject({ jobId: JobId, format: ExportFormat }), output: JobStarted },
  'settings:get': { input: Empty, output: Settings },
  'settings:set': { input: Settings.partial().strict(), output: Settings },
  'sandbox:approve': { input: z.strictObject({ uri: z.url().max(4000) }), output: z.object({ response: z.string() }) },
  'consents:revoke': {
    input: z.strictObject({ consentId: ConsentId, reason: Reason }),
    output: z.object({ outcome: z.enum(['revoked', 'already-inactive']), consent: ConsentPayload }),
  },
  'consents:update': {
    input: z.strictObject({ consentId: ConsentId, change: ConsentChange, reason: Reason.optional() }),
    output: ConsentPayload,
  },
  'authorization:start': {
    input: z.strictObject({
      consentId: ConsentId,
      /** Where the data holder sends the consumer back; the profile's when absent. */
      redirectUri: z.url().max(2000).optional(),
      sharingEndDate: z.iso.datetime({ offset: true }).optional(),
    }),
    output: z.object({ uri: z.string(), expiry: z.string().nullable(), state: z.string() }),
  },
  'authorization:decode': {
    input: z.strictObject({ response: z.string().min(1).max(20_000), consentId: ConsentId.optional() }),
    output: z.object({
      header: z.record(z.string(), z.unknown()),
      claims: z.record(z.string(), z.unknown()),
      problems: z.array(z.string()),
    }),
  },
  'authorization:complete': {
    input: z.strictObject({ consentId: ConsentId, response: z.string().min(1).max(20_000) }),
    output: ConsentPayload,
  },
  'bulk:revoke': {
    input: z.strictObject({
      consentIds: z.array(ConsentId).min(1).max(MAX_BULK),
      reason: Reason,
      perSecond: z.number().min(0.1).max(50).optional(),
    }),
    output: z.object({ jobId: z.string() }),
  },
  'events:failures': {
    input: z.strictObject({ page: z.number().int().min(1), pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE) }),
    output: z.object({ rows: z.array(EventRow).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'sync:start': {
    input: z.strictObject({
      data: z.boolean().optional(),
      full: z.boolean().optional(),
      consentIds: z.array(ConsentId).min(1).max(1000).optional(),
    }),
    output: SyncSummary,
  },
  'sync:cancel': { input: Empty, output: z.object({ cancelled: z.boolean() }) },
  'data:list': {
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
  'audit:list': {
    input: z.strictObject({ target: ConsentId.optional(), limit: z.number().int().min(1).max(500) }),
    output: z.array(AuditRecord).max(500),
  },
  'audit:query': {
    input: z.strictObject({ filter: AuditFilter, offset: z.number().int().min(0), limit: z.number().int().min(1).max(MAX_PAGE_SIZE) }),
    output: z.object({ rows: z.array(AuditRecord).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'audit:options': {
    input: Empty,
    output: z.object({ operators: z.array(z.string()).max(1000), actions: z.array(z.string()).max(200) }),
  },
  'audit:exportFile': { input: z.strictObject({ filter: AuditFilter, format: ExportFormat }), output: JobStarted },
  'events:list': {
    input: z.strictObject({
      filter: EventFilter,
      offset: z.number().int().min(0).max(100_000_000),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    }),
    output: z.object({ rows: z.array(EventListRow).max(MAX_PAGE_SIZE) }),
  },
  'events:count': {
    input: z.strictObject({ filter: EventFilter }),
    output: z.object({ total: z.number().int().nonnegative(), types: z.array(TypeCount).max(100) }),
  },
  'events:days': {
    input: z.strictObject({ filter: EventFilter, days: z.number().int().min(1).max(400) }),
    output: z.array(DayCounts).max(400),
  },
  'events:export': { input: z.strictObject({ filter: EventFilter, format: ExportFormat }), output: JobStarted },
  'webhooks:summary': { input: z.strictObject({ filter: EventFilter }), output: WebhookSummary },
  'reports:compliance': { input: z.strictObject({ from: Instant, to: Instant }), output: ComplianceReport },
  'reports:export': { input: z.strictObject({ from: Instant, to: Instant, format: z.enum(['csv', 'html']) }), output: JobStarted },
  'sync:last': { input: Empty, output: SyncSummary.nullable() },
  'audit:verify': {
    input: Empty,
    output: z.union([
      z.object({ ok: z.literal(true), entries: z.number().int() }),
      z.object({
        ok: z.literal(false),
        entries: z.number().int(),
        brokenAt: z.number().int(),
        problem: z.string(),
        problems: z.array(z.string()).optional(),
      }),
    ]),
  },
  'audit:export': {
    input: z.strictObject({ format: z.enum(['csv', 'json']) }),
    output: z.object({ content: z.string(), entries: z.number().int() }),
  },
  'profiles:list': { input: Empty, output: z.array(ProfileSummary).max(100) },
  'profiles:save': { input: ProfileInput, output: z.array(ProfileSummary).max(100) },
  'profiles:remove': { input: z.strictObject({ id: ProfileId }), output: z.array(ProfileSummary).max(100) },
  'profiles:switch': { input: z.strictObject({ id: ProfileId }), output: z.object({ switching: z.literal(true) }) },
  'cache:reset': { input: Empty, output: z.object({ switching: z.literal(true) }) },
  'profiles:test': {
    input: z.strictObject({ id: ProfileId.optional() }),
    output: z.object({
      ok: z.boolean(),
      steps: z.array(z.object({ step: z.enum(['token', 'consent-list']), ok: z.boolean(), detail: z.string() })),
    }),
  },
  'operator:get': { input: Empty, output: Operator },
  'operator:set': { input: z.strictObject({ displayName: z.string().min(2).max(80) }), output: Operator },
  'data:consents': {
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
    input: z.strictObject({ by: z.enum(['consumer', 'holder']), search: z.string().max(200).optional() }),
    output: z.object({ groups: z.array(DataGroup).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'data:meta': { input: z.strictObject({ consentId: ConsentId }), output: DataConsentMeta },
  'data:records': {
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
    input: z.strictObject({ consentId: ConsentId, kind: DataView, filter: TransactionFilter.optional(), format: ExportFormat }),
    output: JobStarted,
  },
  'data:sync': {
    input: z.union([z.strictObject({ consentIds: z.array(ConsentId).min(1).max(1000) }), z.strictObject({ allActive: z.literal(true) })]),
    output: z.object({ jobId: z.string() }),
  },
  'products:list': {
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
    input: z.strictObject({ recordId: RecordId, hashes: z.array(z.string().min(1).max(100)).min(1).max(4) }),
    output: z.array(ProductVersion).max(4),
  },
  'products:export': { input: z.strictObject({ filter: ProductFilter, format: ExportFormat }), output: JobStarted },
} as const satisfies Record<Channel, { input: z.ZodType; output: z.ZodType }>;

export const SyncPhase = z.enum(['consents', 'events', 'use-cases', 'data-holders', 'data', 'retention']);
export const SyncProgress = z.object({
  phase: SyncPhase,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  state: z.enum(['running', 'finished', 'failed', 'cancelled']),
  message: z.string().optional(),
  /** Items per second so far, and the estimated seconds left (when the total is known). */
  rate: z.number().nonnegative().optional(),
  etaSeconds: z.number().int().nonnegative().nullable().optional(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const CacheChanged = z.object({
  entity: z.enum(['consents', 'events', 'reference', 'data', 'audit']),
  count: z.number().int().nonnegative(),
});
export type CacheChanged = z.infer<typeof CacheChanged>;

export const ProfileSwitched = z.object({ profileId: z.string(), ok: z.boolean(), message: z.string().nullable() });
export const events = {
  'sync:progress': SyncProgress,
  'cache:changed': CacheChanged,
  'jobs:progress': Job,
  'profile:switched': ProfileSwitched,
} as const satisfies Record<EventName, z.ZodType>;

export type ChannelInput<C extends Channel> = z.input<(typeof contract)[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<(typeof contract)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** What the preload exposes as `window.api`, derived from the contract. */
export type BridgeApi = {
  [C in Channel as MethodName<C>]: (input: ChannelInput<C>) => Promise<Envelope<ChannelOutput<C>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
