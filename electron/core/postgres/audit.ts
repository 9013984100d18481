import { currentCaller, currentClient } from '../../ipc/request-context.js';
import { GENESIS_HASH, nextRecord, recordOfRow, rowOfRecord, walkChain, type AuditRow } from '../audit/chain.js';
import {
  checkpointProblem,
  macProblems,
  makeCheckpoint,
  publicKeyOf,
  type AuditCheckpoint,
  type AuditKey,
  type KeyState,
} from '../audit/keying.js';
import type {
  AuditEntry,
  AuditPerson,
  AuditRecord,
  AuditStore,
  AuditVerification,
  CheckpointVerification,
  ImportedChain,
} from '../audit/port.js';
import { auditReads } from '../audit/reads.js';
import type { PgAuditAnchor } from './audit-anchor.js';
import { pgQueryReader } from './query-runner.js';
import type { PgDb, Tx } from './db.js';

/**
 * The team's audit log in PostgreSQL: the same hash-linked chain as solo mode (audit/chain.ts), so
 * `verify` and an imported solo log are checked the same way. Append-only at the database level:
 * a trigger refuses UPDATE, DELETE and TRUNCATE for everyone, and the server's role is given no
 * such privilege (see roles.ts). One writer at a time: an append takes a transaction-level advisory
 * lock before it reads the head, so concurrent actions on any number of servers never fork the
 * chain.
 *
 * `chain` separates the team's own chain ('team') from solo logs imported into it (each its own
 * chain, verifiable as it was written, marked with where it came from).
 */
/** The advisory lock an append holds until its transaction ends ("cdr-audit"). */
export const AUDIT_LOCK = 0x63646175;

const TEAM = 'team';

type Row = AuditRow;

const COLUMNS =
  'seq, at, operator, action, target, reason, result, prev_hash, hash, client, user_id, display_name, role, auth_method, mac, key_id';

const toRecord = recordOfRow;

/**
 * Appends an entry to the team chain inside the caller's transaction: the lock serialises writers
 * (and is released at its commit or rollback), then the head is read and the entry linked to it.
 */
export async function appendAudit(
  tx: Tx,
  entry: AuditEntry,
  now: () => Date,
  client: string | null = currentClient(),
  person: AuditPerson | null = personOfRequest(),
  key?: AuditKey,
): Promise<AuditRecord> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK]);
  let head = await tx.one<{ seq: number; hash: string; mac: string | null }>(
    'SELECT seq, hash, mac FROM audit_log WHERE chain = $1 ORDER BY seq DESC LIMIT 1',
    [TEAM],
  );
  // The first keyed entry of a chain that has unkeyed ones says so: the switch is on the record.
  if (key && head && !head.mac) {
    const keyed = await tx.one('SELECT 1 FROM audit_log WHERE chain = $1 AND mac IS NOT NULL LIMIT 1', [TEAM]);
    if (!keyed) {
      const at = now().toISOString();
      const switched = nextRecord(
        {
          operator: 'CDR Console',
          action: 'audit:keyed',
          target: 'audit',
          reason: null,
          result: `entries from ${head.seq + 1} on carry an HMAC-SHA-256 under the audit key ${key.id}; the ${head.seq} before carry none and are checked by their hashes only`,
        },
        head,
        at,
      );
      await insertRecord(tx, { ...switched, mac: key.mac(switched.hash), keyId: key.id });
      head = { seq: switched.seq, hash: switched.hash, mac: 'set' };
    }
  }
  // PostgreSQL's text cannot hold NUL: it becomes U+FFFD before hashing, so the record of an action
  // that already happened is never refused (SQLite keeps NUL as given).
  const noNul = (t: string) => t.replace(/\0/g, '\ufffd');
  const safe: AuditEntry = {
    operator: noNul(entry.operator),
    action: noNul(entry.action),
    target: entry.target === null ? null : noNul(entry.target),
    reason: entry.reason === null ? null : noNul(entry.reason),
    result: noNul(entry.result),
  };
  const who = person && {
    userId: noNul(person.userId),
    displayName: noNul(person.displayName),
    role: noNul(person.role),
    method: noNul(person.method),
  };
  const record = nextRecord(safe, head ?? undefined, now().toISOString(), client === null ? null : noNul(client), who);
  const keyed = key ? { ...record, mac: key.mac(record.hash), keyId: key.id } : record;
  await insertRecord(tx, keyed);
  return keyed;
}

async function insertRecord(tx: Tx, record: AuditRecord): Promise<void> {
  const row = rowOfRecord(record);
  const columns = Object.keys(row) as (keyof typeof row)[];
  await tx.query(`INSERT INTO audit_log (chain, ${columns.join(', ')}) VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})`, [
    TEAM,
    ...columns.map((c) => row[c]),
  ]);
}

/** The signed-in person of the request being handled, as an audit entry names them. */
export function personOfRequest(): AuditPerson | null {
  const c = currentCaller();
  return c ? { userId: c.userId, displayName: c.displayName, role: c.role, method: c.method } : null;
}

/**
 * `keys`: the team's audit keys (keying.ts), from the data directory's vault: entries are MACed and
 * checked, and checkpoints signed. Without them (a store opened for reading elsewhere) entries are
 * not keyed and a verification says it did not check the MACs.
 */
export interface TeamAuditKeys {
  mac: AuditKey;
  /** The Ed25519 private key (PKCS#8 PEM) that signs checkpoints. */
  signing: string;
}

