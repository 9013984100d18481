import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../electron/core/postgres/embedded.js';

/**
 * PostgreSQL 15 from Debian's packages (`postgresql-15`, which .ci/run installs), beside the
 * embedded 18 every other test uses: the team server must work on both (issue 35: a non-superuser
 * owner's restart failed on 15). A throwaway cluster in a temporary folder, on 127.0.0.1 and a free
 * port, run as the OS user `postgres` when this process is root (PostgreSQL refuses root); stopped
 * and removed by `stop()`. `available()` is false where the package is not installed.
 */
const BIN = '/usr/lib/postgresql/15/bin';

export function pg15Available(): boolean {
  return existsSync(join(BIN, 'postgres')) && existsSync(join(BIN, 'initdb'));
}

export interface Pg15 {
  /** A superuser URL. */
  url: string;
  stop(): Promise<void>;
}

export async function startPg15(): Promise<Pg15> {
  const root = mkdtempSync(join(tmpdir(), 'cdr-pg15-'));
  const asRoot = userInfo().uid === 0;
  const cluster = join(root, 'cluster');
  const password = randomBytes(18).toString('base64url');
  const pwfile = join(root, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  mkdirSync(cluster, { mode: 0o700 });
  const run = (cmd: string, args: string[]) =>
    (asRoot ? ['/usr/sbin/runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (ids.status !== 0) throw new Error('PostgreSQL 15 needs the OS user postgres (Debian’s package makes it)');
    chmodSync(root, 0o711);
    for (const p of [cluster, pwfile]) chownSync(p, Number(ids.stdout), Number(gid.stdout));
  }
  const [initCmd, initArgs] = run(join(BIN, 'initdb'), [
    '-D',
    cluster,
    '-U',
    'cdr_owner',
    `--pwfile=${pwfile}`,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', cwd: '/' });
  if (init.status !== 0) throw new Error(`initdb (PostgreSQL 15) failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const [cmd, args] = run(join(BIN, 'postgres'), [
    '-D',
    cluster,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
  ]);
  const server = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: '/' });
  let log = '';
  server.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const killer = setTimeout(() => server.kill('SIGKILL'), 15 * 60_000);
  const url = `postgres://cdr_owner:${password}@127.0.0.1:${port}/postgres`;
  for (let i = 0; ; i++) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      break;
    } catch {
      await c.end().catch(() => undefined);
      if (i > 100 || server.exitCode !== null) throw new Error(`PostgreSQL 15 did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    async stop() {
      clearTimeout(killer);
      const exited = new Promise((r) => server.once('exit', r));
      // The postmaster itself (runuser may not pass a signal on): SIGINT is its fast shutdown.
      const pid = Number(readFileSync(join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    },
  };
}
