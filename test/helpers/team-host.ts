import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { People } from '../../electron/core/people/people.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { pgPeopleStore } from '../../electron/core/postgres/people.js';
import { registerInstance, teamStoreOpener, thisInstance } from '../../electron/core/postgres/team-store.js';
import { Downloads } from '../../electron/host/downloads.js';
import { startBrowserHost, type BrowserHost } from '../../electron/host/server.js';
import type { Role } from '../../shared/ipc/roles.js';
import { freshDatabase, type TestDatabase } from './pg.js';
import { tempDir } from './temp.js';

/**
 * A team server in this process, as `npm run team` assembles it: a fresh database, the core on the
 * team store over the embedded sandbox (synced once), its people, and the browser host signing them
 * in. Each user's password is "<name> password 1".
 */
export interface TeamHost {
  core: Core;
  people: People;
  host: BrowserHost;
  db: PgDb;
  origin: string;
  /** One HTTP request exactly as given (no client library adds or fixes headers). */
  send(method: string, path: string, opts?: { headers?: Record<string, string>; body?: string }): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export async function startTeamHost(opts: {
  users: readonly (readonly [name: string, displayName: string, role: Role])[];
  consents?: number;
}): Promise<TeamHost> {
  const database: TestDatabase = await freshDatabase();
  const db = new PgDb(database.url, { max: 8 });
  await migrate(db);
  const me = thisInstance();
  const heartbeat = await registerInstance(db, me, null, 500);
  // The people's audit log is the core's, opened next.
  const opened: { core?: Core } = {};
  const people = new People(pgPeopleStore(db), () => opened.core?.stores.audit);
  for (const [name, displayName, role] of opts.users)
    await people.add({ name, displayName, role, password: `${name} password 1` }, 'setup');
  const staticDir = join(tempDir(), 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>CDR Console</title>');
  const downloads = new Downloads(join(tempDir(), 'downloads'));
  const core = await startCore({
    dataDir: tempDir(),
    host: 'team',
    appVersion: '0',
    log: { info() {}, error() {} },
    sandbox: { consents: opts.consents ?? 30, seed: 5 },
    store: teamStoreOpener(db, me),
    people,
    files: downloads.sink(),
  });
  opened.core = core;
  await core.sync();
  const host = await startBrowserHost({ router: core.router, events: core.events, staticDir, downloads, signIn: { service: people } });
  const origin = `http://127.0.0.1:${host.port}`;
  const c = core;
  return {
    core: c,
    people,
    host,
    db,
    origin,
    send: (method, path, o = {}) =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: host.port, method, path, headers: { host: `127.0.0.1:${host.port}`, ...o.headers } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
          },
        );
        req.on('error', reject);
        req.end(o.body);
      }),
    async close() {
      await host.close();
      await c.close();
      await heartbeat.stop();
      await db.close();
      await database.drop();
    },
  };
}
