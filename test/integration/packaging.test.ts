import { listPackage, statFile } from '@electron/asar';
import { Arch, build, Platform } from 'electron-builder';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { CHANNELS } from '../../shared/ipc/contract.js';

/**
 * Packages the app with the project's electron-builder config, as far as this machine allows: the
 * Electron binary cannot be downloaded, so a placeholder stands in for it. The placeholder carries
 * a fuse wire like Electron 45's (9 fuses, Electron's defaults), so electron-builder flips the
 * configured fuses in it as it would in the real binary. What is checked is what we ship.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const config = createRequire(import.meta.url)('../../build/electron-builder.config.cjs');
const DRIVER = 'node_modules/better-sqlite3-multiple-ciphers';

// The fuse wire: a sentinel, the schema version (1), the number of fuses, then one byte per fuse.
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
  'wasmTrapHandlers',
] as const;
const ELECTRON_DEFAULT_WIRE = '101100011';

function readFuseWire(binary: string): Record<(typeof FUSES)[number], boolean> {
  const bytes = readFileSync(binary);
  const at = bytes.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
  expect(at).toBeGreaterThanOrEqual(FUSE_SENTINEL.length);
  expect([bytes[at], bytes[at + 1]]).toEqual([1, FUSES.length]);
  const wire = bytes.subarray(at + 2, at + 2 + FUSES.length).toString('latin1');
  return Object.fromEntries(FUSES.map((name, i) => [name, wire[i] === '1'])) as Record<(typeof FUSES)[number], boolean>;
}

// One folder for everything this file makes, removed after its tests (tempDir registers that at
// the top level; a hook registered from inside a test or another hook would never run).
const work = tempDir('cdr-pack-');
let files: string[];
let resources: string;
let unpacked: string;
let packSeconds: number;

beforeAll(async () => {
  expect(existsSync(join(root, 'dist/electron/main.cjs')), 'run npm run build first').toBe(true);
  const fakeElectron = join(work, 'electron-dist');
  mkdirSync(fakeElectron);
  writeFileSync(join(fakeElectron, 'electron'), `#!/bin/sh\n# ${FUSE_SENTINEL}\x01\x09${ELECTRON_DEFAULT_WIRE}\n`, 'latin1');
  chmodSync(join(fakeElectron, 'electron'), 0o755);
  const started = performance.now();
  await build({
    projectDir: root,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    config: { ...config, electronDist: fakeElectron, directories: { ...config.directories, output: join(work, 'release') } },
  });
  packSeconds = (performance.now() - started) / 1000;
  resources = join(work, 'release', 'linux-unpacked', 'resources');
  files = listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
  unpacked = join(resources, 'app.asar.unpacked');
}, 120_000);

describe('packaging', () => {
  it('ships the bundled main process, preload and UI', () => {
    for (const f of [
      '/package.json',
      '/dist/electron/main.cjs',
      '/dist/electron/preload.cjs',
      '/dist/electron/worker.cjs',
      '/dist/renderer/index.html',
    ])
      expect(files).toContain(f);
  });

  it('builds the preload with one bridge function per channel of the contract, and without the contract’s zod', () => {
    const preload = readFileSync(join(root, 'dist/electron/preload.cjs'), 'utf8');
    // The array esbuild wrote in for __CDR_CHANNELS__ (as it prints it: spaces, line breaks).
    const list = /\[[^\]]*"app:status"[^\]]*\]/.exec(preload)?.[0] ?? '';
    const names = [...list.matchAll(/"([a-z]+:[A-Za-z]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(CHANNELS);
    expect(preload.length).toBeLessThan(20_000);
    expect(preload).not.toMatch(/ZodError|zod/i);
  });

  it('ships no sources, source maps, tests or development dependencies', () => {
    const offending = files.filter(
      (f) =>
        /\.(ts|tsx|map)$/.test(f) ||
        /^\/(electron|renderer|shared|test|build)\//.test(f) ||
        /node_modules\/(@faker-js|react|vite|electron-builder|typescript)\b/.test(f),
    );
    expect(offending).toEqual([]);
  });

  it("ships the driver's lib/ and its linux-x64 Node-API prebuild, unpacked from the asar and unchanged", () => {
    for (const f of ['package.json', 'lib/index.js', 'lib/binding.js', 'lib/database.js', 'lib/linux-x64.js'])
      expect(files).toContain(`/${DRIVER}/${f}`);
    const prebuild = `${DRIVER}/prebuilds/linux-x64.node`;
    expect(statFile(join(resources, 'app.asar'), prebuild)).toMatchObject({ unpacked: true });
    // Byte for byte the package's own prebuild: nothing was rebuilt for Electron.
    expect(readFileSync(join(unpacked, prebuild)).equals(readFileSync(join(root, prebuild)))).toBe(true);
  });

  it('ships no other platform prebuild, and none of the driver build inputs', () => {
    expect(files.filter((f) => f.endsWith('.node'))).toEqual([`/${DRIVER}/prebuilds/linux-x64.node`]);
    expect(readdirSync(join(unpacked, DRIVER, 'prebuilds'))).toEqual(['linux-x64.node']);
    const buildInputs = files.filter(
      (f) =>
        f.startsWith(`/${DRIVER}/deps`) ||
        f.startsWith(`/${DRIVER}/src`) ||
        f.startsWith(`/${DRIVER}/build`) ||
        f === `/${DRIVER}/binding.gyp` ||
        f.startsWith('/node_modules/node-addon-api'),
    );
    expect(buildInputs).toEqual([]);
  });

  it('ships a driver that writes and reads back an encrypted database from what is in the package alone', () => {
    // electron-builder unpacks the whole native module, so Node can load it from there; Electron
    // would read lib/ through the asar and the .node from app.asar.unpacked.
    const packaged = join(unpacked, DRIVER);
    const file = join(mkdtempSync(join(work, 'db-')), 'cache.sqlite');
    const script = `
      const Database = require(${JSON.stringify(packaged)});
      const file = ${JSON.stringify(file)};
      let db = new Database(file);
      db.pragma("key = 'k'");
      db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (42)');
      db.close();
      db = new Database(file);
      db.pragma("key = 'k'");
      process.stdout.write(JSON.stringify([db.prepare('SELECT x FROM t').get().x, db.prepare('SELECT sqlite3mc_version() v').get().v]));`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: resources, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([42, expect.stringMatching(/^SQLite3 Multiple Ciphers /)]);
    expect(readFileSync(file).subarray(0, 15).toString('latin1')).not.toBe('SQLite format 3');
  });

  it('flips the hardening fuses in the packaged binary and leaves wasmTrapHandlers at its default (on)', () => {
    expect(readFuseWire(join(resources, '..', 'cdr-console'))).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
      wasmTrapHandlers: true,
    });
  });

  it('sets every fuse electron-builder can set, and rebuilds nothing', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config).toMatchObject({ npmRebuild: false, nodeGypRebuild: false, buildDependenciesFromSource: false });
    // Informational: how long packaging took on this machine (never an assertion).
    console.log(`packaging (linux x64, dir target, placeholder binary) took ${packSeconds.toFixed(1)} s`);
  });
});

describe("the packaging check of the driver's prebuild", () => {
  const fakePack = (platform: string, arch: Arch, prebuilds: string[]) => {
    const appOutDir = mkdtempSync(join(work, 'afterpack-'));
    const dir = join(appOutDir, 'resources', 'app.asar.unpacked', DRIVER, 'prebuilds');
    mkdirSync(dir, { recursive: true });
    for (const p of prebuilds) writeFileSync(join(dir, p), '');
    return () =>
      config.afterPack({
        appOutDir,
        electronPlatformName: platform,
        arch,
        packager: { getResourcesDir: (out: string) => join(out, 'resources') },
      });
  };

  it('accepts the target prebuild alone', () => {
    expect(fakePack('linux', Arch.arm64, ['linux-arm64.node'])).not.toThrow();
    expect(fakePack('win32', Arch.x64, ['win32-x64.node'])).not.toThrow();
    expect(fakePack('darwin', Arch.arm64, ['darwin-arm64.node'])).not.toThrow();
  });

  it('fails a target the driver has no prebuild for, naming the ones it has', () => {
    expect(fakePack('linux', Arch.ia32, [])).toThrow(
      'better-sqlite3-multiple-ciphers: expected only prebuilds/linux-ia32.node in the package, found []. Prebuilds exist for darwin-arm64, darwin-x64, linux-arm64, linux-x64, linuxmusl-arm64, linuxmusl-x64, win32-arm64, win32-x64; build one of those targets.',
    );
    expect(fakePack('darwin', Arch.universal, ['darwin-x64.node'])).toThrow(/expected only prebuilds\/darwin-universal\.node/);
  });

  it('fails a package that carries other platforms’ prebuilds', () => {
    expect(fakePack('linux', Arch.x64, ['linux-x64.node', 'linuxmusl-x64.node'])).toThrow(
      /expected only prebuilds\/linux-x64\.node in the package, found \[linux-x64\.node, linuxmusl-x64\.node\]/,
    );
  });
});
