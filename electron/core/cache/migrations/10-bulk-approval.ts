import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 10: a bulk revocation may wait for a second person's approval (who asked; the decision, by whom, when).
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  for (const c of ['approval_requested_by', 'approval_decision', 'approval_by', 'approval_at'])
    db.exec(`ALTER TABLE action_jobs ADD COLUMN ${c} TEXT`);
}
