import type { z } from 'zod';

/**
 * A fast path for validating large, well-formed API pages (a sync reads thousands of consents and
 * events a second): the zod schema compiled once into plain closures that check exactly what zod
 * checks, and return either the value zod's parse would return (equal, keys in the same order) or
 * FAIL. On FAIL the caller parses with zod, which says what is wrong, where (parse.ts): the fast
 * path never produces an error message of its own, so malformed payloads are reported as before.
 *
 * It compiles only what it understands, and exactly: strings, numbers, booleans, enums (a value
 * outside the set is FAIL, so zod reports it as unknown), optional, nullable, arrays, unions,
 * loose objects (unknown keys kept, after the known ones, as zod orders them) and the checks zod
 * runs on them (integer, bounds, lengths, refinements). A schema holding anything else (a
 * transform, a default, a coercion, a string format…) gets no fast path: `compileFast` returns
 * undefined and zod parses it as before.
 *
 * Where the input needs no change (an object's keys already in zod's order, nothing dropped) the
 * input itself is returned rather than a copy, as JSON.parse made it: equal to zod's output, with
 * half the allocation. The input is never modified, so after a FAIL zod sees it as it came.
 */
export const FAIL: unique symbol = Symbol('fast-path: not accepted');
export type FastParser = (input: unknown) => unknown;

class Unsupported extends Error {}

interface ZodInternals {
  def: {
    type: string;
    checks?: {
      _zod: {
        def: { check: string; when?: (p: { value: unknown; issues: unknown[] }) => boolean; fn?: (v: unknown) => unknown } & Record<
          string,
          unknown
        >;
        check(p: { value: unknown; issues: unknown[] }): unknown;
      };
    }[];
    coerce?: boolean;
    format?: string;
    innerType?: z.ZodType;
    element?: z.ZodType;
    options?: z.ZodType[];
    entries?: Record<string, string | number>;
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
  };
  traits: Set<string>;
  optin?: string;
  optout?: string;
}

const internals = (schema: z.ZodType) => (schema as unknown as { _zod: ZodInternals })._zod;

/** The supported checks, each as zod runs it (a check whose `when` says no is skipped). */
const CHECKS = new Set(['number_format', 'greater_than', 'less_than', 'min_length', 'max_length', 'length_equals', 'custom']);

function compileChecks(zod: ZodInternals): ((value: unknown) => boolean) | undefined {
  const checks = zod.def.checks ?? [];
  if (checks.length === 0) return undefined;
  const tests = checks.map((check): ((value: unknown) => boolean) => {
    const def = check._zod.def;
    if (!CHECKS.has(def.check)) throw new Unsupported(`check ${def.check}`);
    // A check that runs only `when` something holds is run as zod runs it (below).
    if (def.check === 'custom' && !def.when) {
      const fn = def.fn!;
      // A refinement: truthy passes. A promise cannot be judged here (zod's sync parse throws on it).
      return (value) => {
        const r = fn(value);
        return Boolean(r) && !(r instanceof Promise);
      };
    }
    if (def.check === 'number_format' && def.format === 'safeint' && !def.when) return (value) => Number.isSafeInteger(value);
    if (def.check === 'greater_than' && typeof def.value === 'number' && !def.when) {
      const min = def.value;
      return def.inclusive ? (value) => (value as number) >= min : (value) => (value as number) > min;
    }
    // The others as zod itself runs them, on a payload of their own.
    const when = def.when;
    return (value) => {
      const payload = { value, issues: [] as unknown[] };
      if (when && !when(payload)) return true;
      const r = check._zod.check(payload);
      return !(r instanceof Promise) && payload.issues.length === 0 && payload.value === value;
    };
  });
  if (tests.length === 1) return tests[0];
  return (value) => {
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
}

function compile(schema: z.ZodType): FastParser {
  const zod = internals(schema);
  const def = zod.def;
  // A schema that is itself a check (a string format such as z.iso.date(), z.int()) is not compiled.
  if (zod.traits.has('$ZodCheck')) throw new Unsupported(`${def.type} that is a check`);
  if (def.coerce) throw new Unsupported('coercion');
  const checks = compileChecks(zod);
  const withChecks =
    (typeOk: (value: unknown) => boolean): FastParser =>
    (value) =>
      typeOk(value) && (!checks || checks(value)) ? value : FAIL;
  switch (def.type) {
    case 'string':
      if (def.format !== undefined) throw new Unsupported(`string format ${def.format}`);
      return withChecks((v) => typeof v === 'string');
    case 'number':
      if (def.format !== undefined) throw new Unsupported(`number format ${def.format}`);
      return withChecks((v) => typeof v === 'number' && Number.isFinite(v));
    case 'boolean':
      return withChecks((v) => typeof v === 'boolean');
    case 'unknown':
      if (checks) throw new Unsupported('unknown with checks');
      return (v) => v;
    case 'enum': {
      if (checks) throw new Unsupported('enum with checks');
      // String values only (a numeric TypeScript enum's reverse mapping is zod's own business).
      const values = new Set(Object.values(def.entries!));
      if ([...values].some((v) => typeof v !== 'string')) throw new Unsupported('non-string enum values');
      return (v) => (values.has(v as string) ? v : FAIL);
    }
    case 'optional': {
      if (checks) throw new Unsupported('optional with checks');
      // .optional() passes undefined through unless what it wraps substitutes a default.
      if (internals(def.innerType!).optin === 'defaulted') throw new Unsupported('default');
      const inner = compile(def.innerType!);
      return (v) => (v === undefined ? v : inner(v));
    }
    case 'nullable': {
      if (checks) throw new Unsupported('nullable with checks');
      const inner = compile(def.innerType!);
      return (v) => (v === null ? v : inner(v));
    }
    case 'array': {
      const element = compile(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return FAIL;
        let out: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          const item: unknown = v[i];
          const r = element(item);
          if (r === FAIL) return FAIL;
          if (r !== item && !out) out = v.slice(0, i);
          if (out) out[i] = r;
        }
        // zod's checks on an array (a minimum length) see its parsed value.
        const result = out ?? v;
        return !checks || checks(result) ? result : FAIL;
      };
    }
    case 'union': {
      if (checks) throw new Unsupported('union with checks');
      const options = def.options!.map(compile);
      // The first option that accepts, as zod's union does.
      return (v) => {
        for (const option of options) {
          const r = option(v);
          if (r !== FAIL) return r;
        }
        return FAIL;
      };
    }
    case 'object':
      if (checks) throw new Unsupported('object with checks');
      return compileLooseObject(def);
    default:
      throw new Unsupported(def.type);
  }
}