export function pgAuditStore(db: PgDb, now: () => Date, anchor?: PgAuditAnchor, keys?: TeamAuditKeys): AuditStore {
  const reads = auditReads(pgQueryReader(db));
  return {
    ...reads,
    keepsClient: true,
    append: async (entry) => {
      const record = await db.tx((tx) => appendAudit(tx, entry, now, currentClient(), personOfRequest(), keys?.mac));
      anchor?.schedule();
      return record;
    },
    entries: async (o = {}) => {
      const params: unknown[] = [TEAM];
      const target = o.target ? `AND target = $${params.push(o.target)}` : '';
      const rows = await db.query<Row>(
        `SELECT ${COLUMNS} FROM audit_log WHERE chain = $1 ${target} ORDER BY seq LIMIT $${params.push(o.limit ?? 1_000_000)}`,
        params,
      );
      return rows.map(toRecord);
    },
    verify: async (opts = {}): Promise<AuditVerification> => {
      const imported = await verifyImportedChains(db);
      const state = { prev: GENESIS_HASH, expectedSeq: 1 };
      const keying: KeyState = { keyedFrom: null, unkeyed: 0 };
      // The anchor before the table (see audit-anchor.ts).
      const problems = anchor ? await anchor.problems() : [];
      let entries = 0;
      for await (const w of reads.windows({}, 5000)) {
        problems.push(...walkChain(w, state), ...macProblems(w, keys?.mac, keying));
        entries += w.length;
      }
      const checkpoint = opts.checkpoint === undefined ? undefined : await holdCheckpoint(db, opts.checkpoint, keys);
      if (checkpoint && !checkpoint.ok) problems.push({ seq: checkpoint.seq || 1, text: checkpoint.problem! });
      const also = {
        ...(imported.length ? { imported } : {}),
        // Said of a keyed store, or of a log that is keyed: an unkeyed store's answer is as it was.
        ...(keys || keying.keyedFrom !== null
          ? { keyed: { from: keying.keyedFrom, unkeyed: keying.unkeyed, checked: keys !== undefined, keyId: keys?.mac.id ?? null } }
          : {}),
        ...(checkpoint ? { checkpoint } : {}),
      };
      if (!problems.length) return { ok: true, entries, ...also };
      const ordered = [...problems].sort((a, b) => a.seq - b.seq);
      return { ok: false, entries, brokenAt: ordered[0]!.seq, problem: ordered[0]!.text, problems: ordered.map((p) => p.text), ...also };
    },
    ...(keys
      ? {
          checkpoint: async () => {
            const head = await db.one<{ seq: number; hash: string; at: string }>(
              'SELECT seq, hash, at FROM audit_log WHERE chain = $1 ORDER BY seq DESC LIMIT 1',
              [TEAM],
            );
            if (!head) throw new RangeError('The audit log is empty: there is nothing to checkpoint yet.');
            return makeCheckpoint({ seq: Number(head.seq), hash: head.hash, at: head.at }, keys.signing, now());
          },
        }
      : {}),
  };
}

/** A checkpoint file held against the log: its signature under this team's key, and its entry as stored now. */
async function holdCheckpoint(db: Pick<PgDb, 'one'>, raw: unknown, keys: TeamAuditKeys | undefined): Promise<CheckpointVerification> {
  const c = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<AuditCheckpoint>;
  const base = { seq: Number.isSafeInteger(c.seq) ? c.seq! : 0, hash: String(c.hash ?? ''), madeAt: String(c.madeAt ?? '') };
  if (!keys) return { ...base, ok: false, problem: 'this verifier does not hold the team’s keys: the checkpoint cannot be checked here' };
  const invalid = checkpointProblem(raw, publicKeyOf(keys.signing));
  if (invalid) return { ...base, ok: false, problem: invalid };
  const found = await db.one<{ hash: string }>('SELECT hash FROM audit_log WHERE chain = $1 AND seq = $2', [c.chain, c.seq]);
  if (!found) return { ...base, ok: false, problem: `entry ${base.seq}, the checkpoint's, is missing: entries up to it were deleted` };
  if (found.hash !== c.hash)
    return {
      ...base,
      ok: false,
      problem: `entry ${base.seq} is not the one checkpointed on ${base.madeAt.slice(0, 10)}: the log up to it was changed or replaced since`,
    };
  return { ...base, ok: true, problem: null };
}

/** Each imported chain checked again as it is stored now: its links, its hashes, its head against the import record. */
export async function verifyImportedChains(db: Pick<PgDb, 'query'>): Promise<ImportedChain[]> {
  const chains = await db.query<{ chain: string; origin: string; entries: number; head_hash: string }>(
    'SELECT chain, origin, entries, head_hash FROM audit_chains ORDER BY imported_at, chain',
  );
  const out = [];
  for (const c of chains) {
    const rows = await db.query<AuditRow>(`SELECT ${COLUMNS} FROM audit_log WHERE chain = $1 ORDER BY seq`, [c.chain]);
    const problems = walkChain(rows.map(recordOfRow)).map((p) => p.text);
    if (rows.length !== c.entries) problems.push(`the import held ${c.entries} entries; ${rows.length} are left`);
    else if (rows.at(-1)?.hash !== c.head_hash) problems.push('its newest entry is not the one imported');
    out.push({ chain: c.chain, origin: c.origin, entries: rows.length, ok: problems.length === 0, problems });
  }
  return out;
}
