import type { SyncStateStore } from '../sync/port.js';
import type { PgDb } from './db.js';

/**
 * The sync state (when the last sync finished, its summary, resume points) and the team's server
 * instances: each server registers itself and refreshes `seen` while it runs, so every console
 * and `cli team status` can say who is connected and who syncs.
 */
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
