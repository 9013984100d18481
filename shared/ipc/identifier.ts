import * as z from 'zod';

/**
 * Identifiers (consent ids, CDR arrangement ids, use case ids, data holder brand ids, job ids)
 * are validated as identifiers wherever they come in (IPC, command line) because they end up in
 * URL paths: `revoke ..` must never call the API root.
 *
 * The alphabet: printable ASCII without space, '/' and '\'; not '.' or '..'; 1 to 200 characters.
 * The CDR standards and the intermediary's document give ids no format beyond "string" (the
 * intermediary and the sandbox use UUIDs; data holders' arrangement ids are opaque ASCII), so
 * anything printable that cannot change a path is allowed. 200 is the length the console already
 * accepted for consent ids (and the bulk revocation's paste parser), so no id accepted before is
 * refused now.
 */
export const IDENTIFIER_MAX_LENGTH = 200;
const ALPHABET = /^[!-.0-[\]-~]+$/; // 0x21-0x7E without '/' (0x2F) and '\' (0x5C)

export const IDENTIFIER_RULE = `1–${IDENTIFIER_MAX_LENGTH} printable ASCII characters without spaces, '/' or '\\', and not '.' or '..'`;

/** Why `value` is not an identifier, or null when it is one. */
export function identifierProblem(value: string): string | null {
  if (value.length === 0) return 'it is empty';
  if (value.length > IDENTIFIER_MAX_LENGTH) return `it is ${value.length} characters long (at most ${IDENTIFIER_MAX_LENGTH})`;
  if (value === '.' || value === '..') return `"${value}" is a path segment, not an identifier`;
  if (!ALPHABET.test(value)) {
    const bad = [...value].find((ch) => !ALPHABET.test(ch))!;
    const code = bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `it contains ${/^[!-~]$/.test(bad) ? `"${bad}"` : `U+${code}`}, which an identifier cannot hold`;
  }
  return null;
}

export const Identifier = z.string().superRefine((value, ctx) => {
  const problem = identifierProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `not an identifier: ${problem} (${IDENTIFIER_RULE})` });
});
