import '../runtime/node-guard.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot } from '../host/app-root.js';
import { hostCommand, runBrowserHost, type HostCliOptions } from '../host/run.js';
import { teamServer } from './serve.js';

/**
 * `npm run team -- [--database-url URL] [--port N] [--data-dir DIR] [--profile ID]` (bundled to
 * dist/electron/team.mjs by the build): the team server.
 */
const program = hostCommand('team')
  .description(
    'Serve CDR Console to a team from one store in PostgreSQL (the --database-url one, or an embedded PostgreSQL in the data directory); 127.0.0.1 unless --host says otherwise (beyond it: TLS or a reverse proxy).',
  )
  .option('--database-url <url>', 'an existing PostgreSQL (14 or newer); beyond this machine it needs ?sslmode=verify-full or require')
  .parse();
const root = appRoot(import.meta.url);
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const opts = program.opts<HostCliOptions & { databaseUrl?: string }>();
await runBrowserHost(opts, root, undefined, teamServer({ ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}), version }));
