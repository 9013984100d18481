import type { PgDb, Tx } from './db.js';
import { AUDIT_SCHEMA } from './audit.js';
import type { Consent } from '../../../shared/schemas/consent.js';
import { CONSENTS_SCHEMA } from './consents.js';
import { gramsText } from './consents-search.js';
import { DATA_SCHEMA } from './data.js';
import { EVENTS_SCHEMA } from './events.js';
import { JOBS_SCHEMA } from './jobs.js';
import { PEOPLE_SCHEMA } from './people.js';
import { SYNC_SCHEMA } from './sync-state.js';

/**
 * The team store's schema, versioned. Migrations run when a server starts, all pending ones in one
 * transaction under an advisory lock (two servers starting together migrate once); a database whose
 * schema is newer than this code is refused, never downgraded. `cdr_schema` records each version
 * applied, when, and by which code.
 */
export interface Migration {
  version: number;
  name: string;
  up: string | ((tx: Tx) => Promise<void>);
}

export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'the team store: consents, events, reference, data, audit, jobs, sync state',
    up: [CONSENTS_SCHEMA, EVENTS_SCHEMA, DATA_SCHEMA, AUDIT_SCHEMA, JOBS_SCHEMA, SYNC_SCHEMA].join('\n'),
  },
  {
    version: 2,
    name: 'bulk revocation items record when their DELETE was about to be sent (never sent twice across a kill)',
    up: 'ALTER TABLE action_job_items ADD COLUMN sent_at text',
  },
  {
    version: 3,
    name: "people: the team's users and sessions; audit entries name the person, their role and how they signed in; bulk revocations await a second person's approval",
    up: PEOPLE_SCHEMA,
  },
  // From here on each migration is its own SQL, written once and never changed (a test holds them).
  {
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
  },
  {
    version: 5,
    name: "the audit log keyed: each entry's HMAC-SHA-256 under a key the database never holds, and which key",
    up: `
ALTER TABLE audit_log ADD COLUMN mac text, ADD COLUMN key_id text;
CREATE INDEX audit_log_keyed ON audit_log (chain, seq) WHERE mac IS NOT NULL;
`,
  },
  {
    version: 6,
    name: "each person's own view on a team server: theme, the consent list's columns, saved views",
    up: `
CREATE TABLE user_settings (
  user_id    text PRIMARY KEY REFERENCES users (id),
  settings   jsonb NOT NULL,
  updated_at text NOT NULL
);
`,
  },
  {
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
  },
];

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
