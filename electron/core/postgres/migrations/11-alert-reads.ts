import type { Migration } from '../migration.js';

/**
 * 11: which alerts each person has read (issue 38's notification centre, per person): one row per
 * alert and person, the last time they read it (ISO text, read back as SQLite's are), the columns
 * of query/schema.ts's AlertReadsTable. An alert changed since (it resolved) is unread again.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 11,
  name: 'who read which alert',
  up: async (tx) => {
    await tx.query(`
      CREATE TABLE alert_reads (
        alert_id text NOT NULL,
        person text NOT NULL,
        read_at text NOT NULL,
        PRIMARY KEY (alert_id, person)
      )`);
  },
};
