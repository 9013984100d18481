import * as z from 'zod';
import { IsoDateTime, opt, schemaSet } from './define.js';

/**
 * The Consent API's resources (spec + the intermediary facts notes for what the spec leaves open).
 * Only identifiers are required; unknown fields are kept; enum values outside the known sets are
 * kept and flagged (see define.ts, parse.ts).
 */
export const KNOWN_CONSENT_STATUSES = ['REQUESTED', 'ACTIVE', 'REVOKED', 'EXPIRED'] as const;
export const EVENT_TYPES = [
  'GRANTED',
  'EXTENDED',
  'REVOKED',
  'EXPIRED',
  'DATA_COLLECTION_COMPLETED',
  'WEBHOOK_SENT',
  'WEBHOOK_SENDING_FAILED',
  'WEBHOOK_SENDING_FAILED_CLIENT_ERROR',
  'WEBHOOK_MAX_RETRIES_REACHED',
  'EMAIL_SENT',
] as const;
export const ACCESS_FREQUENCIES = ['ONCE_OFF', 'ONGOING'] as const;
export const POST_USAGE_ACTIONS = ['DELETION', 'DE_IDENTIFICATION'] as const;
export const NOTIFICATION_TYPES = ['EMAIL', 'SMS'] as const;
export const SHARING_DURATIONS = [
  'ONE_DAY',
  'ONE_WEEK',
  'TWO_WEEKS',
  'ONE_MONTH',
  'THREE_MONTHS',
  'SIX_MONTHS',
  'NINE_MONTHS',
  'ONE_YEAR',
  'CUSTOM',
  'ONCE_OFF',
  'SEVEN_YEARS',
] as const;
export const INDUSTRIES = ['BANKING', 'ENERGY'] as const;
export const CONSUMER_TYPES = ['ALL', 'INDIVIDUAL', 'ORGANISATION', 'ANY'] as const;

