import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 9: a bulk revocation's item records when its DELETE was about to be sent: a run killed after
 * that asks the intermediary on resume instead of sending it twice.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec('ALTER TABLE action_job_items ADD COLUMN sent_at TEXT');
}
