// @vitest-environment node
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  HOW_TO_GET_ELECTRON,
  electronPackageDir,
  locateElectronBinary,
  probeDriverInElectron,
} from '../../electron/runtime/electron-binary.js';
import { tempDir } from '../helpers/temp.js';

/**
 * How `npm start` finds the Electron binary without `require('electron')` (which, since Electron 42,
 * downloads a missing binary), and how it checks that the SQLite driver loads in it. Fake electron
 * packages and fake binaries (shell scripts) stand in for the real ones, which cannot run here.
 */
const root = tempDir('cdr-electron-binary-');
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
let n = 0;

/** A fake node_modules/electron: an index.js that records being loaded, and optionally path.txt and dist/. */
function fakePackage(opts: { pathTxt?: string; dist?: string[] } = {}): { dir: string; loaded: string } {
  const dir = join(root, `electron-${++n}`);
  mkdirSync(dir);
  const loaded = join(dir, 'index-was-loaded');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0', main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), `require('fs').writeFileSync(${JSON.stringify(loaded)}, ''); throw new Error('downloading');`);
  if (opts.pathTxt !== undefined) writeFileSync(join(dir, 'path.txt'), opts.pathTxt);
  for (const file of opts.dist ?? []) {
    mkdirSync(join(dir, 'dist', file, '..'), { recursive: true });
    writeFileSync(join(dir, 'dist', file), '');
  }
  return { dir, loaded };
}

function fakeBinary(script: string): string {
  const path = join(root, `fake-electron-${++n}`);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('locating the Electron binary', () => {
  it('says how to get the binary when the package has none, without loading the package', () => {
    const pkg = fakePackage();
    const found = locateElectronBinary(pkg.dir, {});
    expect(found).toEqual({
      reason: `no Electron binary is installed (Electron downloads it on first use, not at npm install; ${HOW_TO_GET_ELECTRON})`,
    });
    expect(HOW_TO_GET_ELECTRON).toContain('npx install-electron');
    expect(existsSync(pkg.loaded)).toBe(false);
  });

  it('finds the binary path.txt names under dist/', () => {
    const pkg = fakePackage({ pathTxt: 'electron', dist: ['electron'] });
    expect(locateElectronBinary(pkg.dir, {})).toEqual({ path: join(pkg.dir, 'dist', 'electron') });
    expect(existsSync(pkg.loaded)).toBe(false);
  });

  it('reads the macOS path from path.txt as it is', () => {
    const exe = 'Electron.app/Contents/MacOS/Electron';
    const pkg = fakePackage({ pathTxt: exe, dist: [exe] });
    expect(locateElectronBinary(pkg.dir, {})).toEqual({ path: join(pkg.dir, 'dist', exe) });
  });

  it('reports a binary path.txt names but dist/ lacks, with how to get it', () => {
    const pkg = fakePackage({ pathTxt: 'electron' });
    expect(locateElectronBinary(pkg.dir, {})).toEqual({
      reason: `the Electron binary ${join(pkg.dir, 'dist', 'electron')} is missing (${HOW_TO_GET_ELECTRON})`,
    });
  });

  it('follows ELECTRON_OVERRIDE_DIST_PATH as the package does, with or without path.txt', () => {
    const override = join(root, 'override');
    mkdirSync(override);
    writeFileSync(join(override, 'electron'), '');
    expect(locateElectronBinary(fakePackage().dir, { ELECTRON_OVERRIDE_DIST_PATH: override })).toEqual({
      path: join(override, 'electron'),
    });
    expect(locateElectronBinary(fakePackage({ pathTxt: 'electron' }).dir, { ELECTRON_OVERRIDE_DIST_PATH: override })).toEqual({
      path: join(override, 'electron'),
    });
    const empty = join(root, 'override-empty');
    mkdirSync(empty);
    expect(locateElectronBinary(fakePackage().dir, { ELECTRON_OVERRIDE_DIST_PATH: empty })).toEqual({
      reason: `ELECTRON_OVERRIDE_DIST_PATH points at ${join(empty, 'electron')}, which does not exist`,
    });
    // An empty variable is ignored, as the package ignores it.
    expect(locateElectronBinary(fakePackage().dir, { ELECTRON_OVERRIDE_DIST_PATH: '' })).toMatchObject({
      reason: expect.stringContaining('no Electron binary is installed'),
    });
  });

  it('says so when the electron package is not installed', () => {
    expect(locateElectronBinary(null, {})).toEqual({
      reason: 'the electron package is not installed (it is a dev dependency: run npm install)',
    });
    expect(electronPackageDir(`file://${join(root, 'nowhere', 'x.mjs')}`)).toBeNull();
  });

  it("finds this repository's electron package (45.x)", () => {
    const dir = electronPackageDir(import.meta.url);
    expect(dir).toBe(join(repoRoot, 'node_modules', 'electron'));
  });
});

describe('checking that the SQLite driver loads in Electron', () => {
  it('accepts a binary in which the driver opens a database, run as Node', () => {
    // Stands in for Electron run as Node: it refuses to run without ELECTRON_RUN_AS_NODE=1.
    const asNode = fakeBinary(`[ "$ELECTRON_RUN_AS_NODE" = 1 ] || exit 3\nexec "${process.execPath}" "$@"`);
    expect(probeDriverInElectron(asNode, repoRoot)).toBeNull();
  });

  it('names the error when the driver does not load, and suggests no rebuild', () => {
    const failing = fakeBinary(
      'echo "node:internal/modules/cjs/loader:1 throw err;" >&2\necho "Error: Cannot find module \'../build/Release/better_sqlite3.node\'" >&2\nexit 1',
    );
    const reason = probeDriverInElectron(failing, repoRoot);
    expect(reason).toBe(
      `the SQLite driver (better-sqlite3-multiple-ciphers) does not load in ${failing}: Error: Cannot find module '../build/Release/better_sqlite3.node'`,
    );
    expect(reason).not.toMatch(/rebuild/);
  });

  it('reports a crash by its signal', () => {
    const crashing = fakeBinary('kill -SEGV $$');
    expect(probeDriverInElectron(crashing, repoRoot)).toMatch(/does not load in .*: killed by SIGSEGV$/);
  });

  it('reports a binary that cannot be started', () => {
    expect(probeDriverInElectron(join(root, 'no-such-binary'), repoRoot)).toMatch(/does not load in .*no-such-binary: .*ENOENT/);
  });
});
