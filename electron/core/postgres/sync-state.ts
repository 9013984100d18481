import type { SyncStateStore } from '../sync/port.js';
import type { PgDb } from './db.js';

/**
 * The sync state (when the last sync finished, its summary, resume points) and the team's server
 * instances: each server registers itself and refreshes `seen` while it runs, so every console
 * and `cli team status` can say who is connected and who syncs.
 */
export const SYNC_SCHEMA = `
CREATE TABLE sync_state (
  key   text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE team_instances (
  instance_id text PRIMARY KEY,
  host        text NOT NULL,
  pid         integer NOT NULL,
  account     text NOT NULL,
  url         text,
  started     timestamptz NOT NULL,
  seen        timestamptz NOT NULL,
  syncing     boolean NOT NULL DEFAULT false
);
-- What one server tells the others' consoles (live.ts): NOTIFY carries the sequence number only,
-- and a server that reconnects catches up from here (NOTIFY has no replay). Kept a few minutes.
CREATE TABLE team_notices (
  seq     bigserial PRIMARY KEY,
  origin  text NOT NULL,
  event   text NOT NULL,
  payload jsonb NOT NULL,
  at      timestamptz NOT NULL DEFAULT now()
);
`;

export function pgSyncStateStore(db: PgDb): SyncStateStore {
  return {
    get: async (key) => (await db.one<{ value: string }>('SELECT value FROM sync_state WHERE key = $1', [key]))?.value ?? null,
    set: async (key, value) =>
      void (await db.query('INSERT INTO sync_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
        key,
        value,
      ])),
  };
}
