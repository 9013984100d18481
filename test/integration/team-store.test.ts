import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditAnchorFile } from '../../electron/core/audit/audit-anchor.js';
import { entryHash } from '../../electron/core/audit/chain.js';
import { auditText } from '../../electron/core/exports/log-exports.js';
import { runWithRequest } from '../../electron/ipc/request-context.js';
import type { AuditEntry } from '../../electron/core/audit/port.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import {
  migrate,
  PG_MIGRATIONS,
  PG_SCHEMA_VERSION,
  schemaVersion,
  SchemaError,
  type Migration,
} from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { prepareAppRole } from '../../electron/core/postgres/roles.js';
import type { ConsentClient } from '../../electron/core/api/consent-client.js';
import { ConsentActions } from '../../electron/core/consents/actions.js';
import { jobHandlers, type JobsContext } from '../../electron/core/jobs/handlers.js';
import { JobRegistry } from '../../electron/core/jobs/jobs.js';
import { EventBus } from '../../electron/ipc/event-bus.js';
import type { Storage } from '../../electron/core/storage.js';
import type { Consent } from '../../shared/schemas/consent.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';

/**
 * The team store on a real PostgreSQL: migrations (from empty, again, concurrently, refusing a newer
 * schema), the audit log append-only at the database level, and one chain whatever the number of
 * writers.
 */
const open: { db: PgDb; database: TestDatabase }[] = [];
afterAll(async () => {
  for (const o of open) {
    await o.db.close().catch(() => undefined);
    await o.database.drop();
  }
});

async function database(max = 4) {
  const database = await freshDatabase();
  const db = new PgDb(database.url, { max });
  open.push({ db, database });
  return { db, database };
}

const entry = (i: number): AuditEntry => ({
  operator: `op${i % 3}`,
  action: 'revoke',
  target: `consent-${i}`,
  reason: 'asked',
  result: 'revoked',
});

