import type { AuditFilter } from '../../../shared/ipc/contract.js';

/**
 * The audit domain's storage port: the hash-linked log of staff actions. Appending links the entry
 * to the newest one (one writer at a time); verifying walks the whole chain and checks its head
 * against the anchor kept outside the store. No engine in the words.
 */
export interface AuditEntry {
  operator: string;
  action: string;
  target: string | null;
  reason: string | null;
  result: string;
}

/** The signed-in person who caused an entry (a team server's sign-in), as the entry records them. */
export interface AuditPerson {
  userId: string;
  displayName: string;
  role: string;
  /** How they signed in: "password", "oidc". */
  method: string;
}

export interface AuditRecord extends AuditEntry {
  seq: number;
  at: string;
  prevHash: string;
  hash: string;
  /** Who sent the request (address, user agent), where the store keeps it (the team store); in the hash when present. */
  client?: string | null;
  /** The signed-in person, where the store keeps it (the team store); in the hash when present. */
  person?: AuditPerson | null;
  /** HMAC-SHA-256 of `hash` under the team's audit key (keying.ts), and which key: the team store's entries since it was keyed. */
  mac?: string | null;
  keyId?: string | null;
}

/**
 * `brokenAt` is the first entry concerned, `problem` the first problem; `problems` lists every
 * problem found (each edited or missing entry, the anchor, breaks found earlier), first entry first.
 */
/** A solo console's log imported into the team store (cli team import-audit), checked as it is stored now. */
export interface ImportedChain {
  chain: string;
  origin: string;
  entries: number;
  ok: boolean;
  problems: string[];
}

/** The chain's verification; `imported`: the imported solo logs, each its own chain (the team store, when it holds any). */
export type AuditVerification = (
  { ok: true; entries: number } | { ok: false; entries: number; brokenAt: number; problem: string; problems: string[] }
) & { imported?: ImportedChain[]; keyed?: KeyedVerification; checkpoint?: CheckpointVerification };

/** What the keyed part of a verification found (the team store). */
export interface KeyedVerification {
  /** The first entry carrying a MAC (null: the log is not keyed yet). */
  from: number | null;
  /** Entries written before the log was keyed: checked by their hashes only. */
  unkeyed: number;
  /** Whether the MACs were checked (false: the verifier does not hold the key). */
  checked: boolean;
  keyId: string | null;
}

/** A checkpoint file held against the log (`audit verify --checkpoint FILE`). */
export interface CheckpointVerification {
  seq: number;
  hash: string;
  madeAt: string;
  ok: boolean;
  /** Why it does not hold (null: it holds: nothing up to entry `seq` changed since it was made). */
  problem: string | null;
}

export interface AuditStore {
  /** Its entries carry the client that sent each request, hashed with the entry (the team store). */
  readonly keepsClient?: boolean;
  /** Appends an entry on its own (an action that changed nothing else: a failure, an export). */
  append(entry: AuditEntry): Promise<AuditRecord>;
  /** Entries oldest first, of one target or all, up to `limit`. */
  entries(opts?: { target?: string; limit?: number }): Promise<AuditRecord[]>;
  /** Checks the chain (and its MACs, where the store is keyed); a checkpoint file's content, when given, is held against it. */
  verify(opts?: { checkpoint?: unknown }): Promise<AuditVerification>;
  /** A signed checkpoint of the chain's head (the keyed team store only). */
  checkpoint?(): Promise<AuditCheckpoint>;
  /** A window of a filtered list, newest first, and the filter's total. */
  query(filter: AuditFilter, offset: number, limit: number): Promise<{ rows: AuditRecord[]; total: number }>;
  /** The operators and actions the log holds (the filters' choices). */
  options(): Promise<{ operators: string[]; actions: string[] }>;
  /** Every entry of a filter, a window at a time, oldest first (exports). */
  windows(filter: AuditFilter): AsyncIterable<AuditRecord[]>;
}

/** A signed checkpoint of a chain's head: what `audit checkpoint` writes. */
export interface AuditCheckpoint {
  format: 'cdr-console-audit-checkpoint/1';
  chain: string;
  seq: number;
  hash: string;
  /** When the entry was written. */
  entryAt: string;
  /** When the checkpoint was made. */
  madeAt: string;
  /** The signing key's public half (SPKI, base64), so anyone can check the signature. */
  publicKey: string;
  /** Ed25519 over the canonical JSON of the fields above, base64. */
  signature: string;
}
