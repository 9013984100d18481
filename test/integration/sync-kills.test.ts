import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault, secretNames } from '../../electron/core/secrets/vault.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { childScript } from '../helpers/ts-child.js';
import { tempDir } from '../helpers/temp.js';
import { expectEqualToTruth, readTruth, type Truth } from '../helpers/truth.js';
import { writeRemoteProfile } from '../helpers/remote.js';

/**
 * A console killed with SIGKILL at random points of a large sync (a real child process, its sync
 * on a worker thread writing the encrypted cache), again and again: after every kill the cache
 * opens and holds whole pages only; the next run resumes; the last one completes, and the cache
 * equals the sandbox's own state, with nothing lost and nothing duplicated.
 */
const KILLS = 12;
const root = fileURLToPath(new URL('../../', import.meta.url));
let sandbox: RunningSandbox;
let truth: Truth;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 53, consents: 5000 });
  truth = await readTruth(sandbox.url);
}, 120_000);
afterAll(() => sandbox.close());

function profileDir(): string {
  const dataDir = tempDir();
  writeRemoteProfile(dataDir, sandbox.url);
  return dataDir;
}

/** Runs the child; kills it at its `killAtLine`th progress report (a page stored, about), or lets it finish. */
function run(dataDir: string, killAtLine: number | null, full: boolean) {
  const child = spawn(process.execPath, [childScript('test/helpers/sync-child.ts'), dataDir, 'remote', ...(full ? ['full'] : [])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise<{ outcome: string; lines: number; done: string | null }>((resolve) => {
    let lines = 0;
    let done: string | null = null;
    let buffered = '';
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        if (line.startsWith('DONE ')) done = line.slice(5);
        else if (++lines === killAtLine && child.exitCode === null) child.kill('SIGKILL');
      }
    });
    child.once('exit', (_code, signal) => resolve({ outcome: signal ?? 'exited', lines, done }));
  });
}

function openProfileCache(dataDir: string): Db {
  const key = new SecretVault(dataDir, createKeyFileCipher(dataDir)).get(secretNames.cacheKey('remote'))!;
  return openCache(join(dataDir, 'profiles', 'remote', 'cache.sqlite'), key);
}

describe('sync: SIGKILL at random points', () => {
  it(`${KILLS} kills of a large sync, each followed by a resume: the cache opens every time and ends equal to the sandbox`, async () => {
    let dataDir = profileDir();
    const points: { atLine: number; consents: number; events: number }[] = [];
    let runs = 0;
    let completed = 0;
    while (points.length < KILLS && runs < 3 * KILLS) {
      runs++;
      // A first sync reports about 45 times (5 consent pages, 38 event pages, the reference data).
      const atLine = 2 + Math.floor(Math.random() * 30);
      const r = await run(dataDir, atLine, false);
      if (r.outcome !== 'SIGKILL') {
        // It finished before its kill: the cache equals the sandbox; the next kills hit a new cache's first sync.
        expect(r.outcome).toBe('exited');
        expect(JSON.parse(r.done!)).toMatchObject({ failures: [] });
        const db = openProfileCache(dataDir);
        try {
          expectEqualToTruth(db, truth);
        } finally {
          db.close();
        }
        completed++;
        dataDir = profileDir();
        continue;
      }
      // The cache opens after every kill, and holds whole pages only: no event twice.
      const db = openProfileCache(dataDir);
      try {
        const consents = (db.prepare('SELECT count(*) AS n FROM consents').get() as { n: number }).n;
        const events = db.prepare('SELECT count(DISTINCT event_id) AS n, count(*) AS rows FROM events').get() as {
          n: number;
          rows: number;
        };
        expect(events.n).toBe(events.rows);
        expect(consents).toBeLessThanOrEqual(truth.consents.size);
        points.push({ atLine, consents, events: events.n });
      } finally {
        db.close();
      }
    }
    expect(points).toHaveLength(KILLS);
    console.info(
      `${runs} runs, ${KILLS} killed, ${completed} completed before their kill (then a new cache); kill points (progress report → consents, events stored): ${points.map((p) => `${p.atLine}→${p.consents}/${p.events}`).join(', ')}`,
    );
    const last = await run(dataDir, null, false);
    // The resume after the last kill: whatever was stored stays, the rest is fetched.
    expect(last.outcome).toBe('exited');
    expect(last.done).not.toBeNull();
    expect(JSON.parse(last.done!)).toMatchObject({ failures: [] });
    const db = openProfileCache(dataDir);
    try {
      expect(db.pragma('quick_check', { simple: true })).toBe('ok');
      expectEqualToTruth(db, truth);
    } finally {
      db.close();
    }
  }, 240_000);
});
