/**
 * Notes: what the normalizer did that was not a faithful rename. Every lossy, guessed or
 * ambiguous mapping leaves one, with the path of the field in the normalised record, so the UI
 * can show it next to the value and nobody mistakes a guess for data.
 */
export type NoteKind =
  /** A value was dropped or moved somewhere less precise; the note holds the original. */
  | 'lossy'
  /** A required value had no source and was supplied by a documented rule. */
  | 'guessed'
  /** The value is kept as sent, but its meaning is unclear (e.g. mixed scales). */
  | 'ambiguous'
  /** The source broke its own schema; the note says how it was read. */
  | 'invalid'
  /** An enum value this version does not know; kept as sent. */
  | 'unknown-value';

export interface NormalizationNote {
  path: string;
  kind: NoteKind;
  /** What was done, e.g. "feeType VARIABLE → OTHER". */
  action: string;
  /** Why, in one sentence a compliance officer can read. */
  reason: string;
  /** The source value, when the record no longer shows it. */
  original?: unknown;
}

export class NoteSink {
  readonly notes: NormalizationNote[] = [];
  add(path: string, kind: NoteKind, action: string, reason: string, original?: unknown): void {
    this.notes.push(original === undefined ? { path, kind, action, reason } : { path, kind, action, reason, original });
  }
}

export const at = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);
