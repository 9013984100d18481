import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` compiles nothing: the SQLite driver ships Node-API prebuilds for every platform we
 * support. npm would still run a no-op `node-gyp rebuild` on it when installing from the lockfile
 * (which does not record the package's `"gypfile": false`), and that step needs python and make, or
 * Visual Studio on Windows: package.json's allowScripts denies it (npm 11).
 */
const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
const driverDir = dirname(createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers/package.json'));
const npmMajor = Number(execFileSync('npm', ['--version'], { encoding: 'utf8' }).split('.')[0]);

describe('the install', () => {
  it("denies the driver's install-time build in package.json", () => {
    expect(pkg.allowScripts['better-sqlite3-multiple-ciphers']).toBe(false);
  });

  it.skipIf(npmMajor < 11)('left no node-gyp build in the driver (this npm honours allowScripts)', () => {
    expect(existsSync(join(driverDir, 'build'))).toBe(false);
  });

  it.runIf(process.platform === 'linux')("loads the driver's prebuilt binary for this platform", () => {
    const Database = createRequire(import.meta.url)('better-sqlite3-multiple-ciphers') as new (file: string) => { close(): void };
    new Database(':memory:').close();
    const mapped = readFileSync('/proc/self/maps', 'utf8');
    expect(mapped).toContain(join(driverDir, 'prebuilds', `linux-${process.arch}.node`));
  });
});
