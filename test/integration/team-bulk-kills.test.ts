import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { writeRemoteProfile } from '../helpers/remote.js';
import { spawnLines, type LineChild } from '../helpers/child-lines.js';
import { tempDir } from '../helpers/temp.js';
import { readTruth } from '../helpers/truth.js';

/**
 * A bulk revocation on team servers as real processes (test/helpers/bulk-child.ts), one PostgreSQL
 * store and one intermediary: the server running the job is SIGKILLed again and again — half the
 * time as one of its DELETEs reaches the intermediary (before anything of it is recorded), half the
 * time at a random moment — and each time a new server resumes the job. At the end every consent
 * is REVOKED at the intermediary, by exactly one DELETE; every item has one final status; the audit
 * log has one revocation per consent, and its chain verifies.
 */
const KILLS = 10;
const N = 80;
const RATE = 20;
let sandbox: RunningSandbox;
let ids: string[];
const deletes = new Map<string, number>();
/** Called on each DELETE of a consent as it reaches the intermediary (before it is handled). */
let onDelete: (() => void) | undefined;
let database: TestDatabase;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 19, consents: 400 });
  const truth = await readTruth(sandbox.url);
  ids = [...truth.consents.entries()]
    .filter(([, json]) => (JSON.parse(json) as { status?: string }).status === 'ACTIVE')
    .map(([id]) => id)
    .slice(0, N);
  sandbox.onRequest((method, path) => {
    const m = /^\/consents\/([^/]+)$/.exec(path);
    if (method !== 'DELETE' || !m) return;
    const id = decodeURIComponent(m[1]!);
    deletes.set(id, (deletes.get(id) ?? 0) + 1);
    onDelete?.();
  });
  database = await freshDatabase();
}, 120_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await database?.drop();
  await sandbox?.close();
});

/** A team server process running bulk jobs (helpers/bulk-child.ts). */
function server(dataDir: string, url: string, args: string[]): Omit<LineChild, 'line'> & { line(...prefixes: string[]): Promise<string> } {
  const child = spawnLines('bulk-child.ts', [dataDir, url, String(RATE), ...args], children);
  return { ...child, line: (...prefixes) => child.line((l) => prefixes.some((p) => l.startsWith(p))) };
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))]);

describe('team servers killed mid-bulk-revocation', () => {
  it(`a bulk revocation whose server is SIGKILLed ${KILLS} times resumes each time on a new server: each consent revoked once, by one DELETE`, async () => {
    const db = new PgDb(database.url, { max: 2 });
    await migrate(db);
    const dataDir = tempDir();
    writeRemoteProfile(dataDir, sandbox.url);
    let kills = 0;
    let onDeleteKills = 0;
    let finished = false;
    for (let run = 0; kills < KILLS; run++) {
      const child = server(dataDir, database.url, run === 0 ? ['start', ids.join(',')] : []);
      const started = await within(child.line('JOB', 'RESUMED', 'NOTHING', 'FAILED'), 60_000, 'the job to start or resume');
      expect(started).toMatch(/^(JOB|RESUMED) /);
      const kill = () => child.process.exitCode === null && child.process.kill('SIGKILL');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const asDeleteArrives = kills % 2 === 0;
      if (asDeleteArrives) {
        // As its k-th DELETE reaches the intermediary: sent, taken, but nothing of it recorded.
        let k = 1 + Math.floor(Math.random() * 3);
        onDelete = () => void (--k === 0 && kill());
      } else timer = setTimeout(kill, Math.floor(Math.random() * 600));
      const ended = await Promise.race([child.exited, child.line('DONE', 'FAILED')]);
      onDelete = undefined;
      clearTimeout(timer);
      if (ended.startsWith('FAILED')) throw new Error(`the job failed: ${ended}`);
      if (ended.startsWith('DONE')) {
        finished = true;
        child.process.kill('SIGKILL');
        await child.exited;
        break; // it finished before the kill: nothing left to resume
      }
      expect(ended).toBe('SIGKILL');
      kills++;
      if (asDeleteArrives) onDeleteKills++;
    }
    if (!finished) {
      // The last server resumes whatever the kills left, to the end.
      const last = server(dataDir, database.url, []);
      expect(await within(last.line('RESUMED', 'NOTHING', 'FAILED'), 60_000, 'the last resume')).toMatch(/^(RESUMED|NOTHING)/);
      if (last.lines.some((l) => l.startsWith('RESUMED')))
        expect(await within(last.line('DONE', 'FAILED'), 60_000, 'the end')).toMatch(/^DONE /);
      last.process.kill('SIGKILL');
      await last.exited;
    }
    expect(kills).toBe(KILLS);

    // The intermediary: every consent of the job REVOKED, each by exactly one DELETE, and no other consent touched.
    for (const id of ids) expect(sandbox.world.consent(sandbox.world.indexOf(id)!).status, id).toBe('REVOKED');
    expect([...deletes.keys()].sort()).toEqual([...ids].sort());
    expect([...deletes.entries()].filter(([, n]) => n !== 1)).toEqual([]);

    // The store: one item per consent, each with one final status; one revocation per consent in the audit log.
    const items = await db.query<{ consent_id: string; status: string }>('SELECT consent_id, status FROM action_job_items ORDER BY seq');
    expect(items.map((i) => i.consent_id)).toEqual(ids);
    expect(items.filter((i) => i.status !== 'revoked')).toEqual([]);
    const revoked = await db.query<{ target: string; n: number; confirmed: number }>(
      `SELECT target, count(*) AS n, count(*) FILTER (WHERE reason LIKE '%confirmed after an interruption%') AS confirmed
       FROM audit_log WHERE action = 'revoke' AND result = 'revoked' GROUP BY target`,
    );
    expect(revoked.map((r) => r.target).sort()).toEqual([...ids].sort());
    expect(revoked.filter((r) => r.n !== 1)).toEqual([]);
    // Each kill as a DELETE arrived left a revocation only the intermediary knew of, confirmed on resume
    // (a kill at a random moment may have done so too).
    const confirmed = revoked.reduce((a, r) => a + r.confirmed, 0);
    expect(confirmed).toBeGreaterThanOrEqual(onDeleteKills);
    expect(confirmed).toBeLessThanOrEqual(kills);
    expect(await postgresStorage(db).audit.verify()).toMatchObject({ ok: true });
    await db.close();
  }, 180_000);
});
