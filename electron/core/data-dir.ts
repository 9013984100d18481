import { chmodSync, closeSync, fchmodSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * Where all state lives: profiles, caches, keys, logs. One folder, chosen the same way by every
 * entry point (desktop, browser host, command line, tests), so two runs never share state by
 * accident: `--data-dir DIR` first, then CDR_CONSOLE_DATA_DIR, then the platform's app-data folder.
 */
export const APP_FOLDER_NAME = 'CDR Console';
export const DATA_DIR_ENV = 'CDR_CONSOLE_DATA_DIR';

export function platformDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  // The same folder Electron's app.getPath('userData') uses for our productName.
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(xdg, APP_FOLDER_NAME);
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? (env[DATA_DIR_ENV] || undefined) ?? platformDataDir(process.platform, env);
  return resolve(chosen);
}

/** Create the data directory (owner-only: it holds CDR data and credentials), and keep it owner-only. */
export function ensureDataDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  restrictToOwner(dir);
  return dir;
}

/**
 * Everything in the data directory is readable by its owner only: directories 0700, files 0600.
 * Files are created so (see writePrivateFile, openCache), whatever the umask; this also fixes what
 * an earlier version, another tool or a copy left readable by others (caches were created 0644).
 * Symbolic links are left alone (never followed). Not on Windows, where modes mean little.
 */
export function restrictToOwner(dir: string): void {
  if (process.platform === 'win32') return;
  // A team server's embedded PostgreSQL (team-postgres/cluster) keeps its own permissions (0700,
  // PostgreSQL checks them). Started as root, it runs as the OS user `postgres`, which must be able
  // to pass through the data directory to reach it: those two folders then allow passing through
  // (0711: no listing, no reading), and the cluster is left alone.
  const team = join(dir, 'team-postgres');
  const cluster = join(team, 'cluster');
  let passThrough = false;
  try {
    passThrough = lstatSync(cluster).uid !== lstatSync(dir).uid;
  } catch {
    // No embedded cluster.
  }
  const stack = [dir];
  while (stack.length) {
    const path = stack.pop()!;
    if (path === cluster) continue;
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue; // gone meanwhile (a temporary file)
    }
    const dirMode = passThrough && (path === dir || path === team) ? 0o711 : 0o700;
    const want = stat.isDirectory() ? dirMode : stat.isFile() ? 0o600 : null;
    if (want === null) continue;
    try {
      if ((stat.mode & 0o777) !== want) chmodSync(path, want);
    } catch {
      // Not ours (another account's file): nothing we can do here, and not a reason to stop.
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) stack.push(join(path, name));
  }
}

/**
 * Writes a file atomically (a temporary file beside it, then a rename), readable by the owner
 * only (0600) whatever the umask and whatever mode a leftover temporary file had.
 */
export function writePrivateFile(file: string, content: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    if (typeof content === 'string') writeSync(fd, content);
    else writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Reads `--data-dir DIR` or `--data-dir=DIR` from an argv array, for entry points without a parser. */
export function dataDirFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--data-dir') return argv[i + 1];
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
  }
  return undefined;
}
