import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { writeRemoteProfile } from '../helpers/remote.js';
import { spawnLines, until, type LineChild } from '../helpers/child-lines.js';
import { tempDir } from '../helpers/temp.js';
import { expectTeamStoreEqualToTruth, readTruth, type Truth } from '../helpers/truth.js';

/**
 * Team servers as real processes (test/helpers/team-child.ts) on one PostgreSQL store and one
 * intermediary: one syncs at a time, a SIGKILL of the syncing one lets another take over at its next
 * tick, and a sync killed again and again resumes each time; the store ends equal to the
 * intermediary, nothing lost and nothing stored twice.
 */
const KILLS = 10;
let sandbox: RunningSandbox;
let truth: Truth;
const databases: TestDatabase[] = [];
const children = new Set<ChildProcess>();
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 61, consents: 3000 });
  truth = await readTruth(sandbox.url);
}, 120_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(databases.map((d) => d.drop()));
  await sandbox.close();
});

async function store(): Promise<{ url: string; db: PgDb }> {
  const database = await freshDatabase();
  databases.push(database);
  const db = new PgDb(database.url, { max: 2 });
  await migrate(db);
  return { url: database.url, db };
}

/** A team server process (helpers/team-child.ts): it prints one JSON line per sync progress report. */
function server(dataDir: string, url: string, tickMs: number, now: boolean): LineChild & { progress(n: number): Promise<void> } {
  const child = spawnLines('team-child.ts', [dataDir, url, String(tickMs), ...(now ? ['now'] : [])], children);
  return { ...child, progress: (n) => child.count(n, (lines) => lines.filter((l) => l.startsWith('{')).length) };
}

const expectEqualToTruth = (db: PgDb) => expectTeamStoreEqualToTruth(db, truth);

/** A whole sync finished (its summary is kept last, after the reference lists and the deferred indexes). */
const synced = async (db: PgDb) => (await db.one("SELECT 1 FROM sync_state WHERE key = 'sync.lastSummary'")) !== undefined;

describe('team servers killed', () => {
  it('one syncs while the other serves; SIGKILL the syncing one and the other takes over at its next tick', async () => {
    const { url, db } = await store();
    const dataDir = tempDir();
    writeRemoteProfile(dataDir, sandbox.url);
    const servers = [server(dataDir, url, 1_000, true), server(dataDir, url, 1_000, false)];
    const idOf = (c: LineChild) => c.lines.find((l) => l.startsWith('READY'))?.slice(6);
    // Whichever takes the lock first syncs; the other's ticks are refused meanwhile.
    let holder: string | undefined;
    await until(
      async () => {
        holder = (await db.one<{ instance_id: string }>('SELECT instance_id FROM team_instances WHERE syncing'))?.instance_id;
        return holder !== undefined && servers.every((c) => idOf(c));
      },
      60_000,
      'a server to sync',
    );
    const [a, b] = idOf(servers[0]!) === holder ? [servers[0]!, servers[1]!] : [servers[1]!, servers[0]!];
    await a.progress(3);
    expect(
      (await db.query<{ instance_id: string }>('SELECT instance_id FROM team_instances WHERE syncing')).map((s) => s.instance_id),
    ).toEqual([holder]);
    expect(b.lines.filter((l) => l.startsWith('{'))).toEqual([]);
    a.process.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    if (await synced(db)) throw new Error('the first server finished before it was killed: make the sandbox larger');
    await until(() => synced(db), 90_000, 'the second server to finish the sync');
    expect(b.lines.some((l) => l.startsWith('{'))).toBe(true);
    await expectEqualToTruth(db);
    b.process.kill('SIGKILL');
    await b.exited;
    await db.close();
  }, 180_000);

  it(`a sync killed ${KILLS} times at random points resumes each time and ends equal to the intermediary`, async () => {
    const { url, db } = await store();
    const dataDir = tempDir();
    writeRemoteProfile(dataDir, sandbox.url);
    let kills = 0;
    for (let run = 0; kills < KILLS && run < 3 * KILLS; run++) {
      const child = server(dataDir, url, 3_600_000, true);
      const at = 1 + Math.floor(Math.random() * 12);
      const killed = child.progress(at).then(() => child.process.exitCode === null && child.process.kill('SIGKILL'));
      const finished = until(async () => child.lines.some((l) => l.startsWith('SYNCED') || l.startsWith('REFUSED')), 120_000, 'a sync');
      await Promise.race([killed, finished]);
      if (child.lines.some((l) => l.startsWith('SYNCED'))) {
        child.process.kill('SIGKILL');
        await child.exited;
        break; // it finished first: the store is complete
      }
      expect(await child.exited).toBe('SIGKILL');
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS / 2);
    // The last run completes whatever the kills left.
    const last = server(dataDir, url, 3_600_000, true);
    await until(async () => last.lines.some((l) => l.startsWith('SYNCED') || l.startsWith('REFUSED')), 120_000, 'the last sync');
    expect(last.lines.find((l) => l.startsWith('SYNCED') || l.startsWith('REFUSED'))).toMatch(/^SYNCED /);
    last.process.kill('SIGKILL');
    await last.exited;
    await expectEqualToTruth(db);
    await db.close();
  }, 600_000);
});
