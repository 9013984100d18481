import { afterAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../electron/core/audit/port.js';
import { openCache } from '../../electron/core/cache/database.js';
import { sqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { postgresStorage } from '../../electron/core/postgres/postgres-storage.js';
import type { Rule94Store } from '../../electron/core/reports/rule94/port.js';
import { reportView, sha256Of, signedText } from '../../electron/core/reports/rule94/service.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';

/**
 * A signed rule 9.4 report is archived (issue 38): whatever writes to the database, not only the
 * console's store, cannot change or delete it — the engines' triggers refuse, on SQLite and on
 * PostgreSQL — while a draft stays open to change. Someone who removes the guard and edits it anyway
 * is found out: the report no longer hashes to what was signed, and says so.
 */
const entry = (action: string): AuditEntry => ({ operator: 'kim', action, target: null, reason: null, result: 'ok' });

async function signedAndDraft(store: Rule94Store) {
  const base = {
    state: 'draft' as const,
    figures: [{ key: 'granted', label: 'Consents given', value: 3, how: 'GRANTED events', records: null }],
    answers: { entityName: 'Acme', accreditationNumber: 'ADR1', complaintsElsewhere: 'None' },
    madeAt: '2026-07-01T00:05:00.000Z',
    madeBy: 'CDR Console (reports)',
    countedAt: '2026-07-01T00:05:00.000Z',
    signedBy: null,
    signedAt: null,
    sha256: null,
    version: 1,
  };
  const made = (await store.make({ ...base, period: '2026-H1' }, () => entry('rule94:made')))!;
  await store.make({ ...base, period: '2025-H2' }, () => entry('rule94:made'));
  const sign = { signedBy: 'kim', signedAt: '2026-07-02T00:00:00.000Z' };
  const sha256 = sha256Of(signedText(made, sign));
  const signed = await store.signOff('2026-H1', 1, { ...sign, sha256 }, () => entry('rule94:signoff'));
  expect(signed.outcome).toBe('changed');
  expect(reportView((await store.get('2026-H1'))!)).toMatchObject({ state: 'signed', intact: true, sha256 });
}

describe('a signed rule 9.4 report is archived', () => {
  it('SQLite: its triggers refuse to change or delete a signed one, not a draft; an edit behind their back shows', async () => {
    const db = openCache(':memory:');
    const storage = sqliteStorage(db);
    await signedAndDraft(storage.rule94);
    expect(() => db.prepare("UPDATE rule94_reports SET figures = '[]' WHERE period = '2026-H1'").run()).toThrow(/archived/);
    expect(() => db.prepare("DELETE FROM rule94_reports WHERE period = '2026-H1'").run()).toThrow(/archived/);
    db.prepare("UPDATE rule94_reports SET answers = '{}' WHERE period = '2025-H2'").run();
    // The guard removed, the figure changed: the report says it no longer hashes to what was signed.
    db.exec('DROP TRIGGER rule94_reports_archived_update');
    db.prepare(`UPDATE rule94_reports SET figures = replace(figures, '"value":3', '"value":2') WHERE period = '2026-H1'`).run();
    expect(reportView((await storage.rule94.get('2026-H1'))!)).toMatchObject({ state: 'signed', intact: false });
    db.close();
  });

  const databases: TestDatabase[] = [];
  afterAll(async () => Promise.all(databases.map((d) => d.drop())));
  it('PostgreSQL: its trigger refuses to change or delete a signed one, not a draft', async () => {
    const database = await freshDatabase();
    databases.push(database);
    const db = new PgDb(database.url, { max: 2 });
    try {
      await migrate(db);
      await signedAndDraft(postgresStorage(db).rule94);
      await expect(db.query("UPDATE rule94_reports SET figures = '[]' WHERE period = '2026-H1'")).rejects.toThrow(/archived/);
      await expect(db.query("DELETE FROM rule94_reports WHERE period = '2026-H1'")).rejects.toThrow(/archived/);
      await db.query("UPDATE rule94_reports SET answers = '{}' WHERE period = '2025-H2'");
      expect(await db.one("SELECT answers FROM rule94_reports WHERE period = '2025-H2'")).toEqual({ answers: '{}' });
    } finally {
      await db.close();
    }
  });
});
