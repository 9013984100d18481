import { createHash } from 'node:crypto';
import { wellFormed } from '../../../shared/text/well-formed.js';
import type { AuditEntry, AuditRecord } from './port.js';

/**
 * The audit chain, whatever stores it: each entry's hash covers its fields and the previous
 * entry's hash, so an edited, removed or reordered entry breaks the links `walkChain` checks.
 * (Removing the newest entries leaves a chain that still links up: the head anchor outside the
 * store catches that; see audit-anchor.ts.)
 */
export const GENESIS_HASH = '0'.repeat(64);

/** The hash of an entry: its fields and the previous hash, in a fixed order. */
export function entryHash(e: Omit<AuditRecord, 'hash'>): string {
  return createHash('sha256')
    .update(JSON.stringify([e.seq, e.at, e.operator, e.action, e.target, e.reason, e.result, e.prevHash]))
    .digest('hex');
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
export function nextRecord(entry: AuditEntry, head: { seq: number; hash: string } | undefined, at: string): AuditRecord {
  const partial = { ...cleanEntry(entry), seq: (head?.seq ?? 0) + 1, at, prevHash: head?.hash ?? GENESIS_HASH };
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
