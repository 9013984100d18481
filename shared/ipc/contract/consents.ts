import * as z from 'zod';
import { CONSENT_SORT_FIELDS } from '../consent-fields.js';
import { consentApi } from '../../schemas/consent.js';
import { Identifier } from '../identifier.js';
import { AuditRecord } from './audit.js';
import {
  ConsentId,
  Empty,
  ExportFormat,
  Instant,
  MAX_BULK,
  MAX_PAGE_SIZE,
  Reason,
  SortDirection,
  TimeRange,
  TimeZone,
  type ChannelSchema,
} from './common.js';
import { COMPLIANCE, EVERYONE, SUPPORT } from '../roles.js';
import { EventRow } from './events.js';
import { JobStarted } from './jobs.js';

/** Consents: the list (filters, sorts, counts), one consent with its history, actions, bulk revocation, authorisation, evidence packs. */

/** Every column of the consent list (without zod in consent-fields.ts, for the page's first reads). */
export { CONSENT_SORT_FIELDS };
export const ConsentSortField = z.enum(CONSENT_SORT_FIELDS);
export type ConsentSortField = z.infer<typeof ConsentSortField>;
export const ConsentSort = z.strictObject({ field: ConsentSortField, direction: SortDirection });
export type ConsentSort = z.infer<typeof ConsentSort>;

/** What the consent list shows: every part optional, all parts together (AND), values of one part OR-ed. */
export const ConsentFilter = z.strictObject({
  /** Words or an identifier to find: consent id, arrangement id, external id, consumer id, e-mail, mobile, names. */
  search: z.string().max(200).optional(),
  /** Any string: unknown statuses are kept and findable. */
  statuses: z.array(z.string().min(1).max(40)).max(20).optional(),
  dataHolderBrandIds: z.array(Identifier).max(500).optional(),
  useCaseIds: z.array(Identifier).max(500).optional(),
  /** Exactly these consumer ids (any text, as the intermediary sends them): one customer's consents. */
  consumerIds: z.array(z.string().min(1).max(200)).max(100).optional(),
  accessFrequencies: z.array(z.string().min(1).max(40)).max(20).optional(),
  postUsageActions: z.array(z.string().min(1).max(40)).max(20).optional(),
  directMarketing: z.boolean().optional(),
  /** Whether data was ever collected under the consent (firstDataCollection set). */
  collected: z.boolean().optional(),
  created: TimeRange.optional(),
  sharingEnd: TimeRange.optional(),
  revoked: TimeRange.optional(),
  /**
   * Consents with at least one failed webhook delivery (shared/consents/webhooks.ts) in this period;
   * both ends open (`{}`): at any time.
   */
  webhookFailures: TimeRange.optional(),
});
export type ConsentFilter = z.infer<typeof ConsentFilter>;

