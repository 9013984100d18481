import { z } from 'zod';
import type { Channel, EventName, MethodName } from './channels.js';
import type { Envelope } from './errors.js';
import { consentApi } from '../schemas/consent.js';

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
  profile: z.object({ id: z.string(), name: z.string(), environment: Environment }),
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

export const CONSENT_SORT_FIELDS = ['created', 'sharingEndDate', 'status', 'consumerEmail', 'dataHolderName', 'useCaseName'] as const;
export const ConsentSortField = z.enum(CONSENT_SORT_FIELDS);
export type ConsentSortField = z.infer<typeof ConsentSortField>;
export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

/** Most rows one request may ask for: no unbounded result set crosses IPC. */
export const MAX_PAGE_SIZE = 500;

export const ConsentListInput = z.strictObject({
  page: z.number().int().min(1).max(1_000_000),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE),
  sort: z.strictObject({ field: ConsentSortField, direction: SortDirection }),
  /** Only consents with this status (any string: unknown statuses are kept and findable). */
  status: z.string().min(1).max(40).optional(),
  /** Words to find in identifiers, e-mail, mobile, external id, data holder and use case names. */
  search: z.string().max(200).optional(),
});
export type ConsentListInput = z.infer<typeof ConsentListInput>;

/** One row of the consent list, as read from the cache. */
export const ConsentRow = z.object({
  consentId: z.string(),
  status: z.string().nullable(),
  consumerEmail: z.string().nullable(),
  dataHolderName: z.string().nullable(),
  dataHolderBrandId: z.string().nullable(),
  useCaseId: z.string().nullable(),
  useCaseName: z.string().nullable(),
  created: z.string().nullable(),
  sharingEndDate: z.string().nullable(),
  revoked: z.string().nullable(),
});
export type ConsentRow = z.infer<typeof ConsentRow>;

export const ConsentListOutput = z.object({
  rows: z.array(ConsentRow).max(MAX_PAGE_SIZE),
  total: z.number().int().nonnegative(),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
});
export type ConsentListOutput = z.infer<typeof ConsentListOutput>;

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
const ConsentId = z.string().min(1).max(200);
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

export const contract = {
  'app:status': { input: Empty, output: AppStatus },
  'consents:list': { input: ConsentListInput, output: ConsentListOutput },
  'consents:get': {
    input: z.strictObject({ consentId: ConsentId }),
    output: z.object({
      consent: ConsentPayload,
      events: z.array(EventRow).max(500),
      versions: z.number().int(),
      audit: z.array(AuditRecord).max(500),
    }),
  },
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
      redirectUri: z.url().max(2000),
      sharingEndDate: z.iso.datetime({ offset: true }).optional(),
    }),
    output: z.object({ uri: z.string(), expiry: z.string().nullable(), state: z.string() }),
  },
  'authorization:decode': {
    input: z.strictObject({ response: z.string().min(1).max(20_000) }),
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
    input: z.strictObject({ consentIds: z.array(ConsentId).min(1).max(10_000), reason: Reason }),
    output: z.object({ jobId: z.string(), items: z.array(BulkItem).max(10_000) }),
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
  'audit:verify': {
    input: Empty,
    output: z.union([
      z.object({ ok: z.literal(true), entries: z.number().int() }),
      z.object({ ok: z.literal(false), entries: z.number().int(), brokenAt: z.number().int(), problem: z.string() }),
    ]),
  },
  'audit:export': {
    input: z.strictObject({ format: z.enum(['csv', 'json']) }),
    output: z.object({ content: z.string(), entries: z.number().int() }),
  },
  'profiles:list': {
    input: Empty,
    output: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          environment: Environment,
          embedded: z.boolean(),
          consentApiBaseUrl: z.string().nullable(),
          tokenUrl: z.string().nullable(),
          clientId: z.string(),
          authMethod: z.string(),
          isDefault: z.boolean(),
          isCurrent: z.boolean(),
          /** Whether its secret or key is in the vault (never the value). */
          hasCredential: z.boolean(),
        }),
      )
      .max(100),
  },
  'profiles:test': {
    input: Empty,
    output: z.object({
      ok: z.boolean(),
      steps: z.array(z.object({ step: z.enum(['token', 'consent-list']), ok: z.boolean(), detail: z.string() })),
    }),
  },
  'operator:get': { input: Empty, output: Operator },
  'operator:set': { input: z.strictObject({ displayName: z.string().min(2).max(80) }), output: Operator },
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
  entity: z.enum(['consents', 'events', 'reference', 'data']),
  count: z.number().int().nonnegative(),
});
export type CacheChanged = z.infer<typeof CacheChanged>;

export const events = {
  'sync:progress': SyncProgress,
  'cache:changed': CacheChanged,
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
