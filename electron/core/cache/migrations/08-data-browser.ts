import type Database from 'better-sqlite3-multiple-ciphers';
import { createHash } from 'node:crypto';

/**
 * 8: the data browser. Full-text search over transaction descriptions (kept in step with
 * data_records by triggers), and every distinct version of a banking product the cache has seen,
 * so what changed between two syncs can be shown.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
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
}
