// @vitest-environment node
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { START_SYNC_AFTER_MS } from '../../electron/host/run.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `npm run serve` stopped (Ctrl+C, a service manager's SIGTERM) while its start's sync still runs:
 * it closes the cache as on any other stop, so the next start does not find it left open and check
 * every page of it in the background (which took a core from the first screen at each start).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const host = join(root, 'dist', 'electron', 'host.mjs');

function run(dataDir: string, args: string[], until: (out: string) => boolean) {
  const child = spawn(process.execPath, [host, '--port', '0', '--data-dir', dataDir, '--sync-every', '0', ...args], {
    cwd: root,
    env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const reached = new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (until(out)) resolve(out);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`the host exited with ${code}:\n${out}`)));
  });
  return { reached, exited, output: () => out, stop: (signal: NodeJS.Signals) => child.kill(signal) };
}

describe('the browser host stopped during its start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'closes the cache on %s while the start sync runs: the next start finds it closed',
    async (signal) => {
      expect(existsSync(host), 'run npm run build first').toBe(true);
      const dataDir = tempDir('cdr-host-stop-');
      const first = run(dataDir, ['--sandbox-consents', '5000'], (out) => out.includes('CDR Console at '));
      await first.reached;
      // With no page opened, the start sync begins after START_SYNC_AFTER_MS: stopped once it runs.
      await new Promise((resolve) => setTimeout(resolve, START_SYNC_AFTER_MS + 300));
      expect(first.output(), 'the sync had already finished: nothing was interrupted').not.toMatch(/Synced \d+ consents/);
      first.stop(signal);
      expect(await first.exited, first.output()).toBe(0);
      // Cancelled, not failed: nothing on the terminal says the sync failed.
      expect(first.output()).not.toMatch(/sync failed/i);
      const profiles = join(dataDir, 'profiles');
      for (const profile of readdirSync(profiles))
        expect(readdirSync(join(profiles, profile)).filter((f) => f.includes('.open-'))).toEqual([]);

      const second = run(dataDir, ['--no-sync'], (out) => out.includes('CDR Console at '));
      await second.reached;
      second.stop('SIGTERM');
      expect(await second.exited, second.output()).toBe(0);
      expect(readFileSync(join(dataDir, 'logs', 'console.log'), 'utf8')).not.toContain('not closed last time');
    },
    60_000,
  );
});
