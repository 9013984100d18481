/** Small readers for the loosely typed values of old payloads. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A present value: not absent, not null, not an empty string. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** True when an amount or rate is numerically zero ("0", "0.0", "0.0000", 0). */
export function isZero(value: Json | undefined): boolean {
  if (typeof value === 'number') return value === 0;
  return typeof value === 'string' && /^\s*[+-]?0*(\.0*)?\s*$/.test(value) && /0/.test(value);
}

/**
 * A number as the string 2.0.0 expects: the digits JavaScript prints for it (the shortest text that
 * reads back as the same number), with any exponent spelled out, so 5e-7 becomes "0.0000005".
 */
export function numberToString(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', exp] = m as unknown as [string, string, string, string | undefined, string];
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Parses a numeric string for comparisons only; values themselves stay strings. */
export function asNumber(value: Json | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(value)) return Number(value);
  return undefined;
}

/** ISO 8601 duration (P1M, P1Y2M, PT1H, P2W); the check CDS ExternalRef durations must pass. */
export function isIsoDuration(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    /^P(?!$)(\d+(\.\d+)?Y)?(\d+(\.\d+)?M)?(\d+(\.\d+)?W)?(\d+(\.\d+)?D)?(T(?=\d)(\d+(\.\d+)?H)?(\d+(\.\d+)?M)?(\d+(\.\d+)?S)?)?$/.test(
      value,
    )
  );
}

/** Copies an object without some keys, keeping the order of the rest. */
export function omit(source: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(source)) if (!keys.includes(k)) out[k] = v;
  return out;
}

/**
 * How deep a payload may nest. A real product is about 8 levels deep (product → fees → discounts →
 * eligibility…) and an envelope adds 3; 64 leaves room for anything real, and refuses hostile
 * nesting with a clear error instead of "Maximum call stack size exceeded" somewhere inside.
 */
export const MAX_NESTING = 64;

/**
 * The path of the first value nested deeper than `limit` levels below `value`, or null. Walks with
 * its own stack, so any depth is measured without recursion. The usual answer (nothing too deep)
 * is found without building a path for every value: paths are worked out only for a refusal.
 */
export function tooDeep(value: unknown, limit = MAX_NESTING, base = ''): string | null {
  return nestsDeeper(value, limit) ? deepPath(value, limit, base) : null;
}

/** Whether an object or list sits `limit` or more levels below `value` (its own stack, no paths). */
function nestsDeeper(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: object[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth >= limit) return true;
    const children = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
    for (const item of children) {
      if (typeof item === 'object' && item !== null) {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** The path `tooDeep` reports: the first too-deep value in its walk's order. */
function deepPath(value: unknown, limit: number, base: string): string | null {
  const stack: [unknown, number, string][] = [[value, 0, base]];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limit) return path || '(root)';
    if (Array.isArray(v)) v.forEach((item, i) => stack.push([item, depth + 1, `${path}[${i}]`]));
    else for (const [k, item] of Object.entries(v)) stack.push([item, depth + 1, path ? `${path}.${k}` : k]);
  }
  return null;
}
