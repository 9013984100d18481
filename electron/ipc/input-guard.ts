/**
 * What the router refuses before any schema sees an input, whatever the channel: input no console
 * screen ever sends, that would otherwise reach a handler (or zod) in a shape it cannot take.
 *
 * - NUL characters, anywhere (a value or a key): SQLite's full-text query parser stops at one
 *   ("unterminated string"), a path or a log line is cut by one, and no identifier, search, reason
 *   or secret holds one;
 * - nesting deeper than MAX_INPUT_DEPTH (the contract's deepest input is 4 levels);
 * - more than MAX_INPUT_VALUES values in all (the largest input, a 10,000-id bulk revocation, has
 *   about 10,000).
 *
 * The walk is iterative, so a hostile input nested a million levels deep costs a loop, not the stack.
 */
export const MAX_INPUT_DEPTH = 32;
export const MAX_INPUT_VALUES = 100_000;

export interface InputProblem {
  path: string;
  message: string;
}

export function inputProblem(input: unknown): InputProblem | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  let values = 0;
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (++values > MAX_INPUT_VALUES) return { path: '', message: `more than ${MAX_INPUT_VALUES} values in one request` };
    if (typeof value === 'string') {
      if (value.includes('\0')) return { path: path.join('.'), message: 'contains a NUL character (U+0000), which no field accepts' };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path: path.join('.'), message: `nested more than ${MAX_INPUT_DEPTH} levels deep` };
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key.includes('\0')) return { path: path.join('.'), message: 'a field name contains a NUL character (U+0000)' };
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return null;
}
