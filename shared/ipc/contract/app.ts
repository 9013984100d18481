import { z } from 'zod';
import { Empty, Environment, type ChannelSchema } from './common.js';

/** The console host and its status. */

export const HostKind = z.enum(['electron', 'browser', 'team', 'cli']);

export const AppStatus = z.object({
  appVersion: z.string(),
  host: HostKind,
  profile: z.object({ id: z.string(), name: z.string(), environment: Environment, embedded: z.boolean() }),
  lastSyncAt: z.string().nullable(),
  lastSyncError: z.string().nullable(),
  /** Whether the last network contact with the intermediary succeeded. */
  online: z.boolean(),
  syncing: z.boolean(),
  consentCount: z.number().int().nonnegative(),
  /** How secrets and the cache key are protected on this machine (the browser host says it is a key file). */
  keyStorage: z.object({ kind: z.enum(['os-keychain', 'key-file']), description: z.string() }),
  /** A team server's view of its team: how many servers serve it, and which one syncs when it is another. */
  team: z.object({ servers: z.number().int().nonnegative(), syncingOn: z.string().nullable() }).nullable().optional(),
});
export type AppStatus = z.infer<typeof AppStatus>;

export const appChannels = {
  'app:status': { input: Empty, output: AppStatus },
} as const satisfies Record<string, ChannelSchema>;
