import { DROPPED, FOLDS, GRAM_FOLDS, SEPARATORS, TABLE_LIMIT } from './search-tables.js';

/**
 * The consent search, one rule for both stores: what a person types, what it matches, and in
 * which order the matches come.
 *
 * - What is typed is split at spaces into at most 8 words, all required. Digits alone (with
 *   spaces, dashes, brackets or a leading +), 4 of them or more, are one word: a phone number or a
 *   part of one, however it is written.
 * - A word of 3 characters or more matches **anywhere** in one of a consent's identifying fields
 *   ("smith" finds james.smith@…, "@example.com" the domain, "345 678" the middle of a mobile).
 *   Case and diacritics do not count (é = e). A shorter word matches the **start** of a word
 *   ("ja" finds james…, not raja…): anywhere, one or two letters would match nearly everything.
 *   The use case's name is a category, not an identifier: it matches at a word's start only
 *   ("budget" finds Budgeting insights; "son" does not find every "Energy plan comparison").
 * - A mobile is matched as stored (+61412345678) and as written at home (0412345678).
 * - Consents where every word **starts** a word come first (a search for "smith" lists
 *   smith.j@… before jsmith@…), each group in the list's own sort.
 *
 * The identifying fields: the consent id, the arrangement id, the consumer id, the e-mail, the
 * mobile, the external id and the data holder's name.
 *
 * Folding follows SQLite's FTS5 tokenizers: unicode61's (the cache's word index) for a word's start,
 * the trigram tokenizer's (case and every diacritic) for anywhere; written out here (search-tables.ts,
 * checked against SQLite for every code point) so that the cache, PostgreSQL and the list's marks
 * fold alike.
 */

export const SEARCH_WORDS_MAX = 8;

/** A word this many characters long (folded) or longer matches anywhere; shorter, the start of a word. */
export const ANYWHERE_FROM = 3;

export interface SearchWord {
  /** The word as the start of a token matches it (FTS5's "word"*, PostgreSQL's 'word':*). */
  start: string;
  /** Folded texts any of which, found anywhere in a searched field, matches the word; undefined: only a word's start does. */
  anywhere?: string[];
}

export interface Search {
  words: SearchWord[];
  /** Some word matches anywhere: the matches come in two groups (every word at a word's start first). */
  tiered: boolean;
}

/** What the person typed as words, or undefined when it searches nothing. */
export function parseSearch(text: string | undefined): Search | undefined {
  const trimmed = (text ?? '').trim();
  if (!trimmed) return undefined;
  const phone = phoneWord(trimmed);
  const words = phone ? [phone] : trimmed.split(/\s+/).slice(0, SEARCH_WORDS_MAX).map(wordOf);
  return { words, tiered: words.some((w) => w.anywhere) };
}

function wordOf(word: string): SearchWord {
  const folded = gramFold(word);
  return [...folded].length >= ANYWHERE_FROM ? { start: word, anywhere: [folded] } : { start: word };
}

/**
 * The last word of a text being typed, folded, when one more character makes it a word matched
 * anywhere (ANYWHERE_FROM - 1 characters; not after a space, which begins another word): what a
 * search may begin finding ahead of that keystroke. Undefined otherwise.
 */
export function nearlyAnywhere(text: string | undefined): string | undefined {
  if (!text || /\s$/.test(text)) return undefined;
  const last = text.trim().split(/\s+/).at(-1);
  if (!last) return undefined;
  const folded = gramFold(last);
  return [...folded].length === ANYWHERE_FROM - 1 ? folded : undefined;
}

/** Digits alone, 4 or more: one word, matched as typed and, from a leading 0, in the stored +61 form. */
function phoneWord(text: string): SearchWord | undefined {
  if (!/^\+?[\d\s()-]+$/.test(text)) return undefined;
  const digits = text.replace(/[^\d+]/g, '');
  if (digits.replace('+', '').length < 4) return undefined;
  if (digits.startsWith('0')) {
    const stored = `+61${digits.slice(1)}`;
    return { start: stored, anywhere: [digits, stored] };
  }
  const start = digits.startsWith('61') && digits.length >= 8 ? `+${digits}` : digits;
  return { start, anywhere: [digits] };
}

/**
 * A consent's identifying fields as the search looks in them anywhere: folded (gramFold), one per
 * line, the missing ones left out. No word typed holds a line break, so none matches across two
 * fields. The fields, in this order: the consent id, the arrangement id, the consumer id, the
 * e-mail, the mobile, the external id, the data holder's name.
 */
export function anywhereText(fields: readonly (string | number | null | undefined)[]): string {
  const text = fields
    .filter((f) => f !== null && f !== undefined)
    .map(String)
    .join('\n');
  // ASCII folds to lower case and nothing else: the common case, at native speed.
  return ASCII.test(text) ? text.toLowerCase() : gramFold(text);
}

