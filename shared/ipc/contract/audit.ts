import * as z from 'zod';
import { ConsentId, Empty, ExportFormat, Instant, MAX_PAGE_SIZE, TimeZone, type ChannelSchema } from './common.js';
import { ADMIN, COMPLIANCE, EVERYONE } from '../roles.js';
import { JobStarted } from './jobs.js';

/** The staff action log and the operator. */

export const AuditRecord = z.object({
  seq: z.number().int(),
  at: z.string(),
  operator: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  reason: z.string().nullable(),
  result: z.string(),
  prevHash: z.string(),
  hash: z.string(),
  /** Who sent the request (address, user agent): kept by the team store; part of the entry's hash. */
  client: z.string().nullable().optional(),
  /** The signed-in person who caused it (a team server): part of the entry's hash. */
  person: z.object({ userId: z.string(), displayName: z.string(), role: z.string(), method: z.string() }).nullable().optional(),
  /** HMAC-SHA-256 of the hash under the team's audit key, and which key (a keyed team log). */
  mac: z.string().nullable().optional(),
  keyId: z.string().nullable().optional(),
});
/** A solo console's audit log imported into a team store, its own chain, checked as it is stored now. */
/** A signed checkpoint of the audit log's head (`audit checkpoint`): a small file kept elsewhere. */
export const AuditCheckpoint = z.object({
  format: z.literal('cdr-console-audit-checkpoint/1'),
  chain: z.string().max(100),
  seq: z.number().int().positive(),
  hash: z.string().max(200),
  entryAt: z.string().max(100),
  madeAt: z.string().max(100),
  publicKey: z.string().max(1000),
  signature: z.string().max(1000),
});
/** What a verification found of the keyed log, and of a checkpoint held against it. */
const KeyedVerification = z.object({
  from: z.number().int().nullable(),
  unkeyed: z.number().int(),
  checked: z.boolean(),
  keyId: z.string().nullable(),
});
const CheckpointVerification = z.object({
  seq: z.number().int(),
  hash: z.string(),
  madeAt: z.string(),
  ok: z.boolean(),
  problem: z.string().nullable(),
});
export const ImportedChain = z.object({
  chain: z.string(),
  origin: z.string(),
  entries: z.number().int(),
  ok: z.boolean(),
  problems: z.array(z.string()),
});
export const Operator = z.object({ account: z.string(), displayName: z.string().nullable() });

/** The staff action log, filtered. */
export const AuditFilter = z.strictObject({
  operator: z.string().min(1).max(200).optional(),
  action: z.string().min(1).max(60).optional(),
  target: z.string().min(1).max(200).optional(),
  from: Instant.optional(),
  to: Instant.optional(),
});
export type AuditFilter = z.infer<typeof AuditFilter>;

export const auditChannels = {
  'audit:list': {
    reads: ['audit', 'consents'],
    roles: EVERYONE,
    action: 'Reading the audit log',
    input: z.strictObject({ target: ConsentId.optional(), limit: z.number().int().min(1).max(500) }),
    output: z.array(AuditRecord).max(500),
  },
  'audit:query': {
    reads: ['audit', 'consents'],
    roles: EVERYONE,
    action: 'Reading the audit log',
    input: z.strictObject({ filter: AuditFilter, offset: z.number().int().min(0), limit: z.number().int().min(1).max(MAX_PAGE_SIZE) }),
    output: z.object({ rows: z.array(AuditRecord).max(MAX_PAGE_SIZE), total: z.number().int().nonnegative() }),
  },
  'audit:options': {
    reads: ['audit', 'consents'],
    roles: EVERYONE,
    action: 'Reading the audit log’s filters',
    input: Empty,
    output: z.object({ operators: z.array(z.string()).max(1000), actions: z.array(z.string()).max(200) }),
  },
  'audit:exportFile': {
    roles: COMPLIANCE,
    action: 'Exporting the audit log',
    /** `timeZone`: the console's, in which the file is named and its times also given (beside UTC). */
    input: z.strictObject({ filter: AuditFilter, format: ExportFormat, timeZone: TimeZone.optional() }),
    output: JobStarted,
  },
  'audit:verify': {
    reads: ['audit', 'consents'],
    roles: COMPLIANCE,
    action: 'Verifying the audit log',
    /** `checkpoint`: a checkpoint file's content, held against the log (it holds when nothing up to it changed). */
    input: z.strictObject({ checkpoint: AuditCheckpoint.optional() }),
    output: z.union([
      z.object({
        ok: z.literal(true),
        entries: z.number().int(),
        imported: z.array(ImportedChain).max(1000).optional(),
        keyed: KeyedVerification.optional(),
        checkpoint: CheckpointVerification.optional(),
      }),
      z.object({
        ok: z.literal(false),
        entries: z.number().int(),
        brokenAt: z.number().int(),
        problem: z.string(),
        problems: z.array(z.string()).optional(),
        imported: z.array(ImportedChain).max(1000).optional(),
        keyed: KeyedVerification.optional(),
        checkpoint: CheckpointVerification.optional(),
      }),
    ]),
  },
  'audit:checkpoint': {
    roles: COMPLIANCE,
    action: 'Checkpointing the audit log',
    input: Empty,
    output: AuditCheckpoint,
  },
  'audit:export': {
    roles: COMPLIANCE,
    action: 'Exporting the audit log',
    input: z.strictObject({ format: z.enum(['csv', 'json']) }),
    output: z.object({ content: z.string(), entries: z.number().int() }),
  },
  'operator:get': { reads: [], roles: EVERYONE, action: 'Reading the operator’s name', input: Empty, output: Operator },
  'operator:set': {
    roles: ADMIN,
    action: 'Changing the operator’s name',
    input: z.strictObject({ displayName: z.string().min(2).max(80) }),
    output: Operator,
  },
} as const satisfies Record<string, ChannelSchema>;
