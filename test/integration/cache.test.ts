import Database from 'better-sqlite3-multiple-ciphers';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CacheError,
  checkIntegrity,
  checkIntegrityInBackground,
  isCacheDamage,
  markOpen,
  moveCacheAside,
  openCache,
  SCHEMA_VERSION,
} from '../../electron/core/cache/database.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { damageSecondHalf } from '../helpers/damage.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { ConsentQuery } from '../../electron/core/cache/consent-query.js';
import type { Consent } from '../../shared/schemas/consent.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('cdr-cache-');
let n = 0;
const fresh = () => join(dir, `cache-${n++}.sqlite`);

const consent = (id: string, extra: Partial<Consent> = {}): Consent => ({
  consentId: id,
  status: 'ACTIVE',
  consumerEmail: `${id}@example.com`,
  dataHolderName: 'ANZ',
  created: '2026-01-01T00:00:00.000Z',
  sharingEndDate: '2027-01-01T00:00:00.000Z',
  useCase: { id: 'u1', name: 'Budgeting insights' },
  ...extra,
});

describe('cache database', () => {
  it('creates the schema on a new file, in WAL mode, at the current version', () => {
    const file = fresh();
    const db = openCache(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
    // Reopening does not migrate again (and does not fail).
    openCache(file).close();
  });

  it('refuses a database written by a newer console and leaves it as it was', () => {
    const file = fresh();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.exec('CREATE TABLE future (x)');
    raw.close();
    expect(() => openCache(file)).toThrow(CacheError);
    expect(() => openCache(file)).toThrow(/newer CDR Console \(schema 99/);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(99);
    check.close();
  });

  it('reports a corrupt file with its recovery path, and moving it aside recovers', () => {
    const file = fresh();
    writeFileSync(file, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 0x5a)]));
    let error: unknown;
    try {
      openCache(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CacheError);
    expect((error as CacheError).reason).toBe('corrupt');
    expect((error as Error).message).toMatch(/damaged .*sync again/);
    const moved = moveCacheAside(file);
    expect(existsSync(moved)).toBe(true);
    expect(existsSync(file)).toBe(false);
    openCache(file).close();
  });
});

describe('encrypted cache', () => {
  const key = 'ab'.repeat(32);

  it('keeps no plaintext on disk and reads back with its key', () => {
    const file = fresh();
    const db = openCache(file, key);
    new ConsentsRepo(db).upsertPage([consent('enc-1', { consumerEmail: 'private.person@example.com' })], 'now');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 15).toString()).not.toBe('SQLite format 3');
    expect(bytes.includes(Buffer.from('private.person@example.com'))).toBe(false);
    const again = openCache(file, key);
    expect(
      new ConsentQuery(again).list({ filter: {}, offset: 0, limit: 5, sort: { field: 'created', direction: 'asc' } })[0]!.consumerEmail,
    ).toBe('private.person@example.com');
    again.close();
  });

  it('refuses the wrong key with its recovery path', () => {
    const file = fresh();
    openCache(file, key).close();
    let error: unknown;
    try {
      openCache(file, 'cd'.repeat(32));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CacheError);
    expect((error as CacheError).reason).toBe('wrong-key');
    expect((error as Error).message).toMatch(/encrypted with another key.*sync again/);
  });

  it('opens without reading every page; a damaged page is reported when read and by the full check, with the recovery path', async () => {
    const file = fresh();
    const db = openCache(file, key);
    const gen = createConsentGenerator(1, 3000);
    new ConsentsRepo(db).upsertPage(
      Array.from({ length: 3000 }, (_, i) => gen.at(i)),
      'now',
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    expect(checkIntegrity(file, key)).toBeNull();
    expect(await checkIntegrityInBackground(file, key).result).toBeNull();

    expect(damageSecondHalf(file)).toBeGreaterThan(500);
    // The open reads the header and the schema only, so it succeeds on a file whose second half is garbage…
    const damaged = openCache(file, key);
    // …and the damage shows when a damaged page is read.
    let error: unknown;
    try {
      damaged.prepare('SELECT count(*) FROM consent_versions').get();
    } catch (e) {
      error = e;
    }
    expect(isCacheDamage(error)).toBe(true);
    damaged.close();
    for (const problem of [checkIntegrity(file, key), await checkIntegrityInBackground(file, key).result]) {
      expect(problem).toBeInstanceOf(CacheError);
      expect(problem!.message).toMatch(/is damaged \(.*page.*\)\. Move it aside .*sync again/);
    }
    moveCacheAside(file);
    expect(new ConsentsRepo(openCache(file, key)).count()).toBe(0);
  });

  it('tells when the last process that had the cache open did not close it', () => {
    const file = fresh();
    openCache(file, key).close();
    const first = markOpen(file);
    expect(first.uncleanBefore).toBe(false);
    first.release();
    expect(markOpen(file).uncleanBefore).toBe(false); // released: a clean close
    // This process's mark is not released (as if it crashed); a mark of a live process is not a crash.
    writeFileSync(`${file}.open-1`, 'init');
    expect(markOpen(file).uncleanBefore).toBe(false);
    writeFileSync(`${file}.open-999999999`, 'a process that is gone');
    expect(markOpen(file).uncleanBefore).toBe(true);
    expect(markOpen(file).uncleanBefore).toBe(false); // reported once
  });

  it('encrypts a plaintext cache of an earlier version in place, keeping its data', () => {
    const file = fresh();
    const plain = openCache(file);
    new ConsentsRepo(plain).upsertPage([consent('old-1', { consumerEmail: 'legacy.person@example.com' })], 'now');
    plain.close();
    expect(readFileSync(file).includes(Buffer.from('legacy.person@example.com'))).toBe(true);
    const db = openCache(file, key);
    expect(new ConsentsRepo(db).count()).toBe(1);
    db.close();
    expect(readFileSync(file).includes(Buffer.from('legacy.person@example.com'))).toBe(false);
  });
});

