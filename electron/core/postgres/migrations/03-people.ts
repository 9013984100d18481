import type { Migration } from '../migration.js';

/**
 * 3: people: the team's users and sessions; audit entries name the person, their role and how they signed in; bulk revocations await a second person's approval
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 3,
  name: "people: the team's users and sessions; audit entries name the person, their role and how they signed in; bulk revocations await a second person's approval",
  up: String.raw`
CREATE TABLE users (
  id              text PRIMARY KEY,
  name            text NOT NULL,
  display_name    text NOT NULL,
  role            text NOT NULL CHECK (role IN ('viewer', 'compliance', 'support', 'admin')),
  method          text NOT NULL CHECK (method IN ('password', 'oidc')),
  password_hash   text,
  oidc_issuer     text,
  oidc_subject    text,
  disabled        boolean NOT NULL DEFAULT false,
  last_sign_in_at text,
  created_at      text NOT NULL,
  updated_at      text NOT NULL,
  UNIQUE (oidc_issuer, oidc_subject)
);
CREATE UNIQUE INDEX users_name ON users (lower(name));
CREATE TABLE sessions (
  token_hash   text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES users (id),
  method       text NOT NULL,
  created_at   text NOT NULL,
  last_seen_at text NOT NULL,
  expires_at   text NOT NULL,
  client       text
);
CREATE INDEX sessions_by_user ON sessions (user_id);
-- Attempts at signing in per name (lower case), whoever holds it or not: the lockout, shared by every server.
CREATE TABLE sign_in_attempts (
  name_key     text PRIMARY KEY,
  failures     integer NOT NULL,
  locked_until text
);
ALTER TABLE audit_log ADD COLUMN user_id text, ADD COLUMN display_name text, ADD COLUMN role text, ADD COLUMN auth_method text;
ALTER TABLE action_jobs ADD COLUMN approval_requested_by text, ADD COLUMN approval_decision text, ADD COLUMN approval_by text, ADD COLUMN approval_at text;
`,
};
