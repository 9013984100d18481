import { z } from 'zod';
import { IsoDateTime, opt } from './common.js';

/**
 * The Consent API's resources, first cut: what the consent list needs. Tolerant by design:
 * unknown fields are kept (loose objects), status is any string (DESIGN.md: unknown values are
 * kept and shown as-is), and only the identifier is required.
 */
export const KNOWN_CONSENT_STATUSES = ['REQUESTED', 'ACTIVE', 'REVOKED', 'EXPIRED'] as const;

export const DataHolderSummary = z.looseObject({
  dataHolderBrandId: z.string(),
  brandName: opt(z.string()),
  logoUri: opt(z.string()),
});

export const Scope = z.looseObject({
  id: z.string(),
  name: opt(z.string()),
  purpose: opt(z.string()),
  description: opt(z.string()),
  claims: opt(z.array(z.string())),
  priority: opt(z.number().int()),
});

export const ConsentUseCase = z.looseObject({
  id: z.string(),
  name: opt(z.string()),
  description: opt(z.string()),
  softwareProductId: opt(z.string()),
  priority: opt(z.number().int()),
  historicalCollectionPeriodInDays: opt(z.number().int()),
  notificationType: opt(z.string()),
  accessFrequency: opt(z.string()),
  sharingDurations: opt(z.array(z.string())),
  scopes: opt(z.array(Scope)),
  dataHolders: opt(z.array(DataHolderSummary)),
});

export const Consent = z.looseObject({
  consentId: z.string().min(1),
  version: opt(z.number().int()),
  created: opt(IsoDateTime),
  revoked: opt(IsoDateTime),
  lastNotificationSentAt: opt(IsoDateTime),
  firstDataCollection: opt(IsoDateTime),
  status: opt(z.string()),
  sharingEndDate: opt(IsoDateTime),
  consumerEmail: opt(z.string()),
  consumerMobileNumber: opt(z.string()),
  consumerId: opt(z.string()),
  dataHolderName: opt(z.string()),
  dataHolderBrandId: opt(z.string()),
  useCase: opt(ConsentUseCase),
  postUsageAction: opt(z.string()),
  cdrArrangementId: opt(z.string()),
  directMarketingAllowed: opt(z.boolean()),
  externalId: opt(z.string()),
  customerIPAddress: opt(z.string()),
});
export type Consent = z.infer<typeof Consent>;

/** `links` of a paginated response; `next` is absent on the last page. */
export const LinksPaginated = z.looseObject({
  self: opt(z.string()),
  first: opt(z.string()),
  prev: opt(z.string()),
  next: opt(z.string()),
  last: opt(z.string()),
});

export const MetaPaginated = z.looseObject({
  totalPages: z.number().int().nonnegative(),
  totalRecords: z.number().int().nonnegative(),
});

/** Envelope of `GET /consents/v2`. */
export const ConsentsListV2 = z.looseObject({
  consents: z.array(Consent),
  links: LinksPaginated,
  meta: MetaPaginated,
});
export type ConsentsListV2 = z.infer<typeof ConsentsListV2>;
