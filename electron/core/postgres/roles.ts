import { randomBytes } from 'node:crypto';
import { PgDb } from './db.js';
import { MIGRATION_LOCK } from './migrations.js';

/**
 * Who may do what in the team store. The server reads and writes through an application role that
 * does not own the tables: on `audit_log` it has SELECT and INSERT only (no UPDATE, DELETE or
 * TRUNCATE), cannot disable its triggers, and cannot take ownership. The trigger refuses edits for
 * everyone else (the owner included), so the chain can only grow; `verify` and the head anchor
 * outside the database catch what a superuser could still do.
 *
 * Where the server may create roles (the embedded cluster; a --database-url whose user has
 * CREATEROLE), `prepareAppRole` makes `<database>_app` and returns a URL for it. Where it may not,
 * the URL's own role serves: it gives up UPDATE, DELETE and TRUNCATE on audit_log, the trigger still
 * refuses edits, and `cli team status` says the table's owner is the server's own role.
 */
export interface AppRole {
  /** The URL the server serves with. */
  url: string;
  role: string;
  /** False when the serving role owns the tables (no role could be created). */
  separate: boolean;
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

export async function prepareAppRole(ownerUrl: string, password?: string): Promise<AppRole> {
  const owner = new PgDb(ownerUrl, { max: 1 });
  try {
    const me = (await owner.one<{ db: string; user: string; can: boolean }>(
      `SELECT current_database() AS db, current_user AS "user",
              (SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user) AS can`,
    ))!;
    if (!me.can) {
      await owner.query('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM CURRENT_USER');
      await owner.query('REVOKE UPDATE, DELETE, TRUNCATE ON audit_chains FROM CURRENT_USER');
      return { url: ownerUrl, role: me.user, separate: false };
    }
    const role = `${me.db}_app`;
    const secret = password ?? randomBytes(24).toString('base64url');
    await owner.tx(async (tx) => {
      // Servers starting together prepare the role once (the migrations' lock).
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const exists = await tx.one('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      // The password is a literal in the statement (roles take no parameters): base64url only.
      if (!/^[A-Za-z0-9_-]+$/.test(secret)) throw new Error('the application role password must be base64url');
      if (!exists)
        await tx.query(`CREATE ROLE ${quoteIdent(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD '${secret}'`);
      else {
        // At a restart only what may change: a role with CREATEROLE but not SUPERUSER may not name
        // the superuser attribute at all, even to say NOSUPERUSER (PostgreSQL 15: "must be superuser
        // to alter superuser roles or change superuser attribute"), which stopped every start after
        // the first (issue 35). The role's powers are checked instead, and refused if they grew.
        await tx.query(`ALTER ROLE ${quoteIdent(role)} LOGIN NOINHERIT PASSWORD '${secret}'`);
        const powers = await tx.one<{ rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean; rolbypassrls: boolean }>(
          'SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles WHERE rolname = $1',
          [role],
        );
        const extra = Object.entries(powers ?? {})
          .filter(([, on]) => on)
          .map(([power]) => power.replace(/^rol/, '').toUpperCase());
        if (extra.length)
          throw new Error(
            `The application role ${role} has ${extra.join(', ')}, which it must not have (it could edit the audit log). ` +
              `Remove it (ALTER ROLE ${role} NO${extra.join(' NO')}, as a superuser) and start again.`,
          );
      }
      await tx.query(`GRANT CONNECT ON DATABASE ${quoteIdent(me.db)} TO ${quoteIdent(role)}`);
      await tx.query(`GRANT USAGE ON SCHEMA public TO ${quoteIdent(role)}`);
      await tx.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${quoteIdent(role)}`);
      await tx.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${quoteIdent(role)}`);
      await tx.query(`REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM ${quoteIdent(role)}`);
      // The complaints register is kept (rule 9.3): a complaint is changed, never deleted.
      await tx.query(`REVOKE DELETE, TRUNCATE ON complaints FROM ${quoteIdent(role)}`);
      // A rule 9.4 report is made once and, signed, archived (its trigger refuses changes; deleting a draft is not the server's either).
      await tx.query(`REVOKE DELETE, TRUNCATE ON rule94_reports FROM ${quoteIdent(role)}`);
      // A month's compliance pack, once made, is a record kept as made.
      await tx.query(`REVOKE DELETE, TRUNCATE ON monthly_packs FROM ${quoteIdent(role)}`);
      // Imported solo logs are recorded by the owner (cli team import-audit): the server may only
      // read them, so it can neither make one up nor hide one (issue 35).
      await tx.query(`REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON audit_chains FROM ${quoteIdent(role)}`);
      await tx.query(`REVOKE ALL ON cdr_schema FROM ${quoteIdent(role)}`);
      await tx.query(`GRANT SELECT ON cdr_schema TO ${quoteIdent(role)}`);
    });
    const url = new URL(ownerUrl);
    url.username = role;
    url.password = secret;
    return { url: url.toString(), role, separate: true };
  } finally {
    await owner.close();
  }
}
