import * as z from 'zod';
import { ANSWER_FIELDS, ANSWER_MAX, HALF_YEAR_ID } from '../../reports/rule94.js';
import { COMPLIANCE, EVERYONE } from '../roles.js';
import type { ChannelSchema } from './common.js';
import { JobStarted } from './jobs.js';

/** The rule 9.4 report of each half-year (issue 38; shared/reports/rule94.ts holds its periods and questions). */

export const HalfYearId = z.string().regex(HALF_YEAR_ID, 'a half-year such as 2026-H2');

/** Where a figure's records are: a screen and its filter (the renderer adds the period). */
export const FigureRecords = z.union([
  z.object({ screen: z.literal('events'), types: z.array(z.string()) }),
  z.object({ screen: z.literal('audit'), action: z.string() }),
  z.object({ screen: z.literal('complaints'), category: z.string().optional(), status: z.enum(['open', 'resolved']).optional() }),
  z.object({ screen: z.literal('consents') }),
]);
export type FigureRecords = z.infer<typeof FigureRecords>;

export const Rule94Figure = z.object({
  key: z.string(),
  /** "Consents withdrawn"; a part of the figure above starts with "— ". */
  label: z.string(),
  value: z.number().int().nonnegative(),
  /** How it was counted, and from which records, in words. */
  how: z.string(),
  records: FigureRecords.nullable(),
});
export type Rule94Figure = z.infer<typeof Rule94Figure>;

const answerShape = Object.fromEntries(ANSWER_FIELDS.map((f) => [f.key, z.string().max(ANSWER_MAX).optional()])) as {
  [K in (typeof ANSWER_FIELDS)[number]['key']]: z.ZodOptional<z.ZodString>;
};
export const Rule94Answers = z.strictObject(answerShape);

export const Rule94Report = z.object({
  period: HalfYearId,
  /** The period's instants (UTC; end exclusive) and days in Australian time. */
  from: z.string(),
  to: z.string(),
  firstDay: z.string(),
  lastDay: z.string(),
  /** "1 Jul 2026 – 31 Dec 2026". */
  text: z.string(),
  dueOn: z.string(),
  state: z.enum(['draft', 'signed']),
  madeAt: z.string(),
  madeBy: z.string(),
  /** When its figures were last counted (made, or counted again while a draft). */
  countedAt: z.string(),
  figures: z.array(Rule94Figure).max(200),
  answers: Rule94Answers,
  signedBy: z.string().nullable(),
  signedAt: z.string().nullable(),
  /** The archived report's SHA-256 (hex), also in the audit log's sign-off entry; null for a draft. */
  sha256: z.string().nullable(),
  /** A signed report whose stored content no longer hashes to its sha256 (changed behind the console's back). */
  intact: z.boolean(),
  /** Raised by every change: a change names the version it was made from. */
  version: z.number().int().positive(),
});
export type Rule94Report = z.infer<typeof Rule94Report>;

const Versioned = { period: HalfYearId, version: z.number().int().positive() };

export const rule94Channels = {
  'biannual:list': {
    reads: ['rule94'],
    roles: EVERYONE,
    action: 'Reading the half-yearly CDR reports',
    input: z.strictObject({}).default({}),
    output: z.object({
      reports: z.array(Rule94Report.omit({ figures: true, answers: true })),
      /** The half-year under way, and the next report's due day. */
      current: z.object({ period: HalfYearId, text: z.string(), dueOn: z.string() }),
    }),
  },
  'biannual:get': {
    reads: ['rule94'],
    roles: EVERYONE,
    action: 'Reading a half-yearly CDR report',
    input: z.strictObject({ period: HalfYearId }),
    output: Rule94Report,
  },
  'biannual:prepare': {
    roles: COMPLIANCE,
    action: 'Preparing a half-yearly CDR report',
    /** An ended half-year whose report was not made (the console was not in use then): made now. */
    input: z.strictObject({ period: HalfYearId }),
    output: Rule94Report,
  },
  'biannual:answer': {
    roles: COMPLIANCE,
    action: 'Answering a half-yearly CDR report',
    input: z.strictObject({ ...Versioned, answers: Rule94Answers }),
    output: Rule94Report,
  },
  'biannual:recount': {
    roles: COMPLIANCE,
    action: 'Counting a half-yearly CDR report again',
    input: z.strictObject(Versioned),
    output: Rule94Report,
  },
  'biannual:signOff': {
    roles: COMPLIANCE,
    action: 'Signing off a half-yearly CDR report',
    input: z.strictObject(Versioned),
    output: Rule94Report,
  },
  'biannual:export': {
    roles: COMPLIANCE,
    action: 'Exporting a half-yearly CDR report',
    input: z.strictObject({ period: HalfYearId, format: z.enum(['csv', 'html']) }),
    output: JobStarted,
  },
} as const satisfies Record<string, ChannelSchema>;
