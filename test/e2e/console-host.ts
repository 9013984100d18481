import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { writeRemoteProfile } from '../helpers/remote.js';
import { addUserWithCli } from '../helpers/users.js';

/**
 * Starts the console exactly as `npm run serve` does (node dist/electron/host.mjs, the build's
 * bundle — `npm test` and `npm run test:e2e` build first), in a fresh data
 * directory on a free port, and resolves with the URL it prints. Stops the process and removes
 * the directory on stop(); a timer kills it if a test forgets.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ConsoleProcess {
  launchUrl: string;
  dataDir: string;
  /** The embedded sandbox's URL, for its admin API (revocations from the data holder's side…). */
  sandboxUrl: string | undefined;
  output: () => string;
  stop(): Promise<void>;
}

export interface ConsoleOptions {
  /** Prepares the data directory before the console starts (profiles, the operator's name…). */
  setup?: (dataDir: string) => void;
  env?: Record<string, string>;
  /** The team server (dist/electron/team.mjs, `npm run team`) instead of the browser host. */
  team?: boolean;
  /** An existing data directory (a second team server on the same one); kept on stop. */
  dataDir?: string;
}

/** A fixed time for the embedded sandbox's clock: this minute, so tokens and JWTs it signs are current. */
export function pinnedNow(): string {
  return new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
}

/** The operator's name, written before start so the first-run prompt does not stand in the way. */
export function knownOperator(name = 'Erin End-to-End') {
  return (dataDir: string) => writeFileSync(join(dataDir, 'operator.json'), JSON.stringify({ displayName: name }));
}

/** How long a started console may live at most (a leaked one is killed then). */
const LIFETIME_MS = 30 * 60_000;

export async function startConsole(args: string[] = [], opts: ConsoleOptions = {}): Promise<ConsoleProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'cdr-e2e-'));
  opts.setup?.(dataDir);
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, opts.team ? 'dist/electron/team.mjs' : 'dist/electron/host.mjs'), '--port', '0', '--data-dir', dataDir, ...args],
    {
      cwd: root,
      env: { ...process.env, CDR_CONSOLE_DATA_DIR: '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // A safety net for a console a crashed test left running, not a time limit: a test file's tests share
  // their console, and the a11y walks' file runs past five minutes on a busy 2-core machine — its
  // console was killed mid-walk at 5 minutes, and the walk's next step waited for a host that was gone.
  const killer = setTimeout(() => {
    process.stderr.write(`console host ${dataDir}: still running after ${LIFETIME_MS / 60_000} minutes, killed\n`);
    child.kill('SIGKILL');
  }, LIFETIME_MS);
  killer.unref();
  let out = '';
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`console did not start in 30 s:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // Wait for the initial sync too, so the first screen has data to show.
      // A team server signs people in: its address has no token.
      const url = /CDR Console (?:team server )?at (http:\/\/127\.0\.0\.1:\d+\/(?:\?token=\S+)?)/.exec(out)?.[1];
      if (url && (args.includes('--no-sync') || /Synced \d+ consents|Initial sync failed/.test(out))) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`console exited with ${code}:\n${out}`)));
  });
  // A console that ends before its test stops it says so, with its last words, in the test's output.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`console host ${dataDir} exited by itself (${signal ?? `code ${code}`}):\n${out.slice(-2000)}\n`);
  });
  return {
    launchUrl,
    dataDir,
    sandboxUrl: /embedded sandbox at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
    output: () => out,
    async stop() {
      stopping = true;
      clearTimeout(killer);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Adds a user to a team server's data directory (npm run cli -- users add); the password is "<name> password 1". */
export const addUser = (dataDir: string, name: string, displayName: string, role: 'viewer' | 'compliance' | 'support' | 'admin') =>
  addUserWithCli(dataDir, { name, displayName, role, password: `${name} password 1` });

/** Signs `name` in on a team server's sign-in page, as a person does, and waits for the console. */
export async function signInAs(page: Page, origin: string, name: string) {
  await page.goto(`${origin}/`);
  await page.getByLabel('User name').fill(name);
  await page.getByLabel('Password').fill(`${name} password 1`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

/** Every scope the console uses, Data API included (the data browser's screens need cached records). */
export const ALL_SCOPES = [
  'consents:read',
  'consents:write',
  'use-cases:read',
  'data-holders:read',
  'tokens:write',
  'data:banking:accounts:read',
  'data:banking:payees:read',
  'data:banking:regular_payments:read',
  'data:banking:transactions:read',
  'data:common:customers:read',
  'data:energy:accounts:read',
  'data:energy:billing:read',
  'data:energy:electricity.servicepoints:read',
  'data:energy:electricity.usage:read',
  'data:energy:invoices:read',
];

/**
 * Before start: a non-production profile "uat" ("Intermediary UAT") on an intermediary at `url` (a
 * sandbox the test runs itself, so it can stop it), with every scope, and the operator's name.
 * Start the console with `--profile uat` and CDR_CONSOLE_CLIENT_SECRET=sandbox-secret.
 */
export function uatProfile(url: string, operator: string) {
  return (dataDir: string) => {
    knownOperator(operator)(dataDir);
    writeRemoteProfile(dataDir, url, { id: 'uat', name: 'Intermediary UAT', scopes: ALL_SCOPES });
  };
}
