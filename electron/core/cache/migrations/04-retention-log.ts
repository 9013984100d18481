import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 4: what retention did: CDR data deleted or de-identified when a consent ended. The record of
 * the deletion is kept; the data is not.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE retention_log (
      seq        INTEGER PRIMARY KEY AUTOINCREMENT,
      consent_id TEXT NOT NULL,
      action     TEXT NOT NULL,
      records    INTEGER NOT NULL,
      kinds      TEXT NOT NULL,
      reason     TEXT NOT NULL,
      at         TEXT NOT NULL
    ) STRICT;
    CREATE INDEX retention_log_by_consent ON retention_log (consent_id);
    ALTER TABLE data_records ADD COLUMN deidentified INTEGER NOT NULL DEFAULT 0;
  `);
}
