import '../runtime/node-guard.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot } from '../host/app-root.js';
import { hostCommand, runBrowserHost, type HostCliOptions } from '../host/run.js';
import { InvalidArgumentError } from 'commander';
import { PEOPLE_DEFAULTS } from '../core/people/people.js';
import { teamServer } from './serve.js';

function bounded(min: number, max: number, unit: string) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`expected ${min} to ${max} ${unit}`);
    return Number(value);
  };
}
const minutes = bounded(1, 24 * 60, 'minutes');
const hours = bounded(1, 24 * 30, 'hours');

/**
 * `npm run team -- [--database-url URL] [--port N] [--data-dir DIR] [--profile ID]` (bundled to
 * dist/electron/team.mjs by the build): the team server.
 */
const program = hostCommand('team')
  .description(
    'Serve CDR Console to a team from one store in PostgreSQL (the --database-url one, or an embedded PostgreSQL in the data directory); people sign in with a user name and password (npm run -s cli -- users add); 127.0.0.1 unless --host says otherwise (beyond it: TLS or a reverse proxy).',
  )
  .option('--database-url <url>', 'an existing PostgreSQL (14 or newer); beyond this machine it needs ?sslmode=verify-full or require')
  .option('--session-idle <minutes>', 'a session ends after this long without a request', minutes, PEOPLE_DEFAULTS.idleMinutes)
  .option(
    '--session-lifetime <hours>',
    'a session ends this long after sign-in, whatever its activity',
    hours,
    PEOPLE_DEFAULTS.lifetimeHours,
  )
  .parse();
const root = appRoot(import.meta.url);
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const opts = program.opts<HostCliOptions & { databaseUrl?: string; sessionIdle: number; sessionLifetime: number }>();
await runBrowserHost(
  opts,
  root,
  undefined,
  teamServer({
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
    version,
    people: { idleMinutes: opts.sessionIdle, lifetimeHours: opts.sessionLifetime },
  }),
);
