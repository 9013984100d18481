import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 1: consents and sync state.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE consents (
      consent_id        TEXT PRIMARY KEY,
      status            TEXT,
      consumer_email    TEXT,
      data_holder_name  TEXT,
      data_holder_brand_id TEXT,
      use_case_id       TEXT,
      use_case_name     TEXT,
      created           TEXT,
      sharing_end_date  TEXT,
      revoked           TEXT,
      version           INTEGER,
      raw               TEXT NOT NULL,   -- every field the API sent, unknown ones included (re-serialised)
      synced_at         TEXT NOT NULL
    ) STRICT;
    -- One index per sortable column, with the key as tie-breaker, so every sort the list
    -- offers is an index walk and pages stay stable.
    CREATE INDEX consents_by_created ON consents (created, consent_id);
    CREATE INDEX consents_by_sharing_end ON consents (sharing_end_date, consent_id);
    CREATE INDEX consents_by_status ON consents (status, consent_id);
    CREATE INDEX consents_by_email ON consents (consumer_email COLLATE NOCASE, consent_id);
    CREATE INDEX consents_by_holder ON consents (data_holder_name COLLATE NOCASE, consent_id);
    CREATE INDEX consents_by_use_case ON consents (use_case_name COLLATE NOCASE, consent_id);

    CREATE TABLE sync_state (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;
  `);
}