describe('team store migrations', () => {
  it('migrates an empty database to the current version, once, and again does nothing', async () => {
    const { db } = await database();
    expect(await schemaVersion(db)).toBe(0);
    expect(await migrate(db)).toEqual({ from: 0, to: PG_SCHEMA_VERSION });
    expect(await schemaVersion(db)).toBe(PG_SCHEMA_VERSION);
    expect(await migrate(db)).toEqual({ from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION });
    const rows = await db.query<{ version: number }>('SELECT version FROM cdr_schema ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('reads and writes instants in UTC whatever zone the database defaults to', async () => {
    const { db, database: d } = await database();
    await db.query(`ALTER DATABASE ${d.name} SET TimeZone = 'Australia/Sydney'`);
    await db.close();
    const fresh = new PgDb(d.url, { max: 1 });
    open.push({ db: fresh, database: { ...d, drop: async () => undefined } });
    expect(await fresh.one("SELECT current_setting('TimeZone') AS z")).toEqual({ z: 'UTC' });
    expect(await fresh.one("SELECT to_char('2026-11-26T23:30:00Z'::timestamptz, 'YYYY-MM-DD HH24:MI') AS t")).toEqual({
      t: '2026-11-26 23:30',
    });
  });

  it('gives the consents a schema-6 database already holds their text searched anywhere (version 7)', async () => {
    const { db } = await database();
    await migrate(db, { migrations: PG_MIGRATIONS.slice(0, 6) });
    const payload = { consentId: 'c-upgrade-1', consumerEmail: 'Zoë.Smith@Example.com', consumerMobileNumber: '+61412345678' };
    await db.query(
      "INSERT INTO consents (consent_id, payload, payload_hash, synced_at, search) VALUES ($1, $2, 'h', '2026-11-01T00:00:00.000Z', '')",
      [payload.consentId, JSON.stringify(payload)],
    );
    expect(await migrate(db)).toEqual({ from: 6, to: PG_SCHEMA_VERSION });
    expect(await db.one('SELECT grams FROM consents')).toEqual({ grams: 'c-upgrade-1\nzoe.smith@example.com\n+61412345678' });
    const storage = postgresStorage(db);
    const found = await storage.consents.list({
      filter: { search: 'SMITH@ex' },
      sort: { field: 'consentId', direction: 'asc' },
      offset: 0,
      limit: 5,
    });
    expect(found.map((r) => r.consentId)).toEqual(['c-upgrade-1']);
  });

  it('migrates once when several servers start together', async () => {
    const { db } = await database(8);
    const results = await Promise.all(Array.from({ length: 4 }, () => migrate(db)));
    expect(results.filter((r) => r.from === 0)).toHaveLength(1);
    expect(await schemaVersion(db)).toBe(PG_SCHEMA_VERSION);
  });

  it('brings an older schema up, step by step, in one transaction: a failing step leaves the version where it was', async () => {
    const { db } = await database();
    const steps: Migration[] = [
      { version: 1, name: 'one', up: 'CREATE TABLE t1 (a integer)' },
      { version: 2, name: 'two', up: 'ALTER TABLE t1 ADD COLUMN b text' },
      { version: 3, name: 'three', up: 'ALTER TABLE t1 ADD COLUMN c text; SELECT no_such_function()' },
    ];
    expect(await migrate(db, { migrations: steps.slice(0, 1) })).toEqual({ from: 0, to: 1 });
    await expect(migrate(db, { migrations: steps })).rejects.toThrow(/no_such_function/);
    expect(await schemaVersion(db)).toBe(1);
    const columns = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 't1' ORDER BY 1",
    );
    expect(columns.map((c) => c.column_name)).toEqual(['a']);
    expect(await migrate(db, { migrations: steps.slice(0, 2) })).toEqual({ from: 1, to: 2 });
  });

  it('refuses a schema newer than the code, with a clear message, and changes nothing', async () => {
    const { db } = await database();
    await migrate(db);
    await db.query("INSERT INTO cdr_schema (version, name, code) VALUES ($1, 'from the future', 'cdr-console 9')", [PG_SCHEMA_VERSION + 1]);
    const error = await migrate(db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toContain(
      `schema is version ${PG_SCHEMA_VERSION + 1}, newer than this CDR Console knows (version ${PG_SCHEMA_VERSION})`,
    );
    expect(await schemaVersion(db)).toBe(PG_SCHEMA_VERSION + 1);
  });
});

describe('team audit log', () => {
  it('is append-only for the server’s role (no UPDATE, DELETE or TRUNCATE) and, by a trigger, for the owner too', async () => {
    const { db, database: d } = await database();
    await migrate(db);
    const app = await prepareAppRole(d.url);
    expect(app.separate).toBe(true);
    const served = new PgDb(app.url, { max: 2 });
    try {
      const storage = postgresStorage(served);
      for (let i = 1; i <= 3; i++) await storage.audit.append(entry(i));
      for (const statement of ["UPDATE audit_log SET reason = 'edited'", 'DELETE FROM audit_log WHERE seq = 2', 'TRUNCATE audit_log'])
        await expect(served.query(statement), statement).rejects.toThrow(/permission denied/);
      for (const statement of ["UPDATE audit_log SET reason = 'edited'", 'DELETE FROM audit_log WHERE seq = 2', 'TRUNCATE audit_log'])
        await expect(db.query(statement), statement).rejects.toThrow(/the audit log is append-only/);
      // The server's role reads and writes everything else.
      await storage.syncState.set('k', 'v');
      expect(await storage.syncState.get('k')).toBe('v');
      expect(await storage.audit.verify()).toEqual({ ok: true, entries: 3 });
    } finally {
      await served.close();
    }
  });

  it('never forks under concurrent writers: 4 servers × 25 actions make one chain of 100', async () => {
    const { db, database: d } = await database();
    await migrate(db);
    const servers = Array.from({ length: 4 }, () => new PgDb(d.url, { max: 3 }));
    try {
      await Promise.all(
        servers.map((s, k) => {
          const storage = postgresStorage(s);
          return Promise.all(Array.from({ length: 25 }, (_, i) => storage.audit.append(entry(k * 25 + i))));
        }),
      );
      const storage = postgresStorage(db);
      expect(await storage.audit.verify()).toEqual({ ok: true, entries: 100 });
      const all = await storage.audit.entries();
      expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(new Set(all.map((e) => e.target)).size).toBe(100);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('finds each kind of tampering a superuser could still do: an edit, a deletion, a reordering', async () => {
    const { db } = await database();
    await migrate(db);
    const storage = postgresStorage(db);
    for (let i = 1; i <= 6; i++) await storage.audit.append(entry(i));
    const tamper = async (sql: string) => {
      await db.tx(async (tx) => {
        await tx.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
        await tx.query(sql);
        await tx.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
      });
    };
    await tamper("UPDATE audit_log SET reason = 'nothing happened' WHERE seq = 2");
    let v = await storage.audit.verify();
    expect(v).toMatchObject({ ok: false, brokenAt: 2, problem: 'entry 2 was changed after it was written' });
    await tamper('DELETE FROM audit_log WHERE seq = 4');
    v = await storage.audit.verify();
    expect(v.ok || v.problems).toEqual(['entry 2 was changed after it was written', 'entry 4 is missing']);
    // Swap two entries' places: each then sits after the wrong entry.
    await tamper(
      'UPDATE audit_log SET seq = -5 WHERE seq = 5; UPDATE audit_log SET seq = 5 WHERE seq = 6; UPDATE audit_log SET seq = 6 WHERE seq = -5',
    );
    v = await storage.audit.verify();
    expect(v.ok || v.problems).toEqual([
      'entry 2 was changed after it was written',
      'entry 4 is missing',
      'entry 5 was changed after it was written',
      'entry 6 does not follow entry 5',
      'entry 6 was changed after it was written',
    ]);
  });

  it('finds the newest entries deleted, or all of them, by the head anchor kept outside the database', async () => {
    const { db } = await database();
    await migrate(db);
    const dir = mkdtempSync(join(tmpdir(), 'cdr-test-anchor-'));
    try {
      const anchor = { file: new AuditAnchorFile(join(dir, 'team-audit.anchor'), 'ab'.repeat(32)), fresh: true };
      const storage = postgresStorage(db, { anchor });
      for (let i = 1; i <= 5; i++) await storage.audit.append(entry(i));
      await storage.flush();
      expect(await storage.audit.verify()).toEqual({ ok: true, entries: 5 });
      const superuser = async (sql: string) =>
        db.tx(async (tx) => {
          await tx.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
          await tx.query(sql);
          await tx.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
        });
      // What is left still links up; only the anchor knows the log was longer.
      await superuser('DELETE FROM audit_log WHERE seq > 3');
      let v = await storage.audit.verify();
      expect(v).toMatchObject({ ok: false, entries: 3, brokenAt: 4 });
      expect(v.ok || v.problem).toContain('the table ends at entry 3: entries 4–5 were deleted');
      await superuser('TRUNCATE audit_log');
      v = await storage.audit.verify();
      expect(v.ok || v.problem).toContain('the audit table is empty, but the head anchor says it held 5 entries');
      // A new server on the same store records the incident in the anchor, and keeps reporting it.
      const next = postgresStorage(db, { anchor: { ...anchor, fresh: false } });
      await next.flush(); // its first look at the anchor, as a server does before it serves
      await next.audit.append(entry(9));
      await next.flush();
      v = await next.audit.verify();
      expect(v.ok || v.problems.join('\n')).toContain('every entry was deleted (found');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('team audit entries know the client', () => {
  it('records who sent the request (address, user agent), in the hash: editing it is found', async () => {
    const { db } = await database();
    await migrate(db);
    const storage = postgresStorage(db);
    const client = { address: '127.0.0.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/153' };
    await runWithRequest({ client }, () => storage.audit.append(entry(1)));
    await storage.audit.append(entry(2)); // no request: the command line, a schedule
    const caller = { userId: 'u_1', userName: 'sam', displayName: 'Sam Support', role: 'support' as const, method: 'password' };
    await runWithRequest({ client, caller }, () => storage.audit.append(entry(3))); // a signed-in person
    const [first, second, third] = await storage.audit.entries();
    expect(first!.client).toBe('127.0.0.1 Mozilla/5.0 (X11; Linux x86_64) Chrome/153');
    expect(second!.client).toBeUndefined();
    expect(third!.person).toEqual({ userId: 'u_1', displayName: 'Sam Support', role: 'support', method: 'password' });
    expect(await storage.audit.verify()).toEqual({ ok: true, entries: 3 });
    // The export carries the client (last column), so an auditor can check each hash from the CSV alone.
    const [head, ...lines] = auditText(await storage.audit.entries(), 'csv', storage.audit.keepsClient)
      .trim()
      .split('\r\n');
    const columns = head!.split(',');
    // Every cell is quoted, a quote doubled (no cell here holds a line break).
    const csv = lines.map((l) =>
      Object.fromEntries([...l.matchAll(/"((?:[^"]|"")*)"/g)].map((m, i) => [columns[i]!, m[1]!.replaceAll('""', '"')])),
    );
    expect(Object.keys(csv[0]!).slice(-5)).toEqual(['client', 'user_id', 'display_name', 'role', 'sign_in_method']);
    for (const row of csv) {
      const person = row.user_id
        ? { userId: row.user_id, displayName: row.display_name!, role: row.role!, method: row.sign_in_method! }
        : undefined;
      const record = {
        ...row,
        seq: Number(row.seq),
        target: row.target || null,
        reason: row.reason || null,
        client: row.client || null,
        person,
      };
      expect(entryHash(record as never)).toBe(row.hash);
    }
    expect(csv[2]).toMatchObject({ user_id: 'u_1', display_name: 'Sam Support', role: 'support', sign_in_method: 'password' });
    await db.tx(async (tx) => {
      await tx.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await tx.query("UPDATE audit_log SET client = '10.0.0.9 curl/8' WHERE seq = 1");
      await tx.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
    });
    expect(await storage.audit.verify()).toMatchObject({ ok: false, brokenAt: 1, problem: 'entry 1 was changed after it was written' });
  });
});

describe('team bulk jobs', () => {
  it('are run by one server at a time: the other is refused until the holder releases the job, is killed or stops being heard from', async () => {
    const { db } = await database();
    await migrate(db);
    const a = postgresStorage(db, { instanceId: 'server-a' });
    const b = postgresStorage(db, { instanceId: 'server-b' });
    await a.bulk.create({
      jobId: 'job-1',
      created: '2026-11-01T00:00:00.000Z',
      operator: 'sam',
      reason: 'incident 9',
      consentIds: ['c1', 'c2'],
    });
    expect(await a.bulk.claim('job-1')).toBe(true);
    expect(await b.bulk.claim('job-1')).toBe(false);
    expect(await a.bulk.claim('job-1')).toBe(true); // still running: renewed
    await a.bulk.release('job-1');
    expect(await b.bulk.claim('job-1')).toBe(true);
    expect(await a.bulk.heldElsewhere('job-1')).toMatch(/team server/);
    expect(await b.bulk.heldElsewhere('job-1')).toBeUndefined(); // its own
    // B hangs (its connection lingers, no renewal): once it has not been heard from for a while, A
    // takes the job over (ending B's connection), and B's next renewal says it lost the job.
    expect(await a.bulk.claim('job-1')).toBe(false);
    await db.query("UPDATE action_jobs SET owner_seen = now() - interval '1 minute' WHERE job_id = 'job-1'");
    expect(await a.bulk.claim('job-1')).toBe(true);
    expect(await b.bulk.claim('job-1')).toBe(false);
    expect(await b.bulk.markSending('job-1', 1, '2026-11-01T00:00:01.000Z')).toBe(false); // fenced: B sends nothing more
    expect(await a.bulk.markSending('job-1', 1, '2026-11-01T00:00:01.000Z')).toBe(true);
    expect(await a.bulk.item('job-1', 1)).toMatchObject({ status: 'pending', sentAt: '2026-11-01T00:00:01.000Z' });
    // A is killed: its connection ends with it, and the job is free at once.
    await db.query(
      `SELECT pg_terminate_backend(pid, 5000) FROM pg_locks WHERE locktype = 'advisory' AND objid = hashtext('job-1')::oid AND objsubid = 2`,
    );
    expect(await b.bulk.heldElsewhere('job-1')).toBeUndefined();
    expect(await b.bulk.claim('job-1')).toBe(true);
    expect(await a.bulk.claim('job-1')).toBe(false);
    await b.bulk.release('job-1');
    expect(await a.bulk.heldElsewhere('job-1')).toBeUndefined();
  });

  it('a job free to take is taken by exactly one of the servers that try at once', async () => {
    const { db } = await database(6);
    await migrate(db);
    const servers = ['a', 'b', 'c', 'd'].map((id) => postgresStorage(db, { instanceId: `server-${id}` }));
    await servers[0]!.bulk.create({
      jobId: 'job-2',
      created: '2026-11-01T00:00:00.000Z',
      operator: 'sam',
      reason: 'incident 9',
      consentIds: ['c1'],
    });
    const claims = await Promise.all(servers.map((s) => s.bulk.claim('job-2')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    await Promise.all(servers.map((s) => s.bulk.release('job-2')));
  });

  /** A server's consent actions on `storage`, against an intermediary that answers after `delayMs` and counts DELETEs. */
  const serverOn = (storage: Storage, deletes: string[], delayMs: number) => {
    const client = {
      getConsent: async (id: string) => ({ consentId: id, status: deletes.includes(id) ? 'REVOKED' : 'ACTIVE' }) as Consent,
      revokeConsent: async (id: string) => {
        await new Promise((r) => setTimeout(r, delayMs));
        deletes.push(id);
        return 'revoked' as const;
      },
    } as unknown as ConsentClient;
    const actions = new ConsentActions({
      client,
      store: storage.actions,
      bulk: storage.bulk,
      audit: storage.audit,
      operator: () => ({ account: 'sam', displayName: null }),
      refreshEvents: false,
    });
    const jobs = new JobRegistry(() => undefined);
    const ctx = { bus: new EventBus(), jobs, actions, intermediary: { online: true } } as unknown as JobsContext;
    return { actions, jobs, handlers: jobHandlers(ctx) };
  };

  it('a server that lost its hold on a job (another took it over) stops at once, sending nothing more', async () => {
    const { db } = await database(8);
    await migrate(db);
    const deletes: string[] = [];
    const a = serverOn(postgresStorage(db, { instanceId: 'server-a' }), deletes, 50);
    const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
    const jobId = await a.actions.createBulkRevoke(ids, 'incident 19');
    const run = a.actions.runBulkRevoke(jobId, { perSecond: 50 });
    while (deletes.length < 3) await new Promise((r) => setTimeout(r, 10));
    // A seems gone quiet: B takes the job over (ending A's hold).
    await db.query("UPDATE action_jobs SET owner_seen = now() - interval '1 minute' WHERE job_id = $1", [jobId]);
    const b = postgresStorage(db, { instanceId: 'server-b' });
    expect(await b.bulk.claim(jobId)).toBe(true);
    await expect(run).rejects.toThrow(/lost its hold/);
    const sent = deletes.length;
    expect(sent).toBeLessThan(ids.length);
    await new Promise((r) => setTimeout(r, 200));
    expect(deletes).toHaveLength(sent); // nothing more from A
    expect(new Set(deletes).size).toBe(deletes.length);
    await b.bulk.release(jobId);
  });

  it('jobs:list on another server shows a job running elsewhere as running there (not resumable), and as interrupted once its holder is gone', async () => {
    const { db } = await database(8);
    await migrate(db);
    const a = postgresStorage(db, { instanceId: 'server-a' });
    await db.query(
      "INSERT INTO team_instances (instance_id, host, pid, account, started, seen) VALUES ('server-a', 'host-a', 42, 'sam', now(), now())",
    );
    const deletes: string[] = [];
    const b = serverOn(postgresStorage(db, { instanceId: 'server-b' }), deletes, 0);
    const jobId = await b.actions.createBulkRevoke(['c1', 'c2'], 'incident 19');
    expect(await a.bulk.claim(jobId)).toBe(true);
    const [running] = await b.handlers['jobs:list']({});
    expect(running).toMatchObject({ jobId, state: 'running', message: expect.stringContaining('the team server on host-a (process 42)') });
    await expect(b.handlers['jobs:control']({ jobId, action: 'resume' })).rejects.toThrow(/running on the team server on host-a/);
    // A is killed: its connection (and hold) ends with it.
    await db.query(`SELECT pg_terminate_backend(pid, 5000) FROM pg_locks WHERE locktype = 'advisory' AND objid = hashtext($1)::oid`, [
      jobId,
    ]);
    const [interrupted] = await b.handlers['jobs:list']({});
    expect(interrupted).toMatchObject({ jobId, state: 'interrupted', counts: { pending: 2 } });
    await b.handlers['jobs:control']({ jobId, action: 'resume' });
    while (b.jobs.find(jobId)?.state === 'running') await new Promise((r) => setTimeout(r, 20));
    expect(b.jobs.find(jobId)).toMatchObject({ state: 'finished', counts: { revoked: 2, pending: 0 } });
    expect(deletes).toEqual(['c1', 'c2']);
  });
});
