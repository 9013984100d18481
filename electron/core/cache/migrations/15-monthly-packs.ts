import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 15: the monthly compliance pack (issue 38), the columns of query/schema.ts's ReportSchedulesTable
 * and MonthlyPacksTable: whether the pack is scheduled and in which zone's months, and each month's
 * pack as made — the compliance report's HTML and CSV, kept whole, with the HTML's SHA-256 — made
 * once (the month is the key), and what its e-mail did.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE report_schedules (
      id TEXT PRIMARY KEY,
      enabled INTEGER NOT NULL,
      time_zone TEXT NOT NULL,
      changed_by TEXT NOT NULL,
      changed_at TEXT NOT NULL
    );
    CREATE TABLE monthly_packs (
      period TEXT PRIMARY KEY,
      time_zone TEXT NOT NULL,
      from_at TEXT NOT NULL,
      to_at TEXT NOT NULL,
      made_at TEXT NOT NULL,
      made_by TEXT NOT NULL,
      html TEXT NOT NULL,
      csv TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      sent TEXT
    );
  `);
}
