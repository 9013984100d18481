import type { PgDb } from './db.js';
import type { Migration } from './migration.js';
import { migration as m1 } from './migrations/01-team-store.js';
import { migration as m2 } from './migrations/02-bulk-item-sent-at.js';
import { migration as m3 } from './migrations/03-people.js';
import { migration as m4 } from './migrations/04-sign-in-attempts.js';
import { migration as m5 } from './migrations/05-audit-keyed.js';
import { migration as m6 } from './migrations/06-user-settings.js';
import { migration as m7 } from './migrations/07-consent-grams.js';
import { migration as m8 } from './migrations/08-complaints.js';
import { migration as m9 } from './migrations/09-alerts.js';
import { migration as m10 } from './migrations/10-rule94-reports.js';
import { migration as m11 } from './migrations/11-alert-reads.js';
import { migration as m12 } from './migrations/12-monthly-packs.js';

export type { Migration } from './migration.js';

/** One file per migration in migrations/, each frozen once shipped (test/unit/migrations-frozen.test.ts): a change is a new migration. */
export const PG_MIGRATIONS: readonly Migration[] = [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** Held while migrating: a constant advisory lock key ("cdr-schema"). */
export const MIGRATION_LOCK = 0x63647273;

export class SchemaError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `The database's schema is version ${found}, newer than this CDR Console knows (version ${known}): a newer CDR Console upgraded it. ` +
        'Run that version or a newer one on this database; the schema is never downgraded.',
    );
    this.name = 'SchemaError';
  }
}

/** The schema version a database has (0 when it has none yet). */
export async function schemaVersion(db: Pick<PgDb, 'one'>): Promise<number> {
  const exists = await db.one<{ t: string | null }>("SELECT to_regclass('cdr_schema')::text AS t");
  if (!exists?.t) return 0;
  return (await db.one<{ v: number | null }>('SELECT max(version) AS v FROM cdr_schema'))?.v ?? 0;
}

/**
 * Brings the schema up to this code's version: every pending migration, in order, in one
 * transaction. Returns the versions before and after.
 */
export async function migrate(
  db: PgDb,
  opts: { code?: string; migrations?: readonly Migration[] } = {},
): Promise<{ from: number; to: number }> {
  const migrations = opts.migrations ?? PG_MIGRATIONS;
  const known = migrations.length;
  return db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS cdr_schema (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      code       text NOT NULL
    )`);
    const from = (await tx.one<{ v: number | null }>('SELECT max(version) AS v FROM cdr_schema'))?.v ?? 0;
    if (from > known) throw new SchemaError(from, known);
    for (const m of migrations.slice(from)) {
      if (typeof m.up === 'string') await tx.query(m.up);
      else await m.up(tx);
      await tx.query('INSERT INTO cdr_schema (version, name, code) VALUES ($1, $2, $3)', [m.version, m.name, opts.code ?? 'cdr-console']);
    }
    return { from, to: Math.max(from, known) };
  });
}
