import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 12: alert rules and their alerts (issue 38), the columns of query/schema.ts's AlertRulesTable and AlertsTable.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE alert_rules (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      params TEXT NOT NULL,
      enabled INTEGER NOT NULL,
      silenced_until TEXT,
      silence_reason TEXT,
      silenced_by TEXT,
      created_at TEXT NOT NULL,
      created_by TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      version INTEGER NOT NULL
    );
    CREATE TABLE alerts (
      id TEXT PRIMARY KEY,
      rule_id TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('firing', 'resolved')),
      summary TEXT NOT NULL,
      first_at TEXT NOT NULL,
      last_at TEXT NOT NULL,
      notified_at TEXT,
      resolved_at TEXT,
      acknowledged_by TEXT,
      acknowledged_at TEXT
    );
    CREATE UNIQUE INDEX alerts_firing ON alerts (rule_id) WHERE state = 'firing';
    CREATE INDEX alerts_recent ON alerts (last_at);
  `);
}
