import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 13: the rule 9.4 reports (issue 38), the columns of query/schema.ts's Rule94ReportsTable: one
 * per half-year, made once (its period is the key). A signed report is archived: the triggers
 * refuse to change or delete it. The reminder rule (an alert while the last half-year's report waits
 * for sign-off) is there from the start; a person may remove it.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE rule94_reports (
      period TEXT PRIMARY KEY,
      state TEXT NOT NULL CHECK (state IN ('draft', 'signed')),
      figures TEXT NOT NULL,
      answers TEXT NOT NULL,
      made_at TEXT NOT NULL,
      made_by TEXT NOT NULL,
      counted_at TEXT NOT NULL,
      signed_by TEXT,
      signed_at TEXT,
      sha256 TEXT,
      version INTEGER NOT NULL,
      CHECK ((state = 'signed') = (sha256 IS NOT NULL AND signed_by IS NOT NULL AND signed_at IS NOT NULL))
    );
    CREATE TRIGGER rule94_reports_archived_update BEFORE UPDATE ON rule94_reports WHEN OLD.state = 'signed'
    BEGIN SELECT RAISE(ABORT, 'a signed rule 9.4 report is archived: it cannot be changed'); END;
    CREATE TRIGGER rule94_reports_archived_delete BEFORE DELETE ON rule94_reports WHEN OLD.state = 'signed'
    BEGIN SELECT RAISE(ABORT, 'a signed rule 9.4 report is archived: it cannot be deleted'); END;
    INSERT INTO alert_rules (id, kind, params, enabled, created_at, created_by, updated_at, version)
    VALUES ('rule94-reminder', 'report-unsigned', '{}', 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'CDR Console', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 1);
  `);
}
