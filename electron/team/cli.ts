import '../runtime/node-guard.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot } from '../host/app-root.js';
import { hostCommand, runBrowserHost, type HostCliOptions } from '../host/run.js';
import { InvalidArgumentError } from 'commander';
import { PEOPLE_DEFAULTS } from '../core/people/people.js';
import { DEFAULT_GROUPS, parseGroupRoles, teamServer } from './serve.js';
import type { Role } from '../../shared/ipc/roles.js';

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
  .option('--oidc-issuer <url>', "single sign-on: the organisation's OpenID provider (https)")
  .option(
    '--oidc-client-id <id>',
    'single sign-on: this server’s client id at the provider (the secret: CDR_CONSOLE_OIDC_CLIENT_SECRET once, or cli team oidc-secret; kept in the vault)',
  )
  .option(
    '--oidc-role-claim <claim>',
    'single sign-on: the claim naming the person’s groups (a dotted path such as realm_access.roles works)',
    'groups',
  )
  .option('--oidc-groups <map>', 'single sign-on: group=role pairs, comma-separated', DEFAULT_GROUPS)
  .option('--oidc-scopes <list>', 'single sign-on: scopes to ask for, space-separated', 'openid profile email')
  .option('--oidc-label <text>', 'single sign-on: the sign-in page’s button', 'Sign in with single sign-on')
  .parse();
const root = appRoot(import.meta.url);
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const opts = program.opts<
  HostCliOptions & {
    databaseUrl?: string;
    sessionIdle: number;
    sessionLifetime: number;
    oidcIssuer?: string;
    oidcClientId?: string;
    oidcRoleClaim: string;
    oidcGroups: string;
    oidcScopes: string;
    oidcLabel: string;
  }
>();
if (!opts.oidcIssuer !== !opts.oidcClientId)
  program.error('error: single sign-on needs both --oidc-issuer and --oidc-client-id', { exitCode: 2 });
let groupRoles: Record<string, Role> = {};
try {
  groupRoles = parseGroupRoles(opts.oidcGroups);
} catch (error) {
  program.error(`error: --oidc-groups: ${(error as Error).message}`, { exitCode: 2 });
}
await runBrowserHost(
  opts,
  root,
  undefined,
  teamServer({
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
    version,
    people: { idleMinutes: opts.sessionIdle, lifetimeHours: opts.sessionLifetime },
    ...(opts.oidcIssuer && opts.oidcClientId
      ? {
          sso: {
            issuer: opts.oidcIssuer,
            clientId: opts.oidcClientId,
            roleClaim: opts.oidcRoleClaim,
            groupRoles,
            scopes: opts.oidcScopes.split(/\s+/).filter(Boolean),
            label: opts.oidcLabel,
          },
        }
      : {}),
  }),
);
