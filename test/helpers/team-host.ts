import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { People } from '../../electron/core/people/people.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { startTeamLive, type TeamLive } from '../../electron/core/postgres/live.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { pgPeopleStore } from '../../electron/core/postgres/people.js';
import { registerInstance, teamStoreOpener, thisInstance } from '../../electron/core/postgres/team-store.js';
import { Downloads } from '../../electron/host/downloads.js';
import { SESSION_COOKIE, startBrowserHost, type BrowserHost } from '../../electron/host/server.js';
import { WebSocket } from 'ws';
import { teamAuditKeys } from '../../electron/team/audit-keys.js';
import { linkPeople } from '../../electron/team/people-link.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault } from '../../electron/core/secrets/vault.js';
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
  database: TestDatabase;
  /** The server's data directory (its vault holds the team's audit keys). */
  dataDir: string;
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
  /**
   * Another server of the same team: its database (the users and the consents are the first one's),
   * nothing synced or added here.
   */
  second?: TeamHost;
  /** The live link between the team's servers, as `npm run team` starts it (serve.ts). */
  live?: boolean;
}): Promise<TeamHost> {
  const database: TestDatabase = opts.second?.database ?? (await freshDatabase());
  const db = new PgDb(database.url, { max: 8 });
  if (!opts.second) await migrate(db);
  const me = thisInstance();
  const heartbeat = await registerInstance(db, me, null, 500);
  // The people's audit log is the core's, opened next.
  const opened: { core?: Core } = {};
  const people = new People(pgPeopleStore(db), () => opened.core?.stores.audit);
  if (!opts.second)
    for (const [name, displayName, role] of opts.users)
      await people.add({ name, displayName, role, password: `${name} password 1` }, 'setup');
  const staticDir = join(tempDir(), 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>CDR Console</title>');
  const downloads = new Downloads(join(tempDir(), 'downloads'));
  // The team's data directory (a second server shares the first one's, as the README says): its
  // vault holds the audit keys, so the log is keyed as a team server keys it.
  const dataDir = opts.second?.dataDir ?? tempDir();
  const auditKeys = await teamAuditKeys(new SecretVault(dataDir, createKeyFileCipher(dataDir)), db, { create: true });
  const core = await startCore({
    dataDir,
    host: 'team',
    appVersion: '0',
    log: { info() {}, error() {} },
    sandbox: { consents: opts.consents ?? 30, seed: 5 },
    store: teamStoreOpener(db, me, undefined, undefined, auditKeys),
    people,
    files: downloads.sink(),
  });
  opened.core = core;
  if (!opts.second) await core.sync();
  const host = await startBrowserHost({ router: core.router, events: core.events, staticDir, downloads, signIn: { service: people } });
  let live: TeamLive | undefined;
  if (opts.live) {
    const link = linkPeople(
      people,
      (event, payload) => live?.publish(event, payload) ?? Promise.resolve(),
      () => undefined,
    );
    live = await startTeamLive({
      url: database.url,
      db,
      origin: me.id,
      onNotice: (event, payload) => {
        if (!link.heard(event, payload)) core.events.emit(event, payload as never);
      },
    });
  }
  const origin = `http://127.0.0.1:${host.port}`;
  const c = core;
  return {
    core: c,
    people,
    host,
    db,
    database,
    dataDir,
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
      await live?.close();
      await host.close();
      await c.close();
      await heartbeat.stop();
      await db.close();
      if (!opts.second) await database.drop();
    },
  };
}

/** Signs `user` in with their password ("<user> password 1") over HTTP; the session cookie ("name=value"). */
export async function signInCookie(team: TeamHost, user: string): Promise<string> {
  const res = await team.send('POST', '/signin', {
    headers: { origin: team.origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user, password: `${user} password 1` }).toString(),
  });
  if (res.status !== 303) throw new Error(`signing ${user} in answered ${res.status}: ${res.body.slice(0, 200)}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  if (!cookie.startsWith(`${SESSION_COOKIE}=`)) throw new Error(`no session cookie for ${user}`);
  return cookie;
}

export interface TeamConsole {
  ws: WebSocket;
  call: (channel: string, input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>;
  closed: Promise<{ code: number; reason: string }>;
}

/** A console's IPC connection to the team server, as the signed-in person of `cookie`. */
export function openTeamConsole(team: TeamHost, cookie: string): Promise<TeamConsole> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${team.host.port}/ipc`, { headers: { cookie, origin: team.origin } });
    let id = 0;
    const waiting = new Map<number, (r: never) => void>();
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id?: number; result?: never };
      if (typeof m.id === 'number') waiting.get(m.id)?.(m.result!);
    });
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      ws.on('close', (code, reason) => r({ code, reason: String(reason) })),
    );
    ws.once('open', () =>
      resolve({
        ws,
        closed,
        call: (channel, input) =>
          new Promise((r) => {
            const n = ++id;
            waiting.set(n, r as never);
            ws.send(JSON.stringify({ id: n, channel, input }));
          }),
      }),
    );
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
