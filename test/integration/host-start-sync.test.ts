// @vitest-environment node
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { START_SYNC_AFTER_MS } from '../../electron/host/run.js';
import { SESSION_COOKIE } from '../../electron/host/server.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `npm run serve` syncs by itself at start, as before, but not while the page it opens loads
 * (issue 21: the sync took a core from the first screen's scripts): it starts once main has
 * answered the page's first read, or after START_SYNC_AFTER_MS when no page opens.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function startHost() {
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist', 'electron', 'host.mjs'),
      '--port',
      '0',
      '--data-dir',
      tempDir('cdr-start-sync-'),
      '--sync-every',
      '0',
      '--sandbox-consents',
      '30',
    ],
    { cwd: root, env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const waiters: { test: RegExp; resolve: (at: number) => void }[] = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters])
      if (w.test.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(performance.now());
      }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    /** When the output first matched `test`, on this process's clock. */
    seen: (test: RegExp) =>
      new Promise<number>((resolve, reject) => {
        if (test.test(out)) return resolve(performance.now());
        waiters.push({ test, resolve });
        setTimeout(() => reject(new Error(`not seen within 30 s: ${test}\n${out}`)), 30_000);
      }),
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('the browser host syncs by itself at start', () => {
  it(`with no page opened, after ${START_SYNC_AFTER_MS / 1000} s`, async () => {
    const host = startHost();
    try {
      const listening = await host.seen(/CDR Console at /);
      const synced = await host.seen(/Synced 30 consents \(30 new, 0 changed\)/);
      expect(synced - listening).toBeGreaterThanOrEqual(START_SYNC_AFTER_MS - 100);
    } finally {
      await host.stop();
    }
  }, 40_000);

  it("once main has answered the first page's first read, which no sync held up", async () => {
    const host = startHost();
    try {
      await host.seen(/CDR Console at /);
      const launch = /CDR Console at (\S+)/.exec(host.output())![1]!;
      const origin = new URL(launch).origin;
      // The token traded for the session cookie, as the page does.
      const signIn = await fetch(launch, { redirect: 'manual' });
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      expect(cookie.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/ipc`, { headers: { cookie, origin } });
      const order: string[] = [];
      const answered = new Promise<void>((resolve) =>
        ws.on('message', (data) => {
          const m = JSON.parse(String(data)) as { id?: number; event?: string; payload?: { state?: string } };
          if (m.id === 1) {
            order.push('answer');
            resolve();
          } else if (m.event === 'sync:progress' && !order.includes('sync')) order.push('sync');
        }),
      );
      await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
      const sent = performance.now();
      ws.send(JSON.stringify({ id: 1, channel: 'consents:count', input: { filter: {} } }));
      await answered;
      const synced = await host.seen(/Synced 30 consents/);
      ws.close();
      // The read first, the sync after it (its progress events follow the answer), and soon.
      expect(order).toEqual(['answer', 'sync']);
      expect(synced - sent).toBeLessThan(15_000);
    } finally {
      await host.stop();
    }
  }, 40_000);
});
