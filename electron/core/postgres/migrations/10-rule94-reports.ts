import type { Migration } from '../migration.js';

/**
 * 10: the rule 9.4 reports (issue 38), the columns of query/schema.ts's Rule94ReportsTable (instants
 * as ISO text, read back as SQLite's are): one per half-year, made once across every team server
 * (its period is the key). A signed report is archived: a trigger refuses to change or delete it,
 * and the application role may not delete or truncate (postgres/roles.ts). The reminder rule is
 * there from the start; a person may remove it.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 10,
  name: 'the rule 9.4 reports',
  up: async (tx) => {
    await tx.query(`
      CREATE TABLE rule94_reports (
        period text PRIMARY KEY,
        state text NOT NULL CHECK (state IN ('draft', 'signed')),
        figures text NOT NULL,
        answers text NOT NULL,
        made_at text NOT NULL,
        made_by text NOT NULL,
        counted_at text NOT NULL,
        signed_by text,
        signed_at text,
        sha256 text,
        version integer NOT NULL,
        CHECK ((state = 'signed') = (sha256 IS NOT NULL AND signed_by IS NOT NULL AND signed_at IS NOT NULL))
      )`);
    await tx.query(`
      CREATE FUNCTION rule94_reports_archived() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'a signed rule 9.4 report is archived: it cannot be changed or deleted';
      END $$`);
    await tx.query(`
      CREATE TRIGGER rule94_reports_archived BEFORE UPDATE OR DELETE ON rule94_reports
      FOR EACH ROW WHEN (OLD.state = 'signed') EXECUTE FUNCTION rule94_reports_archived()`);
    await tx.query(`
      INSERT INTO alert_rules (id, kind, params, enabled, created_at, created_by, updated_at, version)
      VALUES ('rule94-reminder', 'report-unsigned', '{}', 1,
        to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'CDR Console',
        to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 1)`);
  },
};
