/**
 * The names of the IPC events, and how a channel's name becomes the bridge's method name.
 *
 * Kept free of zod so the sandboxed preload can import it and stay tiny. The channels themselves
 * are the contract's keys (contract.ts, assembled from contract/<domain>.ts): nothing lists them a
 * second time. The preload gets their names at build time (build/bundle-electron.mjs).
 */

export const EVENTS = ['sync:progress', 'cache:changed', 'jobs:progress', 'profile:switched', 'team:database'] as const;
export type EventName = (typeof EVENTS)[number];

/** `consents:list` → `consentsList`: the name of the bridge function for a channel. */
export type MethodName<C extends string> = C extends `${infer Area}:${infer Verb}` ? `${Area}${Capitalize<Verb>}` : never;

export function methodName<C extends string>(channel: C): MethodName<C> {
  const [area, verb] = channel.split(':') as [string, string];
  return `${area}${verb.charAt(0).toUpperCase()}${verb.slice(1)}` as MethodName<C>;
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENTS as readonly string[]).includes(value);
}
