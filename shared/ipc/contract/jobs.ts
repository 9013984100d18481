import * as z from 'zod';
import { Identifier } from '../identifier.js';
import { Empty, ExportFormat, MAX_BULK, MAX_PAGE_SIZE, type ChannelSchema } from './common.js';
import { EVERYONE, STAFF } from '../roles.js';

/** Long work in main (bulk revocation, exports, evidence packs): started, then followed through events. */

export const JobKind = z.enum([
  'bulk-revoke',
  'export-consents',
  'export-results',
  'export-events',
  'export-audit',
  'export-report',
  'evidence-pack',
  'data-sync',
  'export-data',
  'export-products',
  'export-complaints',
  'export-rule94',
]);
/** `awaiting-approval`: a bulk revocation held for a second person's approval (a team server). */
export const JobState = z.enum(['awaiting-approval', 'running', 'paused', 'interrupted', 'cancelled', 'finished', 'failed']);
export const JobResult = z.object({
  /** Where the file went (Electron: the path the user chose). */
  path: z.string().optional(),
  /** The browser host's one-time download link, and the file's name. */
  download: z.object({ url: z.string(), name: z.string() }).optional(),
  bytes: z.number().int().nonnegative().optional(),
  rows: z.number().int().nonnegative().optional(),
  sha256: z.string().optional(),
});
export const Job = z.object({
  jobId: z.string(),
  kind: JobKind,
  title: z.string(),
  state: JobState,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  /** Outcome counts (bulk revocation: revoked, already-inactive, failed, pending). */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  message: z.string().nullable(),
  /** Items per second the job may send (bulk revocation), adjustable while it runs. */
  perSecond: z.number().positive().nullable(),
  result: JobResult.nullable(),
});
export type Job = z.infer<typeof Job>;
const JobId = Identifier;

/** A job was started, or the user cancelled the save dialog before anything ran. */
export const JobStarted = z.union([z.object({ jobId: z.string() }), z.object({ cancelled: z.literal(true) })]);

/** One consent of a bulk revocation job, and what became of it. */
export const BulkItem = z.object({
  seq: z.number().int(),
  consentId: z.string(),
  status: z.enum(['pending', 'revoked', 'already-inactive', 'failed']),
  detail: z.string().nullable(),
});
export type BulkItem = z.infer<typeof BulkItem>;

export const jobsChannels = {
  'jobs:list': { reads: [], roles: EVERYONE, action: 'Listing jobs', input: Empty, output: z.array(Job).max(200) },
  'jobs:items': {
    reads: [],
    roles: EVERYONE,
    action: 'Reading a job’s items',
    input: z.strictObject({
      jobId: JobId,
      offset: z.number().int().min(0).max(MAX_BULK),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    }),
    output: z.object({ items: z.array(BulkItem).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'jobs:control': {
    roles: STAFF,
    action: 'Pausing, resuming or cancelling a job',
    input: z.strictObject({
      jobId: JobId,
      action: z.enum(['pause', 'resume', 'cancel', 'rate']),
      perSecond: z.number().min(0.1).max(50).optional(),
    }),
    output: Job,
  },
  'jobs:export': {
    roles: STAFF,
    action: 'Exporting a job’s results',
    input: z.strictObject({ jobId: JobId, format: ExportFormat }),
    output: JobStarted,
  },
} as const satisfies Record<string, ChannelSchema>;
