import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI } from './cli-command.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/* eslint-disable @typescript-eslint/no-explicit-any -- CLI JSON output is loose */
export interface CliResult {
  code: number | null;
  out: string;
  err: string;
  json: () => any;
}

/**
 * `npm run -s cli -- --data-dir DIR …` as a script would run it: a real process on the data
 * directory `dataDir()` names at each call, standard input given, exit code and both outputs kept.
 * Asynchronous on purpose: a sandbox in the test's process must keep answering meanwhile.
 */
export function cliProcess(dataDir: () => string) {
  return (args: string[], input?: string) =>
    new Promise<CliResult>((resolve) => {
      const child = spawn(process.execPath, [...CLI, '--data-dir', dataDir(), ...args], {
        cwd: root,
        env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdin.end(input ?? '');
      child.on('close', (code) => resolve({ code, out, err, json: () => JSON.parse(out) }));
    });
}
