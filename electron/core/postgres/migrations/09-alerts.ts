import type { Migration } from '../migration.js';

/**
 * 9: alert rules and their alerts (issue 38), the columns of query/schema.ts's AlertRulesTable and
 * AlertsTable (instants as ISO text, read back as SQLite's are).
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 9,
  name: 'alert rules and their alerts',
  up: async (tx) => {
    await tx.query(`
      CREATE TABLE alert_rules (
        id text PRIMARY KEY,
        kind text NOT NULL,
        params text NOT NULL,
        enabled integer NOT NULL,
        silenced_until text,
        silence_reason text,
        silenced_by text,
        created_at text NOT NULL,
        created_by text NOT NULL,
        updated_at text NOT NULL,
        version integer NOT NULL
      )`);
    await tx.query(`
      CREATE TABLE alerts (
        id text PRIMARY KEY,
        rule_id text NOT NULL,
        state text NOT NULL CHECK (state IN ('firing', 'resolved')),
        summary text NOT NULL,
        first_at text NOT NULL,
        last_at text NOT NULL,
        notified_at text,
        resolved_at text,
        acknowledged_by text,
        acknowledged_at text
      )`);
    await tx.query(`CREATE UNIQUE INDEX alerts_firing ON alerts (rule_id) WHERE state = 'firing'`);
    await tx.query('CREATE INDEX alerts_recent ON alerts (last_at)');
  },
};
