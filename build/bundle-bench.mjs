// Bundles the benchmark's measured tasks (test/bench/child.ts) the way the console itself is
// bundled (build/bundle-electron.mjs), so each task runs as the product runs: no TypeScript loader
// in the process or in its worker thread (tsx added about 50 MiB of resident memory and its own
// start-up time to every figure). The worker thread's bundle is copied beside it, where the worker
// host looks for it. Run by `npm run bench` after the build.
import { build } from 'esbuild';
import { copyFileSync } from 'node:fs';

await build({
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cdrRequire } from 'node:module'; const require = __cdrRequire(import.meta.url);" },
  entryPoints: ['test/bench/child.ts'],
  outfile: 'dist/bench/child.mjs',
  external: ['electron', 'better-sqlite3-multiple-ciphers', 'bufferutil', 'utf-8-validate'],
});
copyFileSync('dist/electron/worker.cjs', 'dist/bench/worker.cjs');
