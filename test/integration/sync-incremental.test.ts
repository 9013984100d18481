import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentClient } from '../../electron/core/api/consent-client.js';
import { openCache } from '../../electron/core/cache/database.js';
import { syncConsentsToSqlite as syncConsents } from '../../electron/core/cache/sqlite-sync-store.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import type { Consent } from '../../shared/schemas/consent.js';
import { mutate } from '../helpers/mutate.js';
import { syncDepsOn } from '../helpers/truth.js';

/**
 * Incremental sync: the API has no "updated since", so the events feed says which consents changed
 * and `oldestCreated` finds the new ones. An update made by another client makes no event: the
 * periodic full reconcile catches it.
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 9, consents: 2000 });
});
afterAll(() => sandbox.close());

function deps() {
  return syncDepsOn(openCache(':memory:'), sandbox.url);
}

async function truth(client: ConsentClient): Promise<{ consents: Map<string, Consent>; events: Set<string> }> {
  const consents = new Map<string, Consent>();
  for await (const p of client.listConsentPages({ pageSize: 1000 })) for (const c of p.consents) consents.set(c.consentId, c);
  const events = new Set<string>();
  for await (const p of client.listEventPages({ pageSize: 1000 })) for (const e of p.items) events.add(e.eventId!);
  return { consents, events };
}

describe('incremental sync', () => {
  it('reads only what the events feed and oldestCreated say changed; the reconcile catches an update that made no event', async () => {
    const d = deps();
    expect(await syncConsents(d)).toMatchObject({ mode: 'full', consents: { fetched: 2000, new: 2000 } });

    const changed = await mutate(sandbox.url, { revoke: 7, extend: 6, update: 5, create: 8 });
    const now = await truth(d.client);
    const incremental = await syncConsents(d);
    expect(incremental).toMatchObject({ mode: 'incremental', consents: { new: 8, changed: 13 } });
    // Read again: the 13 the events named and the newest consents (new, plus those created in the last hour before them).
    expect(incremental.consents.fetched).toBeLessThan(60);

    const json = (c: unknown) => JSON.stringify(c);
    for (const id of [...changed.revoked, ...changed.extended, ...changed.created])
      expect(json(d.consents.get(id))).toBe(json(now.consents.get(id)));
    expect(changed.revoked.map((id) => d.consents.get(id)!.status)).toEqual(changed.revoked.map(() => 'REVOKED'));
    const cachedEvents = new Set(d.events.list({ limit: 100_000 }).map((e) => e.eventId));
    expect(cachedEvents).toEqual(now.events);
    // The updates made no event: still the old payload until the next full listing.
    for (const id of changed.updated) expect(d.consents.get(id)!.externalId).not.toBe(now.consents.get(id)!.externalId);

    // Nothing changed since: nothing to read but the newest consents.
    expect(await syncConsents(d)).toMatchObject({ mode: 'incremental', consents: { new: 0, changed: 0 }, events: { new: 0 } });

    // Six hours later the sync lists every consent again, and the cache equals the intermediary.
    const later = new Date(Date.now() + 6 * 3_600_000 + 1000);
    expect(await syncConsents({ ...d, now: () => later })).toMatchObject({ mode: 'full', consents: { fetched: 2008, changed: 5 } });
    expect(d.consents.count()).toBe(now.consents.size);
    for (const [id, c] of now.consents) expect(json(d.consents.get(id))).toBe(json(c));
  }, 60_000);

  it('finds changes stamped earlier than the newest event it holds (an event recorded ahead of the clock)', async () => {
    // Seed 22's seeded history has one event 40 s after the sandbox's clock: every change made now is older.
    const ahead = await startSandbox({ seed: 22, consents: 200 });
    try {
      const d = syncDepsOn(openCache(':memory:'), ahead.url);
      await syncConsents(d);
      const newest = d.events.list({ limit: 1 })[0]!.timestamp;
      const status = (await (await fetch(`${ahead.url}/__sandbox/status`)).json()) as { now: string };
      expect(newest > status.now).toBe(true);
      const changed = await mutate(ahead.url, { revoke: 3, extend: 0, update: 0, create: 0 });
      const incremental = await syncConsents(d);
      expect(incremental).toMatchObject({ mode: 'incremental', consents: { changed: 3 } });
      expect(changed.revoked.map((id) => d.consents.get(id)!.status)).toEqual(['REVOKED', 'REVOKED', 'REVOKED']);
    } finally {
      await ahead.close();
    }
  }, 60_000);
});
