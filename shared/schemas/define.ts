import { z } from 'zod';

/**
 * Tolerant schemas with flagged unknown enum values.
 *
 * Each schema module is written once as a function of `en` (how to read an enum) and built twice:
 * - tolerant: an enum is any string, so a value we do not know is kept, never rejected;
 * - strict: an enum is the known set, used only to find (and flag, with their paths) the values
 *   the tolerant parse let through.
 * Objects are loose everywhere: unknown fields are kept.
 */
export type EnumReader = <const V extends readonly [string, ...string[]]>(values: V) => z.ZodType<string>;

export function schemaSet<T>(build: (en: EnumReader) => T): { tolerant: T; strict: T } {
  return {
    tolerant: build((() => z.string()) as EnumReader),
    strict: build(((values: readonly [string, ...string[]]) => z.enum(values)) as EnumReader),
  };
}

/**
 * ISO 8601 date-time with a time zone: Z, ±hh:mm, ±hhmm or ±hh (real data holders send
 * "2022-12-12T03:27:31.684+0000"). Seconds and fractions optional; the date must exist.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)$/;
export const IsoDateTime = z.string().refine((value) => {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, sec] = m.map(Number) as number[];
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  return day.getUTCMonth() === mo! - 1 && day.getUTCDate() === d && h! < 24 && mi! < 60 && (Number.isNaN(sec) || sec! < 61);
}, 'Invalid ISO 8601 date-time (expected e.g. 2026-11-01T09:30:00.000Z)');
/** ISO 8601 calendar date (YYYY-MM-DD). */
export const IsoDate = z.iso.date();

/** The public spec marks almost no field required or nullable: most fields are optional and may be null. */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