// eslint-disable-next-line no-control-regex -- ASCII, controls included
const ASCII = /^[\x00-\x7f]*$/;

/**
 * The windows of the two groups that make the window [offset, offset + limit) of a tiered search's
 * list, given how many consents the first group holds (every word at a word's start).
 */
export function tierWindows(
  offset: number,
  limit: number,
  firstSize: number,
): { first?: { offset: number; limit: number }; rest?: { offset: number; limit: number } } {
  const out: ReturnType<typeof tierWindows> = {};
  if (offset < firstSize) out.first = { offset, limit: Math.min(limit, firstSize - offset) };
  const taken = out.first?.limit ?? 0;
  if (taken < limit) out.rest = { offset: Math.max(0, offset - firstSize), limit: limit - taken };
  return out;
}

// --- Folding, as SQLite's FTS5 does it ------------------------------------------------------------

const decode = (s: string) => s.split(',').map((e) => e.split(':').map((n) => parseInt(n, 36)));
const sepRanges = decode(SEPARATORS);
const dropRanges = decode(DROPPED);
const foldRuns = decode(FOLDS);
const gramFolds = new Map(decode(GRAM_FOLDS).map(([from, to]) => [from!, String.fromCodePoint(to!)]));

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

/** A character as FTS5's word tokenizer sees it: null when it separates words, '' when dropped, else its folded form. */
export function fold(ch: string): string | null {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0xd800 && cp <= 0xdfff) return null;
  if (cp >= TABLE_LIMIT) return ch;
  if (cp === 0 || find(sepRanges, cp)) return null;
  if (find(dropRanges, cp)) return '';
  const run = find(foldRuns, cp);
  if (run && (cp - run[0]!) % run[3]! === 0) return String.fromCodePoint(cp + run[2]!);
  return ch;
}

/** A text as FTS5's trigram tokenizer folds it (case and diacritics; nothing separates). */
export function gramFold(text: string): string {
  let out = '';
  for (const ch of text) {
    const special = gramFolds.get(ch.codePointAt(0)!);
    if (special !== undefined) out += special;
    else {
      const f = fold(ch);
      out += f === null ? ch : f;
    }
  }
  return out;
}

/** The words of a text, as FTS5's unicode61 tokenizer (with the cache's tokenchars) makes them. */
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

/** A text folded as the search folds it, where each folded character came from (undefined: the same place), and which start a word. */
interface Folded {
  folded: string;
  from: number[] | undefined;
  wordStart: (i: number) => boolean;
}

/** Which ASCII characters separate words (the word tokenizer's, fold() === null), read once. */
const ASCII_SEPARATES = Array.from({ length: 128 }, (_, c) => fold(String.fromCharCode(c)) === null);

/** ASCII (most identifiers): lower case, character for character (a list row is drawn at each keystroke). */
function foldedAscii(text: string): Folded {
  const separates = (i: number) => i < 0 || ASCII_SEPARATES[text.charCodeAt(i)]!;
  return { folded: text.toLowerCase(), from: undefined, wordStart: (i) => !separates(i) && separates(i - 1) };
}

function foldedAny(text: string): Folded {
  let folded = '';
  const from: number[] = [];
  const starts: boolean[] = [];
  let inWord = false;
  let at = 0;
  for (const ch of text) {
    const f = gramFold(ch);
    const separates = fold(ch) === null;
    for (let k = 0; k < f.length; k++) {
      from.push(at);
      starts.push(!separates && !inWord && k === 0);
    }
    if (f.length) folded += f;
    if (separates) inWord = false;
    else if (f.length) inWord = true;
    at += ch.length;
  }
  from.push(at);
  return { folded, from, wordStart: (i) => starts[i] === true };
}

/**
 * The parts of a shown text a search matched, as [start, end) ranges of the text (UTF-16 indices),
 * sorted and merged: each word found anywhere (3 characters or more) at each place it occurs, a
 * shorter one at the start of each word it starts. What the list highlights. `atStartOnly`: a
 * field searched at a word's start only (the use case's name).
 */
export function matchedRanges(text: string, search: Search | undefined, opts: { atStartOnly?: boolean } = {}): [number, number][] {
  if (!search || !text) return [];
  const { folded, from, wordStart } = ASCII.test(text) ? foldedAscii(text) : foldedAny(text);
  const ranges: [number, number][] = [];
  const add = (start: number, length: number) => ranges.push([from ? from[start]! : start, from ? from[start + length]! : start + length]);
  for (const word of search.words) {
    if (word.anywhere && !opts.atStartOnly) {
      for (const part of word.anywhere) {
        if (!part) continue;
        for (let i = folded.indexOf(part); i >= 0; i = folded.indexOf(part, i + 1)) add(i, part.length);
      }
    } else {
      const start = gramFold(word.start);
      if (!start) continue;
      for (let i = folded.indexOf(start); i >= 0; i = folded.indexOf(start, i + 1)) if (wordStart(i)) add(i, start.length);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}
