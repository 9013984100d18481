import { z } from 'zod';
import { Instant, type ChannelSchema } from './common.js';
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

export const reportsChannels = {
  'reports:compliance': {
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
} as const satisfies Record<string, ChannelSchema>;
