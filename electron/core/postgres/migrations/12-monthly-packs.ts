import type { Migration } from '../migration.js';

/**
 * 12: the monthly compliance pack (issue 38), the columns of query/schema.ts's ReportSchedulesTable
 * and MonthlyPacksTable (instants as ISO text, read back as SQLite's are): whether the pack is
 * scheduled and in which zone's months, and each month's pack as made — the compliance report's
 * HTML and CSV, kept whole, with the HTML's SHA-256 — made once across every team server (the month
 * is the key), and what its e-mail did.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 12,
  name: 'the monthly compliance pack',
  up: async (tx) => {
    await tx.query(`
      CREATE TABLE report_schedules (
        id text PRIMARY KEY,
        enabled integer NOT NULL,
        time_zone text NOT NULL,
        changed_by text NOT NULL,
        changed_at text NOT NULL
      )`);
    await tx.query(`
      CREATE TABLE monthly_packs (
        period text PRIMARY KEY,
        time_zone text NOT NULL,
        from_at text NOT NULL,
        to_at text NOT NULL,
        made_at text NOT NULL,
        made_by text NOT NULL,
        html text NOT NULL,
        csv text NOT NULL,
        sha256 text NOT NULL,
        sent text
      )`);
  },
};
