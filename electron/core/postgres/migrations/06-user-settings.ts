import type { Migration } from '../migration.js';

/**
 * 6: each person's own view on a team server: theme, the consent list's columns, saved views
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 6,
  name: "each person's own view on a team server: theme, the consent list's columns, saved views",
  up: `
CREATE TABLE user_settings (
  user_id    text PRIMARY KEY REFERENCES users (id),
  settings   jsonb NOT NULL,
  updated_at text NOT NULL
);
`,
};
