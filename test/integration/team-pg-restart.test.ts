import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { PgDb } from '../../electron/core/postgres/db.js';
import { LIVE_CHANNEL, startTeamLive, type LiveStatus } from '../../electron/core/postgres/live.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../electron/core/postgres/embedded.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { writeRemoteProfile } from '../helpers/remote.js';
import { spawnLines, until } from '../helpers/child-lines.js';
import { tempDir } from '../helpers/temp.js';
import { expectTeamStoreEqualToTruth, readTruth, type Truth } from '../helpers/truth.js';

/**
 * PostgreSQL restarted under a team server mid-sync (its own cluster, not the run's shared one): the
 * server process lives on, its sync stops with words saying why, its consoles hear that the database
 * went away and came back, the next scheduled sync resumes and completes, and the store ends equal
 * to the intermediary (nothing lost, nothing twice).
 */
const TICK_MS = 1_500;
let sandbox: RunningSandbox;
let truth: Truth;
let postgres: EmbeddedPostgres | undefined;
let child: ChildProcess | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 67, consents: 4000 });
  truth = await readTruth(sandbox.url);
}, 120_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await postgres?.stop();
  await sandbox?.close();
});

describe('the team database restarted mid-sync', () => {
  it('the server survives, says what happened, and the next tick resumes the sync to the end', async () => {
    const dir = join(tempDir('cdr-pg-restart-'), 'pg');
    postgres = await startEmbeddedPostgres({ dir, unsafeFast: true });
    const port = postgres.port;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE cdr_restart');
    await admin.end();
    const url = new URL(postgres.url);
    url.pathname = '/cdr_restart';
    const owner = new PgDb(url.toString(), { max: 1 });
    await migrate(owner);
    await owner.close();

    // Another server's live link (live.ts), in this process: it loses its LISTEN connection too.
    const liveDb = new PgDb(url.toString(), { max: 2 });
    const notices: unknown[] = [];
    const statuses: LiveStatus[] = [];
    const live = await startTeamLive({
      url: url.toString(),
      db: liveDb,
      origin: 'watcher',
      onNotice: (_event, payload) => notices.push(payload),
      onStatus: (s) => statuses.push(s),
    });

    const dataDir = tempDir();
    writeRemoteProfile(dataDir, sandbox.url);
    const started = Date.now();
    const server = spawnLines('team-child.ts', [dataDir, url.toString(), String(TICK_MS), 'now']);
    child = server.process;
    const lines = server.lines;
    // What the server said, but its running progress, when something went wrong.
    onTestFailed(() => console.log(lines.filter((l) => !l.includes('"state":"running"')).join('\n')));
    let exited: string | undefined;
    void server.exited.then((how) => (exited = how));
    const progress = () => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { state: string; message?: string });

    // Mid-sync: a few pages stored, then PostgreSQL stopped (a fast shutdown: every backend terminated).
    await until(() => progress().length >= 4, 60_000, 'the sync to store a few pages');
    expect(lines.some((l) => l.startsWith('SYNCED'))).toBe(false);
    await postgres.stop();
    postgres = undefined;
    await new Promise((r) => setTimeout(r, 2_000));
    // The sync failed with words saying why; the process lives on; its consoles heard the database went away.
    await until(() => lines.some((l) => l.startsWith('REFUSED') || l.startsWith('SYNCED')), 20_000, 'the sync to stop');
    expect(exited).toBeUndefined();
    const refused = lines.find((l) => l.startsWith('REFUSED') || l.startsWith('SYNCED'))!;
    expect(refused).toMatch(/^REFUSED Sync failed: The (team database restarted|connection to the team database was lost) during the sync/);
    expect(refused).toMatch(/resumes/);
    expect(progress().some((p) => p.state === 'failed' && /during the sync/.test(p.message ?? ''))).toBe(true);
    const database = () =>
      lines.filter((l) => l.startsWith('DATABASE ')).map((l) => JSON.parse(l.slice(9)) as { state: string; problem: string | null });
    await until(() => database().some((d) => d.state === 'unreachable'), 10_000, 'the database to be reported unreachable');
    expect(database().find((d) => d.state === 'unreachable')!.problem).toMatch(/cannot be reached/);

    // While it is away, app:status still answers, saying so.
    const status = () =>
      lines
        .filter((l) => l.startsWith('STATUS '))
        .map((l) => JSON.parse(l.slice(7)) as { ok: boolean; value?: { team?: { database?: { state: string } } } });
    await until(() => status().length > 0, 10_000, 'app:status while the database is away');
    expect(status()[0]).toMatchObject({ ok: true, value: { team: { database: { state: 'unreachable' } } } });
    expect(statuses.some((s) => !s.connected)).toBe(true);

    // Started again on the same folder and port: the server reconnects by itself and the next tick resumes.
    postgres = await startEmbeddedPostgres({ dir, port, unsafeFast: true });
    // A notice published as soon as it is back reaches the live link, heard or caught up when it reconnects.
    const publisher = new PgDb(url.toString(), { max: 1 });
    await publisher.query(
      `WITH n AS (INSERT INTO team_notices (origin, event, payload) VALUES ('other', 'cache:changed', $1) RETURNING seq)
       SELECT pg_notify($2, seq::text) FROM n`,
      [JSON.stringify({ entity: 'consents', count: 7 }), LIVE_CHANNEL],
    );
    await publisher.close();
    await until(() => database().at(-1)?.state === 'ok', 20_000, 'the database to be reported reachable again');
    await until(() => status().at(-1)?.value?.team?.database?.state === 'ok', 10_000, 'app:status to say the database is back');
    await until(() => notices.some((n) => (n as { count?: number }).count === 7), 20_000, 'the live link to catch up');
    expect(statuses.at(-1)?.connected).toBe(true);
    await live.close();
    await liveDb.close();
    await until(() => lines.includes('SYNCED scheduled'), 60_000, 'a scheduled sync to finish');
    expect(exited).toBeUndefined();

    const db = new PgDb(url.toString(), { max: 2 });
    try {
      await expectTeamStoreEqualToTruth(db, truth);
      // The heartbeat went on after the restart: the server is seen now.
      const seen = await db.one<{ fresh: boolean }>("SELECT seen > now() - interval '10 seconds' AS fresh FROM team_instances");
      expect(seen?.fresh).toBe(true);
    } finally {
      await db.close();
    }
    expect(Date.now() - started).toBeLessThan(90_000);
    child.kill('SIGKILL');
  }, 150_000);
});
