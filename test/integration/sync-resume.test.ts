import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { syncConsentsToSqlite as syncConsents } from '../../electron/core/cache/sqlite-sync-store.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { expectWholeIndexes, sandboxClient, syncDepsOn } from '../helpers/truth.js';

/**
 * Kill a sync at random points and resume it: the cache must end equal to the sandbox's truth
 * (every consent as served, every event once), with nothing lost and nothing duplicated.
 */
let sandbox: RunningSandbox;
let truth: { consents: Map<string, unknown>; eventIds: Set<string> };

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 31, consents: 2600 });
  const client = sandboxClient(sandbox.url);
  const consents = new Map<string, unknown>();
  for await (const p of client.listConsentPages({ pageSize: 1000 })) for (const c of p.consents) consents.set(c.consentId, c);
  const eventIds = new Set<string>();
  for await (const p of client.listEventPages({ pageSize: 1000 })) for (const e of p.items) eventIds.add(e.eventId!);
  truth = { consents, eventIds };
}, 60_000);
afterAll(() => sandbox.close());

function expectEqualToTruth(db: Db) {
  expectWholeIndexes(db);
  const ids = db.prepare<[], { consent_id: string }>('SELECT consent_id FROM consents').all();
  expect(ids).toHaveLength(truth.consents.size);
  const repo = new ConsentsRepo(db);
  // Every consent's payload as the API sent it, key order included.
  for (const { consent_id } of ids) expect(JSON.stringify(repo.get(consent_id))).toBe(JSON.stringify(truth.consents.get(consent_id)));
  const events = db
    .prepare<[], { event_id: string }>('SELECT event_id FROM events')
    .all()
    .map((r) => r.event_id);
  expect(events).toHaveLength(truth.eventIds.size);
  expect(new Set(events)).toEqual(truth.eventIds);
}

class Crash extends Error {}

describe('sync: crash and resume', () => {
  it.each([1, 2, 4, 5, 9, 17])(
    'a crash after %i stored pages, then a resume, leaves the cache equal to the sandbox',
    async (crashAfter) => {
      const db = openCache(':memory:');
      const deps = {
        ...syncDepsOn(db, sandbox.url),
        pageSize: 500,
        // One commit per page, so "after N stored pages" means N commits.
        batch: { rows: 500, ms: 60_000 },
      };
      let stored = 0;
      const crashing = syncConsents({
        ...deps,
        onPageStored: () => {
          if (++stored === crashAfter) throw new Crash(`killed after page ${crashAfter}`);
        },
      });
      await expect(crashing).rejects.toThrow(Crash);
      const resumed = await syncConsents(deps);
      // Crashes during the consents phase resume from the saved page, not from the start.
      if (crashAfter < 6) expect(resumed).toMatchObject({ resumed: true });
      expect(resumed.consents.new + resumed.consents.unchanged + resumed.consents.changed).toBeLessThanOrEqual(truth.consents.size);
      expectEqualToTruth(db);
    },
    60_000,
  );

  it('an error while a large transaction is open keeps the whole pages stored before it, and a resume completes', async () => {
    const db = openCache(':memory:');
    const deps = { ...syncDepsOn(db, sandbox.url), pageSize: 500 };
    const failing = syncConsents({
      ...deps,
      onProgress: (p) => {
        if (p.phase === 'consents' && p.done === 1500) throw new Crash('the console failed after three pages');
      },
    });
    await expect(failing).rejects.toThrow(Crash);
    expect(deps.consents.count()).toBe(1500);
    expect(db.inTransaction).toBe(false);
    expect(await syncConsents(deps)).toMatchObject({ resumed: true, mode: 'full', consents: { new: 1100 } });
    expectEqualToTruth(db);
  }, 60_000);
  // Real SIGKILLs of a syncing console process, at 12 random points: sync-kills.test.ts.
});