/** z.looseObject: the known keys in the shape's order (each as its schema parses it), then every other key but __proto__. */
function compileLooseObject(def: ZodInternals['def']): FastParser {
  if (!def.catchall || internals(def.catchall).def.type !== 'unknown' || internals(def.catchall).def.checks?.length)
    throw new Unsupported('object that is not loose');
  const shape = def.shape!;
  if (Object.getOwnPropertySymbols(shape).length) throw new Unsupported('symbol keys');
  const keys = Object.keys(shape);
  // zod finds a key with `key in input`: one inherited by every object (toString) or an integer
  // (ordered first by the engine) would make its presence or its order differ from what is read here.
  for (const k of keys) if (k in Object.prototype || k === '__proto__' || /^(0|[1-9]\d*)$/.test(k)) throw new Unsupported(`key ${k}`);
  const index = new Map(keys.map((k, i) => [k, i]));
  const fields = keys.map((k) => {
    const zod = internals(shape[k]!);
    // Absent and optional: left out of the output. Absent and required: zod fails.
    if (zod.optin !== undefined && (zod.optin !== 'optional' || zod.optout !== 'optional')) throw new Unsupported(`key ${k}: ${zod.optin}`);
    return compile(shape[k]!);
  });
  const required = keys.map((k) => internals(shape[k]!).optin === undefined);
  const requiredCount = required.filter(Boolean).length;
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return FAIL;
    const obj = input as Record<string, unknown>;
    let inOrder = true;
    let changed: Map<number, unknown> | undefined;
    let last = -1;
    let extra = false;
    let requiredSeen = 0;
    for (const key in obj) {
      const i = index.get(key);
      if (i === undefined) {
        extra = true;
        if (key === '__proto__') inOrder = false; // zod drops it
        continue;
      }
      if (extra || i < last) inOrder = false;
      last = i;
      const value = obj[key];
      const r = fields[i]!(value);
      if (r === FAIL) return FAIL;
      if (r !== value) (changed ??= new Map()).set(i, r);
      if (required[i]) requiredSeen++;
    }
    if (requiredSeen !== requiredCount) return FAIL;
    if (inOrder && !changed) return obj;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key in obj) out[key] = changed?.has(i) ? changed.get(i) : obj[key];
    }
    if (extra) for (const key in obj) if (!index.has(key) && key !== '__proto__') out[key] = obj[key];
    return out;
  };
}

const compiled = new WeakMap<z.ZodType, FastParser | null>();

/** The fast path of a schema, compiled once; undefined when the schema holds something it does not compile. */
export function compileFast(schema: z.ZodType): FastParser | undefined {
  let fast = compiled.get(schema);
  if (fast === undefined) {
    try {
      fast = compile(schema);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      fast = null;
    }
    compiled.set(schema, fast);
  }
  return fast ?? undefined;
}
