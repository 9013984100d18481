import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { shippedModules } from './build/vite-shipped-modules.js';

// The renderer is built from renderer/ into dist/renderer with relative asset paths, so the same
// files load from app://console/ (Electron) and from the browser host.
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig(({ mode }) => ({
  // Vitest runs from the repository root; the renderer build from renderer/.
  root: mode === 'test' ? here('.') : here('renderer'),
  base: './',
  // shippedModules: which modules' code each built file holds, for `npm run sbom` (dist/meta/ is not packaged).
  plugins: [react(), shippedModules(here('.'), here('dist/meta/vite-renderer.json'))],
  build: {
    outDir: here('dist/renderer'),
    emptyOutDir: true,
    sourcemap: true,
    // Each screen is its own chunk (app/router.tsx), the charts another (ui/ChartPanel.tsx): Rolldown's
    // own splitting keeps every chunk well under this, and the first screen's scripts with it (the
    // benchmark's "first screen" figure). A chunk over it is a warning to read.
    chunkSizeWarningLimit: 500,
    // Mantine (and its floating-ui) as one chunk (about 400 kB), not the forty-odd small ones Rolldown
    // made of it: the first screen loaded some 85 scripts, six at a time over HTTP/1.1, and its page
    // sat idle waiting for them (issue 21; 54 now). Split further (maxSize) or with React in the same
    // group, the chunks ran in the wrong order ("n is not a function" at load): keep it whole.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'mantine',
              // Its scripts only: with its style sheet (main.tsx imports it) in the group, the page's entry
              // imported the whole chunk for it, and the first reads waited for 405 kB to load and run.
              test: /node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui)[\\/].*\.[cm]?js$/,
            },
            {
              // The overview's one read of the sync summary (no zod), which the contract re-exports: left
              // to Rolldown it went into the overview's chunk, so loading the contract (the role rules,
              // status/can.ts) loaded the Overview screen, its charts' code and all, on every screen.
              name: 'sync-summary',
              test: /shared[\\/]ipc[\\/]sync-summary\.ts$/,
            },
          ],
        },
      },
    },
  },
  test: {
    // Vitest's default is one worker fewer than the cores: one on our 2-core machines, where most test
    // files wait on processes, sockets and timers rather than the CPU. Two there took the run from
    // 782 s to 426 s, every test passing (docs/testing-and-packaging.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/{unit,integration,lint,contract}/**/*.test.ts'],
          environment: 'node',
          // One real PostgreSQL server for the run (the team store's tests): test/helpers/pg-global.ts;
          // the command line's bundle brought up to date once (test/helpers/cli-command.ts); the scripts
          // the tests start as processes bundled once (test/helpers/ts-child.ts).
          globalSetup: ['test/helpers/pg-global.ts', 'test/helpers/cli-command.ts', 'test/helpers/ts-child.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['test/renderer/setup.ts'],
          // A screen test drives a whole screen against the real router and cache in happy-dom:
          // 2–4 s alone, and more on a 2-core machine running other test files at the same time.
          testTimeout: 20_000,
        },
      },
    ],
  },
}));
