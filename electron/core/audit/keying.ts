import { createHash, createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign, timingSafeEqual, verify } from 'node:crypto';
import type { AuditCheckpoint, AuditRecord } from './port.js';

export type { AuditCheckpoint } from './port.js';

/**
 * The team's audit log under a key the database never holds (issue 35). The hash chain alone
 * (chain.ts) is unkeyed: anyone with the server's database role could append an entry with a
 * correctly computed hash, naming another person, and it verified. Now each entry carries an
 * HMAC-SHA-256 of its hash under a key kept in the data directory's vault, so an entry written
 * without the key is found by `audit verify`; and the head can be checkpointed in a small file
 * signed with an Ed25519 key of the vault (`audit checkpoint`), which a customer keeps elsewhere:
 * `audit verify --checkpoint FILE` proves that nothing up to it has changed since.
 *
 * Entries written before a chain was keyed stay verifiable by their hashes and are reported as
 * unkeyed; the switch is itself an entry (`audit:keyed`).
 */
export interface AuditKey {
  /** Which key (a short hash of it): an entry names the key its MAC is under. */
  id: string;
  mac(hash: string): string;
}

/** The vault's names for the team's audit keys (made once per data directory, shared by its servers). */
export const AUDIT_MAC_SECRET = 'team-audit-mac-key';
export const AUDIT_SIGNING_SECRET = 'team-audit-signing-key';

export function auditKeyOf(secret: string): AuditKey {
  const id = createHash('sha256').update(`cdr-audit-key-id\0${secret}`).digest('hex').slice(0, 16);
  return { id, mac: (hash) => createHmac('sha256', secret).update(`cdr-audit-entry\0${hash}`).digest('hex') };
}

export interface KeyState {
  /** The first keyed entry of the chain walked so far (null: none yet). */
  keyedFrom: number | null;
  /** Entries before it (written before the log was keyed). */
  unkeyed: number;
}

/**
 * The MAC problems of entries given oldest first (several calls continue one walk through `state`):
 * once an entry of the chain carries a MAC, every later one must carry a right one under `key`.
 * Without a key nothing is checked (the caller says so).
 */
export function macProblems(records: Iterable<AuditRecord>, key: AuditKey | undefined, state: KeyState): { seq: number; text: string }[] {
  const problems: { seq: number; text: string }[] = [];
  for (const r of records) {
    if (!r.mac) {
      if (state.keyedFrom === null) state.unkeyed++;
      else
        problems.push({
          seq: r.seq,
          text: `entry ${r.seq} carries no MAC though the log is keyed from entry ${state.keyedFrom}: it was written without the audit key (by someone with the database's role, not by a team server)`,
        });
      continue;
    }
    state.keyedFrom ??= r.seq;
    if (!key) continue;
    if (r.keyId !== key.id)
      problems.push({
        seq: r.seq,
        text: `entry ${r.seq}'s MAC is under another key (${r.keyId ?? 'unnamed'}), not this team's (${key.id})`,
      });
    else if (!sameHex(r.mac, key.mac(r.hash)))
      problems.push({
        seq: r.seq,
        text: `entry ${r.seq}'s MAC does not match: it was written or changed without the audit key (by someone with the database's role, not by a team server)`,
      });
  }
  return problems;
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** A new Ed25519 private key, as PKCS#8 PEM (kept in the vault). */
export function newSigningKey(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

export const CHECKPOINT_FORMAT = 'cdr-console-audit-checkpoint/1';

const signed = (c: Omit<AuditCheckpoint, 'signature'>) =>
  Buffer.from(JSON.stringify([c.format, c.chain, c.seq, c.hash, c.entryAt, c.madeAt, c.publicKey]));

export function publicKeyOf(privatePem: string): string {
  return createPublicKey(createPrivateKey(privatePem)).export({ format: 'der', type: 'spki' }).toString('base64');
}

export function makeCheckpoint(
  head: { seq: number; hash: string; at: string },
  privatePem: string,
  madeAt: Date,
  chain = 'team',
): AuditCheckpoint {
  const body = {
    format: CHECKPOINT_FORMAT,
    chain,
    seq: head.seq,
    hash: head.hash,
    entryAt: head.at,
    madeAt: madeAt.toISOString(),
    publicKey: publicKeyOf(privatePem),
  } as const;
  return { ...body, signature: sign(null, signed(body), createPrivateKey(privatePem)).toString('base64') };
}

/** Why a checkpoint file cannot be trusted (not one, or its signature does not hold), or null. */
export function checkpointProblem(raw: unknown, expectedPublicKey: string): string | null {
  if (typeof raw !== 'object' || raw === null) return 'the checkpoint is not a JSON object';
  const c = raw as Partial<AuditCheckpoint>;
  if (c.format !== CHECKPOINT_FORMAT) return `the checkpoint's format is not ${CHECKPOINT_FORMAT}`;
  if (typeof c.chain !== 'string' || !Number.isSafeInteger(c.seq) || (c.seq ?? 0) < 1 || typeof c.hash !== 'string')
    return 'the checkpoint lacks its chain, entry or hash';
  if (typeof c.entryAt !== 'string' || typeof c.madeAt !== 'string' || typeof c.publicKey !== 'string' || typeof c.signature !== 'string')
    return 'the checkpoint lacks its times, key or signature';
  if (c.publicKey !== expectedPublicKey)
    return 'the checkpoint was signed with another key than this team’s: it was not made by this team’s servers';
  try {
    const key = createPublicKey({ key: Buffer.from(c.publicKey, 'base64'), format: 'der', type: 'spki' });
    if (!verify(null, signed(c as AuditCheckpoint), key, Buffer.from(c.signature, 'base64')))
      return 'the checkpoint’s signature does not hold: the file was changed after it was made';
  } catch (error) {
    return `the checkpoint’s key or signature cannot be read (${(error as Error).message})`;
  }
  return null;
}
