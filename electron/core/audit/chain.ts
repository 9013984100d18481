import { createHash } from 'node:crypto';
import { wellFormed } from '../../../shared/text/well-formed.js';
import type { AuditEntry, AuditPerson, AuditRecord } from './port.js';
import type { AuditLogTable } from '../query/schema.js';

/**
 * The audit chain, whatever stores it: each entry's hash covers its fields and the previous
 * entry's hash, so an edited, removed or reordered entry breaks the links `walkChain` checks.
 * (Removing the newest entries leaves a chain that still links up: the head anchor outside the
 * store catches that; see audit-anchor.ts.)
 */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The hash of an entry: its fields and the previous hash, in a fixed order; the client (who sent
 * the request: team mode) last, when there is one, so entries without one hash as they always did;
 * then the signed-in person (user id, display name, role, method), when there is one.
 */
export function entryHash(e: Omit<AuditRecord, 'hash'>): string {
  const fields: unknown[] = [e.seq, e.at, e.operator, e.action, e.target, e.reason, e.result, e.prevHash];
  if (e.client || e.person) fields.push(e.client ?? null);
  if (e.person) fields.push([e.person.userId, e.person.displayName, e.person.role, e.person.method]);
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/**
 * An entry's text made well-formed (lone UTF-16 surrogates replaced by U+FFFD) before it is hashed
 * and stored: a store keeping UTF-8 cannot hold a lone surrogate and would change the text, so the
 * stored entry would fail verification for good. The entry records an action that has already
 * happened; refusing its record would lose it.
 */
export function cleanEntry(entry: AuditEntry): AuditEntry {
  return {
    operator: wellFormed(entry.operator),
    action: wellFormed(entry.action),
    target: entry.target === null ? null : wellFormed(entry.target),
    reason: entry.reason === null ? null : wellFormed(entry.reason),
    result: wellFormed(entry.result),
  };
}

/** The record that follows `head` (null: the first of a chain). */
export function nextRecord(
  entry: AuditEntry,
  head: { seq: number; hash: string } | undefined,
  at: string,
  client: string | null = null,
  person: AuditPerson | null = null,
): AuditRecord {
  const partial = {
    ...cleanEntry(entry),
    seq: (head?.seq ?? 0) + 1,
    at,
    prevHash: head?.hash ?? GENESIS_HASH,
    ...(client ? { client: wellFormed(client) } : {}),
    ...(person
      ? {
          person: {
            userId: wellFormed(person.userId),
            displayName: wellFormed(person.displayName),
            role: wellFormed(person.role),
            method: wellFormed(person.method),
          },
        }
      : {}),
  };
  return { ...partial, hash: entryHash(partial) };
}

export interface ChainProblem {
  seq: number;
  text: string;
}

/**
 * Checks entries given oldest first (several calls continue one walk through `state`): each
 * entry's hash, its link to the previous one, and no gap in the sequence. Every problem names
 * its entry.
 */
export function walkChain(
  entries: Iterable<AuditRecord>,
  state: { prev: string; expectedSeq: number } = { prev: GENESIS_HASH, expectedSeq: 1 },
): ChainProblem[] {
  const problems: ChainProblem[] = [];
  for (const e of entries) {
    if (e.seq !== state.expectedSeq) {
      problems.push({
        seq: state.expectedSeq,
        text:
          state.expectedSeq === e.seq - 1
            ? `entry ${state.expectedSeq} is missing`
            : e.seq > state.expectedSeq
              ? `entries ${state.expectedSeq}–${e.seq - 1} are missing`
              : `entry ${e.seq} is out of order`,
      });
    } else if (e.prevHash !== state.prev) {
      problems.push({ seq: e.seq, text: `entry ${e.seq} does not follow entry ${e.seq - 1}` });
    }
    const { hash, ...rest } = e;
    if (entryHash(rest) !== hash) problems.push({ seq: e.seq, text: `entry ${e.seq} was changed after it was written` });
    state.prev = hash;
    state.expectedSeq = e.seq + 1;
  }
  return problems;
}

const short = (hash: string) => `${hash.slice(0, 12)}…`;
const range = (from: number, to: number) => (from === to ? `entry ${from} was` : `entries ${from}–${to} were`);

/**
 * What is wrong between a valid head anchor (kept outside the store) and the store: its newest
 * entry `head`, and the hash of the anchored entry as the store has it (undefined: no such entry).
 * Null when they agree (the anchor may be behind the head: entries after it chain to it).
 */
export function anchorProblem(
  a: { seq: number; hash: string },
  head: { seq: number; hash: string },
  anchoredHash: string | undefined,
): ChainProblem | null {
  if (a.seq === 0) return null;
  if (head.seq === 0)
    return {
      seq: 1,
      text: `the audit table is empty, but the head anchor says it held ${a.seq} entries (the newest with hash ${short(a.hash)}): every entry was deleted`,
    };
  if (anchoredHash === undefined && head.seq < a.seq)
    return {
      seq: head.seq + 1,
      text: `the head anchor says the log reached entry ${a.seq} (hash ${short(a.hash)}), but the table ends at entry ${head.seq}: ${range(head.seq + 1, a.seq)} deleted`,
    };
  if (anchoredHash === undefined) return { seq: a.seq, text: `entry ${a.seq}, the newest when the head anchor was written, is missing` };
  if (anchoredHash !== a.hash)
    return {
      seq: a.seq,
      text: `entry ${a.seq} does not match the head anchor (anchored hash ${short(a.hash)}, found ${short(anchoredHash)}): entries up to it were deleted and others written in their place, or the table was replaced`,
    };
  return null;
}

/** What an anchor file that cannot be used means (`invalid`: why it is not valid; null: it is missing). */
export function unusableAnchor(invalid: string | null, expectMissing: boolean): ChainProblem | null {
  if (invalid !== null) return { seq: 1, text: `the head anchor file was altered or replaced: ${invalid}` };
  if (expectMissing) return null;
  return {
    seq: 1,
    text: 'the head anchor file is missing: it was deleted, so the newest entries cannot be checked up to the time it was written again',
  };
}

/** An audit row as both stores keep it (snake_case columns), as a record. */
export interface AuditRow extends AuditLogTable {
  prev_hash: string;
  hash: string;
  client?: string | null;
  user_id?: string | null;
  display_name?: string | null;
  role?: string | null;
  auth_method?: string | null;
  mac?: string | null;
  key_id?: string | null;
}

export const recordOfRow = (r: AuditRow): AuditRecord => ({
  seq: r.seq,
  at: r.at,
  operator: r.operator,
  action: r.action,
  target: r.target,
  reason: r.reason,
  result: r.result,
  prevHash: r.prev_hash,
  hash: r.hash,
  ...(r.client ? { client: r.client } : {}),
  ...(r.user_id
    ? { person: { userId: r.user_id, displayName: r.display_name ?? '', role: r.role ?? '', method: r.auth_method ?? '' } }
    : {}),
  ...(r.mac ? { mac: r.mac, keyId: r.key_id ?? null } : {}),
});

/** The columns every store's log has, in order (a team server's adds the person, the client and the MAC: `rowOfRecord`). */
export const CHAIN_COLUMNS = ['seq', 'at', 'operator', 'action', 'target', 'reason', 'result', 'prev_hash', 'hash'] as const;

/** A record as its row (recordOfRow's inverse): each column of CHAIN_COLUMNS, then those a team server keeps. */
export const rowOfRecord = (r: AuditRecord): Required<AuditRow> => ({
  seq: r.seq,
  at: r.at,
  operator: r.operator,
  action: r.action,
  target: r.target,
  reason: r.reason,
  result: r.result,
  prev_hash: r.prevHash,
  hash: r.hash,
  client: r.client ?? null,
  user_id: r.person?.userId ?? null,
  display_name: r.person?.displayName ?? null,
  role: r.person?.role ?? null,
  auth_method: r.person?.method ?? null,
  mac: r.mac ?? null,
  key_id: r.keyId ?? null,
});
