import type { Consent } from '../../../shared/schemas/consent.js';
import { anywhereText, parseSearch, tokens, type Search } from '../../../shared/consents/search.js';

/**
 * Consent search on PostgreSQL, matching what the SQLite cache's FTS5 tables match (the rule:
 * shared/consents/search.ts).
 *
 * At a word's start: a consent's searchable fields are split into tokens exactly as FTS5's
 * unicode61 tokenizer splits them, and stored as a tsvector of those tokens (nothing of
 * PostgreSQL's own parser, dictionaries or stemming: the lexemes are written as they are). Each
 * field's tokens take positions of their own (field k from k·FIELD_SPAN + 1), so that a phrase
 * never spans two fields, as in FTS5. Each word typed is a prefix phrase ("o'brien" is the phrase
 * o ↔ brien*), written as a tsquery (`'o' <-> 'brien':*`); a word without any token matches nothing
 * (FTS5: an empty phrase matches no row), and so does the whole search.
 *
 * Anywhere: the fields folded as FTS5's trigram tokenizer folds them, one per line (gramsText),
 * searched with LIKE under a pg_trgm index (consents.ts).
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

/** The first fields searchFields gives are searched anywhere too (all but the use case's name: a category, not an identifier). */
const ANYWHERE_FIELDS = 7;

/** Positions per field: a field's tokens beyond this many are not indexed (tsvector positions stop at 16383). */
const FIELD_SPAN = 1024;
/** PostgreSQL refuses lexemes of 2 KB or more. */
const MAX_LEXEME_CHARS = 500;

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

/**
 * The tsquery (text form) of the words at a word's start; undefined when it searches nothing
 * (empty), null when it can match nothing (a word without tokens).
 */
export function startQuery(search: Search | undefined): string | null | undefined {
  if (!search) return undefined;
  const phrases: string[] = [];
  for (const word of search.words) {
    const ts = tokens(word.start);
    if (!ts.length) return null;
    phrases.push(ts.map((t, i) => `${lexeme(t)}${i === ts.length - 1 ? ':*' : ''}`).join(' <-> '));
  }
  return phrases.map((p) => `(${p})`).join(' & ');
}

/** The tsquery of what the user typed at a word's start (consent-query tests and diagnostics name it). */
export const searchQuery = (text: string | undefined) => startQuery(parseSearch(text));

/** A LIKE pattern finding a folded text anywhere (%, _ and \ taken literally). */
export const likeAnywhere = (folded: string) => `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The consent's text searched anywhere (the grams column, under a pg_trgm index): its identifying
 * fields folded as the search folds them (shared/consents/search.ts anywhereText).
 */
export const gramsText = (c: Consent): string => anywhereText(searchFields(c).slice(0, ANYWHERE_FIELDS));
