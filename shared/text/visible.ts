/**
 * Text from the API shown inert and readable: characters that are invisible or reorder what is
 * around them (bidi overrides and isolates, zero-width characters, other C0/C1 controls except tab
 * and newline) are shown as a visible marker naming their code point, so "‮gnp.exe" cannot pass for
 * something else and a hidden character cannot hide. Markup is never interpreted anyway (React
 * escapes text); this is about what the eye sees.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (ch) => `⟦U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}
