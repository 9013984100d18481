import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { MIGRATIONS } from './migrations.js';

/**
 * Opens a profile's cache: WAL, foreign keys, migrations by `user_version` in one transaction.
 * A database written by a newer console is refused (never downgraded); a corrupt file is
 * reported with its recovery path (move aside, re-sync) instead of being silently replaced.
 */
export type Db = Database.Database;

export class CacheError extends Error {
  readonly reason: 'newer-version' | 'corrupt' | 'open-failed';
  constructor(reason: CacheError['reason'], message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'CacheError';
    this.reason = reason;
  }
}

export const SCHEMA_VERSION = MIGRATIONS.length;

export function openCache(file: string): Db {
  let db: Db;
  try {
    db = new Database(file);
  } catch (error) {
    throw new CacheError('open-failed', `Cannot open the cache at ${file}: ${(error as Error).message}`, error);
  }
  try {
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
    throw new CacheError(
      'corrupt',
      `The cache at ${file} is damaged (${(error as Error).message}). Move it aside (for example with --reset-cache) and sync again; nothing on the intermediary is lost.`,
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
