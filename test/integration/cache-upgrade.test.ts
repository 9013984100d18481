import { chmodSync, cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/core/cache/database.js';
import { startCore, type Core } from '../../electron/core/console-core.js';
import type { Logger } from '../../electron/core/log.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { secretNames, SecretVault } from '../../electron/core/secrets/vault.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A data directory written by the console before the move to Node 24 (commit b2a0c26, Node
 * 20.20.2, better-sqlite3-multiple-ciphers 12.11.1; test/fixtures/cache-12x/README.md): its
 * encrypted cache, vault and audit log open with the 13.x driver unchanged, and a sync goes on
 * from them.
 */
const FIXTURE = fileURLToPath(new URL('../fixtures/cache-12x/data-dir', import.meta.url));
const REVOKED = '88d2543c-0aca-409d-a903-b2b5b88321f6';
const SANDBOX = { seed: 5, consents: 24, clockOrigin: '2026-11-20T00:00:00.000Z' };
const quiet: Logger = { info: () => undefined, error: () => undefined };

const cores: Core[] = [];
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
});

/** A copy with the modes the console gave it (folders 0700, files 0600): git keeps no modes. */
function copyOfFixture(): string {
  const dir = join(tempDir('cdr-upgrade-'), 'data');
  cpSync(FIXTURE, dir, { recursive: true });
  const own = (path: string) => {
    if (statSync(path).isDirectory()) {
      chmodSync(path, 0o700);
      for (const name of readdirSync(path)) own(join(path, name));
    } else chmodSync(path, 0o600);
  };
  own(dir);
  return dir;
}

async function call<T>(core: Core, channel: string, input: unknown): Promise<T> {
  const r = await core.router.handle(channel as never, input as never, true);
  if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
  return r.value as T;
}

describe('a cache written by the 12.x driver', () => {
  it('is still encrypted on disk and opens with the 13.x driver and its key, whole', () => {
    const dir = copyOfFixture();
    const file = join(dir, 'profiles', 'sandbox', 'cache.sqlite');
    expect(readFileSync(file).subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
    const key = new SecretVault(dir, createKeyFileCipher(dir)).get(secretNames.cacheKey('sandbox'));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const db = openCache(file, key);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT count(*) AS n FROM consents').get()).toEqual({ n: 24 });
    } finally {
      db.close();
    }
    // The wrong key is refused as before, not read as garbage.
    expect(() => openCache(file, '0'.repeat(64))).toThrow(/not a database|cannot be decrypted|damaged/i);
  });

  it('serves the console as before: consents, the revocation, customer data, products, a verified audit log; then syncs on', async () => {
    const dataDir = copyOfFixture();
    const core = await startCore({ dataDir, host: 'cli', appVersion: '0.0.0-test', log: quiet, sandbox: SANDBOX });
    cores.push(core);
    expect(core.cache.query.count({}).total).toBe(24);
    expect(core.cache.consents.get(REVOKED)?.status).toBe('REVOKED');
    // The search anywhere (a newer schema's index, built from the consents already there): the
    // middle of the revoked consent's e-mail and of its id find it.
    const revoked = core.cache.consents.get(REVOKED)!;
    for (const part of [revoked.consumerEmail!.slice(3, 10), REVOKED.slice(9, 18)]) {
      const { rows: found } = await call<{ rows: { consentId: string }[] }>(core, 'consents:list', {
        filter: { search: part },
        sort: { field: 'consentId', direction: 'asc' },
        offset: 0,
        limit: 50,
      });
      expect(
        found.map((r) => r.consentId),
        part,
      ).toContain(REVOKED);
    }

    const products = await call<{ total: number }>(core, 'products:list', { filter: {}, offset: 0, limit: 5 });
    expect(products.total).toBe(60);
    const withData = await call<{ rows: { consentId: string }[]; total: number }>(core, 'data:consents', {
      offset: 0,
      limit: 50,
    });
    expect(withData.total).toBeGreaterThan(0);
    const transactions = await Promise.all(
      withData.rows.map((c) =>
        call<{ total: number }>(core, 'data:records', { consentId: c.consentId, kind: 'transactions', offset: 0, limit: 10 }),
      ),
    );
    expect(transactions.reduce((sum, t) => sum + t.total, 0)).toBe(69);

    const audit = await call<{ ok: boolean; entries: number }>(core, 'audit:verify', {});
    expect(audit).toMatchObject({ ok: true });
    expect(audit.entries).toBeGreaterThan(0);
    const entries = await call<{ action: string; target: string | null; reason: string | null }[]>(core, 'audit:list', {
      target: REVOKED,
      limit: 10,
    });
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'revoke', target: REVOKED, reason: 'Fixture: the consumer asked by phone' }),
    );

    const summary = await core.sync({ full: true });
    expect(summary.failures).toEqual([]);
    expect(summary.consents).toMatchObject({ fetched: 24, new: 0 });
    expect(core.cache.consents.get(REVOKED)?.status).toBe('REVOKED');
    expect(await call<{ ok: boolean }>(core, 'audit:verify', {})).toMatchObject({ ok: true });
  }, 60_000);
});
