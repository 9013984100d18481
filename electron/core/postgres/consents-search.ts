import type { Consent } from '../../../shared/schemas/consent.js';
import { DROPPED, FOLDS, SEPARATORS, TABLE_LIMIT } from './consents-fts-tables.js';

/**
 * Consent search on PostgreSQL, matching what the SQLite cache's FTS5 table (consents_fts) matches.
 *
 * A consent's searchable fields are split into tokens exactly as FTS5's unicode61 tokenizer splits
 * them (consents-fts-tables.ts), and stored as a tsvector of those tokens (nothing of PostgreSQL's
 * own parser, dictionaries or stemming: the lexemes are written as they are). Each field's tokens
 * take positions of their own (field k from k·FIELD_SPAN + 1), so that a phrase never spans two
 * fields, as in FTS5.
 *
 * What a user types becomes, as in cache/consent-query.ts ftsQuery: a mobile number in its stored
 * form as one term, or up to 8 words, all required; each word a prefix phrase ("o'brien" is the
 * phrase o ↔ brien*), written as a tsquery (`'o' <-> 'brien':*`). A word without any token matches
 * nothing (FTS5: an empty phrase matches no row), and so does the whole search.
 */

/** The fields searched, in FTS5's column order (cache/migrations.ts, consents_fts). */
export function searchFields(c: Consent): (string | null)[] {
  const text = (v: unknown) => (v === undefined || v === null ? null : String(v));
  return [
    text(c.consentId),
    text(c.cdrArrangementId),
    text(c.consumerId),
    text(c.consumerEmail),
    text(c.consumerMobileNumber),
    text(c.externalId),
    text(c.dataHolderName),
    text(c.useCase?.name),
  ];
}

/** Positions per field: a field's tokens beyond this many are not indexed (tsvector positions stop at 16383). */
const FIELD_SPAN = 1024;
/** PostgreSQL refuses lexemes of 2 KB or more. */
const MAX_LEXEME_CHARS = 500;

const decode = (s: string) => s.split(',').map((e) => e.split(':').map((n) => parseInt(n, 36)));
const sepRanges = decode(SEPARATORS);
const dropRanges = decode(DROPPED);
const foldRuns = decode(FOLDS);

/** The entry of sorted [first, last, …] entries holding cp, or undefined. */
function find(entries: number[][], cp: number): number[] | undefined {
  let lo = 0;
  let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = entries[mid]!;
    if (cp < e[0]!) hi = mid - 1;
    else if (cp > e[1]!) lo = mid + 1;
    else return e;
  }
  return undefined;
}

/** A character as FTS5 sees it: null when it separates tokens, '' when dropped, else its folded form. */
function fold(ch: string): string | null {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0xd800 && cp <= 0xdfff) return null;
  if (cp >= TABLE_LIMIT) return ch;
  if (cp === 0 || find(sepRanges, cp)) return null;
  if (find(dropRanges, cp)) return '';
  const run = find(foldRuns, cp);
  if (run && (cp - run[0]!) % run[3]! === 0) return String.fromCodePoint(cp + run[2]!);
  return ch;
}

/** The tokens of a text, as FTS5's unicode61 tokenizer (with the cache's tokenchars) makes them. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let inToken = false;
  for (const ch of text) {
    const f = fold(ch);
    if (f === null) {
      if (inToken && current) out.push(current);
      current = '';
      inToken = false;
    } else {
      current += f;
      inToken = true;
    }
  }
  if (inToken && current) out.push(current);
  return out;
}

const lexeme = (t: string) => `'${t.slice(0, MAX_LEXEME_CHARS).replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The tsvector (its text form) of a consent's searchable fields. */
export function searchVector(c: Consent): string {
  const positions = new Map<string, number[]>();
  searchFields(c).forEach((field, k) => {
    if (field === null) return;
    tokens(field)
      .slice(0, FIELD_SPAN - 1)
      .forEach((t, i) => {
        const key = t.slice(0, MAX_LEXEME_CHARS);
        const list = positions.get(key) ?? [];
        if (list.length < 255) list.push(k * FIELD_SPAN + i + 1);
        positions.set(key, list);
      });
  });
  return [...positions].map(([t, p]) => `${lexeme(t)}:${p.join(',')}`).join(' ');
}

/** A mobile number as typed (0412 345 678, +61 412-345-678) in the stored form (+61412345678). */
function asStoredMobile(text: string): string | undefined {
  if (!/^\+?[\d\s()-]{8,}$/.test(text)) return undefined;
  const digits = text.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return digits;
  if (digits.startsWith('0')) return `+61${digits.slice(1)}`;
  if (digits.startsWith('61')) return `+${digits}`;
  return undefined;
}

/**
 * The tsquery (text form) of what the user typed; undefined when it searches nothing (empty),
 * null when it can match nothing (a word without tokens).
 */
export function searchQuery(text: string | undefined): string | null | undefined {
  const trimmed = (text ?? '').trim();
  const mobile = asStoredMobile(trimmed);
  const terms = mobile ? [mobile] : trimmed.split(/\s+/).filter(Boolean).slice(0, 8);
  if (!terms.length) return undefined;
  const phrases: string[] = [];
  for (const term of terms) {
    const ts = tokens(term);
    if (!ts.length) return null;
    phrases.push(ts.map((t, i) => `${lexeme(t)}${i === ts.length - 1 ? ':*' : ''}`).join(' <-> '));
  }
  return phrases.map((p) => `(${p})`).join(' & ');
}
