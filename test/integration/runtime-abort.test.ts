import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childScript } from '../helpers/ts-child.js';
import { unsupportedNodeMessage } from '../../electron/runtime/node-guard.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The runtime the console runs on (Node 22 or 24) must never abort the process: with the 12.x
 * SQLite driver, Node 24 aborted after a sync when a statement's finalizer ran after its worker
 * thread's environment was gone. A child process drives the sync's worker thread and the
 * checkpoint helper through many start/stop cycles, ended every way the console ends them.
 */
describe('the runtime', () => {
  it(`is a supported Node (this run: ${process.version})`, () => {
    expect(unsupportedNodeMessage(process.versions.node)).toBeNull();
  });

  it('never aborts through 24 cycles of sync worker threads and checkpoint helpers started and stopped', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', childScript('test/helpers/worker-cycles.ts'), '24', tempDir('cdr-cycles-')], {
      encoding: 'utf8',
      timeout: 240_000,
    });
    const said = `${run.stdout}\n${run.stderr}`;
    // An abort ends the child with a signal (SIGABRT, SIGSEGV) and prints V8's or Node's assertion.
    expect(run.signal, said).toBeNull();
    expect(said).not.toMatch(/Assertion failed|FATAL ERROR|Segmentation fault|node::/);
    expect(run.status, said).toBe(0);
    expect(run.stdout).toMatch(/^cycles: 24 done$/m);
    expect(run.stdout.match(/^cycle \d+: terminated mid-sync$/gm)).toHaveLength(6);
  }, 300_000);
});

describe('the Node guard of every entry point', () => {
  it.each([
    ['20.20.2', false],
    ['21.7.3', false],
    ['22.11.0', false],
    ['22.13.1', false], // Node-API 9: the driver segfaults
    ['22.14.0', true],
    ['22.23.3', true],
    ['24.21.0', true],
    ['v26.0.0', true],
  ])('Node %s is accepted: %s', (version, accepted) => {
    const message = unsupportedNodeMessage(version);
    if (accepted) expect(message).toBeNull();
    else {
      expect(message).toMatch(new RegExp(`needs Node\\.js 22\\.14 or newer .*this is Node\\.js ${version.replace(/\./g, '\\.')}`));
      expect(message).not.toContain('\n');
    }
  });

  // Our machines' system Node is 20 (CI runs the suite on Node 24 put first on the PATH): the
  // command line started on it stops with that one line, before the driver can crash it.
  const systemNode = spawnSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
  const oldNode = systemNode.status === 0 && Number(systemNode.stdout.split('.')[0]) < 22 ? systemNode.stdout.trim() : undefined;
  it.skipIf(!oldNode)(`the command line on this machine's Node ${oldNode ?? '(none older than 22)'} says so in one line, exit 1`, () => {
    const run = spawnSync('/usr/bin/node', ['--import', 'tsx', 'electron/cli/cli.ts', '--data-dir', tempDir(), 'consents'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^CDR Console needs Node\.js 22\.14 or newer/)]);
  });
});
