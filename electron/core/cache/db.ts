import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * A profile's cache connection: SQLite encrypted at rest (SQLCipher format). The type alone, in a
 * module of its own, so that what database.ts imports (migrations, the payload codec, the worker
 * host and the sync's batch writer) can name it without importing database.ts back.
 */
export type Db = Database.Database;
