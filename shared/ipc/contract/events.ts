import * as z from 'zod';
import { ConsentId, ExportFormat, Instant, MAX_PAGE_SIZE, TimeZone, type ChannelSchema } from './common.js';
import { COMPLIANCE, EVERYONE } from '../roles.js';
import { JobStarted } from './jobs.js';

/** Consent events and webhook failures. */

export const EventRow = z.object({
  eventId: z.string(),
  consentId: z.string(),
  eventType: z.string(),
  timestamp: z.string(),
  eventDetail: z.string().nullable(),
});

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

export const eventsChannels = {
  'events:failures': {
    reads: ['events'],
    roles: EVERYONE,
    action: 'Listing webhook failures',
    input: z.strictObject({ page: z.number().int().min(1), pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE) }),
    output: z.object({ rows: z.array(EventRow).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'events:list': {
    reads: ['events'],
    roles: EVERYONE,
    action: 'Listing events',
    input: z.strictObject({
      filter: EventFilter,
      offset: z.number().int().min(0).max(100_000_000),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    }),
    output: z.object({ rows: z.array(EventListRow).max(MAX_PAGE_SIZE) }),
  },
  'events:count': {
    reads: ['events'],
    roles: EVERYONE,
    action: 'Counting events',
    input: z.strictObject({ filter: EventFilter }),
    output: z.object({ total: z.number().int().nonnegative(), types: z.array(TypeCount).max(100) }),
  },
  'events:days': {
    reads: ['events'],
    roles: EVERYONE,
    action: 'Counting events per day',
    /** Days of `timeZone` (the console's; the host's when absent). */
    input: z.strictObject({ filter: EventFilter, days: z.number().int().min(1).max(400), timeZone: TimeZone.optional() }),
    output: z.array(DayCounts).max(400),
  },
  'events:export': {
    roles: COMPLIANCE,
    action: 'Exporting events',
    /** `timeZone`: the console's, in which the file is named and its times also given (beside UTC). */
    input: z.strictObject({ filter: EventFilter, format: ExportFormat, timeZone: TimeZone.optional() }),
    output: JobStarted,
  },
  'webhooks:summary': {
    reads: ['events'],
    roles: EVERYONE,
    action: 'Reading webhook failures',
    input: z.strictObject({ filter: EventFilter }),
    output: WebhookSummary,
  },
} as const satisfies Record<string, ChannelSchema>;
