import Database from 'better-sqlite3-multiple-ciphers';
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runTask } from '../worker/host.js';
import { MIGRATIONS } from './migrations.js';
import type { Db } from './db.js';

/** A profile's cache: SQLite encrypted at rest (SQLCipher format), migrated by `user_version`. */
export type { Db };

export class CacheError extends Error {
  readonly reason: 'newer-version' | 'corrupt' | 'wrong-key' | 'open-failed' | 'read-only';
  constructor(reason: CacheError['reason'], message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'CacheError';
    this.reason = reason;
  }
}

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Runs `fn` in a transaction: the caller's if one is open, else a new one. Not a nested savepoint:
 * SQLite copies every page a savepoint touches to a sub-journal, which made a page of consents
 * (a dozen indexes, full-text search) three times slower inside the sync's transaction.
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.inTransaction ? fn() : db.transaction(fn)();
}
const PLAINTEXT_HEADER = Buffer.from('SQLite format 3\0');

/**
 * What opens the cache with its key (`rekey`: encrypts a plaintext one): SQLCipher 4 format with a
 * raw 256-bit key (64 hex digits), no key derivation from a password.
 */
export function keyPragmas(key: string, pragma: 'key' | 'rekey' = 'key'): string[] {
  if (!/^[0-9a-f]{64}$/i.test(key)) throw new CacheError('wrong-key', 'The cache key must be 64 hexadecimal digits.');
  return ["cipher = 'sqlcipher'", 'legacy = 4', `${pragma} = "x'${key}'"`];
}

function applyKey(db: Db, key: string, pragma: 'key' | 'rekey'): void {
  for (const statement of keyPragmas(key, pragma)) db.pragma(statement);
}

function makePrivate(file: string): void {
  if (process.platform === 'win32') return;
  try {
    if (!existsSync(file)) closeSync(openSync(file, 'wx', 0o600));
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) chmodSync(file + suffix, 0o600);
  } catch {
    // Another account's file, or a race with its creation: SQLite reports what matters when it opens it.
  }
}

function isPlaintext(file: string): boolean {
  if (!existsSync(file)) return false;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.equals(PLAINTEXT_HEADER);
  } finally {
    closeSync(fd);
  }
}

const recovery =
  'Move it aside (npm start -- --reset-cache, or npm run -s cli -- cache reset) and sync again; nothing on the intermediary is lost.';

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The error a damaged or undecryptable cache gives, with its recovery path. */
export function cacheErrorOf(file: string, error: unknown, keyed: boolean): CacheError {
  if (error instanceof CacheError) return error;
  // A cache that cannot be written is not damaged: moving it aside would not help (nor work).
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (/^SQLITE_(CANTOPEN|READONLY)/.test(code) && (!writable(dirname(file)) || (existsSync(file) && !writable(file)))) {
    return new CacheError('read-only', storageProblem(file, { code: 'SQLITE_READONLY' })!, error);
  }
  if (keyed && (error as { code?: string }).code === 'SQLITE_NOTADB') {
    return new CacheError(
      'wrong-key',
      `The cache at ${file} cannot be read: it is damaged, or was encrypted with another key (another machine or a replaced key file). ${recovery}`,
      error,
    );
  }
  return new CacheError('corrupt', `The cache at ${file} is damaged (${(error as Error).message}). ${recovery}`, error);
}

/**
 * True for SQLite's own "this file is damaged" errors (a page that fails SQLCipher's
 * authentication reads as one of these), as opposed to a bug or a busy database.
 */
export function isCacheDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/**
 * The cache could not be written because of where it lives (a full disk, a read-only file or file
 * system, an I/O error): the user's words for it, with what to do, or undefined for other errors.
 * SQLite rolls back what it could not write, so the cache stays as it was before that transaction.
 */
export function storageProblem(file: string, error: unknown): string | undefined {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (code === 'SQLITE_FULL' || code === 'ENOSPC')
    return `The disk holding the cache (${file}) is full: nothing more could be stored, and what was stored before is kept intact. Free some space and sync again; it continues from there.`;
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return `The cache (${file}) cannot be written: the file, its folder or its disk is read-only. Nothing was changed. Make it writable (e.g. chmod u+w on the file and its folder) and try again.`;
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO')
    return `The disk holding the cache (${file}) failed to write (${(error as Error).message}); the last complete write is kept. Check the disk, then sync again.`;
  return undefined;
}

export interface OpenOptions {
  /** Page cache of this connection, in MiB (default 32; 64 for the writer). */
  cacheMiB?: number;
  readonly?: boolean;
  /**
   * The sync's own connection: a larger page cache (the indexes of 100,000 consents stay in
   * memory), and no automatic checkpoint every 4 MB: the sync checkpoints when the WAL passes
   * 128 MB (sync/batch.ts), and the WAL file shrinks back to 64 MB after.
   */
  writer?: boolean;
}

