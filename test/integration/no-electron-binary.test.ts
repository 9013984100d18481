// @vitest-environment node
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

/**
 * What a developer sees on a machine that cannot download the Electron binary (ours, CI): `npm start`
 * falls back to the browser host with one line saying how to get Electron, and never tries to
 * download it; the old rebuild scripts still run, rebuild nothing and say why.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const electronPackage = join(root, 'node_modules', 'electron');
const work = tempDir('cdr-start-');
const hasElectronBinary = existsSync(join(electronPackage, 'path.txt')) || !!process.env.ELECTRON_OVERRIDE_DIST_PATH;

describe('npm start without an Electron binary', () => {
  it.skipIf(hasElectronBinary)(
    'starts the browser host, says how to get Electron, and downloads nothing',
    async () => {
      const start = join(root, 'dist', 'electron', 'start.mjs');
      expect(existsSync(start), 'run npm run build first').toBe(true);
      const child = spawn(
        process.execPath,
        [start, '--no-sync', '--sync-every', '0', '--sandbox-consents', '5', '--data-dir', join(work, 'data')],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const ready = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 25_000);
        child.stdout.on('data', () => {
          if (stdout.includes('CDR Console at ')) {
            clearTimeout(timer);
            resolve(true);
          }
        });
        void exited.then(() => resolve(false));
      });
      child.kill('SIGTERM');
      await exited;

      expect(ready, `stdout:\n${stdout}\nstderr:\n${stderr}`).toBe(true);
      expect(stdout.split('\n')[0]).toBe(
        'Using the browser host: no Electron binary is installed (Electron downloads it on first use, not at npm install; ' +
          'to get it, run npx install-electron on a machine that can reach GitHub)',
      );
      expect(stdout + stderr).not.toMatch(/Downloading Electron|fetch failed|failed to install|rebuild/i);
      expect(stderr).toBe('');
      // Nothing was fetched into the package either.
      expect(existsSync(join(electronPackage, 'path.txt'))).toBe(false);
      expect(existsSync(join(electronPackage, 'dist'))).toBe(false);
    },
    40_000,
  );
});

describe('npm run rebuild:electron and rebuild:node, kept for scripts that call them', () => {
  const driver = join(root, 'node_modules', 'better-sqlite3-multiple-ciphers');
  /** Every file of the driver with its hash: a rebuild would change or add some. */
  const snapshot = () => {
    const out: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else out[path.slice(driver.length)] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    };
    walk(driver);
    return out;
  };

  it.each([
    ['electron', 'Electron', 'npm start checks that the driver loads in Electron before it opens the desktop window.'],
    ['node', 'Node', `Checked: the driver opens a database in Node ${process.version}.`],
  ])(
    'rebuild:%s succeeds, says a Node-API driver needs no rebuild, and changes nothing',
    (script, target, last) => {
      const before = snapshot();
      const run = spawnSync('npm', ['run', '-s', `rebuild:${script}`], { cwd: root, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).toBe(
        `Nothing to rebuild for ${target}: better-sqlite3-multiple-ciphers 13 is a Node-API module whose prebuilt binary ` +
          `(prebuilds/${process.platform}-${process.arch}.node) loads unchanged in Node 22.14+ and 24 and in Electron 45. ` +
          `(npm run rebuild:${script} is kept so that scripts calling it keep working; it changes nothing.)`,
      );
      expect(lines.at(-1)).toBe(last);
      expect(snapshot()).toEqual(before);
    },
    30_000,
  );
});
