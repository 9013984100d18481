import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
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
    this.entries = this.read();
  }

  /** The file as it is now (another process of the same data directory may have written it). */
  private read(): Record<string, string> {
    if (!existsSync(this.file)) return {};
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>;
    } catch (error) {
      throw new SecretStoreError(
        `${this.file} is not valid JSON (${(error as Error).message}); move it aside and enter the secrets again.`,
      );
    }
  }

  /**
   * A change made on the file as it is now, under a lock: servers sharing a data directory (a team)
   * never lose each other's secrets, and a secret created once (getOrCreate) is the same for all.
   */
  private update(change: (entries: Record<string, string>) => void): void {
    withFileLock(`${this.file}.lock`, () => {
      this.entries = this.read();
      change(this.entries);
      this.save();
    });
  }

  has(name: string): boolean {
    return name in this.entries;
  }

  get(name: string): string | undefined {
    const blob = this.entries[name];
    return blob === undefined ? undefined : this.cipher.decrypt(Buffer.from(blob, 'base64')).toString('utf8');
  }

  set(name: string, value: string): void {
    const blob = this.cipher.encrypt(Buffer.from(value, 'utf8')).toString('base64');
    this.update((entries) => (entries[name] = blob));
  }

  delete(name: string): void {
    this.update((entries) => delete entries[name]);
  }

  /**
   * The secret under `name`, created once with `make` when absent (e.g. a cache key): when another
   * process of the same data directory created it meanwhile, its value is the one kept and returned.
   */
  getOrCreate(name: string, make: () => string = () => randomBytes(32).toString('hex')): string {
    const existing = this.get(name);
    if (existing !== undefined) return existing;
    this.update((entries) => {
      if (!(name in entries)) entries[name] = this.cipher.encrypt(Buffer.from(make(), 'utf8')).toString('base64');
    });
    return this.get(name)!;
  }

  private save(): void {
    writePrivateFile(this.file, `${JSON.stringify(this.entries, null, 2)}\n`);
  }
}

/** How long a lock may be held before it counts as left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;

/** Runs `fn` holding `lock` (a file created exclusively), waiting for another holder for up to 10 s. */
function withFileLock<T>(lock: string, fn: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
      } catch {
        // Gone meanwhile: try again.
      }
      if (Date.now() > deadline) throw new SecretStoreError(`${lock} is held by another process; the secrets could not be written.`);
      Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 10));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

export const secretNames = {
  clientSecret: (profileId: string) => `profile:${profileId}:client-secret`,
  privateKey: (profileId: string) => `profile:${profileId}:private-key`,
  cacheKey: (profileId: string) => `profile:${profileId}:cache-key`,
  /** The HMAC key of the audit log's head anchor (audit/audit-anchor.ts). */
  auditAnchorKey: (profileId: string) => `profile:${profileId}:audit-anchor-key`,
};