/**
 * Opens a profile's cache, encrypted with `key` (SQLCipher format), WAL, foreign keys, migrated.
 * A plaintext cache written by an earlier version is encrypted in place first. A cache written by
 * a newer console is refused; a damaged or undecryptable one is reported with its recovery path
 * (move it aside, sync again) instead of being silently replaced.
 *
 * Opening reads the header and the schema only (milliseconds, whatever the size): SQLCipher
 * authenticates every page it reads, so a damaged page is reported when it is read. The full check
 * (`checkIntegrity`) runs on demand, and after an unclean shutdown, in the background.
 */
export function openCache(file: string, key?: string, opts: OpenOptions = {}): Db {
  if (key && isPlaintext(file)) {
    const plain = new Database(file);
    try {
      plain.pragma('journal_mode = DELETE'); // rekeying needs a rollback journal, not WAL
      applyKey(plain, key, 'rekey');
    } finally {
      plain.close();
    }
  }
  // Owner-only (0600) whatever the umask: created so before SQLite opens it (its -wal and -shm take
  // the database file's mode), and put right when an earlier version created it 0644.
  if (file !== ':memory:' && !opts.readonly) makePrivate(file);
  let db: Db;
  try {
    db = new Database(file, opts.readonly ? { readonly: true } : {});
  } catch (error) {
    const problem = cacheErrorOf(file, error, Boolean(key));
    if (problem.reason === 'read-only') throw problem;
    throw new CacheError('open-failed', `Cannot open the cache at ${file}: ${(error as Error).message}`, error);
  }
  try {
    if (key) applyKey(db, key, 'key');
    // Reads (and so authenticates) the header and the schema: a wrong key or garbage fails here.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    if (!opts.readonly) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = ${-1024 * (opts.cacheMiB ?? (opts.writer ? 64 : 32))}`);
    if (opts.writer) {
      db.pragma('wal_autocheckpoint = 0');
      db.pragma(`journal_size_limit = ${64 * 2 ** 20}`);
    }
    db.pragma('temp_store = MEMORY');
    if (!opts.readonly) migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw cacheErrorOf(file, error, Boolean(key));
  }
}

/**
 * The full check: reads and authenticates every page (`PRAGMA quick_check`). Seconds to tens of
 * seconds on a large cache, so it runs on demand (`cli cache check`) or in a worker in the
 * background (after an unclean shutdown), never on the open path. Returns the problem, or null.
 */
export function checkIntegrity(file: string, key?: string): CacheError | null {
  let db: Db | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    if (key) applyKey(db, key, 'key');
    const rows = db.pragma('quick_check(20)') as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check.replace(/\s*\n\s*/g, ' ')).filter((r) => r !== 'ok');
    if (!problems.length) return null;
    const more = problems.length > 3 ? `; and more` : '';
    return cacheErrorOf(file, new Error(`${problems.slice(0, 3).join('; ')}${more}`), false);
  } catch (error) {
    return cacheErrorOf(file, error, Boolean(key));
  } finally {
    db?.close();
  }
}

/**
 * Marks the cache as open by this process until `release()`. A mark left by a process that is no
 * longer running means that process ended without closing the cache (a crash, a kill, a power
 * cut): `uncleanBefore` tells the caller to run the full check in the background.
 */
export function markOpen(file: string): { uncleanBefore: boolean; release(): void } {
  const dir = dirname(file);
  const prefix = `${basename(file)}.open-`;
  let uncleanBefore = false;
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (pid === process.pid || isRunning(pid)) continue;
    uncleanBefore = true;
    rmSync(join(dir, name), { force: true });
  }
  const mark = `${file}.open-${process.pid}`;
  writeFileSync(mark, `${new Date().toISOString()}\n`, { mode: 0o600 });
  return { uncleanBefore, release: () => rmSync(mark, { force: true }) };
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new CacheError(
      'newer-version',
      `The cache was written by a newer CDR Console (schema ${current}; this version knows ${SCHEMA_VERSION}). Update the console, or use another data directory.`,
    );
  }
  if (current === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = current; v < SCHEMA_VERSION; v++) MIGRATIONS[v]!(db);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

/** Moves a damaged cache (and its WAL files) aside so the next open starts empty. Returns the new name. */
export function moveCacheAside(file: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const target = `${file}.corrupt-${stamp}`;
  // The audit log's head anchor (audit/audit-anchor.ts) belongs to this cache's log and goes with it.
  for (const suffix of ['', '-wal', '-shm', '.audit-anchor']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  }
  // Open marks belong to the file that was moved.
  const prefix = `${basename(file)}.open-`;
  for (const name of readdirSync(dirname(file))) if (name.startsWith(prefix)) rmSync(join(dirname(file), name), { force: true });
  return target;
}

/** `checkIntegrity` on a worker thread: the main thread keeps answering while every page is read. */
export function checkIntegrityInBackground(file: string, key?: string): { result: Promise<CacheError | null>; stop(): void } {
  const task = runTask<{ reason: CacheError['reason']; message: string } | null>('integrity', { file, key });
  return {
    result: task.result.then((p) => (p ? new CacheError(p.reason, p.message) : null)),
    stop: task.stop,
  };
}
