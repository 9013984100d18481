/**
 * Transaction description search in the team store, with the SQLite cache's semantics (FTS5,
 * unicode61 tokenizer, every word of the search a required prefix): a description's words are cut
 * here, in JavaScript, exactly as the search's words are, and stored as a tsvector of lexemes
 * taken as they are (array_to_tsvector: no parser, no dictionary, no locale), searched with a
 * tsquery of prefix terms built the same way. PostgreSQL's own text-search parser is not used: it
 * keeps "12.50", "acme-123" or e-mail addresses as single tokens where FTS5 cuts them apart, and
 * its lower-casing follows the server's locale.
 */

/** Longest word kept (a tsvector lexeme is at most 2046 bytes); longer ones are cut, search words too. */
const MAX_WORD = 255;

/** FTS5 unicode61 folding: lower case, diacritics removed (é → e). */
function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}+/gu, '')
    .normalize('NFC');
}

/** The words of a description as FTS5's unicode61 tokenizer cuts them: letters and digits, folded. */
export function descriptionWords(description: unknown): string[] {
  const text =
    typeof description === 'string' ? description : description === null || description === undefined ? '' : JSON.stringify(description);
  const words = new Set<string>();
  for (const w of fold(text).split(/[^\p{L}\p{N}\p{Co}]+/u)) if (w) words.add(w.slice(0, MAX_WORD));
  return [...words];
}

/**
 * The search's words (data/views.ts searchWords: each a prefix, all required) as a tsquery, folded
 * as the descriptions' words are; undefined when none is left.
 */
export function searchQuery(searched: readonly string[]): string | undefined {
  const words = searched
    .flatMap((w) => fold(w).split(/[^\p{L}\p{N}\p{Co}]+/u))
    .filter(Boolean)
    .map((w) => w.slice(0, MAX_WORD));
  // Words hold letters and digits only: nothing to escape inside the quotes.
  return words.length ? words.map((w) => `'${w}':*`).join(' & ') : undefined;
}
