import Database from 'better-sqlite3-multiple-ciphers';
import { CLI } from '../helpers/cli-command.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorFileOf, AuditAnchorFile } from '../../electron/core/audit/audit-anchor.js';
import { AuditLog, entryHash, type AuditEntry, type AuditVerification } from '../../electron/core/cache/audit-log.js';
import { moveCacheAside, openCache, type Db } from '../../electron/core/cache/database.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault, secretNames } from '../../electron/core/secrets/vault.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The audit log must never lie: every way of breaking it is detected, says which entry and what,
 * and never stops new actions from being recorded. Real encrypted SQLite files; the tampering is
 * done by another SQLite client holding the cache key (it drops the append-only triggers, changes
 * the table, and restores the triggers), as someone with the key would.
 */

const root = tempDir('cdr-audit-');
let n = 0;

interface Console {
  db: Db;
  log: AuditLog;
  close(): void;
}

/** A cache as the console opens it: encrypted, with its signed head anchor beside it. */
function place() {
  const dir = join(root, `c${++n}`);
  const file = join(dir, 'cache.sqlite');
  const key = randomBytes(32).toString('hex');
  const anchorKey = randomBytes(32).toString('hex');
  const open = (): Console => {
    // As startCore decides: a new cache file has no anchor yet.
    const fresh = !existsSync(file);
    const db = openCache(file, key);
    const log = new AuditLog(db, undefined, { file: new AuditAnchorFile(anchorFileOf(file), anchorKey), fresh });
    return {
      db,
      log,
      close: () => {
        log.flushAnchor();
        db.close();
      },
    };
  };
  return { dir, file, key, open };
}

function placeDir() {
  const p = place();
  mkdirSync(p.dir, { recursive: true });
  return p;
}

/** Another SQLite client holding the key: drops the guards, runs `sql`, puts the guards back. */
function tamper(file: string, key: string, sql: string): void {
  const db = new Database(file);
  db.pragma("cipher = 'sqlcipher'");
  db.pragma('legacy = 4');
  db.pragma(`key = "x'${key}'"`);
  const triggers = db
    .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'audit_log'")
    .all();
  expect(triggers).toHaveLength(2);
  for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
  db.exec(sql);
  for (const t of triggers) db.exec(t.sql);
  db.close();
}

const entry = (i: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  operator: 'alice (Alice Admin)',
  action: 'revoke',
  target: `consent-${i}`,
  reason: `ticket ${i}`,
  result: 'revoked',
  ...over,
});

/** Settles the anchor written after each append (it waits for the transaction to commit). */
const settle = () => new Promise((r) => setImmediate(r));

async function withEntries(count: number) {
  const p = placeDir();
  const c = p.open();
  for (let i = 1; i <= count; i++) c.log.append(entry(i));
  await settle();
  expect(c.log.verify()).toEqual({ ok: true, entries: count });
  c.close();
  return p;
}

function broken(v: AuditVerification) {
  expect(v.ok).toBe(false);
  if (v.ok) throw new Error('unreachable');
  return v;
}

