import * as z from 'zod';
import { Empty, Instant, type ChannelSchema } from './common.js';
import { COMPLIANCE, EVERYONE } from '../roles.js';
import { JobStarted } from './jobs.js';

/** Compliance reports. */

/** What a data recipient counts for its CDR reports and records (rules 9.3, 9.4), for a period. */
export const ComplianceReport = z.object({
  from: z.string(),
  to: z.string(),
  generatedAt: z.string(),
  counts: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      count: z.number().int().nonnegative(),
      /** Where its records are: the screen and its filter (the renderer adds the period). */
      records: z.union([
        z.object({ screen: z.literal('events'), types: z.array(z.string()) }),
        z.object({ screen: z.literal('audit'), action: z.string() }),
      ]),
      note: z.string().nullable(),
    }),
  ),
  collectionsByHolder: z.array(z.object({ dataHolderName: z.string(), count: z.number().int() })).max(2000),
  retention: z.array(z.object({ action: z.string(), consents: z.number().int(), records: z.number().int() })).max(20),
  /**
   * "Withdrawn by staff" and "amended by staff" per member of staff (the audit log's operator: on a
   * team server, each signed-in person), most first.
   */
  byStaff: z
    .array(z.object({ operator: z.string(), withdrawn: z.number().int().nonnegative(), amended: z.number().int().nonnegative() }))
    .max(500),
});
export type ComplianceReport = z.infer<typeof ComplianceReport>;

/** Whether the monthly compliance pack is made, and in which zone's months. */
export const MonthlySchedule = z.object({ enabled: z.boolean(), timeZone: z.string(), changedBy: z.string(), changedAt: z.string() });

/** A month's compliance pack as made (its files are exported from reports:exportMonthlyPack). */
export const MonthlyPackRow = z.object({
  /** "2026-10", and in words: "October 2026". */
  period: z.string(),
  text: z.string(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  madeAt: z.string(),
  madeBy: z.string(),
  sha256: z.string(),
  /** What its e-mail did; null: none was sent (no e-mail set up). */
  sent: z.string().nullable(),
});
export type MonthlyPackRow = z.infer<typeof MonthlyPackRow>;

export const reportsChannels = {
  'reports:compliance': {
    reads: ['consents', 'events'],
    roles: EVERYONE,
    action: 'Reading the compliance report',
    input: z.strictObject({ from: Instant, to: Instant }),
    output: ComplianceReport,
  },
  'reports:export': {
    roles: COMPLIANCE,
    action: 'Exporting the compliance report',
    /** `timeZone`: the console's (IANA), in which the file names and heads the period; the host's when absent or unknown. */
    input: z.strictObject({ from: Instant, to: Instant, format: z.enum(['csv', 'html']), timeZone: z.string().max(64).optional() }),
    output: JobStarted,
  },
  'reports:monthlyPacks': {
    reads: ['monthly', 'consents', 'events'],
    roles: EVERYONE,
    action: 'Reading the monthly compliance packs',
    input: Empty,
    output: z.object({ schedule: MonthlySchedule.nullable(), packs: z.array(MonthlyPackRow).max(120) }),
  },
  'reports:scheduleMonthlyPack': {
    roles: COMPLIANCE,
    action: 'Scheduling the monthly compliance pack',
    /** `timeZone`: whose calendar months (IANA). */
    input: z.strictObject({ enabled: z.boolean(), timeZone: z.string().min(1).max(64) }),
    output: MonthlySchedule,
  },
  'reports:exportMonthlyPack': {
    roles: COMPLIANCE,
    action: 'Exporting a monthly compliance pack',
    /** The pack as it was made (its HTML hashes to the SHA-256 in the audit log), not counted again. */
    input: z.strictObject({ period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/), format: z.enum(['csv', 'html']) }),
    output: JobStarted,
  },
} as const satisfies Record<string, ChannelSchema>;
