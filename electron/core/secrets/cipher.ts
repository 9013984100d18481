import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How secrets are encrypted at rest. The desktop uses the OS keychain through Electron's
 * safeStorage (electron/shell/safe-storage.ts); the browser host and the command line use a key
 * file readable by the owner only — weaker, and the UI says so.
 */
export interface SecretCipher {
  kind: 'os-keychain' | 'key-file';
  /** One sentence for the UI: where the key lives and what protects it. */
  description: string;
  encrypt(plain: Buffer): Buffer;
  decrypt(blob: Buffer): Buffer;
}

export class SecretStoreError extends Error {}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Writes a new key at `file` unless another process got there first: the key is written whole to a
 * file of its own, then linked in place (atomic, and refused if the name exists), so two servers
 * starting together on one data directory end with one key, never a half-written one.
 */
function createKeyOnce(file: string): void {
  const tmp = `${file}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** AES-256-GCM with a key kept in `<data dir>/keys/master.key` (mode 0600, folder 0700). */
export function createKeyFileCipher(dataDir: string): SecretCipher {
  const dir = join(dataDir, 'keys');
  const file = join(dir, 'master.key');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existsSync(file)) createKeyOnce(file);
  if (process.platform !== 'win32') {
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) {
      throw new SecretStoreError(
        `${file} can be read by other users (mode ${mode.toString(8)}); run: chmod 600 "${file}" — the console refuses to use a key others can read.`,
      );
    }
    chmodSync(dir, 0o700);
  }
  const key = readFileSync(file);
  if (key.length !== KEY_BYTES)
    throw new SecretStoreError(
      `${file} is damaged (${key.length} bytes, expected ${KEY_BYTES}); secrets encrypted with it cannot be read.`,
    );
  return {
    kind: 'key-file',
    description: `Secrets are encrypted with a key file readable only by your user account (${file}); the OS keychain is used only by the desktop app.`,
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(blob) {
      if (blob.length < IV_BYTES + TAG_BYTES) throw new SecretStoreError('An encrypted secret is truncated.');
      const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, IV_BYTES));
      decipher.setAuthTag(blob.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(blob.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      } catch {
        throw new SecretStoreError('A secret cannot be decrypted with this key (another machine, or a replaced key file).');
      }
    },
  };
}
