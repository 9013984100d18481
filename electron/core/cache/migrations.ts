import type Database from 'better-sqlite3-multiple-ciphers';
import { createHash } from 'node:crypto';
import { eventColumns, type EventPayload } from './event-columns.js';
import { PayloadCodec } from './payload-codec.js';

/**
 * Schema migrations, applied in order; entry N takes the schema from version N to N+1.
 * Never edit one that has shipped: add a new one.
 */
export const MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [
  // 1: consents and sync state.
  (db) => {
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
  },
  // 2: every version of a consent, events, use cases, data holders, Data API records, the audit
  // log, and full-text search over the identifiers and names support staff search by.
  (db) => {
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
  },
  // 3: resumable action jobs (bulk revocation), one row per item.
  (db) => {
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
  },
  // 4: what retention did: CDR data deleted or de-identified when a consent ended. The record of
  // the deletion is kept; the data is not.
  (db) => {
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
  },
  // 5: the columns the consent screens filter, sort and show (access frequency, direct marketing,
  // first data collection), and the consumer id in full-text search.
  (db) => {
    db.exec(`
      ALTER TABLE consents ADD COLUMN access_frequency TEXT;
      ALTER TABLE consents ADD COLUMN direct_marketing INTEGER;
      ALTER TABLE consents ADD COLUMN first_data_collection TEXT;
      UPDATE consents SET
        access_frequency = json_extract(raw, '$.useCase.accessFrequency'),
        direct_marketing = json_extract(raw, '$.directMarketingAllowed'),
        first_data_collection = json_extract(raw, '$.firstDataCollection');

      DROP TRIGGER consents_fts_insert;
      DROP TRIGGER consents_fts_delete;
      DROP TRIGGER consents_fts_update;
      DROP TABLE consents_fts;
      CREATE VIRTUAL TABLE consents_fts USING fts5(
        consent_id, cdr_arrangement_id, consumer_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name,
        content = 'consents', content_rowid = 'rowid', tokenize = "unicode61 tokenchars '@.-_|+'"
      );
      INSERT INTO consents_fts (consents_fts) VALUES ('rebuild');
      CREATE TRIGGER consents_fts_insert AFTER INSERT ON consents BEGIN
        INSERT INTO consents_fts (rowid, consent_id, cdr_arrangement_id, consumer_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
        VALUES (new.rowid, new.consent_id, new.cdr_arrangement_id, new.consumer_id, new.consumer_email, new.consumer_mobile, new.external_id, new.data_holder_name, new.use_case_name);
      END;
      CREATE TRIGGER consents_fts_delete AFTER DELETE ON consents BEGIN
        INSERT INTO consents_fts (consents_fts, rowid, consent_id, cdr_arrangement_id, consumer_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
        VALUES ('delete', old.rowid, old.consent_id, old.cdr_arrangement_id, old.consumer_id, old.consumer_email, old.consumer_mobile, old.external_id, old.data_holder_name, old.use_case_name);
      END;
      CREATE TRIGGER consents_fts_update AFTER UPDATE ON consents BEGIN
        INSERT INTO consents_fts (consents_fts, rowid, consent_id, cdr_arrangement_id, consumer_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
        VALUES ('delete', old.rowid, old.consent_id, old.cdr_arrangement_id, old.consumer_id, old.consumer_email, old.consumer_mobile, old.external_id, old.data_holder_name, old.use_case_name);
        INSERT INTO consents_fts (rowid, consent_id, cdr_arrangement_id, consumer_id, consumer_email, consumer_mobile, external_id, data_holder_name, use_case_name)
        VALUES (new.rowid, new.consent_id, new.cdr_arrangement_id, new.consumer_id, new.consumer_email, new.consumer_mobile, new.external_id, new.data_holder_name, new.use_case_name);
      END;
      CREATE INDEX consents_by_revoked ON consents (revoked, consent_id);
    `);
  },
  // 6: the payload the API sent kept once, and small (payload-codec.ts). Consents keep their columns
  // and the hash of their current payload; the payloads themselves (every distinct version) live in
  // consent_versions, encoded. Events keep their columns, the time as milliseconds (small indexes),
  // and the rest of the payload encoded; the raw copies and the per-row sync stamps of events go.
  (db) => {
    db.exec(`
      CREATE TABLE payload_parts (
        id   INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,   -- sha1 of json
        json TEXT NOT NULL
      ) STRICT;
      CREATE TABLE consent_versions_v6 (
        consent_id TEXT NOT NULL,
        version    INTEGER,
        hash       BLOB NOT NULL,    -- sha1 of the payload's JSON
        body       TEXT NOT NULL,    -- the payload, encoded
        seen_at    TEXT NOT NULL,
        UNIQUE (consent_id, hash)
      ) STRICT;
      ALTER TABLE consents ADD COLUMN payload_hash BLOB;
      CREATE TABLE events_v6 (
        event_id     TEXT NOT NULL,
        consent_id   TEXT NOT NULL,
        event_type   TEXT NOT NULL,
        at           INTEGER NOT NULL,  -- the timestamp, milliseconds since the epoch
        event_detail TEXT,
        extra        TEXT NOT NULL      -- the rest of the payload, encoded
      ) STRICT;
    `);
    const codec = new PayloadCodec(db);
    const sha1 = (text: string) => createHash('sha1').update(text).digest();
    const insertVersion = db.prepare(
      'INSERT INTO consent_versions_v6 (consent_id, version, hash, body, seen_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    // In chunks by rowid: a statement cannot write while another one is still iterating.
    const chunks = function* <R extends { rowid: number }>(sql: string) {
      const stmt = db.prepare<[number], R>(`${sql} WHERE rowid > ? ORDER BY rowid LIMIT 2000`);
      for (let last = 0, rows = stmt.all(last); rows.length; last = rows.at(-1)!.rowid, rows = stmt.all(last)) yield rows;
    };
    for (const rows of chunks<{ rowid: number; consent_id: string; version: number | null; raw: string; seen_at: string }>(
      'SELECT rowid, consent_id, version, raw, seen_at FROM consent_versions',
    )) {
      for (const r of rows) insertVersion.run(r.consent_id, r.version, sha1(r.raw), codec.encode(JSON.parse(r.raw)), r.seen_at);
    }
    const setHash = db.prepare('UPDATE consents SET payload_hash = ? WHERE rowid = ?');
    for (const rows of chunks<{ rowid: number; consent_id: string; version: number | null; raw: string; synced_at: string }>(
      'SELECT rowid, consent_id, version, raw, synced_at FROM consents',
    )) {
      for (const r of rows) {
        const hash = sha1(r.raw);
        insertVersion.run(r.consent_id, r.version, hash, codec.encode(JSON.parse(r.raw)), r.synced_at);
        setHash.run(hash, r.rowid);
      }
    }
    const insertEvent = db.prepare(
      'INSERT INTO events_v6 (event_id, consent_id, event_type, at, event_detail, extra) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const rows of chunks<{ rowid: number; event_id: string; raw: string }>('SELECT rowid, event_id, raw FROM events')) {
      for (const r of rows) {
        const c = eventColumns(r.event_id, JSON.parse(r.raw) as EventPayload);
        insertEvent.run(c.eventId, c.consentId, c.eventType, c.at, c.eventDetail, codec.encode(c.payload, c.covered, true));
      }
    }
    db.exec(`
      DROP TABLE consent_versions;
      ALTER TABLE consent_versions_v6 RENAME TO consent_versions;
      ALTER TABLE consents DROP COLUMN raw;
      DROP TABLE events;
      ALTER TABLE events_v6 RENAME TO events;
      CREATE UNIQUE INDEX events_by_id ON events (event_id);
      CREATE INDEX events_by_consent ON events (consent_id, at);
      CREATE INDEX events_by_type ON events (event_type, at);
      CREATE INDEX events_by_time ON events (at);
    `);
  },
  // 7: each use case as the combined-scopes view shows it (GET /use-cases?combineScopes=true), beside
  // the separate view, so staff see offline which scope clusters merge.
  (db) => {
    db.exec('ALTER TABLE use_cases ADD COLUMN combined_raw TEXT');
  },
  // 8: the data browser. Full-text search over transaction descriptions (kept in step with
  // data_records by triggers), and every distinct version of a banking product the cache has seen,
  // so what changed between two syncs can be shown.
  (db) => {
    db.exec(`
      CREATE VIRTUAL TABLE transactions_fts USING fts5(description, tokenize = "unicode61");
      INSERT INTO transactions_fts (rowid, description)
        SELECT rowid, coalesce(json_extract(raw, '$.description'), '') FROM data_records WHERE kind = 'transactions';
      CREATE TRIGGER transactions_fts_insert AFTER INSERT ON data_records WHEN new.kind = 'transactions' BEGIN
        INSERT INTO transactions_fts (rowid, description) VALUES (new.rowid, coalesce(json_extract(new.raw, '$.description'), ''));
      END;
      CREATE TRIGGER transactions_fts_delete AFTER DELETE ON data_records WHEN old.kind = 'transactions' BEGIN
        DELETE FROM transactions_fts WHERE rowid = old.rowid;
      END;
      CREATE TRIGGER transactions_fts_update AFTER UPDATE OF raw ON data_records WHEN new.kind = 'transactions' BEGIN
        DELETE FROM transactions_fts WHERE rowid = old.rowid;
        INSERT INTO transactions_fts (rowid, description) VALUES (new.rowid, coalesce(json_extract(new.raw, '$.description'), ''));
      END;
      CREATE INDEX data_records_by_kind_fetched ON data_records (kind, consent_id, fetched_at);

      CREATE TABLE product_versions (
        record_id  TEXT NOT NULL,
        hash       TEXT NOT NULL,      -- sha256 of the payload as sent
        shape      TEXT,
        raw        TEXT NOT NULL,
        normalized TEXT,
        notes      TEXT,
        seen_at    TEXT NOT NULL,      -- the first sync that saw this version
        UNIQUE (record_id, hash)
      ) STRICT;
      CREATE INDEX product_versions_by_record ON product_versions (record_id, seen_at);
    `);
    const hash = (text: string) => createHash('sha256').update(text).digest('hex');
    const insert = db.prepare(
      'INSERT INTO product_versions (record_id, hash, shape, raw, normalized, notes, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    for (const r of db
      .prepare<
        [],
        { record_id: string; shape: string | null; raw: string; normalized: string | null; notes: string | null; fetched_at: string }
      >("SELECT record_id, shape, raw, normalized, notes, fetched_at FROM data_records WHERE kind = 'products'")
      .all())
      insert.run(r.record_id, hash(r.raw), r.shape, r.raw, r.normalized, r.notes, r.fetched_at);
  },
  // 9: a bulk revocation's item records when its DELETE was about to be sent: a run killed after
  // that asks the intermediary on resume instead of sending it twice.
  (db) => {
    db.exec('ALTER TABLE action_job_items ADD COLUMN sent_at TEXT');
  },
  // 10: a bulk revocation may wait for a second person's approval (who asked; the decision, by whom, when).
  (db) => {
    for (const c of ['approval_requested_by', 'approval_decision', 'approval_by', 'approval_at'])
      db.exec(`ALTER TABLE action_jobs ADD COLUMN ${c} TEXT`);
  },
];
