import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore } from '../../electron/core/console-core.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate, PG_SCHEMA_VERSION } from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { cliProcess } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The command line's team commands on a real PostgreSQL: `team status`, and `team import-audit`
 * moving a solo console's audit log into the team store as a chain of its own that still verifies,
 * recorded in the team's chain; tampering with the imported chain is found.
 */
let database: TestDatabase;
let db: PgDb;
let solo: string;
let soloEntries: number;
beforeAll(async () => {
  database = await freshDatabase();
  db = new PgDb(database.url, { max: 2 });
  await migrate(db);
  // A solo console that revoked two consents (and synced: its log holds those actions).
  solo = tempDir();
  const core = await startCore({
    dataDir: solo,
    host: 'cli',
    appVersion: 'test',
    log: { info() {}, error() {} },
    sandbox: { seed: 3, consents: 30 },
  });
  try {
    await core.sync({ data: false });
    const rows = await core.stores.consents.list({
      filter: { statuses: ['ACTIVE'] },
      sort: { field: 'created', direction: 'asc' },
      offset: 0,
      limit: 2,
    });
    for (const r of rows) await core.actions.revoke(r.consentId, 'moving to team mode');
    soloEntries = (await core.stores.audit.entries()).length;
  } finally {
    await core.close();
  }
}, 120_000);
afterAll(async () => {
  await db.close();
  await database.drop();
});

const cli = cliProcess(() => tempDir());

describe('cli team', () => {
  it('import-audit: the solo log becomes a chain of its own that verifies, and the team chain records the import', async () => {
    expect(soloEntries).toBeGreaterThanOrEqual(2);
    const r = await cli(['team', 'import-audit', '--from', solo, '--database-url', database.url]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      new RegExp(
        `^Imported ${soloEntries} audit entries from the solo console in .+ as chain import:[0-9a-f-]+ \\(head hash [0-9a-f]{64}\\); it verified before the import\\.\\n$`,
      ),
    );
    const team = postgresStorage(db);
    // The team's chain holds the import's record; the imported chain is checked beside it, as stored.
    expect(await team.audit.verify()).toEqual({
      ok: true,
      entries: 1,
      imported: [
        { chain: expect.stringMatching(/^import:/), origin: expect.stringContaining(solo), entries: soloEntries, ok: true, problems: [] },
      ],
    });
    expect((await team.audit.entries())[0]).toMatchObject({
      action: 'import-audit',
      result: expect.stringMatching(new RegExp(`^imported ${soloEntries} entries from`)),
    });

    const status = await cli(['team', 'status', '--database-url', database.url, '--json']);
    expect(status.code).toBe(0);
    const s = JSON.parse(status.out);
    expect(s.schema).toEqual({ version: PG_SCHEMA_VERSION, known: PG_SCHEMA_VERSION });
    expect(s.audit.entries).toBe(1);
    expect(s.imported).toEqual([
      { chain: expect.stringMatching(/^import:/), origin: expect.stringContaining(solo), entries: soloEntries, ok: true, problems: [] },
    ]);

    // An imported entry edited in the database (a superuser, triggers off): found.
    await db.tx(async (tx) => {
      await tx.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await tx.query("UPDATE audit_log SET reason = 'nothing to see' WHERE chain LIKE 'import:%' AND seq = 1");
      await tx.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
    });
    const after = JSON.parse((await cli(['team', 'status', '--database-url', database.url, '--json'])).out);
    expect(after.imported[0]).toMatchObject({ ok: false, problems: ['entry 1 was changed after it was written'] });
    const text = await cli(['team', 'status', '--database-url', database.url]);
    expect(text.out).toMatch(/imported import:\S+: \d+ entries from .+; BROKEN: entry 1 was changed after it was written/);
  });

  it('import-audit only reads the solo console: a log that does not verify is refused, and its files are left as they were', async () => {
    const copy = tempDir();
    cpSync(solo, copy, { recursive: true });
    const anchors = readdirSync(copy, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.audit-anchor'));
    expect(anchors).toHaveLength(1);
    // The head anchor gone: the log no longer proves its newest entries are all there.
    rmSync(join(copy, anchors[0]!));
    // SQLite's own -wal and -shm files appear for any reader of a WAL database: not counted.
    const files = () =>
      readdirSync(copy, { recursive: true, encoding: 'utf8' })
        .filter((f) => !/-(wal|shm)$/.test(f))
        .sort();
    const before = files();
    const r = await cli(['team', 'import-audit', '--from', copy, '--database-url', database.url]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/does not verify \(.*anchor.*\)\. Nothing was imported\./);
    // Nothing written into the solo console's directory: no new anchor recording the break there.
    expect(files()).toEqual(before);
    expect(existsSync(join(copy, anchors[0]!))).toBe(false);
  });

  it('refuses a database beyond this machine without TLS, and a data directory with no team store, saying what to do', async () => {
    const far = await cli(['team', 'status', '--database-url', 'postgres://cdr@db.example.com:5432/cdr']);
    expect(far.code).toBe(1);
    expect(far.err).toMatch(/names db\.example\.com, beyond this machine, without TLS.+sslmode=verify-full/);
    // The host given as a parameter is the one the client would use: checked too.
    const hidden = await cli(['team', 'status', '--database-url', 'postgres://cdr@localhost:5432/cdr?host=db.example.com']);
    expect(hidden.code).toBe(1);
    expect(hidden.err).toMatch(/names db\.example\.com, beyond this machine, without TLS/);
    const none = await cli(['team', 'status']);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/There is no team store in .+: start one with npm run team/);
  });
});
