import type { z } from 'zod';
import type { EventName, MethodName } from './channels.js';
import type { Envelope } from './errors.js';
import type { ChannelSchema } from './contract/common.js';
import { appChannels, TeamDatabase } from './contract/app.js';
import { consentsChannels } from './contract/consents.js';
import { CacheChanged, SyncProgress, syncChannels } from './contract/sync.js';
import { eventsChannels } from './contract/events.js';
import { auditChannels } from './contract/audit.js';
import { Job, jobsChannels } from './contract/jobs.js';
import { settingsChannels } from './contract/settings.js';
import { reportsChannels } from './contract/reports.js';
import { ProfileSwitched, profilesChannels } from './contract/profiles.js';
import { dataChannels } from './contract/data.js';
import { usersChannels } from './contract/users.js';
import { complaintsChannels } from './contract/complaints.js';
import { rule94Channels } from './contract/rule94.js';
import { alertsChannels } from './contract/alerts.js';
import { refusalFor } from './roles.js';
/**
 * The IPC contract: for every channel, the zod schema of its input and its output; for every
 * event, the schema of its payload. Main parses every input against it (a compromised renderer
 * can send anything); the bridge types are derived from it, so nothing is written twice.
 *
 * Each domain keeps its part in contract/<domain>.ts (its schemas and its channels); this index
 * only assembles them, and the events and the bridge's types derived from them.
 */

export * from './contract/common.js';
export * from './contract/app.js';
export * from './contract/consents.js';
export * from './contract/sync.js';
export * from './contract/events.js';
export * from './contract/audit.js';
export * from './contract/jobs.js';
export * from './contract/settings.js';
export * from './contract/reports.js';
export * from './contract/profiles.js';
export * from './contract/data.js';
export * from './contract/users.js';
export * from './contract/complaints.js';
export * from './contract/rule94.js';
export * from './contract/alerts.js';
export * from './roles.js';

/** Every channel, assembled from the domains' own parts (contract/<domain>.ts). */
export const contract = {
  ...appChannels,
  ...consentsChannels,
  ...syncChannels,
  ...eventsChannels,
  ...auditChannels,
  ...jobsChannels,
  ...settingsChannels,
  ...reportsChannels,
  ...profilesChannels,
  ...dataChannels,
  ...usersChannels,
  ...complaintsChannels,
  ...rule94Channels,
  ...alertsChannels,
} as const satisfies Record<string, ChannelSchema>;

/** A channel's name: `area:verb`. */
export type Channel = keyof typeof contract;

/** Every channel, in the contract's order. */
export const CHANNELS = Object.keys(contract) as Channel[];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && Object.hasOwn(contract, value);
}

/**
 * Why a caller with `role` may not send `input` on `channel`, in a sentence, or null when they may:
 * the channel's roles first, then those of the fields the input sets (contract/common.ts). Read by
 * the router before anything else (never trusting the input: only its own keys are looked at) and
 * by the renderer, to say why a button is disabled in the same words.
 */
export function roleRefusal(channel: Channel, role: unknown, input?: unknown): string | null {
  const spec: ChannelSchema = contract[channel];
  const refused = refusalFor(spec, role);
  if (refused || !spec.fields || typeof input !== 'object' || input === null || Array.isArray(input)) return refused;
  for (const [field, permission] of Object.entries(spec.fields)) {
    if (!Object.hasOwn(input, field) || (input as Record<string, unknown>)[field] === undefined) continue;
    const own = refusalFor(permission, role);
    if (own) return own;
  }
  return null;
}

export const events = {
  'sync:progress': SyncProgress,
  'cache:changed': CacheChanged,
  'jobs:progress': Job,
  'profile:switched': ProfileSwitched,
  /** A team server lost its database or reached it again (each server's own view: not relayed). */
  'team:database': TeamDatabase,
} as const satisfies Record<EventName, z.ZodType>;

export type ChannelInput<C extends Channel> = z.input<(typeof contract)[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<(typeof contract)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** What the preload exposes as `window.api`, derived from the contract. */
export type BridgeApi = {
  [C in Channel as MethodName<C>]: (input: ChannelInput<C>) => Promise<Envelope<ChannelOutput<C>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
