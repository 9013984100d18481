import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Role } from '../../shared/ipc/roles.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Adds a user to a team server's store as an admin would, with the command line
 * (`npm run cli -- users add … --password-stdin`, the bundle build/cli.mjs runs), on the data
 * directory's embedded PostgreSQL or `--database-url` given in `extra`.
 */
export async function addUserWithCli(
  dataDir: string,
  user: { name: string; displayName: string; role: Role; password: string },
  extra: string[] = [],
): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      join(root, 'build/cli.mjs'),
      '--data-dir',
      dataDir,
      'users',
      'add',
      '--name',
      user.name,
      '--display-name',
      user.displayName,
      '--role',
      user.role,
      '--password-stdin',
      ...extra,
    ],
    { cwd: root, env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  child.stdin.end(user.password);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`users add ${user.name} failed (${code}): ${out}`);
}
