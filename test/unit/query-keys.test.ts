import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { EventName } from '../../shared/ipc/channels.js';
import { CACHE_ENTITIES, CHANNELS, contract, isChannel, type ChannelSchema } from '../../shared/ipc/contract.js';
import type { ConsoleClient } from '../../renderer/src/bridge/client.js';
import { bindMainEvents } from '../../renderer/src/events.js';

/**
 * A console reads again what a change touched because each read channel says in the contract what
 * it reads (ChannelSchema.reads) and each query's key starts with its channel (renderer/src/events.ts).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The first element of every query key the screens write: `queryKey: ['x:y', …]`, `KEY = ['x:y']`, `KEY = 'x:y'`. */
function queryKeyChannels(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources(join(root, 'renderer/src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:queryKey|[A-Z_]*KEY)\s*[:=]\s*\[?\s*'([a-zA-Z0-9]+:[a-zA-Z0-9]+)'/g)) found.set(m[1]!, file);
  }
  return found;
}

describe('query keys and change notices, from the contract', () => {
  it('every query a screen makes is keyed by a channel that says what it reads', () => {
    const keys = queryKeyChannels();
    expect(keys.size).toBeGreaterThan(30);
    for (const [channel, file] of keys) {
      expect(isChannel(channel), `${channel} (${file}) is not a channel`).toBe(true);
      expect(
        Array.isArray((contract[channel as keyof typeof contract] as ChannelSchema).reads),
        `${channel} (${file}) says nothing of what it reads`,
      ).toBe(true);
    }
  });

  it('every entity a change notice names is read by some channel, and no channel that writes says it reads', () => {
    for (const entity of CACHE_ENTITIES)
      expect(CHANNELS.filter((c) => (contract[c] as ChannelSchema).reads?.includes(entity)).length, entity).toBeGreaterThan(0);
    const writes = ['consents:revoke', 'bulk:revoke', 'complaints:record', 'alerts:acknowledge', 'settings:set', 'sync:start'] as const;
    for (const c of writes) expect((contract[c] as ChannelSchema).reads, c).toBeUndefined();
  });

  it('a change reads again the queries of the channels that read it, and no others', async () => {
    const listeners = new Set<(event: EventName, payload: unknown) => void>();
    const client = {
      on: (event: EventName, listener: (payload: unknown) => void) => {
        const l = (e: EventName, p: unknown) => e === event && listener(p);
        listeners.add(l);
        return () => listeners.delete(l);
      },
      onConnectionChange: () => () => undefined,
    } as unknown as ConsoleClient;
    const queries = new QueryClient();
    const keys = [
      ['events:count', {}],
      ['consents:get', { consentId: 'c1' }],
      ['consents:count', {}],
      ['complaints:list', {}],
    ];
    for (const key of keys) queries.setQueryData(key, { any: 1 });
    const off = bindMainEvents(client, queries);
    listeners.forEach((l) => l('cache:changed', { entity: 'events', count: 3 }));
    await expect.poll(() => queries.getQueryState(['events:count', {}])?.isInvalidated, { timeout: 3000 }).toBe(true);
    expect(queries.getQueryState(['consents:get', { consentId: 'c1' }])?.isInvalidated).toBe(true);
    expect(queries.getQueryState(['consents:count', {}])?.isInvalidated).toBe(false);
    expect(queries.getQueryState(['complaints:list', {}])?.isInvalidated).toBe(false);
    off();
  });

  it('the first connection asks only for the jobs (the screens ask the rest); a connection after a break reads everything again', async () => {
    let connection: ((state: 'connected' | 'disconnected') => void) | undefined;
    const asked: string[] = [];
    const client = {
      on: () => () => undefined,
      onConnectionChange: (listener: (state: 'connected' | 'disconnected') => void) => {
        connection = listener;
        listener('connected');
        return () => undefined;
      },
      appStatus: () => (asked.push('app:status'), Promise.resolve({ syncing: false })),
      jobsList: () => (asked.push('jobs:list'), Promise.resolve([])),
    } as unknown as ConsoleClient;
    const queries = new QueryClient();
    queries.setQueryData(['consents:list', {}], { first: 'read' });
    const off = bindMainEvents(client, queries);
    expect(asked).toEqual(['jobs:list']);
    // The first reads, seeded before the connection, are not read a second time.
    expect(queries.getQueryState(['consents:list', {}])?.isInvalidated).toBe(false);
    connection!('disconnected');
    connection!('connected');
    expect(asked).toEqual(['jobs:list', 'app:status', 'jobs:list']);
    expect(queries.getQueryState(['consents:list', {}])?.isInvalidated).toBe(true);
    off();
  });
});
