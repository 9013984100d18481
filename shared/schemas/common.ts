import { z } from 'zod';

/**
 * ISO 8601 date-time with an offset or Z. The intermediary sends UTC with milliseconds, but
 * older payloads omit the milliseconds, so precision is not enforced here.
 */
export const IsoDateTime = z.iso.datetime({ offset: true });

/** Optional and nullable: the public spec marks no consent field as required or nullable. */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
