import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretStoreError, type SecretCipher } from './cipher.js';
import { writePrivateFile } from '../data-dir.js';

/**
 * Named secrets (client secrets, private keys, cache keys), each encrypted with the cipher and
 * kept in `<data dir>/secrets.json`. Values never leave the main process: nothing here is sent
 * over IPC, logged or written to the cache.
 */
export class SecretVault {
  private readonly file: string;
  private entries: Record<string, string>;

  constructor(
    dataDir: string,
    readonly cipher: SecretCipher,
  ) {
    this.file = join(dataDir, 'secrets.json');
    this.entries = {};
    if (existsSync(this.file)) {
      try {
        this.entries = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>;
      } catch (error) {
        throw new SecretStoreError(
          `${this.file} is not valid JSON (${(error as Error).message}); move it aside and enter the secrets again.`,
        );
      }
    }
  }

  has(name: string): boolean {
    return name in this.entries;
  }

  get(name: string): string | undefined {
    const blob = this.entries[name];
    return blob === undefined ? undefined : this.cipher.decrypt(Buffer.from(blob, 'base64')).toString('utf8');
  }

  set(name: string, value: string): void {
    this.entries[name] = this.cipher.encrypt(Buffer.from(value, 'utf8')).toString('base64');
    this.save();
  }

  delete(name: string): void {
    delete this.entries[name];
    this.save();
  }

  /** The secret under `name`, created once with `make` when absent (e.g. a cache key). */
  getOrCreate(name: string, make: () => string = () => randomBytes(32).toString('hex')): string {
    const existing = this.get(name);
    if (existing !== undefined) return existing;
    const value = make();
    this.set(name, value);
    return value;
  }

  private save(): void {
    writePrivateFile(this.file, `${JSON.stringify(this.entries, null, 2)}\n`);
  }
}

export const secretNames = {
  clientSecret: (profileId: string) => `profile:${profileId}:client-secret`,
  privateKey: (profileId: string) => `profile:${profileId}:private-key`,
  cacheKey: (profileId: string) => `profile:${profileId}:cache-key`,
  /** The HMAC key of the audit log's head anchor (audit/audit-anchor.ts). */
  auditAnchorKey: (profileId: string) => `profile:${profileId}:audit-anchor-key`,
};
