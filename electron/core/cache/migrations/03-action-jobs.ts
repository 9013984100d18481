import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 3: resumable action jobs (bulk revocation), one row per item.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE action_jobs (
      job_id   TEXT PRIMARY KEY,
      kind     TEXT NOT NULL,
      created  TEXT NOT NULL,
      operator TEXT NOT NULL,
      reason   TEXT NOT NULL
    ) STRICT;
    CREATE TABLE action_job_items (
      job_id     TEXT NOT NULL REFERENCES action_jobs (job_id),
      seq        INTEGER NOT NULL,
      consent_id TEXT NOT NULL,
      status     TEXT NOT NULL DEFAULT 'pending',
      detail     TEXT,
      PRIMARY KEY (job_id, seq)
    ) STRICT;
    CREATE INDEX action_job_items_pending ON action_job_items (job_id, status);
  `);
}
