import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 14: which alerts each person has read (issue 38's notification centre, per person): one row per
 * alert and person, the last time they read it, the columns of query/schema.ts's AlertReadsTable.
 * An alert changed since (it resolved) is unread again.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE alert_reads (
      alert_id TEXT NOT NULL,
      person TEXT NOT NULL,
      read_at TEXT NOT NULL,
      PRIMARY KEY (alert_id, person)
    ) WITHOUT ROWID;
  `);
}
