import '../runtime/node-guard.js';
import { appRoot } from './app-root.js';
import { hostCommand, runBrowserHost, type HostCliOptions } from './run.js';

/** `npm run serve -- [--port N] [--data-dir DIR]` (bundled to dist/electron/host.mjs by the build). */
const program = hostCommand('serve').parse();
await runBrowserHost(program.opts<HostCliOptions>(), appRoot(import.meta.url));
