import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 11: the complaints register (issue 38), the columns of query/schema.ts's ComplaintsTable.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE complaints (
      id TEXT PRIMARY KEY,
      number INTEGER NOT NULL UNIQUE,
      received_on TEXT NOT NULL,
      channel TEXT NOT NULL,
      category TEXT NOT NULL,
      description TEXT NOT NULL,
      consent_id TEXT,
      consumer_id TEXT,
      outcome TEXT,
      resolved_on TEXT,
      referred_to TEXT,
      created_at TEXT NOT NULL,
      created_by TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      updated_by TEXT NOT NULL,
      version INTEGER NOT NULL,
      CHECK (consent_id IS NOT NULL OR consumer_id IS NOT NULL),
      CHECK ((outcome IS NULL) = (resolved_on IS NULL))
    );
    CREATE INDEX complaints_consent ON complaints (consent_id) WHERE consent_id IS NOT NULL;
    CREATE INDEX complaints_consumer ON complaints (consumer_id) WHERE consumer_id IS NOT NULL;
    CREATE INDEX complaints_received ON complaints (received_on, number);
  `);
}
