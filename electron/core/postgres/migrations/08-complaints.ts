import type { Migration } from '../migration.js';

/**
 * 8: the complaints register (issue 38), the columns of query/schema.ts's ComplaintsTable (days as
 * YYYY-MM-DD text and instants as ISO text, read back as SQLite's are).
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 8,
  name: 'the complaints register',
  up: async (tx) => {
    await tx.query(`
      CREATE TABLE complaints (
        id text PRIMARY KEY,
        number integer NOT NULL UNIQUE,
        received_on text NOT NULL,
        channel text NOT NULL,
        category text NOT NULL,
        description text NOT NULL,
        consent_id text,
        consumer_id text,
        outcome text,
        resolved_on text,
        referred_to text,
        created_at text NOT NULL,
        created_by text NOT NULL,
        updated_at text NOT NULL,
        updated_by text NOT NULL,
        version integer NOT NULL,
        CHECK (consent_id IS NOT NULL OR consumer_id IS NOT NULL),
        CHECK ((outcome IS NULL) = (resolved_on IS NULL))
      )`);
    await tx.query('CREATE INDEX complaints_consent ON complaints (consent_id) WHERE consent_id IS NOT NULL');
    await tx.query('CREATE INDEX complaints_consumer ON complaints (consumer_id) WHERE consumer_id IS NOT NULL');
    await tx.query('CREATE INDEX complaints_received ON complaints (received_on, number)');
  },
};
