import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 5: the columns the consent screens filter, sort and show (access frequency, direct marketing,
 * first data collection), and the consumer id in full-text search.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
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
}
