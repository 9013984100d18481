import type { Consent } from '../../../../shared/schemas/consent.js';
import { gramsText } from '../consents-search.js';
import type { Migration } from '../migration.js';

/**
 * 7: consent search finds any part of an identifier: the searched fields, folded, in a grams column under a pg_trgm index
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 7,
  name: 'consent search finds any part of an identifier: the searched fields, folded, in a grams column under a pg_trgm index',
  up: async (tx) => {
    await tx.query('ALTER TABLE consents ADD COLUMN grams text');
    // The consents already stored, a thousand at a time (gramsText folds as SQLite's trigram index does).
    let after = '';
    for (;;) {
      const rows = await tx.query<{ id: string; payload: Consent }>(
        'SELECT consent_id AS id, payload FROM consents WHERE consent_id > $1 ORDER BY consent_id LIMIT 1000',
        [after],
      );
      if (!rows.length) break;
      await tx.query(
        `UPDATE consents SET grams = x.grams FROM jsonb_to_recordset($1::jsonb) AS x(id text, grams text) WHERE consent_id = x.id`,
        [JSON.stringify(rows.map((r) => ({ id: r.id, grams: gramsText(r.payload) })))],
      );
      after = rows[rows.length - 1]!.id;
    }
    await tx.query('ALTER TABLE consents ALTER COLUMN grams SET NOT NULL');
    // pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the database's owner may
    // create it. Where it is missing or refused, the search still answers (a scan), only slower.
    await tx.query('SAVEPOINT trigram');
    try {
      await tx.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await tx.query('CREATE INDEX consents_grams ON consents USING gin (grams gin_trgm_ops)');
      await tx.query('RELEASE SAVEPOINT trigram');
    } catch {
      await tx.query('ROLLBACK TO SAVEPOINT trigram');
    }
  },
};
