import type { Migration } from '../migration.js';

/**
 * 4: sign-in attempts per user name and source address, with locks that grow (a wrong password from one place no longer locks the person out everywhere)
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 4,
  name: 'sign-in attempts per user name and source address, with locks that grow (a wrong password from one place no longer locks the person out everywhere)',
  up: `
DROP TABLE sign_in_attempts;
CREATE TABLE sign_in_attempts (
  name_key     text NOT NULL,
  address      text NOT NULL,
  failures     integer NOT NULL,
  locks        integer NOT NULL DEFAULT 0,
  locked_until text,
  PRIMARY KEY (name_key, address)
);
CREATE INDEX sign_in_attempts_locked ON sign_in_attempts (locked_until) WHERE locked_until IS NOT NULL;
`,
};
