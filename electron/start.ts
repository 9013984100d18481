import './runtime/node-guard.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appRoot } from './host/app-root.js';
import { hostCommand, runBrowserHost, type HostCliOptions } from './host/run.js';

/**
 * `npm start`: the desktop window when an Electron binary is installed and can load our native
 * modules, otherwise the browser host, saying why.
 */
const repoRoot = appRoot(import.meta.url);

function electronBinary(): { path: string } | { reason: string } {
  if (process.argv.includes('--browser')) return { reason: '--browser was given' };
  let path: string;
  try {
    // Under Node, the electron package exports the path of its binary, or throws when the
    // binary was never downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD, or no network at install).
    path = createRequire(import.meta.url)('electron') as string;
  } catch {
    return { reason: 'no Electron binary is installed (its download is skipped or impossible on this machine)' };
  }
  if (!existsSync(path)) return { reason: `the Electron binary ${path} is missing` };
  // node_modules is built for Node (so tests run); Electron needs its own ABI build.
  const probe = spawnSync(path, ['-e', "new (require('better-sqlite3-multiple-ciphers'))(':memory:').close()"], {
    cwd: repoRoot,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (probe.status !== 0) {
    return {
      reason: 'better-sqlite3-multiple-ciphers is built for Node, not Electron (run npm run rebuild:electron to use the desktop window)',
    };
  }
  return { path };
}

const found = electronBinary();
if ('path' in found) {
  console.log('Starting the CDR Console desktop window.');
  const args = process.argv.slice(2).filter((a) => a !== '--browser');
  const child = spawn(found.path, [join(repoRoot, 'dist', 'electron', 'main.cjs'), ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const program = hostCommand('start').option('--browser', 'use the browser host even when Electron is installed').parse();
  await runBrowserHost(program.opts<HostCliOptions>(), repoRoot, found.reason);
}