export const consentApi = schemaSet((en) => {
  const DataHolderSummary = z.looseObject({
    dataHolderBrandId: z.string(),
    brandName: opt(z.string()),
    logoUri: opt(z.string()),
    favourite: opt(z.boolean()),
  });

  const Scope = z.looseObject({
    id: z.string(),
    name: opt(z.string()),
    purpose: opt(z.string()),
    description: opt(z.string()),
    claims: opt(z.array(z.string())),
    priority: opt(z.number().int()),
  });

  const Grantee = z.looseObject({ name: opt(z.string()), licenceNumber: opt(z.string()), id: opt(z.string()) });

  /** UseCaseResponse; also what a consent embeds (a subset of these fields in practice). */
  const UseCase = z.looseObject({
    id: z.string(),
    name: opt(z.string()),
    softwareProductId: opt(z.string()),
    description: opt(z.string()),
    priority: opt(z.number().int()),
    historicalCollectionPeriodInDays: opt(z.number().int()),
    notificationType: opt(en(NOTIFICATION_TYPES)),
    scopes: opt(z.array(Scope)),
    accessFrequency: opt(en(ACCESS_FREQUENCIES)),
    sharingDurations: opt(z.array(en(SHARING_DURATIONS))),
    dataHolders: opt(z.array(DataHolderSummary)),
    features: opt(z.array(z.string())),
    active: opt(z.boolean()),
    /** An optional string in the dashboard SDK (notes 5.5). */
    anonymisationDetails: opt(z.string()),
    industries: opt(z.array(en(INDUSTRIES))),
    consumerType: opt(en(CONSUMER_TYPES)),
    customDataSchema: opt(z.union([z.string(), z.looseObject({})])),
  });

  const Consent = z.looseObject({
    consentId: z.string().min(1),
    version: opt(z.number().int()),
    created: opt(IsoDateTime),
    revoked: opt(IsoDateTime),
    lastNotificationSentAt: opt(IsoDateTime),
    firstDataCollection: opt(IsoDateTime),
    status: opt(en(KNOWN_CONSENT_STATUSES)),
    sharingEndDate: opt(IsoDateTime),
    consumerEmail: opt(z.string()),
    consumerMobileNumber: opt(z.string()),
    consumerId: opt(z.string()),
    dataHolderName: opt(z.string()),
    dataHolderBrandId: opt(z.string()),
    dataHolderLogoUri: opt(z.string()),
    useCase: opt(UseCase),
    postUsageAction: opt(en(POST_USAGE_ACTIONS)),
    cdrArrangementId: opt(z.string()),
    directMarketingAllowed: opt(z.boolean()),
    externalId: opt(z.string()),
    customerIPAddress: opt(z.string()),
    grantee: opt(Grantee),
    serviceProvider: opt(z.looseObject({ name: opt(z.string()), uri: opt(z.string()), description: opt(z.string()) })),
    customData: opt(z.looseObject({})),
    metadata: opt(z.looseObject({})),
  });

  const ConsentEvent = z.looseObject({
    eventId: opt(z.string()),
    eventType: en(EVENT_TYPES),
    /** For WEBHOOK_SENDING_FAILED_CLIENT_ERROR: the target's response message. */
    eventDetail: z.string().nullish(),
    timestamp: IsoDateTime,
    consentId: z.string(),
    cdrArrangementId: opt(z.string()),
    consumerId: opt(z.string()),
    postUsageAction: opt(en(POST_USAGE_ACTIONS)),
    externalId: opt(z.string()),
    sharingEndDate: opt(IsoDateTime),
    consumerEmail: opt(z.string()),
    consumerMobileNumber: opt(z.string()),
    grantee: opt(Grantee),
    customData: opt(z.looseObject({})),
  });

  const ConsentAuthorization = z.looseObject({
    uri: opt(z.string()),
    expiry: opt(IsoDateTime),
    /** Deprecated (18 Dec 2024). */
    success: opt(z.boolean()),
    adatreeErrorMessage: opt(z.string()),
    dataHolderErrorMessage: opt(z.string()),
    error: opt(z.string()),
  });

  const ConsentActivatedResponse = z.looseObject({
    /** Deprecated (9 Jan 2025). */
    success: opt(z.boolean()),
    activeConsentId: opt(z.string()),
    state: opt(z.string()),
    adatreeErrorMessage: opt(z.string()),
    dataHolderErrorMessage: opt(z.string()),
    dataHolderErrorDescription: opt(z.string()),
    errorCode: opt(z.string()),
    retryableUntil: opt(IsoDateTime),
  });

  /** Response of the deprecated POST /tokens. */
  const TokenCreatedResponse = z.looseObject({ activeConsentId: opt(z.string()), state: opt(z.string()) });

  /** GET /software-products/{id}/data-holders. */
  const DataHolder = z.looseObject({
    dataHolderBrandId: z.string(),
    brandName: opt(z.string()),
    logoUri: opt(z.string()),
    industries: opt(z.array(en(INDUSTRIES))),
  });

  const ErrorList = z.looseObject({
    errors: z.array(z.looseObject({ code: z.string(), title: z.string(), detail: z.string(), meta: opt(z.looseObject({})) })).min(1),
  });

  const LinksPaginated = z.looseObject({
    self: opt(z.string()),
    first: opt(z.string()),
    prev: opt(z.string()),
    next: opt(z.string()),
    last: opt(z.string()),
  });
  const MetaPaginated = z.looseObject({ totalPages: z.number().int().nonnegative(), totalRecords: z.number().int().nonnegative() });

  /** GET /consents/v2. */
  const ConsentsListV2 = z.looseObject({ consents: z.array(Consent), links: LinksPaginated, meta: MetaPaginated });
  /** GET /consents/events. */
  const ConsentEventList = z.looseObject({
    data: z.looseObject({ events: z.array(ConsentEvent) }),
    links: LinksPaginated,
    meta: MetaPaginated,
  });

  return {
    DataHolderSummary,
    Scope,
    Grantee,
    UseCase,
    Consent,
    ConsentEvent,
    ConsentAuthorization,
    ConsentActivatedResponse,
    TokenCreatedResponse,
    DataHolder,
    ErrorList,
    LinksPaginated,
    MetaPaginated,
    ConsentsListV2,
    ConsentEventList,
    /** GET /consent: a bare array. */
    ConsentArray: z.array(Consent),
    /** GET /use-cases: a bare array. */
    UseCaseArray: z.array(UseCase),
    DataHolderArray: z.array(DataHolder),
  };
});

// The tolerant schemas under their plain names, for callers that only parse.
export const { Consent, ConsentsListV2, ConsentEvent, UseCase, LinksPaginated, MetaPaginated } = consentApi.tolerant;
export type Consent = z.infer<typeof Consent>;
export type ConsentsListV2 = z.infer<typeof ConsentsListV2>;
export type ConsentEvent = z.infer<typeof ConsentEvent>;
export type UseCase = z.infer<typeof UseCase>;

/** The filters of GET /consents/v2 (public v2 spec); dates as the wire's strings, or as parsed numbers. */
export interface ConsentListFilterOf<TDate> {
  status?: string;
  consumerId?: string;
  consumerEmail?: string;
  useCaseIds?: string[];
  dataHolderBrandId?: string;
  externalId?: string;
  consentId?: string;
  cdrArrangementId?: string;
  accessFrequency?: string;
  postUsageAction?: string;
  directMarketingAllowed?: boolean;
  oldestCreated?: TDate;
  newestCreated?: TDate;
  oldestRevoked?: TDate;
  newestRevoked?: TDate;
}
