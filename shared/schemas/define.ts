import * as z from 'zod';

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
/**
 * The same language as /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)$/,
 * an existing day (as Date.UTC reads the year: 0–99 as 1900–1999), hours under 24, minutes under 60,
 * seconds under 61 — read character by character: a sync checks millions of them, and this takes
 * about 45 ns where the regular expression and a Date took 530 (Node 24). test/unit/fast-parse.test.ts
 * holds that first form and compares the two.
 */
export function isIsoDateTime(value: string): boolean {
  const n = value.length;
  if (n < 17) return false; // YYYY-MM-DDTHH:MMZ
  const y = digits(value, 0, 4);
  const mo = digits(value, 5, 2);
  const d = digits(value, 8, 2);
  const h = digits(value, 11, 2);
  const mi = digits(value, 14, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0) return false;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(10) !== 84 || value.charCodeAt(13) !== 58) return false;
  let i = 16;
  if (value.charCodeAt(i) === 58) {
    // :ss, then .fraction (one digit or more)
    const sec = digits(value, i + 1, 2);
    if (sec < 0 || sec >= 61) return false;
    i += 3;
    if (value.charCodeAt(i) === 46) {
      const start = ++i;
      while (i < n && isDigit(value.charCodeAt(i))) i++;
      if (i === start) return false;
    }
  }
  // The zone: Z, or ±hh, ±hhmm, ±hh:mm.
  const z = value.charCodeAt(i);
  if (z === 90) {
    if (i + 1 !== n) return false;
  } else if (z === 43 || z === 45) {
    if (digits(value, i + 1, 2) < 0) return false;
    const rest = n - (i + 3);
    if (rest === 2) {
      if (digits(value, i + 3, 2) < 0) return false;
    } else if (rest === 3) {
      if (value.charCodeAt(i + 3) !== 58 || digits(value, i + 4, 2) < 0) return false;
    } else if (rest !== 0) return false;
  } else return false;
  if (h >= 24 || mi >= 60 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y < 100 ? 1900 + y : y, mo);
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The number written by `count` ASCII digits from `at`, or -1. */
function digits(value: string, at: number, count: number): number {
  let v = 0;
  for (let k = at; k < at + count; k++) {
    const c = value.charCodeAt(k);
    if (!(c >= 48 && c <= 57)) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export const IsoDateTime = z.string().refine(isIsoDateTime, 'Invalid ISO 8601 date-time (expected e.g. 2026-11-01T09:30:00.000Z)');
/** ISO 8601 calendar date (YYYY-MM-DD). */
export const IsoDate = z.iso.date();

/** The public spec marks almost no field required or nullable: most fields are optional and may be null. */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
