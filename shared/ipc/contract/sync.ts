import * as z from 'zod';
import { CACHE_ENTITIES, ConsentId, Empty, type ChannelSchema } from './common.js';
import { ADMIN, EVERYONE } from '../roles.js';

/** The sync: its summary, its progress events, cache changes, cache reset. */

export const SyncSummary = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  consents: z.object({
    fetched: z.number().int().nonnegative(),
    new: z.number().int().nonnegative(),
    changed: z.number().int().nonnegative(),
    unchanged: z.number().int().nonnegative(),
  }),
  events: z.object({ fetched: z.number().int().nonnegative(), new: z.number().int().nonnegative() }),
  useCases: z.number().int().nonnegative(),
  dataHolders: z.number().int().nonnegative(),
  /** Parts that failed while the rest went on, each with its reason. */
  failures: z.array(z.object({ phase: z.string(), reason: z.string() })),
  /** True when this run continued an interrupted one. */
  resumed: z.boolean(),
  /** Calls repeated after a transient fault (5xx, 429, a dropped connection, a cut-off body), token included. */
  retries: z.number().int().nonnegative().optional(),
  /**
   * full: every consent listed (the first sync, one asked for, or the periodic reconcile);
   * incremental: only the consents the events feed says changed, and the new ones.
   */
  mode: z.enum(['full', 'incremental']).optional(),
  /** Data API records stored per kind, when the data was synced too. */
  data: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Consents whose CDR data retention deleted or de-identified in this run. */
  retention: z
    .array(z.object({ consentId: z.string(), action: z.enum(['deleted', 'de-identified']), records: z.number().int() }))
    .optional(),
});
export type SyncSummary = z.infer<typeof SyncSummary>;

export const SyncPhase = z.enum(['consents', 'events', 'use-cases', 'data-holders', 'data', 'retention']);
export const SyncProgress = z.object({
  phase: SyncPhase,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  state: z.enum(['running', 'finished', 'failed', 'cancelled']),
  message: z.string().optional(),
  /** Items per second so far, and the estimated seconds left (when the total is known). */
  rate: z.number().nonnegative().optional(),
  etaSeconds: z.number().int().nonnegative().nullable().optional(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const CacheChanged = z.object({
  entity: z.enum(CACHE_ENTITIES),
  count: z.number().int().nonnegative(),
});
export type CacheChanged = z.infer<typeof CacheChanged>;

/** How many Data API records a sync stored (sync-summary.ts, without zod for the overview). */
export { dataRecordTotal } from '../sync-summary.js';

export const syncChannels = {
  'sync:start': {
    roles: EVERYONE,
    action: 'Syncing',
    changes: true,
    input: z.strictObject({
      data: z.boolean().optional(),
      full: z.boolean().optional(),
      consentIds: z.array(ConsentId).min(1).max(1000).optional(),
    }),
    output: SyncSummary,
  },
  'sync:cancel': {
    roles: EVERYONE,
    action: 'Cancelling the sync',
    changes: true,
    input: Empty,
    output: z.object({ cancelled: z.boolean() }),
  },
  'sync:last': { reads: [], roles: EVERYONE, action: 'Reading the last sync', input: Empty, output: SyncSummary.nullable() },
  'cache:reset': { roles: ADMIN, action: 'Resetting the cache', input: Empty, output: z.object({ switching: z.literal(true) }) },
} as const satisfies Record<string, ChannelSchema>;
