import type Database from 'better-sqlite3-multiple-ciphers';
import m01 from './migrations/01-consents-and-sync-state.js';
import m02 from './migrations/02-versions-events-reference-data-audit.js';
import m03 from './migrations/03-action-jobs.js';
import m04 from './migrations/04-retention-log.js';
import m05 from './migrations/05-consent-list-columns.js';
import m06 from './migrations/06-payloads-kept-once.js';
import m07 from './migrations/07-combined-use-cases.js';
import m08 from './migrations/08-data-browser.js';
import m09 from './migrations/09-bulk-item-sent-at.js';
import m10 from './migrations/10-bulk-approval.js';
import m11 from './migrations/11-complaints.js';
import m12 from './migrations/12-alerts.js';
import m13 from './migrations/13-rule94-reports.js';
import m14 from './migrations/14-alert-reads.js';
import m15 from './migrations/15-monthly-packs.js';
import m16 from './migrations/16-read-index-marks.js';

/**
 * Schema migrations, applied in order; entry N takes the schema from version N to N+1. One file
 * per migration in migrations/, each frozen once shipped (test/unit/migrations-frozen.test.ts):
 * a change is a new migration.
 */
export const MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [
  m01,
  m02,
  m03,
  m04,
  m05,
  m06,
  m07,
  m08,
  m09,
  m10,
  m11,
  m12,
  m13,
  m14,
  m15,
  m16,
];
