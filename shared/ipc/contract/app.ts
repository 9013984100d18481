import * as z from 'zod';
import { Empty, Environment, type ChannelSchema } from './common.js';
import { EVERYONE, ROLES } from '../roles.js';

/** The console host and its status. */

export const HostKind = z.enum(['electron', 'browser', 'team', 'cli']);

/**
 * Whether a team server reaches its team database (PostgreSQL), and since when: unreachable while
 * it is restarted or away (the server reconnects by itself; what the consoles show stays).
 */
export const TeamDatabase = z.object({
  state: z.enum(['ok', 'unreachable']),
  /** When it became so (ISO 8601, UTC). */
  since: z.string(),
  /** Why it is unreachable, in words; null when ok. */
  problem: z.string().nullable(),
});
export type TeamDatabase = z.infer<typeof TeamDatabase>;

export const TeamStatus = z.object({
  servers: z.number().int().nonnegative(),
  syncingOn: z.string().nullable(),
  /** Absent from servers that predate it. */
  database: TeamDatabase.optional(),
});
export type TeamStatus = z.infer<typeof TeamStatus>;

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
  /**
   * A team server's view of its team: how many servers serve it, which one syncs when it is another,
   * and whether its database is reachable.
   */
  team: TeamStatus.nullable().optional(),
  /**
   * Who is signed in, and their role (team mode's sign-in: the person the request came from).
   * Absent without sign-in (the desktop, the one-token browser host): every channel is open then.
   */
  user: z.object({ userId: z.string(), displayName: z.string(), role: z.enum(ROLES), method: z.string() }).optional(),
});
export type AppStatus = z.infer<typeof AppStatus>;

export const appChannels = {
  'app:status': { reads: ['consents'], roles: EVERYONE, action: 'Reading the status', input: Empty, output: AppStatus },
  /**
   * The desktop becomes a team server's client (Settings → Connect to a team server): the address
   * is checked (https, or http on this machine; a CDR Console team server answering), kept, and the
   * window opens the server's console. Only the desktop app does this; elsewhere it is refused.
   */
  'client:connect': {
    roles: EVERYONE,
    action: 'Connecting to a team server',
    input: z.strictObject({ url: z.string().trim().min(1).max(2000) }),
    output: z.object({ url: z.string() }),
  },
  /**
   * A screen or a part of the shell failed in the renderer (it shows an error panel instead): what
   * failed, for the host's log, where a person's "Copy details" can be matched with it. Bounded text,
   * logged redacted, at most 20 a minute (a page failing in a loop does not fill the disk).
   */
  'app:reportError': {
    roles: EVERYONE,
    action: 'Reporting an error of the console',
    input: z.strictObject({
      /** Which part failed: a screen's path ("/consents/:consentId") or a part of the shell ("Status bar"). */
      where: z.string().trim().min(1).max(200),
      /** The page's location (its hash route) when it failed. */
      location: z.string().max(2000),
      message: z.string().max(2000),
      stack: z.string().max(8000).optional(),
    }),
    /** Whether it went to the log (false: over the rate, said once in the log). */
    output: z.object({ logged: z.boolean() }),
  },
} as const satisfies Record<string, ChannelSchema>;
