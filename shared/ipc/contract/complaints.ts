import * as z from 'zod';
import {
  COMPLAINT_CATEGORIES,
  COMPLAINT_CHANNELS,
  COMPLAINT_OUTCOMES,
  DESCRIPTION_MAX,
  complaintProblems,
  type ComplaintFields,
} from '../../complaints/complaints.js';
import { EVERYONE, COMPLIANCE, STAFF } from '../roles.js';
import { ConsentId, ExportFormat, TimeZone, type ChannelSchema } from './common.js';
import { JobStarted } from './jobs.js';
import { MAX_PAGE_SIZE } from '../limits.js';

/** The complaints register (issue 38; shared/complaints/complaints.ts holds its words and rules). */

/** A calendar day (YYYY-MM-DD), in the console's time zone. */
export const LocalDay = z.iso.date();

const ConsumerId = z.string().trim().min(1).max(200);

const fieldShape = {
  receivedOn: LocalDay,
  channel: z.enum(COMPLAINT_CHANNELS),
  category: z.enum(COMPLAINT_CATEGORIES),
  description: z.string().max(DESCRIPTION_MAX),
  consentId: ConsentId.nullable(),
  consumerId: ConsumerId.nullable(),
  outcome: z.enum(COMPLAINT_OUTCOMES).nullable(),
  resolvedOn: LocalDay.nullable(),
  referredTo: z.string().trim().min(1).max(120).nullable(),
};

/** The rules of shared/complaints/complaints.ts, as zod issues on their fields. */
const keepsTheRules = (f: ComplaintFields, ctx: z.RefinementCtx) => {
  for (const p of complaintProblems(f)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
};

export const ComplaintFieldsInput = z.strictObject({
  ...fieldShape,
  /** The console's zone: "today" (no day may be after it) is the person's. The host's when absent. */
  timeZone: TimeZone.optional(),
});

export const Complaint = z.object({
  id: z.string(),
  /** Its number in the register: CMP-0042 (complaintReference). */
  number: z.number().int().positive(),
  ...fieldShape,
  status: z.enum(['open', 'resolved']),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  /** Raised by every change: an update names the version it was made from (two people editing at once). */
  version: z.number().int().positive(),
});
export type Complaint = z.infer<typeof Complaint>;

export const ComplaintFilter = z.strictObject({
  consentId: ConsentId.optional(),
  consumerId: ConsumerId.optional(),
  status: z.enum(['open', 'resolved']).optional(),
  category: z.enum(COMPLAINT_CATEGORIES).optional(),
  /** Received on or after, on or before (calendar days). */
  receivedFrom: LocalDay.optional(),
  receivedTo: LocalDay.optional(),
});
export type ComplaintFilter = z.infer<typeof ComplaintFilter>;

export const complaintsChannels = {
  'complaints:list': {
    reads: ['complaints'],
    roles: EVERYONE,
    action: 'Reading complaints',
    input: ComplaintFilter.extend({
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
    }),
    output: z.object({ rows: z.array(Complaint), total: z.number().int().nonnegative() }),
  },
  'complaints:record': {
    roles: STAFF,
    action: 'Recording a complaint',
    input: ComplaintFieldsInput.superRefine(keepsTheRules),
    output: Complaint,
  },
  'complaints:update': {
    roles: STAFF,
    action: 'Changing a complaint',
    input: ComplaintFieldsInput.extend({ id: z.uuid(), version: z.number().int().positive() }).superRefine(keepsTheRules),
    output: Complaint,
  },
  'complaints:export': {
    roles: COMPLIANCE,
    action: 'Exporting complaints',
    input: ComplaintFilter.extend({ format: ExportFormat, timeZone: TimeZone.optional() }),
    output: JobStarted,
  },
} as const satisfies Record<string, ChannelSchema>;
