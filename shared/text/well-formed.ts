/**
 * Lone UTF-16 surrogates (half of an emoji, "\ud800") cannot be written as UTF-8: SQLite, files and
 * the network all turn them into U+FFFD. Text that is hashed or compared with what was stored is made
 * well-formed first, the same way, so what is hashed is exactly what is stored and read back.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

export function hasLoneSurrogate(text: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return LONE_SURROGATE.test(text);
}
