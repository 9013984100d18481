import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The command line as `npm run -s cli` runs it (`node build/cli.mjs …`): from its bundle, rebuilt
 * first when a source is newer. The tests used to run `node --import tsx electron/cli/cli.ts`,
 * which transpiles the sources at every call: 2.2–2.7 s a command against 0.3 s from the bundle,
 * and the command-line tests run a few hundred commands.
 */
export const CLI = [join(root, 'build/cli.mjs')] as const;

/**
 * vitest's global setup: brings the bundle up to date once, before the test files run side by side
 * (two files finding it stale at once would both rebuild it).
 */
export default function freshCliBundle() {
  const r = spawnSync(process.execPath, [...CLI, '--help'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`The command line's bundle could not be built or run:\n${r.stderr}`);
}
