import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { PgDb } from '../core/postgres/db.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../core/postgres/embedded.js';
import { migrate } from '../core/postgres/migrations.js';
import { prepareAppRole, type AppRole } from '../core/postgres/roles.js';

/**
 * The team server's database: the one --database-url names (PostgreSQL 14 or newer), or an
 * embedded PostgreSQL kept in the data directory. Either way the schema is migrated with the
 * owner's URL, and the server then serves through an application role that cannot edit the
 * audit log (roles.ts).
 */
export const EMBEDDED_DATABASE = 'cdr_console';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '']);

/**
 * Refuses a URL that would send CDR data in clear over a network: a host beyond loopback needs
 * `sslmode=require` (or verify-ca, verify-full), or `sslmode=disable` said explicitly.
 */
export function checkDatabaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('--database-url is not a URL: expected postgres://user@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new Error(`--database-url must start with postgres:// (it starts with ${url.protocol}//)`);
  // Every host the client may connect to: a `host` parameter overrides the URL's (pg's parser), and
  // with neither, libpq's PGHOST decides.
  const hosts = [url.hostname, ...url.searchParams.getAll('host').flatMap((h) => h.split(','))].filter((h) => h !== '');
  if (!hosts.length) hosts.push(...(process.env.PGHOST ?? 'localhost').split(','));
  const sslmode = url.searchParams.get('sslmode');
  const far = hosts.find((h) => !LOOPBACK.has(h) && !h.startsWith('/'));
  if (far && !sslmode)
    throw new Error(
      `--database-url names ${far}, beyond this machine, without TLS: CDR data would cross the network in clear. ` +
        'Add ?sslmode=verify-full (or require), or ?sslmode=disable to say explicitly that the network is trusted.',
    );
  return url;
}

export interface TeamDatabase {
  /** The URL the server serves with (the application role's). */
  appUrl: string;
  role: AppRole;
  embedded?: EmbeddedPostgres;
  /** A line for the console output: where the data is and how it is protected. */
  description: string;
  /** Stops the embedded server if this process started it. */
  stop(): Promise<void>;
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount)
      await c.query(`CREATE DATABASE ${name}`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // another server created it meanwhile
      });
  } finally {
    await c.end();
  }
}

/** The port of a cluster another process of this data directory already runs (postmaster.pid), or undefined. */
function runningPort(clusterDir: string): number | undefined {
  const file = join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const [pid, , , port] = readFileSync(file, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
  } catch (e) {
    if ((e as { code?: string }).code === 'ESRCH') return undefined;
  }
  return Number(port) || undefined;
}

/**
 * The owner's URL of a data directory's team store without migrating anything (the command line's
 * `team` commands): the --database-url one, or the embedded cluster (the running one, or started
 * for the command and stopped after).
 */
export async function connectTeamDatabase(opts: {
  dataDir: string;
  databaseUrl?: string;
  log?: (line: string) => void;
}): Promise<{ url: string; description: string; stop(): Promise<void> }> {
  if (opts.databaseUrl) {
    const url = checkDatabaseUrl(opts.databaseUrl);
    return {
      url: url.toString(),
      description: `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`,
      stop: async () => undefined,
    };
  }
  const dir = join(opts.dataDir, 'team-postgres');
  if (!existsSync(join(dir, 'cluster', 'PG_VERSION')))
    throw new Error(
      `There is no team store in ${opts.dataDir}: start one with npm run team -- --data-dir ${opts.dataDir}, or name it with --database-url.`,
    );
  const port = runningPort(join(dir, 'cluster'));
  const at = (p: number, secret: string) => `postgres://cdr_owner:${encodeURIComponent(secret)}@127.0.0.1:${p}/${EMBEDDED_DATABASE}`;
  if (port) {
    const secret = readFileSync(join(dir, 'owner.secret'), 'utf8').trim();
    return { url: at(port, secret), description: `the embedded PostgreSQL in ${dir} (running, port ${port})`, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({ dir, ...(opts.log ? { log: opts.log } : {}) });
  const secret = readFileSync(join(dir, 'owner.secret'), 'utf8').trim();
  return {
    url: at(embedded.port, secret),
    description: `the embedded PostgreSQL in ${dir} (started for this command)`,
    stop: () => embedded.stop(),
  };
}

export async function openTeamDatabase(opts: {
  dataDir: string;
  databaseUrl?: string;
  appPassword: string;
  code: string;
  log: (line: string) => void;
}): Promise<TeamDatabase> {
  let ownerUrl: string;
  let embedded: EmbeddedPostgres | undefined;
  let description: string;
  if (opts.databaseUrl) {
    ownerUrl = checkDatabaseUrl(opts.databaseUrl).toString();
    const u = new URL(ownerUrl);
    description = `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } else {
    const dir = join(opts.dataDir, 'team-postgres');
    const port = runningPort(join(dir, 'cluster'));
    if (port) {
      // Another team server of this data directory runs the embedded cluster: share it.
      const secret = readFileSync(join(dir, 'owner.secret'), 'utf8').trim();
      ownerUrl = `postgres://cdr_owner:${encodeURIComponent(secret)}@127.0.0.1:${port}/postgres`;
      description = `the embedded PostgreSQL another server runs in ${dir} (port ${port})`;
    } else {
      embedded = await startEmbeddedPostgres({ dir, log: (l) => opts.log(`postgres: ${l}`) });
      ownerUrl = embedded.url;
      description = `an embedded PostgreSQL in ${dir} (port ${embedded.port}, files 0700)`;
      if (embedded.asRoot)
        description +=
          '; started as root, so PostgreSQL runs as the unprivileged OS user "postgres" (it refuses to run as root)' +
          (embedded.opened.length ? `, and may now pass through (not list) ${embedded.opened.join(', ')}` : '');
    }
  }
  try {
    if (!opts.databaseUrl) {
      await ensureDatabase(ownerUrl, EMBEDDED_DATABASE);
      const u = new URL(ownerUrl);
      u.pathname = `/${EMBEDDED_DATABASE}`;
      ownerUrl = u.toString();
    }
    const owner = new PgDb(ownerUrl, { max: 1 });
    try {
      await migrate(owner, { code: opts.code });
    } finally {
      await owner.close();
    }
    const role = await prepareAppRole(ownerUrl, opts.appPassword);
    return { appUrl: role.url, role, ...(embedded ? { embedded } : {}), description, stop: async () => embedded?.stop() };
  } catch (error) {
    // A cluster this call started is stopped again: nothing is left running after a refusal.
    await embedded?.stop();
    throw error;
  }
}
