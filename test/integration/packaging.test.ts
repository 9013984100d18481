import { listPackage } from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

/**
 * Packages the app with the project's electron-builder config, as far as this machine allows:
 * the Electron binary cannot be downloaded, so a placeholder stands in for it and the fuses
 * (which patch that binary) are left out. What is checked is what we ship: the asar's contents.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const config = createRequire(import.meta.url)('../../build/electron-builder.config.cjs');
let files: string[];
let unpacked: string;

beforeAll(async () => {
  expect(existsSync(join(root, 'dist/electron/main.cjs')), 'run npm run build first').toBe(true);
  const work = tempDir('cdr-pack-');
  const fakeElectron = join(work, 'electron-dist');
  mkdirSync(fakeElectron);
  writeFileSync(join(fakeElectron, 'electron'), '#!/bin/sh\n');
  chmodSync(join(fakeElectron, 'electron'), 0o755);
  await build({
    projectDir: root,
    targets: Platform.LINUX.createTarget('dir'),
    config: {
      ...config,
      electronFuses: undefined,
      electronDist: fakeElectron,
      npmRebuild: false,
      directories: { ...config.directories, output: join(work, 'release') },
    },
  });
  const resources = join(work, 'release', 'linux-unpacked', 'resources');
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

  it('ships no sources, source maps, tests or development dependencies', () => {
    const offending = files.filter(
      (f) =>
        /\.(ts|tsx|map)$/.test(f) ||
        /^\/(electron|renderer|shared|test|build)\//.test(f) ||
        /node_modules\/(@faker-js|react|vite|electron-builder|typescript)\b/.test(f),
    );
    expect(offending).toEqual([]);
  });

  it('unpacks the native SQLite module so it can be loaded', () => {
    expect(existsSync(join(unpacked, 'node_modules/better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node'))).toBe(true);
    expect(files.some((f) => f.includes('better-sqlite3-multiple-ciphers/deps/') || f.includes('test_extension'))).toBe(false);
  });

  it('turns the hardening fuses on in the real configuration', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      onlyLoadAppFromAsar: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });
});
