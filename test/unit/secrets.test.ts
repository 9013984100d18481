import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyFileCipher, SecretStoreError } from '../../electron/core/secrets/cipher.js';
import { secretNames, SecretVault } from '../../electron/core/secrets/vault.js';
import { tempDir } from '../helpers/temp.js';

describe('key-file cipher', () => {
  it('creates an owner-only key once and round-trips secrets with AES-GCM', () => {
    const dir = tempDir();
    const cipher = createKeyFileCipher(dir);
    const key = join(dir, 'keys', 'master.key');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'keys')).mode & 0o777).toBe(0o700);
    const blob = cipher.encrypt(Buffer.from('hunter2'));
    expect(blob.includes(Buffer.from('hunter2'))).toBe(false);
    expect(createKeyFileCipher(dir).decrypt(blob).toString()).toBe('hunter2');
    expect(cipher.kind).toBe('key-file');
    expect(cipher.description).toMatch(/readable only by your user account/);
  });

  it('refuses a tampered secret and a key file others can read', () => {
    const dir = tempDir();
    const cipher = createKeyFileCipher(dir);
    const blob = cipher.encrypt(Buffer.from('secret'));
    blob[blob.length - 1]! ^= 1;
    expect(() => cipher.decrypt(blob)).toThrow(SecretStoreError);
    chmodSync(join(dir, 'keys', 'master.key'), 0o644);
    expect(() => createKeyFileCipher(dir)).toThrow(/can be read by other users \(mode 644\); run: chmod 600/);
  });

  it('refuses a damaged key file, and a secret encrypted with another key', () => {
    const a = createKeyFileCipher(tempDir());
    const otherDir = tempDir();
    const b = createKeyFileCipher(otherDir);
    expect(() => b.decrypt(a.encrypt(Buffer.from('x')))).toThrow(/cannot be decrypted with this key/);
    writeFileSync(join(otherDir, 'keys', 'master.key'), Buffer.alloc(5), { mode: 0o600 });
    expect(() => createKeyFileCipher(otherDir)).toThrow(/damaged \(5 bytes/);
  });
});

describe('secret vault', () => {
  it('keeps named secrets encrypted on disk, across instances', () => {
    const dir = tempDir();
    const vault = new SecretVault(dir, createKeyFileCipher(dir));
    vault.set(secretNames.clientSecret('prod'), 'super-secret-value');
    const cacheKey = vault.getOrCreate(secretNames.cacheKey('prod'));
    expect(cacheKey).toMatch(/^[0-9a-f]{64}$/);
    const onDisk = readFileSync(join(dir, 'secrets.json'), 'utf8');
    expect(onDisk).not.toContain('super-secret-value');
    expect(onDisk).not.toContain(cacheKey);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const again = new SecretVault(dir, createKeyFileCipher(dir));
    expect(again.get(secretNames.clientSecret('prod'))).toBe('super-secret-value');
    expect(again.getOrCreate(secretNames.cacheKey('prod'))).toBe(cacheKey);
    again.delete(secretNames.clientSecret('prod'));
    expect(new SecretVault(dir, createKeyFileCipher(dir)).has(secretNames.clientSecret('prod'))).toBe(false);
  });

  it('reports a damaged secrets file instead of dropping its secrets', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secrets.json'), '{ broken');
    expect(() => new SecretVault(dir, createKeyFileCipher(dir))).toThrow(/secrets\.json is not valid JSON/);
  });
});
