import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 2: every version of a consent, events, use cases, data holders, Data API records, the audit
 * log, and full-text search over the identifiers and names support staff search by.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    ALTER TABLE consents ADD COLUMN cdr_arrangement_id TEXT;
    ALTER TABLE consents ADD COLUMN consumer_id TEXT;
    ALTER TABLE consents ADD COLUMN consumer_mobile TEXT;
    ALTER TABLE consents ADD COLUMN external_id TEXT;
    ALTER TABLE consents ADD COLUMN post_usage_action TEXT;
    UPDATE consents SET
      cdr_arrangement_id = json_extract(raw, '$.cdrArrangementId'),
      consumer_id = json_extract(raw, '$.consumerId'),
      consumer_mobile = json_extract(raw, '$.consumerMobileNumber'),
      external_id = json_extract(raw, '$.externalId'),
      post_usage_action = json_extract(raw, '$.postUsageAction');
    CREATE INDEX consents_by_arrangement ON consents (cdr_arrangement_id);
    CREATE INDEX consents_by_consumer ON consents (consumer_id);
    CREATE INDEX consents_by_status_end ON consents (status, sharing_end_date);
    CREATE INDEX consents_by_status_created ON consents (status, created, consent_id);

    -- Every distinct payload ever seen for a consent: the audit trail of what the API said.
    CREATE TABLE consent_versions (
      consent_id TEXT NOT NULL,
      version    INTEGER,
      hash       TEXT NOT NULL,
      raw        TEXT NOT NULL,
      seen_at    TEXT NOT NULL,
      PRIMARY KEY (consent_id, hash)
    ) STRICT;
    INSERT INTO consent_versions (consent_id, version, hash, raw, seen_at)
      SELECT consent_id, version, 'migrated', raw, synced_at FROM consents;

    CREATE TABLE events (
      event_id     TEXT PRIMARY KEY,
      consent_id   TEXT NOT NULL,
      event_type   TEXT NOT NULL,
      timestamp    TEXT NOT NULL,
      event_detail TEXT,
      raw          TEXT NOT NULL,
      synced_at    TEXT NOT NULL
    ) STRICT;
    CREATE INDEX events_by_consent ON events (consent_id, timestamp, event_id);
    CREATE INDEX events_by_type ON events (event_type, timestamp, event_id);
    CREATE INDEX events_by_time ON events (timestamp, event_id);

    CREATE TABLE use_cases (
      id        TEXT PRIMARY KEY,
      name      TEXT,
      raw       TEXT NOT NULL,
      synced_at TEXT NOT NULL
    ) STRICT;

    CREATE TABLE data_holders (
      data_holder_brand_id TEXT PRIMARY KEY,
      brand_name           TEXT,
      raw                  TEXT NOT NULL,
      synced_at            TEXT NOT NULL
    ) STRICT;

    -- Data API records per consent: the payload as sent and its normalised form, side by side,
    -- so a normaliser fix can be re-applied without a download.
    CREATE TABLE data_records (
      kind        TEXT NOT NULL,
      record_id   TEXT NOT NULL,
      consent_id  TEXT,
      shape       TEXT,
      raw         TEXT NOT NULL,
      normalized  TEXT,
      notes       TEXT,
      fetched_at  TEXT NOT NULL,
      PRIMARY KEY (kind, record_id)
    ) STRICT;
    CREATE INDEX data_records_by_consent ON data_records (consent_id, kind);

    -- Append-only, each entry chained to the previous by hash (see audit-log.ts).
    CREATE TABLE audit_log (
      seq       INTEGER PRIMARY KEY AUTOINCREMENT,
      at        TEXT NOT NULL,
      operator  TEXT NOT NULL,
      action    TEXT NOT NULL,
      target    TEXT,
      reason    TEXT,
      result    TEXT NOT NULL,
      prev_hash TEXT NOT NULL,
      hash      TEXT NOT NULL
    ) STRICT;
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

    -- Search: identifiers, e-mail, mobile, external id, data holder and use case names.
    CREATE VIRTUAL TABLE consents_fts USING fts5(
      consent_id, cdr_arrangement_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name,
      content = 'consents', content_rowid = 'rowid', tokenize = "unicode61 tokenchars '@.-_|+'"
    );
    INSERT INTO consents_fts (consents_fts) VALUES ('rebuild');
    CREATE TRIGGER consents_fts_insert AFTER INSERT ON consents BEGIN
      INSERT INTO consents_fts (rowid, consent_id, cdr_arrangement_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
      VALUES (new.rowid, new.consent_id, new.cdr_arrangement_id, new.consumer_email, new.consumer_mobile, new.external_id, new.data_holder_name, new.use_case_name);
    END;
    CREATE TRIGGER consents_fts_delete AFTER DELETE ON consents BEGIN
      INSERT INTO consents_fts (consents_fts, rowid, consent_id, cdr_arrangement_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
      VALUES ('delete', old.rowid, old.consent_id, old.cdr_arrangement_id, old.consumer_email, old.consumer_mobile, old.external_id, old.data_holder_name, old.use_case_name);
    END;
    CREATE TRIGGER consents_fts_update AFTER UPDATE ON consents BEGIN
      INSERT INTO consents_fts (consents_fts, rowid, consent_id, cdr_arrangement_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
      VALUES ('delete', old.rowid, old.consent_id, old.cdr_arrangement_id, old.consumer_email, old.consumer_mobile, old.external_id, old.data_holder_name, old.use_case_name);
      INSERT INTO consents_fts (rowid, consent_id, cdr_arrangement_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
      VALUES (new.rowid, new.consent_id, new.cdr_arrangement_id, new.consumer_email, new.consumer_mobile, new.external_id, new.data_holder_name, new.use_case_name);
    END;
  `);
}
