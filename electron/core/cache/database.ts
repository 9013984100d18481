import Database from 'better-sqlite3-multiple-ciphers';
import { closeSync, existsSync, openSync, readSync, renameSync } from 'node:fs';
import { MIGRATIONS } from './migrations.js';

/** A profile's cache: SQLite encrypted at rest (SQLCipher format), migrated by `user_version`. */
export type Db = Database.Database;

export class CacheError extends Error {
  readonly reason: 'newer-version' | 'corrupt' | 'wrong-key' | 'open-failed';
  constructor(reason: CacheError['reason'], message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'CacheError';
    this.reason = reason;
  }
}

export const SCHEMA_VERSION = MIGRATIONS.length;
const PLAINTEXT_HEADER = Buffer.from('SQLite format 3\0');

/** SQLCipher 4 format with a raw 256-bit key (64 hex digits): no key derivation from a password. */
function applyKey(db: Db, key: string, pragma: 'key' | 'rekey'): void {
  if (!/^[0-9a-f]{64}$/i.test(key)) throw new CacheError('wrong-key', 'The cache key must be 64 hexadecimal digits.');
  db.pragma("cipher = 'sqlcipher'");
  db.pragma('legacy = 4');
  db.pragma(`${pragma} = "x'${key}'"`);
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

/**
 * Opens a profile's cache, encrypted with `key` (SQLCipher format), WAL, foreign keys, migrated.
 * A plaintext cache written by an earlier version is encrypted in place first. A cache written by
 * a newer console is refused; a damaged or undecryptable one is reported with its recovery path
 * (move it aside, sync again) instead of being silently replaced.
 */
export function openCache(file: string, key?: string): Db {
  if (key && isPlaintext(file)) {
    const plain = new Database(file);
    try {
      plain.pragma('journal_mode = DELETE'); // rekeying needs a rollback journal, not WAL
      applyKey(plain, key, 'rekey');
    } finally {
      plain.close();
    }
  }
  let db: Db;
  try {
    db = new Database(file);
  } catch (error) {
    throw new CacheError('open-failed', `Cannot open the cache at ${file}: ${(error as Error).message}`, error);
  }
  try {
    if (key) applyKey(db, key, 'key');
    // quick_check reads every page: the cheapest way to learn at open, not mid-sync, that the file is damaged.
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(String(check));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof CacheError) throw error;
    if (key && (error as { code?: string }).code === 'SQLITE_NOTADB') {
      throw new CacheError(
        'wrong-key',
        `The cache at ${file} cannot be read: it is damaged, or was encrypted with another key (another machine or a replaced key file). Move it aside (npm start -- --reset-cache, or npm run -s cli -- cache reset) and sync again; nothing on the intermediary is lost.`,
        error,
      );
    }
    throw new CacheError(
      'corrupt',
      `The cache at ${file} is damaged (${(error as Error).message}). Move it aside (npm start -- --reset-cache, or npm run -s cli -- cache reset) and sync again; nothing on the intermediary is lost.`,
      error,
    );
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
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  }
  return target;
}