describe('text is made well-formed before it is hashed', () => {
  it('lone surrogates and half an emoji, in every hashed field: stored as U+FFFD, hashed as stored, the chain intact after', async () => {
    const p = placeDir();
    const c = p.open();
    const halfEmoji = '😀'.slice(0, 1);
    const hostile: AuditEntry[] = [
      { operator: 'op \ud800', action: 'revoke', target: 'consent-\udc00', reason: `half ${halfEmoji} emoji`, result: 'revoked \ud800x' },
      { operator: 'bob', action: 'note\udc00', target: null, reason: '\ud800', result: JSON.stringify({ details: '\udc00\ud800' }) },
      { operator: 'bob', action: 'revoke', target: 'ok', reason: 'a whole emoji 😀 stays', result: 'revoked' },
      { operator: 'bob', action: 'revoke', target: 'ok', reason: 'NUL \u0000 inside', result: 'revoked' },
    ];
    const records = hostile.map((e) => c.log.append(e));
    expect(records[0]).toMatchObject({
      operator: 'op \ufffd',
      target: 'consent-\ufffd',
      reason: 'half \ufffd emoji',
      result: 'revoked \ufffdx',
    });
    expect(records[1]!.reason).toBe('\ufffd');
    expect(records[2]!.reason).toBe('a whole emoji 😀 stays');
    // What SQLite returns is exactly what was hashed.
    const stored = c.log.entries();
    expect(stored).toEqual(records);
    for (const r of stored) expect(entryHash({ ...r, hash: undefined } as never)).toBe(r.hash);
    expect(c.log.verify()).toEqual({ ok: true, entries: 4 });
    await settle();
    c.close();
    // Read back by a new connection (another process would see the same), and appended to again.
    const again = p.open();
    expect(again.log.verify()).toEqual({ ok: true, entries: 4 });
    again.log.append(entry(5, { reason: '\udbff\udfff\udbff' }));
    await settle();
    expect(again.log.verify()).toEqual({ ok: true, entries: 5 });
    again.close();
  });
});

