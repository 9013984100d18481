import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentQuery } from '../../electron/core/cache/consent-query.js';
import { ConsentsRepo, DEFERRED_KEY } from '../../electron/core/cache/consents-repo.js';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { startCore } from '../../electron/core/console-core.js';
import { syncConsentsToSqlite as syncConsents } from '../../electron/core/cache/sqlite-sync-store.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import type { Consent } from '../../shared/schemas/consent.js';
import { openRemoteCache, writeRemoteProfile } from '../helpers/remote.js';
import { tempDir } from '../helpers/temp.js';
import { consentSchema, expectWholeIndexes, sandboxClient, syncDepsOn } from '../helpers/truth.js';

/**
 * A first sync into an empty cache builds the consents' secondary indexes once, at its end, and
 * feeds the search index a call's new rows at a time. Throughout, search finds every stored consent
 * and the search index holds exactly the table's rows; at the end (or after a failure, or at the
 * next start after a kill) every index is there again, as a new cache has it.
 */
const quiet = { info() {}, error() {} };
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 83, consents: 1800 });
}, 60_000);
afterAll(() => sandbox.close());

const indexNames = (db: Db) =>
  db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE tbl_name = 'consents' AND type IN ('index', 'trigger') AND sql IS NOT NULL",
    )
    .all()
    .map((r) => r.name);
const search = (db: Db, text: string) =>
  new ConsentQuery(db, { useIndex: false })
    .list({ filter: { search: text }, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 50 })
    .map((r) => r.consentId);
const ftsWhole = (db: Db) => db.exec("INSERT INTO consents_fts (consents_fts, rank) VALUES ('integrity-check', 1)");

function consent(n: number, email: string): Consent {
  return {
    consentId: `first-load-${n}`,
    status: 'ACTIVE',
    consumerEmail: email,
    dataHolderName: 'Bank of Tests',
    created: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
  } as Consent;
}

describe('first load: the repository', () => {
  it('defers the indexes of an empty table only, keeps search whole through inserts, updates and deletes, and builds them back', () => {
    const db = openCache(':memory:');
    const repo = new ConsentsRepo(db);
    const schema = consentSchema(db);
    expect(repo.beginFirstLoad()).toBe(true);
    // The list's default order stays; the rest waits for the end.
    expect(indexNames(db)).toContain('consents_by_created');
    expect(indexNames(db)).not.toContain('consents_by_email');
    expect(indexNames(db)).not.toContain('consents_fts_insert');
    expect(db.prepare('SELECT value FROM sync_state WHERE key = ?').get(DEFERRED_KEY)).toBeDefined();

    repo.upsertPage([consent(1, 'ada@first.example'), consent(2, 'bo@first.example')], 'now');
    // The same consent twice in one page, the second changed: its old terms leave the search index.
    repo.upsertPage([consent(3, 'cy@first.example'), consent(3, 'cyrus@first.example'), consent(4, 'di@first.example')], 'now');
    // Changed in a later page, and one deleted (a retention purge) while the load runs.
    repo.upsertPage([consent(1, 'adele@first.example'), consent(5, 'ed@first.example')], 'now');
    db.prepare('DELETE FROM consents WHERE consent_id = ?').run('first-load-2');
    expect(() => ftsWhole(db)).not.toThrow();
    expect(search(db, 'adele')).toEqual(['first-load-1']);
    expect(search(db, 'ada@')).toEqual([]);
    expect(search(db, 'cyrus')).toEqual(['first-load-3']);
    expect(search(db, 'cy@')).toEqual([]);
    expect(search(db, 'bo@')).toEqual([]);
    expect(search(db, 'ed@first')).toEqual(['first-load-5']);
    // Anywhere in a field, with the old e-mails gone.
    expect(search(db, 'dele@')).toEqual(['first-load-1']);
    expect(search(db, 'rus@first')).toEqual(['first-load-3']);
    expect(search(db, 'i@first')).toEqual(['first-load-4']);

    // A load under way stays one: a resumed sync carries it on.
    expect(repo.beginFirstLoad()).toBe(true);
    expect(repo.finishFirstLoad()).toBe(true);
    expect(consentSchema(db)).toEqual(schema);
    expectWholeIndexes(db);
    expect(repo.finishFirstLoad()).toBe(false);
    // A table with rows is never a first load.
    expect(repo.beginFirstLoad()).toBe(false);
    expect(consentSchema(db)).toEqual(schema);
    // And with the trigger back, new rows reach the search index by it.
    repo.upsertPage([consent(6, 'flo@first.example')], 'now');
    expect(search(db, 'flo')).toEqual(['first-load-6']);
    expect(search(db, 'lo@first')).toEqual(['first-load-6']);
    expectWholeIndexes(db);
    db.close();
  });
});

