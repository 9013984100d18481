// Bundles the Electron shell: main (CJS, native and runtime deps left to node_modules) and the
// preload (one self-contained CJS file: a sandboxed preload can require only 'electron').
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };

await build({
  ...common,
  entryPoints: ['electron/main.ts'],
  outfile: 'dist/electron/main.cjs',
  // Only the native module stays outside; everything else is bundled so the app needs no ESM interop.
  external: ['electron', 'better-sqlite3-multiple-ciphers', 'bufferutil', 'utf-8-validate'],
});
await build({
  ...common,
  entryPoints: ['electron/preload.ts'],
  outfile: 'dist/electron/preload.cjs',
  external: ['electron'],
});