describe('every way of breaking the log is detected, naming the entry', () => {
  it('an edited field', async () => {
    const p = await withEntries(5);
    tamper(p.file, p.key, "UPDATE audit_log SET reason = 'routine' WHERE seq = 3");
    const c = p.open();
    expect(broken(c.log.verify())).toMatchObject({ brokenAt: 3, problem: 'entry 3 was changed after it was written' });
    c.close();
  });

  it('a truncated field, and a truncated hash', async () => {
    const p = await withEntries(5);
    tamper(
      p.file,
      p.key,
      'UPDATE audit_log SET reason = substr(reason, 1, 3) WHERE seq = 2; UPDATE audit_log SET hash = substr(hash, 1, 32) WHERE seq = 4',
    );
    const c = p.open();
    const v = broken(c.log.verify());
    expect(v.brokenAt).toBe(2);
    expect(v.problems).toEqual([
      'entry 2 was changed after it was written',
      'entry 4 was changed after it was written',
      'entry 5 does not follow entry 4',
    ]);
    c.close();
  });

  it('a deleted middle entry, and a run of them', async () => {
    const p = await withEntries(9);
    tamper(p.file, p.key, 'DELETE FROM audit_log WHERE seq = 3; DELETE FROM audit_log WHERE seq BETWEEN 5 AND 7');
    const c = p.open();
    const v = broken(c.log.verify());
    expect(v).toMatchObject({ brokenAt: 3, problem: 'entry 3 is missing', entries: 5 });
    expect(v.problems).toEqual(['entry 3 is missing', 'entries 5–7 are missing']);
    c.close();
  });

  it('the newest entries deleted while the console was closed: the anchor says where the table should end', async () => {
    const p = await withEntries(10);
    tamper(p.file, p.key, 'DELETE FROM audit_log WHERE seq > 7');
    const c = p.open();
    const v = broken(c.log.verify());
    expect(v.brokenAt).toBe(8);
    expect(v.problem).toMatch(
      /^the head anchor says the log reached entry 10 \(hash [0-9a-f]{12}…\), but the table ends at entry 7: entries 8–10 were deleted/,
    );
    // The console keeps recording; the break stays reported.
    c.log.append(entry(11));
    c.log.append(entry(12));
    await settle();
    const after = broken(c.log.verify());
    expect(after.brokenAt).toBe(8);
    expect(after.problem).toContain('entries 8–10 were deleted');
    expect(after.problems).toHaveLength(1);
    expect(after.entries).toBe(9);
    c.close();
    const later = p.open();
    expect(broken(later.log.verify()).problem).toContain('entries 8–10 were deleted');
    later.close();
  });

  it('the newest entry deleted by another client while the console is running, then a new action recorded', async () => {
    const p = await withEntries(6);
    const c = p.open();
    c.log.append(entry(7));
    await settle();
    tamper(p.file, p.key, 'DELETE FROM audit_log WHERE seq = 7');
    c.log.append(entry(8)); // takes seq 7 again, chained to entry 6: the chain alone would verify
    await settle();
    const v = broken(c.log.verify());
    expect(v.brokenAt).toBe(7);
    expect(v.problem).toMatch(/^entry 7 does not match the head anchor \(anchored hash [0-9a-f]{12}…, found [0-9a-f]{12}…\)/);
    c.close();
  });

  it('every entry deleted: the table is empty but the anchor is not', async () => {
    const p = await withEntries(4);
    tamper(p.file, p.key, 'DELETE FROM audit_log');
    const c = p.open();
    const v = broken(c.log.verify());
    expect(v).toMatchObject({ entries: 0, brokenAt: 1 });
    expect(v.problem).toMatch(/^the audit table is empty, but the head anchor says it held 4 entries .*: every entry was deleted/);
    c.log.append(entry(1));
    await settle();
    expect(broken(c.log.verify()).problem).toContain('every entry was deleted');
    c.close();
  });

  it('the table dropped and created again', async () => {
    const p = await withEntries(3);
    const c0 = p.open();
    const create = c0.db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_schema WHERE name = 'audit_log'").get()!.sql;
    c0.close();
    tamper(p.file, p.key, `DROP TABLE audit_log; ${create};`);
    const c = p.open();
    expect(broken(c.log.verify()).problem).toContain('every entry was deleted');
    c.close();
  });

  it('two entries reordered (their sequence numbers swapped)', async () => {
    const p = await withEntries(5);
    tamper(
      p.file,
      p.key,
      'UPDATE audit_log SET seq = 100 WHERE seq = 2; UPDATE audit_log SET seq = 2 WHERE seq = 4; UPDATE audit_log SET seq = 4 WHERE seq = 100',
    );
    const c = p.open();
    const v = broken(c.log.verify());
    expect(v.brokenAt).toBe(2);
    expect(v.problems).toContain('entry 2 was changed after it was written');
    expect(v.problems).toContain('entry 4 was changed after it was written');
    c.close();
  });

  it('an edit whose chain was recomputed to the end (the hash is not keyed): the anchor catches it', async () => {
    const p = await withEntries(5);
    const c0 = p.open();
    const rows = c0.log.entries();
    c0.close();
    // Rewrite entry 2 and every hash after it, as someone who read audit-log.ts would.
    let prev = rows[0]!.hash;
    const updates: string[] = [];
    for (const r of rows.slice(1)) {
      const rewritten = { ...r, reason: r.seq === 2 ? 'nothing happened' : r.reason, prevHash: prev };
      const hash = entryHash(rewritten);
      updates.push(`UPDATE audit_log SET reason = '${rewritten.reason}', prev_hash = '${prev}', hash = '${hash}' WHERE seq = ${r.seq};`);
      prev = hash;
    }
    tamper(p.file, p.key, updates.join('\n'));
    const c = p.open();
    const v = broken(c.log.verify());
    expect(v.brokenAt).toBe(5);
    expect(v.problem).toMatch(/^entry 5 does not match the head anchor/);
    c.close();
  });

  it('the anchor deleted, edited, or replaced by one signed with another key', async () => {
    const p = await withEntries(3);
    const anchor = anchorFileOf(p.file);
    const saved = readFileSync(anchor, 'utf8');

    rmSync(anchor);
    let c = p.open();
    expect(broken(c.log.verify()).problem).toMatch(/^the head anchor file is missing/);
    c.close();

    const p2 = await withEntries(3);
    const a2 = anchorFileOf(p2.file);
    const doc = JSON.parse(readFileSync(a2, 'utf8'));
    writeFileSync(a2, JSON.stringify({ ...doc, seq: 2 }));
    c = p2.open();
    expect(broken(c.log.verify()).problem).toMatch(/^the head anchor file was altered or replaced: its signature does not match/);
    c.close();

    const p3 = await withEntries(3);
    writeFileSync(anchorFileOf(p3.file), saved); // a valid anchor, but of another cache (another key)
    c = p3.open();
    expect(broken(c.log.verify()).problem).toMatch(/signature does not match/);
    c.close();
  });

  it('after any break, new entries keep appending and the old break keeps being reported', async () => {
    const p = await withEntries(4);
    tamper(p.file, p.key, "UPDATE audit_log SET result = 'failed' WHERE seq = 2");
    const c = p.open();
    for (let i = 5; i <= 8; i++) expect(c.log.append(entry(i)).seq).toBe(i);
    await settle();
    const v = broken(c.log.verify());
    expect(v).toMatchObject({ entries: 8, brokenAt: 2, problems: ['entry 2 was changed after it was written'] });
    c.close();
  });
});