describe('first load: the sync', () => {
  const deps = (db: Db) => ({ ...syncDepsOn(db, sandbox.url), pageSize: 300, batch: { rows: 300, ms: 60_000 } });

  it('runs without the secondary indexes while search finds what is stored, then builds them; a later full listing keeps them', async () => {
    const db = openCache(':memory:');
    const seen: { indexes: string[]; stored: number; found: boolean }[] = [];
    await syncConsents({
      ...deps(db),
      parts: { consents: true, events: false, reference: false },
      onPageStored: (entity) => {
        if (entity !== 'consents') return;
        const last = db
          .prepare<[], { consent_id: string; consumer_email: string }>(
            'SELECT consent_id, consumer_email FROM consents ORDER BY rowid DESC LIMIT 1',
          )
          .get()!;
        seen.push({
          indexes: indexNames(db),
          stored: (db.prepare('SELECT count(*) AS n FROM consents').get() as { n: number }).n,
          found: search(db, last.consumer_email).includes(last.consent_id),
        });
        ftsWhole(db);
      },
    });
    expect(seen.length).toBeGreaterThanOrEqual(5);
    for (const s of seen.slice(0, -1)) {
      expect(s.indexes).not.toContain('consents_by_email');
      expect(s.found).toBe(true);
    }
    expectWholeIndexes(db);
    expect(db.prepare('SELECT count(*) AS n FROM consents').get()).toEqual({ n: 1800 });

    // The reconcile lists everything again into a full table: the indexes stay.
    const during: string[][] = [];
    await syncConsents({
      ...deps(db),
      full: true,
      parts: { consents: true, events: false, reference: false },
      onPageStored: () => during.push(indexNames(db)),
    });
    for (const names of during) expect(names).toContain('consents_by_email');
    expectWholeIndexes(db);
    db.close();
  }, 60_000);

  it('a first load that fails builds the indexes over what it stored, and the resume completes as an ordinary listing', async () => {
    const db = openCache(':memory:');
    let pages = 0;
    await expect(
      syncConsents({
        ...deps(db),
        onPageStored: () => {
          if (++pages === 2) throw new Error('the console failed after two pages');
        },
      }),
    ).rejects.toThrow('two pages');
    expect(db.prepare('SELECT count(*) AS n FROM consents').get()).toEqual({ n: 600 });
    expectWholeIndexes(db);
    const during: string[][] = [];
    expect(await syncConsents({ ...deps(db), onPageStored: () => during.push(indexNames(db)) })).toMatchObject({ resumed: true });
    for (const names of during) expect(names).toContain('consents_by_email');
    expectWholeIndexes(db);
    db.close();
  }, 60_000);

  it('the console builds at its start what a killed first load left to build', async () => {
    const dataDir = tempDir();
    writeRemoteProfile(dataDir, sandbox.url);
    const first = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, clientSecret: 'sandbox-secret' });
    await first.close();
    // As a kill leaves it: the load begun and some pages stored, no end.
    const db = openRemoteCache(dataDir);
    const repo = new ConsentsRepo(db);
    expect(repo.beginFirstLoad()).toBe(true);
    const page = await sandboxClient(sandbox.url).listConsentPages({ pageSize: 200 }).next();
    repo.upsertPage(page.value!.consents, 'now');
    db.close();

    const logged: string[] = [];
    const core = await startCore({
      dataDir,
      host: 'browser',
      appVersion: 'test',
      log: { info: (m: string) => logged.push(m), error() {} },
      clientSecret: 'sandbox-secret',
    });
    try {
      expect(logged.join('\n')).toMatch(/interrupted first sync/);
    } finally {
      await core.close();
    }
    const after = openRemoteCache(dataDir);
    try {
      expectWholeIndexes(after);
      expect(after.prepare('SELECT count(*) AS n FROM consents').get()).toEqual({ n: 200 });
    } finally {
      after.close();
    }
  }, 60_000);
});
