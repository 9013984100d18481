import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Finding the Electron binary for `npm start` without `require('electron')`. Under Node, the electron
 * package's index.js returns the binary's path, but since Electron 42 it first downloads a missing
 * binary from GitHub ("Downloading Electron binary...", then a network error on our machines).
 * This reads the same files it reads (path.txt, dist/, ELECTRON_OVERRIDE_DIST_PATH) and downloads
 * nothing.
 */
export type ElectronLookup = { path: string } | { reason: string };

export const HOW_TO_GET_ELECTRON = 'to get it, run npx install-electron on a machine that can reach GitHub';

/** The installed electron package's folder, or null when it is not installed. */
export function electronPackageDir(fromUrl: string): string | null {
  try {
    return dirname(createRequire(fromUrl).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** Where the binary is, decided as node_modules/electron/index.js decides, or why there is none. */
export function locateElectronBinary(packageDir: string | null, env: NodeJS.ProcessEnv = process.env): ElectronLookup {
  if (packageDir === null) return { reason: 'the electron package is not installed (it is a dev dependency: run npm install)' };
  const pathFile = join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : '';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const path = join(override, executable || 'electron');
    return existsSync(path) ? { path } : { reason: `ELECTRON_OVERRIDE_DIST_PATH points at ${path}, which does not exist` };
  }
  if (!executable) {
    return { reason: `no Electron binary is installed (Electron downloads it on first use, not at npm install; ${HOW_TO_GET_ELECTRON})` };
  }
  const path = join(packageDir, 'dist', executable);
  return existsSync(path) ? { path } : { reason: `the Electron binary ${path} is missing (${HOW_TO_GET_ELECTRON})` };
}

/**
 * Null when the SQLite driver opens a database inside this Electron (run as Node), else why not.
 * The driver's Node-API prebuild needs no rebuild for Electron; this catches a platform without a
 * prebuild, or an Electron whose Node lacks Node-API 10.
 */
export function probeDriverInElectron(electronPath: string, cwd: string): string | null {
  const probe = spawnSync(electronPath, ['-e', "new (require('better-sqlite3-multiple-ciphers'))(':memory:').close()"], {
    cwd,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (probe.status === 0) return null;
  const detail = probe.error
    ? probe.error.message
    : probe.signal
      ? `killed by ${probe.signal}`
      : ((probe.stderr ?? '').split('\n').find((line) => /Error/.test(line)) ?? `exit code ${probe.status}`).trim();
  return `the SQLite driver (better-sqlite3-multiple-ciphers) does not load in ${electronPath}: ${detail}`;
}