describe('what is not a break', () => {
  it('an append rolled back with its transaction is never anchored', async () => {
    const p = await withEntries(2);
    const c = p.open();
    expect(() =>
      c.db.transaction(() => {
        c.log.append(entry(3));
        throw new Error('the action failed');
      })(),
    ).toThrow('the action failed');
    await settle();
    expect(c.log.verify()).toEqual({ ok: true, entries: 2 });
    c.close();
    const again = p.open();
    expect(again.log.verify()).toEqual({ ok: true, entries: 2 });
    again.close();
  });

  it('a crash between the commit and the anchor (the table one entry ahead) is not a break', async () => {
    const p = await withEntries(3);
    const c = p.open();
    c.log.append(entry(4));
    c.db.close(); // no flush: the anchor still says entry 3
    const again = p.open();
    expect(again.log.verify()).toEqual({ ok: true, entries: 4 });
    again.close();
  });

  it('a cache moved aside (reset) takes its anchor with it: the new cache starts clean', async () => {
    const p = await withEntries(3);
    const moved = moveCacheAside(p.file);
    expect(existsSync(`${moved}.audit-anchor`)).toBe(true);
    const c = p.open();
    expect(c.log.verify()).toEqual({ ok: true, entries: 0 });
    c.log.append(entry(1));
    await settle();
    expect(c.log.verify()).toEqual({ ok: true, entries: 1 });
    c.close();
  });

  it('the anchor file is private (0600)', async () => {
    const p = await withEntries(1);
    expect(statSync(anchorFileOf(p.file)).mode & 0o777).toBe(0o600);
  });
});

describe('npm run cli -- audit verify', () => {
  const repo = fileURLToPath(new URL('../../', import.meta.url));
  const cli = (dataDir: string, args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [...CLI, '--data-dir', dataDir, ...args], {
        cwd: repo,
        env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdin.end();
      child.on('close', (code) => resolve({ code, out, err }));
    });

  it('exit 6 naming the deleted newest entries, after another client holding the key deleted them', async () => {
    const dataDir = join(root, 'cli');
    // Three audited exports of the (empty) cache.
    for (let i = 0; i < 3; i++) expect((await cli(dataDir, ['consents', '--all', '--format', 'json', '--status', 'ACTIVE'])).code).toBe(0);
    const ok = await cli(dataDir, ['audit', 'verify']);
    expect(ok.out).toMatch(/The audit log holds: 3 entries, chain intact/);
    const file = join(dataDir, 'profiles', 'sandbox', 'cache.sqlite');
    const key = new SecretVault(dataDir, createKeyFileCipher(dataDir)).get(secretNames.cacheKey('sandbox'))!;
    tamper(file, key, 'DELETE FROM audit_log WHERE seq = (SELECT max(seq) FROM audit_log)');
    const r = await cli(dataDir, ['audit', 'verify']);
    expect(r.code).toBe(6);
    expect(r.err).toMatch(
      /The audit log is broken at entry 3: the head anchor says the log reached entry 3 \(hash [0-9a-f]{12}…\), but the table ends at entry 2: entry 3 was deleted/,
    );
    // New actions are still recorded.
    expect((await cli(dataDir, ['consents', '--all', '--format', 'json', '--status', 'ACTIVE'])).code).toBe(0);
    const still = await cli(dataDir, ['audit', 'verify']);
    expect(still.code).toBe(6);
    expect(still.err).toContain('entry 3 was deleted');
  }, 120_000);
});
