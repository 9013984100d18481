import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { prepareAppRole } from '../../electron/core/postgres/roles.js';
import { pg15Available, startPg15, type Pg15 } from '../helpers/pg15.js';

/**
 * The README's separate-role set-up (issue 35): the tables owned by a role that may create roles
 * but is no superuser, the server serving through an application role it makes. Every start after
 * the first failed on PostgreSQL 15 ("must be superuser to alter superuser roles…"), pushing
 * operators to run the server as a superuser. Tried on the embedded PostgreSQL 18 and on Debian's 15.
 */
async function asAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A database owned by a fresh role WITH CREATEROLE, NOSUPERUSER; its URL. */
async function nonSuperuserOwner(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const tag = randomBytes(4).toString('hex');
  const role = `owner_${tag}`;
  const database = `team_${tag}`;
  const password = randomBytes(12).toString('hex');
  await asAdmin(adminUrl, async (c) => {
    await c.query(`CREATE ROLE ${role} LOGIN CREATEROLE NOSUPERUSER NOCREATEDB PASSWORD '${password}'`);
    await c.query(`CREATE DATABASE ${database} OWNER ${role}`);
  });
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: () =>
      asAdmin(adminUrl, async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await c.query(`DROP ROLE IF EXISTS ${database}_app`);
        await c.query(`DROP ROLE IF EXISTS ${role}`);
      }).then(() => undefined),
  };
}

async function startsTwiceAndHolds(adminUrl: string) {
  const owner = await nonSuperuserOwner(adminUrl);
  try {
    const db = new PgDb(owner.url, { max: 1 });
    await migrate(db);
    await db.close();
    const first = await prepareAppRole(owner.url);
    expect(first.separate).toBe(true);
    // The restart: the role exists, its password is set again.
    const second = await prepareAppRole(owner.url);
    expect(second).toMatchObject({ separate: true, role: first.role });
    const served = new PgDb(second.url, { max: 2 });
    try {
      const storage = postgresStorage(served);
      await storage.audit.append({ operator: 'ops', action: 'check', target: null, reason: null, result: 'ok' });
      // The server's role can neither edit the audit log nor make up, change or hide an imported chain.
      for (const statement of [
        "UPDATE audit_log SET reason = 'edited'",
        "INSERT INTO audit_chains (chain, origin, entries, head_hash) VALUES ('import:x', 'made up', 1, 'h')",
        "UPDATE audit_chains SET origin = 'x'",
        'DELETE FROM audit_chains',
      ])
        await expect(served.query(statement), statement).rejects.toThrow(/permission denied/);
      expect(await served.query('SELECT count(*)::int AS n FROM audit_chains')).toEqual([{ n: 0 }]);
      const version = await served.one<{ v: string }>("SELECT current_setting('server_version_num') AS v");
      return Number(version!.v);
    } finally {
      await served.close();
    }
  } finally {
    await owner.drop();
  }
}

describe('a team store owned by a role that creates roles but is no superuser', () => {
  it('starts, and starts again, on the embedded PostgreSQL', async () => {
    expect(await startsTwiceAndHolds(inject('pgAdminUrl'))).toBeGreaterThanOrEqual(150000);
  });

  describe.runIf(pg15Available())('on PostgreSQL 15 (Debian’s postgresql-15)', () => {
    let server: Pg15;
    beforeAll(async () => {
      server = await startPg15();
    }, 60_000);
    afterAll(() => server?.stop());

    it('starts, and starts again', async () => {
      const version = await startsTwiceAndHolds(server.url);
      expect(Math.floor(version / 10000)).toBe(15);
    });

    it('refuses, saying how to fix it, an application role that was given powers it must not have', async () => {
      const owner = await nonSuperuserOwner(server.url);
      try {
        const db = new PgDb(owner.url, { max: 1 });
        await migrate(db);
        await db.close();
        const app = await prepareAppRole(owner.url);
        await asAdmin(server.url, (c) => c.query(`ALTER ROLE ${app.role} CREATEDB`));
        await expect(prepareAppRole(owner.url)).rejects.toThrow(
          /has CREATEDB, which it must not have .*\(ALTER ROLE \S+ NOCREATEDB, as a superuser\)/,
        );
      } finally {
        await owner.drop();
      }
    });
  });
});
