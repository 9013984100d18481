import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * 7: each use case as the combined-scopes view shows it (GET /use-cases?combineScopes=true), beside
 * the separate view, so staff see offline which scope clusters merge.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec('ALTER TABLE use_cases ADD COLUMN combined_raw TEXT');
}
