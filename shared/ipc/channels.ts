/**
 * The names of every IPC channel and event, and nothing else.
 *
 * Kept free of zod so the sandboxed preload can import it and stay tiny: the preload
 * builds one named function per channel from this list (see electron/preload.ts).
 */
export const CHANNELS = [
  'app:status',
  'consents:list',
  'consents:count',
  'consents:options',
  'consents:ids',
  'consents:resolve',
  'consents:get',
  'consents:export',
  'consents:create',
  'evidence:export',
  'reference:list',
  'jobs:list',
  'jobs:items',
  'jobs:control',
  'jobs:export',
  'settings:get',
  'settings:set',
  'sandbox:approve',
  'consents:revoke',
  'consents:update',
  'authorization:start',
  'authorization:decode',
  'authorization:complete',
  'bulk:revoke',
  'events:failures',
  'sync:start',
  'sync:cancel',
  'data:list',
  'audit:list',
  'audit:verify',
  'audit:export',
  'audit:query',
  'audit:options',
  'audit:exportFile',
  'events:list',
  'events:count',
  'events:days',
  'events:export',
  'webhooks:summary',
  'reports:compliance',
  'reports:export',
  'sync:last',
  'profiles:list',
  'profiles:test',
  'profiles:save',
  'profiles:remove',
  'profiles:switch',
  'cache:reset',
  'operator:get',
  'operator:set',
  'data:consents',
  'data:groups',
  'data:meta',
  'data:records',
  'data:export',
  'data:sync',
  'products:list',
  'products:get',
  'products:versions',
  'products:export',
] as const;
export type Channel = (typeof CHANNELS)[number];

export const EVENTS = ['sync:progress', 'cache:changed', 'jobs:progress', 'profile:switched'] as const;
export type EventName = (typeof EVENTS)[number];

/** `consents:list` → `consentsList`: the name of the bridge function for a channel. */
export type MethodName<C extends string> = C extends `${infer Area}:${infer Verb}` ? `${Area}${Capitalize<Verb>}` : never;

export function methodName<C extends Channel>(channel: C): MethodName<C> {
  const [area, verb] = channel.split(':') as [string, string];
  return `${area}${verb.charAt(0).toUpperCase()}${verb.slice(1)}` as MethodName<C>;
}

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENTS as readonly string[]).includes(value);
}
