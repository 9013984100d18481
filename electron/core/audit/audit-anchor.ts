import { createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, existsSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';

/**
 * The head anchor of the audit chain: the sequence number and hash of the newest entry, kept
 * OUTSIDE the cache, in a small file beside it (`cache.sqlite.audit-anchor`), signed with an HMAC
 * whose key lives in the secret vault.
 *
 * Why: the hash chain alone proves that no entry was edited and none is missing in the middle, but
 * whoever can write to the cache (another SQLite client holding the cache key: drop the
 * append-only trigger, delete, restore it) can delete the newest entries, or all of them, and leave
 * a chain that verifies. A meta table in the same cache would be deleted by the same client, so the
 * anchor is a separate file. Why signed: a plain file could simply be rewritten to match the
 * shortened table; the HMAC key is one of the vault's secrets (encrypted by the OS keychain in the
 * desktop app, by the key file under the browser host), so holding the cache key — e.g. a copy
 * handed to a support tool — is not enough to forge it.
 *
 * What it cannot do: someone who controls the vault and the files together (the OS account itself)
 * can rewrite everything; and deleting the cache file and its anchor together looks like a cache
 * reset. Protecting against that needs a witness outside the machine (export the log regularly).
 *
 * `incidents` keep every break the console found when it moved the anchor on (see AuditLog): a
 * break stays reported forever, while new entries are still recorded and anchored.
 */
export interface AnchorIncident {
  /** When the console found it. */
  found: string;
  /** What it found, in the words `verify` uses. */
  problem: string;
  /** The first entry concerned. */
  seq: number;
}

export interface Anchor {
  seq: number;
  hash: string;
  incidents: AnchorIncident[];
}

export type AnchorRead = { state: 'valid'; anchor: Anchor } | { state: 'missing' } | { state: 'invalid'; why: string };

/** At most this many incidents are kept (the oldest first); a log broken that often has bigger problems. */
const MAX_INCIDENTS = 50;
const VERSION = 1;

function macOf(key: string, a: Anchor): string {
  return createHmac('sha256', Buffer.from(key, 'hex'))
    .update(JSON.stringify([VERSION, a.seq, a.hash, a.incidents.map((i) => [i.found, i.seq, i.problem])]))
    .digest('hex');
}

export class AuditAnchorFile {
  constructor(
    readonly file: string,
    private readonly key: string,
  ) {
    if (!/^[0-9a-f]{64}$/i.test(key)) throw new Error('The audit anchor key must be 64 hexadecimal digits.');
  }

  read(): AnchorRead {
    if (!existsSync(this.file)) return { state: 'missing' };
    try {
      const raw = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Anchor> & { version?: unknown; mac?: unknown };
      if (raw.version !== VERSION) return { state: 'invalid', why: `unknown version ${JSON.stringify(raw.version)}` };
      const incidents = Array.isArray(raw.incidents) ? raw.incidents : null;
      if (!Number.isInteger(raw.seq) || typeof raw.hash !== 'string' || !incidents || typeof raw.mac !== 'string')
        return { state: 'invalid', why: 'a field is missing or of the wrong type' };
      const anchor: Anchor = { seq: raw.seq!, hash: raw.hash, incidents };
      const expected = Buffer.from(macOf(this.key, anchor), 'hex');
      const given = Buffer.from(raw.mac, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return { state: 'invalid', why: 'its signature does not match (it was edited, or written with another key)' };
      return { state: 'valid', anchor };
    } catch (error) {
      return { state: 'invalid', why: `it cannot be read (${(error as Error).message})` };
    }
  }

  /** Writes atomically (a private temporary file, fsync, rename), mode 0600 whatever the umask. */
  write(anchor: Anchor): void {
    const kept = { ...anchor, incidents: anchor.incidents.slice(-MAX_INCIDENTS) };
    const body = `${JSON.stringify({ version: VERSION, seq: kept.seq, hash: kept.hash, incidents: kept.incidents, mac: macOf(this.key, kept) })}\n`;
    const tmp = `${this.file}.tmp-${process.pid}`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      fchmodSync(fd, 0o600);
      writeSync(fd, body);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, this.file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  }
}

/** Where a cache's anchor lives: beside it, so moving a cache aside moves its anchor with it. */
export const anchorFileOf = (cacheFile: string): string => `${cacheFile}.audit-anchor`;
