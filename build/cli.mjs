// `npm run cli`: runs the command line from its bundle (dist/electron/cli.mjs), as `npm start` runs
// the console from its own, instead of transpiling the TypeScript sources at every call (tsx took
// about a second of each). When a source is newer than the bundle or the worker thread's (a
// checkout, an edit), both are rebuilt first: looking costs a few milliseconds, a rebuild about a
// second.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleCli, bundleWorker, root } from './bundles.mjs';

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
if (builtAt('dist/electron/cli.mjs') < newest) await bundleCli();
if (builtAt('dist/electron/worker.cjs') < newest) await bundleWorker();
const { runCli } = await import(pathToFileURL(join(root, 'dist/electron/cli.mjs')).href);
process.exitCode = await runCli(process.argv.slice(2));
