import type { Migration } from '../migration.js';

/**
 * 2: bulk revocation items record when their DELETE was about to be sent (never sent twice across a kill)
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 2,
  name: 'bulk revocation items record when their DELETE was about to be sent (never sent twice across a kill)',
  up: 'ALTER TABLE action_job_items ADD COLUMN sent_at text',
};
