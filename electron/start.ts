import './runtime/node-guard.js';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { electronPackageDir, locateElectronBinary, probeDriverInElectron } from './runtime/electron-binary.js';
import { appRoot } from './host/app-root.js';
import { hostCommand, runBrowserHost, type HostCliOptions } from './host/run.js';

/**
 * `npm start`: the desktop window when an Electron binary is installed and can load our native
 * module, otherwise the browser host, saying why. Never `require('electron')` here: under Node it
 * downloads a missing binary (electron/runtime/electron-binary.ts).
 */
const repoRoot = appRoot(import.meta.url);

function electronBinary(): { path: string } | { reason: string } {
  if (process.argv.includes('--browser')) return { reason: '--browser was given' };
  const found = locateElectronBinary(electronPackageDir(import.meta.url));
  if (!('path' in found)) return found;
  const failure = probeDriverInElectron(found.path, repoRoot);
  return failure === null ? found : { reason: failure };
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
