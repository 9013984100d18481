// `npm run cli`: runs the command line from its bundle (dist/electron/cli.mjs, the launcher of
// cli-main.cjs), as `npm start` runs
// the console from its own, instead of transpiling the TypeScript sources at every call (tsx took
// about a second of each). When a source is newer than the bundle or the worker thread's (a
// checkout, an edit), both are rebuilt first: looking costs a few milliseconds, a rebuild about a
// second.
//
// The launcher keeps the bundle's compiled code between calls (a V8 code cache per command, in
// node_modules/.cache/cdr-console-cli/; build/bundles.mjs, writeCliLauncher); Node's compile cache
// holds the rest (the native module's JavaScript). esbuild is loaded only when a bundle is rebuilt.
import module from 'node:module';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
module.enableCompileCache?.(join(root, 'node_modules/.cache/cdr-console-cli'));

/** The newest modification time of what the bundles are built from. */
function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ['electron', 'shared']) walk(join(root, dir));
  for (const file of ['package.json', 'build/bundles.mjs']) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

const builtAt = (file) => {
  try {
    return statSync(join(root, file)).mtimeMs;
  } catch {
    return 0; // not built yet
  }
};

const newest = newestSource();
const cliBuilt = Math.min(builtAt('dist/electron/cli-main.cjs'), builtAt('dist/electron/cli.mjs'));
if (cliBuilt < newest || builtAt('dist/electron/worker.cjs') < newest) {
  const { bundleCli, bundleWorker } = await import('./bundles.mjs');
  if (cliBuilt < newest) await bundleCli();
  if (builtAt('dist/electron/worker.cjs') < newest) await bundleWorker();
}
const { runAndExit } = await import(pathToFileURL(join(root, 'dist/electron/cli.mjs')).href);
await runAndExit(process.argv.slice(2));
