import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreError } from '../../electron/ipc/router.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { startTeamLive, type Notice } from '../../electron/core/postgres/live.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { liveInstances, pgSyncEngine, registerInstance, thisInstance } from '../../electron/core/postgres/team-store.js';
import type { SyncMessage } from '../../electron/core/sync/port.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { sandboxClient, tokenOptions } from '../helpers/truth.js';

/**
 * The team store's sync against the embedded sandbox over real HTTP: what it stores equals what the
 * intermediary serves; two servers on one database never sync at once (the second is told who
 * syncs); a server's notices reach another server in order, and after its link comes back.
 */
let sandbox: RunningSandbox;
let database: TestDatabase;
const pools: PgDb[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, consents: 600 });
  database = await freshDatabase();
  const owner = new PgDb(database.url, { max: 2 });
  await migrate(owner);
  await owner.close();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close().catch(() => undefined)));
  await database.drop();
  await sandbox.close();
});

function pool(): PgDb {
  const p = new PgDb(database.url, { max: 6 });
  pools.push(p);
  return p;
}

const target = () => ({ tokens: tokenOptions(sandbox.url), consentApiBaseUrl: sandbox.url, dataApiBaseUrl: sandbox.url });

describe('team sync', () => {
  it('stores what the intermediary serves, once, and only one server syncs at a time', async () => {
    const a = pool();
    const b = pool();
    const [ia, ib] = [thisInstance(), thisInstance()];
    const regs = [await registerInstance(a, ia, 'http://127.0.0.1:1/'), await registerInstance(b, ib, 'http://127.0.0.1:2/')];
    const messages: SyncMessage[] = [];
    const first = pgSyncEngine(a, target(), ia).run({ full: true }, (m) => messages.push(m));
    // The first has the lock once it reports progress; the second is refused, told who syncs.
    await new Promise<void>((resolve) => {
      const t = setInterval(() => messages.some((m) => m.type === 'progress') && (clearInterval(t), resolve()), 5);
    });
    const second = await pgSyncEngine(b, target(), ib)
      .run({ full: true }, () => undefined)
      .result.catch((e: unknown) => e);
    expect(second).toBeInstanceOf(CoreError);
    expect((second as CoreError).code).toBe('BUSY');
    expect((second as Error).message).toContain(`the team server on ${ia.host} (process ${ia.pid})`);
    const summary = await first.result;
    expect(summary.consents.new).toBe(600);

    // Equal to the intermediary: every consent as served, every event once.
    const client = sandboxClient(sandbox.url);
    const served = new Map<string, unknown>();
    for await (const p of client.listConsentPages({ pageSize: 500 })) for (const c of p.consents) served.set(c.consentId, c);
    const stored = await a.query<{ consent_id: string; payload: unknown }>('SELECT consent_id, payload FROM consents');
    expect(stored).toHaveLength(served.size);
    for (const r of stored) expect(r.payload).toEqual(served.get(r.consent_id));
    let events = 0;
    for await (const p of client.listEventPages({ pageSize: 1000 })) events += p.items.length;
    expect((await a.one<{ n: number }>('SELECT count(*) AS n FROM events'))!.n).toBe(events);
    expect(messages.filter((m) => m.type === 'stored').reduce((n, m) => n + (m.type === 'stored' ? m.count : 0), 0)).toBeGreaterThanOrEqual(
      600,
    );

    // Now the second may sync: nothing new, nothing twice.
    const again = await pgSyncEngine(b, target(), ib).run({ full: true }, () => undefined).result;
    expect(again.consents).toMatchObject({ new: 0, changed: 0, unchanged: 600 });
    expect((await a.one<{ n: number }>('SELECT count(*) AS n FROM events'))!.n).toBe(events);
    expect((await liveInstances(a)).map((i) => i.instanceId).sort()).toEqual([ia.id, ib.id].sort());
    for (const r of regs) await r.stop();
    expect(await liveInstances(a)).toEqual([]);
  });

  it('carries notices between servers in order, and catches up with what was sent while a link was down', async () => {
    const a = pool();
    const b = pool();
    const heard: { event: Notice; payload: unknown }[] = [];
    const statuses: boolean[] = [];
    const la = await startTeamLive({ url: database.url, db: a, origin: 'a', onNotice: () => undefined });
    const lb = await startTeamLive({
      url: database.url,
      db: b,
      origin: 'b',
      onNotice: (event, payload) => heard.push({ event, payload }),
      onStatus: (s) => statuses.push(s.connected),
      retryMs: 50,
    });
    try {
      for (let i = 1; i <= 20; i++) await la.publish('cache:changed', { entity: 'consents', count: i });
      await lb.publish('cache:changed', { entity: 'events', count: 99 }); // its own: not heard back
      await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(20);
      expect(heard.map((h) => (h.payload as { count: number }).count)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      // The listening connection is cut: what is published meanwhile arrives after it reconnects.
      await a.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cdr-console live' AND pid <> pg_backend_pid()",
      );
      // The backend ends a moment after pg_terminate_backend returns: wait until the link is seen
      // down (else the next notices may still arrive on the old connection, and its end come after).
      await expect.poll(() => statuses.includes(false), { timeout: 5_000 }).toBe(true);
      for (let i = 21; i <= 25; i++) await la.publish('cache:changed', { entity: 'consents', count: i });
      await expect.poll(() => heard.length, { timeout: 10_000 }).toBe(25);
      expect(heard.map((h) => (h.payload as { count: number }).count)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      await expect.poll(() => lb.status().connected, { timeout: 10_000 }).toBe(true);
    } finally {
      await la.close();
      await lb.close();
    }
  });
});
