// Bundles the Electron shell: main (CJS, native and runtime deps left to node_modules) and the
// preload (one self-contained CJS file: a sandboxed preload can require only 'electron').
// Each bundle's esbuild metafile goes to dist/meta/ (not packaged): `npm run sbom` reads from it
// which npm packages' code is inside the bundle.
import { build as esbuild } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const common = { bundle: true, platform: 'node', target: 'node22', format: 'cjs', sourcemap: true, logLevel: 'warning', metafile: true };

async function build(options) {
  const result = await esbuild(options);
  mkdirSync('dist/meta', { recursive: true });
  writeFileSync(`dist/meta/esbuild-${basename(options.outfile)}.json`, JSON.stringify(result.metafile));
  return result;
}

// import.meta.url as the bundle's own file: the worker host finds worker.cjs beside main.cjs.
const importMetaUrl = {
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};
// Only the native module stays outside; everything else is bundled so the app needs no ESM interop.
const external = ['electron', 'better-sqlite3-multiple-ciphers', 'bufferutil', 'utf-8-validate'];
await build({ ...common, ...importMetaUrl, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs', external });
// The worker thread of the sync's writes and the integrity check (electron/core/worker/host.ts).
await build({
  ...common,
  ...importMetaUrl,
  entryPoints: ['electron/core/worker/worker.ts'],
  outfile: 'dist/electron/worker.cjs',
  external,
});
// The preload's channel names are the contract's keys, read from the contract here and written into
// the bundle: importing the contract would bring zod into the preload (2 kB → 480 kB).
const contractBundle = await esbuild({
  ...common,
  format: 'esm',
  entryPoints: ['shared/ipc/contract.ts'],
  write: false,
  metafile: false,
  sourcemap: false,
});
const { CHANNELS } = await import(`data:text/javascript;base64,${Buffer.from(contractBundle.outputFiles[0].text).toString('base64')}`);
await build({
  ...common,
  entryPoints: ['electron/preload.ts'],
  outfile: 'dist/electron/preload.cjs',
  external: ['electron'],
  define: { __CDR_CHANNELS__: JSON.stringify(CHANNELS) },
});

// `npm start` and `npm run serve` run these, not the TypeScript sources: no transpiling at every
// start (that alone took 0.7–1.4 s of a cold start). ESM for their top-level await; the native
// module stays in node_modules; worker.cjs is found beside them.
const esm = {
  ...common,
  format: 'esm',
  banner: { js: "import { createRequire as __cdrRequire } from 'node:module'; const require = __cdrRequire(import.meta.url);" },
};
await build({ ...esm, entryPoints: ['electron/start.ts'], outfile: 'dist/electron/start.mjs', external });
await build({ ...esm, entryPoints: ['electron/host/cli.ts'], outfile: 'dist/electron/host.mjs', external });
