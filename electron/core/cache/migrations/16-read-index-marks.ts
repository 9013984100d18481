import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 16: what tells the in-memory read indexes (read-index.ts) that the rows they hold changed, and
 * nothing else. They once compared the whole database's version: every write anywhere — an alert
 * checked, a report made, an audit entry, the sync's own state — threw both away and rebuilt them
 * from 100,000 consents and 1,000,000 events (issue 40: the host's peak after a sync).
 *
 * A new row is seen from the table's largest rowid (a b-tree seek); an update or a delete bumps the
 * table's mark here, from a trigger. An update of a consent counts only when a column the consent
 * index holds changed: a sync that finds a consent as it was still sets its `synced_at` and hash.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE read_index_marks (
      name TEXT PRIMARY KEY,
      n    INTEGER NOT NULL
    ) STRICT;
    INSERT INTO read_index_marks (name, n) VALUES ('consents', 0), ('events', 0);

    CREATE TRIGGER consents_mark_update AFTER UPDATE ON consents
    WHEN old.consent_id IS NOT new.consent_id OR old.status IS NOT new.status
      OR old.consumer_email IS NOT new.consumer_email OR old.data_holder_name IS NOT new.data_holder_name
      OR old.data_holder_brand_id IS NOT new.data_holder_brand_id OR old.use_case_id IS NOT new.use_case_id
      OR old.use_case_name IS NOT new.use_case_name OR old.created IS NOT new.created
      OR old.sharing_end_date IS NOT new.sharing_end_date OR old.revoked IS NOT new.revoked
      OR old.version IS NOT new.version OR old.cdr_arrangement_id IS NOT new.cdr_arrangement_id
      OR old.consumer_id IS NOT new.consumer_id OR old.consumer_mobile IS NOT new.consumer_mobile
      OR old.external_id IS NOT new.external_id OR old.post_usage_action IS NOT new.post_usage_action
      OR old.access_frequency IS NOT new.access_frequency OR old.direct_marketing IS NOT new.direct_marketing
      OR old.first_data_collection IS NOT new.first_data_collection
    BEGIN
      UPDATE read_index_marks SET n = n + 1 WHERE name = 'consents';
    END;
    CREATE TRIGGER consents_mark_delete AFTER DELETE ON consents BEGIN
      UPDATE read_index_marks SET n = n + 1 WHERE name = 'consents';
    END;
    CREATE TRIGGER events_mark_update AFTER UPDATE ON events BEGIN
      UPDATE read_index_marks SET n = n + 1 WHERE name = 'events';
    END;
    CREATE TRIGGER events_mark_delete AFTER DELETE ON events BEGIN
      UPDATE read_index_marks SET n = n + 1 WHERE name = 'events';
    END;
  `);
}
