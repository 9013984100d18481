import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreHost, type CoreHost } from '../../electron/core/core-host.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { registerInstance, teamStoreOpener, thisInstance } from '../../electron/core/postgres/team-store.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A console core on the team store, as a team server runs it (host and router in this process): a
 * console cannot switch the team's profile or reset the team's store, whatever the host could do
 * in solo mode.
 */
let database: TestDatabase;
let db: PgDb;
let host: CoreHost;
let heartbeat: { stop(): Promise<void> } | undefined;
beforeAll(async () => {
  database = await freshDatabase();
  db = new PgDb(database.url, { max: 6 });
  await migrate(db);
  const me = thisInstance();
  heartbeat = await registerInstance(db, me, null, 500);
  host = await startCoreHost({
    dataDir: tempDir('cdr-team-core-'),
    host: 'team',
    appVersion: 'test',
    log: { info() {}, error() {} },
    sandbox: { seed: 9, consents: 40 },
    store: teamStoreOpener(db, me),
    syncEveryMinutes: 0,
  });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await heartbeat?.stop();
  await db?.close();
  await database?.drop();
});

type Envelope = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
const call = (channel: string, input: unknown) => host.router.handle(channel, input, true) as Promise<Envelope>;

describe('a team server’s console', () => {
  it('cannot switch the team’s profile or reset the team’s store: refused with why, nothing reopened', async () => {
    const before = host.core();
    expect(await call('cache:reset', {})).toEqual({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: "The team's store is the team's PostgreSQL database, shared by every server: it is not reset from a console.",
      },
    });
    expect(await call('profiles:switch', { id: 'sandbox' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/restart every server of the team with --profile/) },
    });
    expect(host.core()).toBe(before);
    expect(await call('app:status', {})).toMatchObject({ ok: true, value: { host: 'team' } });
  });
});
