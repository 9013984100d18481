import { fileURLToPath } from 'node:url';
import { hostCommand, runBrowserHost, type HostCliOptions } from './run.js';

/** `npm run serve -- [--port N] [--data-dir DIR]`. */
const program = hostCommand('serve').parse();
await runBrowserHost(program.opts<HostCliOptions>(), fileURLToPath(new URL('../../', import.meta.url)));