describe('consents repository', () => {
  it('upserts idempotently and counts new, changed and unchanged rows', () => {
    const db = openCache(fresh());
    const repo = new ConsentsRepo(db);
    expect(repo.upsertPage([consent('a'), consent('b')], '2026-11-01T00:00:00.000Z')).toEqual({ new: 2, changed: 0, unchanged: 0 });
    expect(repo.upsertPage([consent('a'), consent('b')], '2026-11-02T00:00:00.000Z')).toEqual({ new: 0, changed: 0, unchanged: 2 });
    expect(repo.upsertPage([consent('a', { status: 'REVOKED', revoked: '2026-11-02T00:00:00.000Z' })], '2026-11-02T00:00:00.000Z')).toEqual(
      { new: 0, changed: 1, unchanged: 0 },
    );
    expect(repo.count()).toBe(2);
    const rows = new ConsentQuery(db).list({ filter: {}, offset: 0, limit: 10, sort: { field: 'status', direction: 'desc' } });
    expect(rows[0]).toMatchObject({ consentId: 'a', status: 'REVOKED', revoked: '2026-11-02T00:00:00.000Z' });
  });

  it('keeps unknown fields of the payload (raw) and reads them back unchanged', () => {
    const db = openCache(fresh());
    const repo = new ConsentsRepo(db);
    repo.upsertPage([consent('x', { metadata: { employerName: 'Adatree' }, status: 'PAUSED' })], 'now');
    expect(repo.get('x')).toMatchObject({ metadata: { employerName: 'Adatree' }, status: 'PAUSED' });
    expect(repo.versions('x').map((v) => v.consent)).toEqual([repo.get('x')]);
  });

  it('sorts by every offered column, ties broken by id, missing values last, pages without overlap', () => {
    const db = openCache(fresh());
    const repo = new ConsentsRepo(db);
    const consents = Array.from({ length: 25 }, (_, i) =>
      consent(`c${String(i).padStart(2, '0')}`, {
        consumerEmail: i === 3 ? null : `${String.fromCharCode(122 - (i % 26))}${i}@Example.com`,
        created: i === 5 ? null : new Date(Date.UTC(2026, 0, 1 + (i % 7))).toISOString(),
        dataHolderName: i % 2 ? 'anz' : 'Westpac',
      }),
    );
    repo.upsertPage(consents, 'now');
    const read = (field: 'created' | 'consumerEmail' | 'dataHolderName', direction: 'asc' | 'desc') =>
      [0, 10, 20].flatMap((offset) => new ConsentQuery(db).list({ filter: {}, offset, limit: 10, sort: { field, direction } }));

    for (const direction of ['asc', 'desc'] as const) {
      const byCreated = read('created', direction);
      expect(byCreated).toHaveLength(25);
      expect(new Set(byCreated.map((r) => r.consentId)).size).toBe(25);
      expect(byCreated.at(-1)!.created).toBeNull();
      const dates = byCreated.slice(0, -1).map((r) => r.created!);
      expect(dates).toEqual([...dates].sort((a, b) => (direction === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
    }
    const emails = read('consumerEmail', 'asc');
    expect(emails.at(-1)!.consumerEmail).toBeNull();
    const present = emails.slice(0, -1).map((r) => r.consumerEmail!.toLowerCase());
    expect(present).toEqual([...present].sort());
    // Case-insensitive: "anz" sorts before "Westpac".
    expect(read('dataHolderName', 'asc')[0]!.dataHolderName).toBe('anz');
  });
});
