// Bundles the Electron shell: main (CJS, native and runtime deps left to node_modules) and the
// preload (one self-contained CJS file: a sandboxed preload can require only 'electron'); the
// worker thread; the start, host and command-line entry points. The specs and the records each
// bundle leaves in dist/meta/ are in bundles.mjs.
import { build as esbuild } from 'esbuild';
import { build, bundleCli, bundleWorker, common, esm, external, importMetaUrl, teamExternal, writeLauncher } from './bundles.mjs';

await build({ ...common, ...importMetaUrl, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs', external });
await bundleWorker();
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

// `npm start`, `npm run serve` and `npm run cli` run these, not the TypeScript sources: no
// transpiling at every start (that alone took 0.7–1.4 s of a cold start). start.mjs and host.mjs
// are launchers that turn on Node's compile cache first (writeLauncher in bundles.mjs).
await build({ ...esm, entryPoints: ['electron/start.ts'], outfile: 'dist/electron/start-main.mjs', external });
await build({ ...esm, entryPoints: ['electron/host/cli.ts'], outfile: 'dist/electron/host-main.mjs', external });
writeLauncher('start.mjs', 'start-main.mjs');
writeLauncher('host.mjs', 'host-main.mjs');
// The team server: PostgreSQL's client bundled; the embedded server's binaries stay in their npm packages.
await build({ ...esm, entryPoints: ['electron/team/cli.ts'], outfile: 'dist/electron/team.mjs', external: teamExternal });
await bundleCli();