export const ConsentListInput = z.strictObject({
  filter: ConsentFilter,
  sort: ConsentSort,
  /** A window of the list: rows [offset, offset + limit). */
  offset: z.number().int().min(0).max(10_000_000),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
  /**
   * Also count the filter (consents:count's answer, in `count`): a search's first window and its
   * count in one answer, drawn together (one read of the search's matches, one message, one redraw).
   */
  withCount: z.boolean().optional(),
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

export const ConsentCountOutput = z.object({
  /** Consents matching the whole filter. */
  total: z.number().int().nonnegative(),
  /** Per status, the consents matching the rest of the filter (what each status chip would add). */
  statuses: z.array(z.object({ status: z.string().nullable(), count: z.number().int().nonnegative() })).max(100),
});
export type ConsentCountOutput = z.infer<typeof ConsentCountOutput>;

export const ConsentListOutput = z.object({
  rows: z.array(ConsentRow).max(MAX_PAGE_SIZE),
  /** With `withCount`: how many match, as consents:count answers. */
  count: ConsentCountOutput.optional(),
});
export type ConsentListOutput = z.infer<typeof ConsentListOutput>;

const Counted = z.object({ id: z.string(), name: z.string().nullable(), count: z.number().int().nonnegative() });
const CountedValue = z.object({ value: z.string(), count: z.number().int().nonnegative() });
export const ConsentOptionsOutput = z.object({
  dataHolders: z.array(Counted).max(2000),
  useCases: z.array(Counted).max(2000),
  accessFrequencies: z.array(CountedValue).max(100),
  postUsageActions: z.array(CountedValue).max(100),
});
export type ConsentOptionsOutput = z.infer<typeof ConsentOptionsOutput>;
/** A consent as the API sent it (tolerant: unknown fields kept). */
const ConsentPayload = consentApi.tolerant.Consent;
export const ConsentChange = z.strictObject({
  externalId: z.string().max(200).nullable().optional(),
  postUsageAction: z.enum(['DELETION', 'DE_IDENTIFICATION']).optional(),
  directMarketingAllowed: z.boolean().optional(),
});

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

export const consentsChannels = {
  'consents:list': { reads: ['consents'], roles: EVERYONE, action: 'Listing consents', input: ConsentListInput, output: ConsentListOutput },
  'consents:count': {
    reads: ['consents'],
    roles: EVERYONE,
    action: 'Counting consents',
    input: z.strictObject({ filter: ConsentFilter }),
    output: ConsentCountOutput,
  },
  'consents:options': {
    reads: ['consents', 'reference'],
    roles: EVERYONE,
    action: 'Reading the consent filters',
    input: Empty,
    output: ConsentOptionsOutput,
  },
  'consents:ids': {
    reads: ['consents'],
    roles: EVERYONE,
    action: 'Selecting consents',
    input: z.strictObject({ filter: ConsentFilter, sort: ConsentSort, limit: z.number().int().min(1).max(MAX_BULK) }),
    output: z.object({ ids: z.array(z.string()).max(MAX_BULK), total: z.number().int().nonnegative() }),
  },
  'consents:resolve': {
    reads: ['consents'],
    roles: EVERYONE,
    action: 'Looking up consents',
    input: z.strictObject({ consentIds: z.array(ConsentId).min(1).max(MAX_BULK) }),
    output: z.object({
      known: z.array(z.object({ consentId: z.string(), status: z.string().nullable() })).max(MAX_BULK),
      unknown: z.array(z.string()).max(MAX_BULK),
    }),
  },
  'consents:get': {
    reads: ['consents', 'events', 'reference', 'data', 'audit'],
    roles: EVERYONE,
    action: 'Reading a consent',
    input: z.strictObject({ consentId: ConsentId }),
    output: ConsentDetail,
  },
  'consents:export': {
    roles: COMPLIANCE,
    action: 'Exporting consents',
    input: z.strictObject({
      filter: ConsentFilter,
      sort: ConsentSort,
      columns: z.array(ConsentSortField).min(1).max(CONSENT_SORT_FIELDS.length),
      format: ExportFormat,
      /** The console's zone: the file is named, and its times also given, in it (beside UTC). */
      timeZone: TimeZone.optional(),
    }),
    output: JobStarted,
  },
  'consents:create': {
    roles: SUPPORT,
    action: 'Creating a consent',
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
  'evidence:export': {
    roles: COMPLIANCE,
    action: 'Exporting an evidence pack',
    /** `timeZone`: the console's, in which the pack is named and its times also given (beside UTC). */
    input: z.strictObject({ consentId: ConsentId, timeZone: TimeZone.optional() }),
    output: JobStarted,
  },
  'reference:list': {
    reads: ['reference'],
    roles: EVERYONE,
    action: 'Reading use cases and data holders',
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
  'sandbox:approve': {
    roles: SUPPORT,
    action: 'Approving at the simulated data holder',
    input: z.strictObject({ uri: z.url().max(4000) }),
    output: z.object({ response: z.string() }),
  },
  'consents:revoke': {
    roles: SUPPORT,
    action: 'Revoking',
    input: z.strictObject({ consentId: ConsentId, reason: Reason }),
    output: z.object({
      outcome: z.enum(['revoked', 'already-inactive']),
      consent: ConsentPayload,
      /** Revoked by staff before: who and when (the request was not sent again). */
      revokedBy: z.object({ operator: z.string(), at: z.string() }).optional(),
    }),
  },
  'consents:update': {
    roles: SUPPORT,
    action: 'Updating a consent',
    input: z.strictObject({ consentId: ConsentId, change: ConsentChange, reason: Reason.optional() }),
    output: ConsentPayload,
  },
  'authorization:start': {
    roles: SUPPORT,
    action: 'Extending or authorising a consent',
    input: z.strictObject({
      consentId: ConsentId,
      /** Where the data holder sends the consumer back; the profile's when absent. */
      redirectUri: z.url().max(2000).optional(),
      sharingEndDate: z.iso.datetime({ offset: true }).optional(),
    }),
    output: z.object({ uri: z.string(), expiry: z.string().nullable(), state: z.string() }),
  },
  'authorization:decode': {
    reads: [],
    roles: SUPPORT,
    action: 'Reading a data holder’s authorisation response',
    input: z.strictObject({ response: z.string().min(1).max(20_000), consentId: ConsentId.optional() }),
    output: z.object({
      header: z.record(z.string(), z.unknown()),
      claims: z.record(z.string(), z.unknown()),
      problems: z.array(z.string()),
    }),
  },
  'authorization:complete': {
    roles: SUPPORT,
    action: 'Completing an authorisation',
    input: z.strictObject({ consentId: ConsentId, response: z.string().min(1).max(20_000) }),
    output: ConsentPayload,
  },
  'bulk:revoke': {
    roles: SUPPORT,
    action: 'Revoking in bulk',
    input: z.strictObject({
      consentIds: z.array(ConsentId).min(1).max(MAX_BULK),
      reason: Reason,
      perSecond: z.number().min(0.1).max(50).optional(),
    }),
    /**
     * `awaitingApproval`: more consents than Settings' `bulkApprovalOver`, asked by a signed-in
     * person: nothing is sent until a second person approves it (bulk:decide).
     */
    output: z.object({ jobId: z.string(), awaitingApproval: z.boolean().optional() }),
  },
  'bulk:decide': {
    roles: SUPPORT,
    action: 'Approving bulk revocations',
    input: z.strictObject({ jobId: Identifier, decision: z.enum(['approve', 'reject']), reason: Reason.optional() }),
    output: z.object({ jobId: z.string(), decision: z.enum(['approve', 'reject']) }),
  },
} as const satisfies Record<string, ChannelSchema>;
