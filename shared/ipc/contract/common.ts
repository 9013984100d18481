import * as z from 'zod';
import { Identifier } from '../identifier.js';
import { canonicalTimeZone } from '../../time/zone.js';
import type { Permission } from '../roles.js';

/** What every domain of the contract uses: identifiers, reasons, instants, page and bulk limits, export formats. */

export const Environment = z.enum(['sandbox', 'nonprod', 'prod']);
export type Environment = z.infer<typeof Environment>;
export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

/** Page and bulk limits (limits.ts, without zod for the renderer's first screen). */
export { MAX_BULK, MAX_PAGE_SIZE } from '../limits.js';

export const Instant = z.iso.datetime({ offset: true });
/** A time range: from (inclusive) and to (exclusive), either open. */
/** A time zone by its IANA name ("Australia/Sydney"), one this runtime knows. */
export const TimeZone = z
  .string()
  .max(64)
  .refine((v) => canonicalTimeZone(v) !== null, { message: 'an unknown time zone (an IANA name such as Australia/Sydney)' });
export const TimeRange = z.strictObject({ from: Instant.optional(), to: Instant.optional() });
export type TimeRange = z.infer<typeof TimeRange>;

export const Empty = z.strictObject({});
export const ConsentId = Identifier;
export const Reason = z.string().max(500);

export const ExportFormat = z.enum(['csv', 'json']);

/**
 * What every channel declares: the schema of its input and of its output, and who may call it
 * (roles.ts: `roles`, and `action`, the words a refusal starts with). Both are required: a channel
 * without roles does not compile, and test/unit/ipc-roles.test.ts checks every set.
 */
/**
 * What the cache holds, as a change notice names it (cache:changed): each write says which it
 * changed, and each read channel which it reads (ChannelSchema.reads).
 */
export const CACHE_ENTITIES = ['consents', 'events', 'reference', 'data', 'audit', 'complaints', 'alerts', 'rule94', 'monthly'] as const;
export type CacheEntity = (typeof CACHE_ENTITIES)[number];

export interface ChannelSchema extends Permission {
  input: z.ZodType;
  output: z.ZodType;
  /**
   * A read channel's answer depends on these (cache:changed names them): a console reads it again
   * when one changes, here or on another console (renderer/src/events.ts). [] for a read of
   * nothing a change notice names (settings, profiles, jobs: their own events refresh them).
   * Absent on the channels that write.
   */
  reads?: readonly CacheEntity[];
  /**
   * Fields of the input that need more than the channel does: present in a request, they need
   * these roles (settings:set is open to everyone for their view's columns and saved views and the
   * theme; the sync schedule is an admin's).
   */
  fields?: Readonly<Record<string, Permission>>;
}
