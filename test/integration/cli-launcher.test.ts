import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

/**
 * `npm run cli` runs the command line from its bundle (build/cli.mjs → dist/electron/cli.mjs), and
 * rebuilds the bundle first when a source is newer: a script never runs yesterday's code.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const bundle = join(root, 'dist/electron/cli.mjs');
const run = (args: string[]) =>
  spawnSync(process.execPath, [join(root, 'build/cli.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' },
  });

describe('npm run cli (the bundled command line)', () => {
  it('runs from the bundle, and rebuilds it first when the sources are newer', () => {
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    const first = run(['--version']);
    expect(first.status).toBe(0);
    expect(first.stdout.trim()).toBe(version);
    // A bundle older than every source, as after a checkout: the launcher builds it again before it runs.
    utimesSync(bundle, new Date(0), new Date(0));
    const again = run(['--data-dir', tempDir(), 'profiles', 'list', '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([expect.objectContaining({ id: 'sandbox', default: 'yes' })]);
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
  });

  it('writes the code’s own non-ASCII text as it is written (the launcher reads the bundle as Latin-1: its code is ASCII)', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('who the commands act as: this machine’s operator');
  });

  it('keeps the command line’s exit codes and its errors on stderr', () => {
    const bad = run(['--data-dir', tempDir(), 'consent', 'not an id']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Consent id/);
    expect(bad.stdout).toBe('');
  });

  it('the bundle run directly is the command line alone (the normaliser bundled into it stays quiet)', () => {
    run(['--version']); // built and current
    const direct = spawnSync(process.execPath, [bundle, '--version'], { cwd: root, encoding: 'utf8' });
    expect(direct.status).toBe(0);
    expect(direct.stderr).toBe('');
    expect(direct.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('keeps what a command compiled for its next call, and a damaged cache costs only that call’s time', () => {
    const dir = tempDir();
    const profiles = ['--data-dir', dir, 'profiles', 'list', '--json'];
    const first = run(profiles);
    expect(first.status, first.stderr).toBe(0);
    // The launcher's cache for this build and this command (dist/electron/cli.mjs, writeCliLauncher).
    const cacheDir = join(root, 'node_modules/.cache/cdr-console-cli');
    const { size, mtimeMs } = statSync(join(root, 'dist/electron/cli-main.cjs'));
    const name = `${process.version}-${process.arch}-${size}-${Math.round(mtimeMs)}-profiles.v8`;
    expect(readdirSync(cacheDir)).toContain(name);
    // Damaged (a disk error, a half-written file): V8 refuses it, the command answers as before, and
    // the cache is written again.
    writeFileSync(join(cacheDir, name), 'not a code cache');
    const again = run(profiles);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(first.stdout);
    expect(readFileSync(join(cacheDir, name), 'utf8')).not.toBe('not a code cache');
    expect(statSync(join(cacheDir, name)).size).toBeGreaterThan(10_000);
  });
});
