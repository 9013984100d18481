import type { Migration } from '../migration.js';

/**
 * 5: the audit log keyed: each entry's HMAC-SHA-256 under a key the database never holds, and which key
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 5,
  name: "the audit log keyed: each entry's HMAC-SHA-256 under a key the database never holds, and which key",
  up: `
ALTER TABLE audit_log ADD COLUMN mac text, ADD COLUMN key_id text;
CREATE INDEX audit_log_keyed ON audit_log (chain, seq) WHERE mac IS NOT NULL;
`,
};
