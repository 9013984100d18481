import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { consentApi, dataApi } from '../../shared/schemas/index.js';
import { isIsoDateTime } from '../../shared/schemas/define.js';
import { compileFast, FAIL } from '../../shared/schemas/fast.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- payloads are loose JSON */

/**
 * The fast path of the schemas (shared/schemas/fast.ts) against zod itself: it must accept exactly
 * what zod's strict parse accepts, with an equal value whose keys come in the same order, and leave
 * its input as it was. Inputs are the sandbox's own payloads, randomly damaged.
 */

/** The ISO date-time check as it was written first: the reference for the hand-written one. */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)$/;
function isoReference(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, sec] = m.map(Number) as number[];
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  return day.getUTCMonth() === mo! - 1 && day.getUTCDate() === d && h! < 24 && mi! < 60 && (Number.isNaN(sec) || sec! < 61);
}

const digit = fc.constantFrom(...'0123456789');
const twoDigits = fc.tuple(digit, digit).map(([a, b]) => a + b);
const near = fc.constantFrom(...'0123456789-T:.Z+ z\n٣');
/** Date-times as APIs write them, then some with characters changed, dropped or added. */
const isoLike = fc
  .record({
    y: fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((y) => String(y).padStart(4, '0')),
      fc.constantFrom('0000', '1900', '2000', '2024', '2100'),
    ),
    mo: fc.oneof(twoDigits, fc.constantFrom('01', '02', '12', '13', '00')),
    d: fc.oneof(twoDigits, fc.constantFrom('28', '29', '30', '31', '00')),
    h: fc.oneof(twoDigits, fc.constantFrom('23', '24')),
    mi: fc.oneof(twoDigits, fc.constantFrom('59', '60')),
    sec: fc.option(fc.oneof(twoDigits, fc.constantFrom('59', '60', '61')), { nil: undefined }),
    frac: fc.option(fc.stringMatching(/^\d{0,4}$/), { nil: undefined }),
    zone: fc.constantFrom('Z', '+10:00', '+1000', '+10', '-0530', '-05:3', '+10:', 'z', '', '+10:000', '+1'),
  })
  .map(
    ({ y, mo, d, h, mi, sec, frac, zone }) =>
      `${y}-${mo}-${d}T${h}:${mi}${sec !== undefined ? `:${sec}${frac !== undefined ? `.${frac}` : ''}` : ''}${zone}`,
  );
const damaged = fc.tuple(isoLike, fc.array(fc.tuple(fc.nat(40), fc.nat(2), near), { maxLength: 3 })).map(([s, edits]) => {
  for (const [at, kind, c] of edits) {
    const i = at % (s.length + 1);
    s = kind === 0 ? s.slice(0, i) + c + s.slice(i + 1) : kind === 1 ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + c + s.slice(i);
  }
  return s;
});

describe('ISO date-time check', () => {
  it('answers as the regular expression and Date did, for dates as written and damaged', () => {
    fc.assert(
      fc.property(fc.oneof(isoLike, damaged, fc.string({ maxLength: 30 })), (s) => isIsoDateTime(s) === isoReference(s)),
      { numRuns: 20_000 },
    );
  });

  it('on the edges: leap days (the years 0–99 read as 1900–1999, as Date.UTC does), 24:00, leap seconds, zones', () => {
    const cases = [
      '2024-02-29T00:00Z',
      '2023-02-29T00:00Z',
      '2000-02-29T00:00:00.000Z',
      '1900-02-29T00:00Z',
      '0000-02-29T00:00Z',
      '0004-02-29T00:00Z',
      '0096-02-29T00:00Z',
      '2026-04-31T00:00Z',
      '2026-12-31T23:59:60.999+10:00',
      '2026-12-31T23:59:61Z',
      '2026-12-31T24:00Z',
      '2026-12-31T23:60Z',
      '2026-00-10T10:00Z',
      '2026-13-10T10:00Z',
      '2026-01-00T10:00Z',
      '2022-12-12T03:27:31.684+0000',
      '2022-12-12T03:27:31.684+00',
      '2022-12-12T03:27:31.+00:00',
      '2022-12-12T03:27.5Z',
      '2022-12-12T03:27:31.684+00:0',
      '2022-12-12 03:27:31Z',
      '2022-12-12T03:27:31Z\n',
    ];
    for (const s of cases) expect(isIsoDateTime(s), s).toBe(isoReference(s));
  });
});

/** Every key of every object, in order, down the tree: zod's output order is part of what must match. */
function keyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keyOrder);
  if (value && typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, keyOrder(v)]);
  return value;
}

/** The fast path and zod's strict parse of the same input: the same verdict, equal values, the input untouched. */
function agree(schema: z.ZodType, input: unknown): boolean {
  const fast = compileFast(schema)!;
  const before = structuredClone(input);
  const got = fast(input);
  const want = schema.safeParse(input);
  if (!isDeepStrictEqual(input, before)) throw new Error('the fast path changed its input');
  if (want.success !== (got !== FAIL)) throw new Error(`zod says ${want.success ? 'valid' : 'invalid'}, the fast path the opposite`);
  if (want.success && !(isDeepStrictEqual(got, want.data) && isDeepStrictEqual(keyOrder(got), keyOrder(want.data))))
    throw new Error('the values differ');
  return true;
}

const json = fc.jsonValue({ maxDepth: 2 }).map((v) => v as unknown);
/** A value to put somewhere: anything JSON holds, or one that looks right (a date, an enum value, a number). */
const replacement = fc.oneof(
  json,
  fc.constantFrom(null, '', 'REVOKED', 'PAUSED', 'GRANTED', 'DELETION', 'ONGOING', 'EMAIL', 'BANKING', 0, -1, 1.5, 2 ** 53, true, [], {}),
  fc.constantFrom('2026-11-01T09:30:00.000Z', '2026-02-30T09:30:00Z', '2026-11-01'),
);

/** Every object or array in a value, by path. */
function containers(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (value && typeof value === 'object') {
    out.push(path);
    for (const [k, v] of Object.entries(value)) containers(v, [...path, k], out);
  }
  return out;
}

const at = (root: any, path: (string | number)[]) => path.reduce((v, k) => v[k], root);

type Edit = { where: number; key: number; op: 'set' | 'delete' | 'reorder' | 'extra' | 'proto'; value: unknown };
const edit = fc.record({
  where: fc.nat(),
  key: fc.nat(),
  op: fc.constantFrom('set', 'set', 'delete', 'reorder', 'extra', 'proto') as fc.Arbitrary<Edit['op']>,
  value: replacement,
});

/** target[key] = value as JSON.parse makes it: an own property, even for __proto__ (an assignment would set the prototype). */
const put = (target: object, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/** A copy of `sample` with the edits made, each on an object or array found in it at random. */
function damage(sample: unknown, edits: Edit[]): unknown {
  const root = { v: structuredClone(sample) } as any;
  for (const e of edits) {
    const all = containers(root);
    const path = all[e.where % all.length]!;
    const target = at(root, path);
    const keys = Object.keys(target);
    // (An empty array gets an element: a named property on an array is nothing JSON.parse makes.)
    const key = keys.length ? keys[e.key % keys.length]! : Array.isArray(target) ? '0' : 'x';
    if (e.op === 'set') put(target, key, structuredClone(e.value));
    else if (e.op === 'delete') {
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete target[key];
    } else if (e.op === 'reorder' && !Array.isArray(target)) {
      const value = target[key];
      delete target[key];
      put(target, key, value);
    } else if (e.op === 'extra' && !Array.isArray(target)) put(target, `extra${e.key % 3}`, structuredClone(e.value));
    else if (e.op === 'proto' && !Array.isArray(target)) put(target, '__proto__', structuredClone(e.value));
  }
  return root.v;
}

const generator = createConsentGenerator(7, 60);
const consents = Array.from({ length: 60 }, (_, i) => generator.at(i)) as any[];
const events: any[] = consents.flatMap((c) => [
  {
    eventId: `e-${c.consentId}`,
    eventType: 'GRANTED',
    eventDetail: null,
    timestamp: c.created,
    consentId: c.consentId,
    consumerId: c.consumerId,
  },
  {
    eventType: 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR',
    eventDetail: '404 Not Found',
    timestamp: '2026-01-02T03:04:05+1000',
    consentId: c.consentId,
    grantee: { name: 'G', licenceNumber: 'L' },
    customData: { a: [1, { b: 2 }] },
    sharingEndDate: c.sharingEndDate ?? null,
  },
]);
const samples: [string, z.ZodType, unknown[]][] = [
  [
    'ConsentsListV2',
    consentApi.strict.ConsentsListV2,
    [{ consents: consents.slice(0, 3), links: { self: 's', next: 'n' }, meta: { totalPages: 9, totalRecords: 3 } }],
  ],
  [
    'ConsentEventList',
    consentApi.strict.ConsentEventList,
    [{ data: { events: events.slice(0, 4) }, links: { next: null }, meta: { totalPages: 1, totalRecords: 4 } }],
  ],
  ['Consent', consentApi.strict.Consent, consents],
  ['ConsentEvent', consentApi.strict.ConsentEvent, events],
  ['ErrorList', consentApi.strict.ErrorList, [{ errors: [{ code: 'c', title: 't', detail: 'd', meta: {} }] }]],
];

describe('schemas fast path', () => {
  it('compiles the list pages and what they hold', () => {
    for (const [name, schema] of samples) expect(compileFast(schema), name).toBeDefined();
  });

  it('accepts the sandbox payloads as they come, with the value zod gives', () => {
    for (const [, schema, values] of samples) for (const v of values) expect(agree(schema, v)).toBe(true);
  });

  for (const [name, schema, values] of samples) {
    it(`accepts exactly what zod accepts, with the same value: ${name}, damaged at random`, () => {
      fc.assert(
        fc.property(fc.nat(values.length - 1), fc.array(edit, { minLength: 1, maxLength: 4 }), (i, edits) =>
          agree(schema, damage(values[i], edits)),
        ),
        { numRuns: 1500 },
      );
    });
  }

  it('accepts exactly what zod accepts for any JSON value put in place of a page', () => {
    fc.assert(
      fc.property(json, (v) => samples.every(([, schema]) => agree(schema, v))),
      { numRuns: 500 },
    );
  });

  it('every schema it compiles (Consent API and Data API) agrees with zod on the payloads it is given', () => {
    const all = { ...consentApi.strict, ...dataApi.strict } as Record<string, z.ZodType>;
    let compiled = 0;
    for (const schema of Object.values(all)) {
      if (!compileFast(schema)) continue;
      compiled++;
      fc.assert(
        fc.property(json, (v) => agree(schema, v)),
        { numRuns: 50 },
      );
    }
    expect(compiled).toBeGreaterThan(10);
  });

  it('returns the page itself where zod would return an equal copy (nothing to reorder or drop)', () => {
    const event = { ...events[0] };
    const page = { data: { events: [event] }, links: {}, meta: { totalPages: 1, totalRecords: 1 } };
    expect(compileFast(consentApi.strict.ConsentEventList)!(page)).toBe(page);
  });

  it('leaves an unknown enum value, a bad date or a missing id to zod, which names it', () => {
    const fast = compileFast(consentApi.strict.ConsentEvent)!;
    expect(fast({ ...events[0], eventType: 'PAUSED' })).toBe(FAIL);
    expect(fast({ ...events[0], timestamp: '2026-02-30T00:00Z' })).toBe(FAIL);
    const { consentId: _, ...noId } = events[0];
    expect(fast(noId)).toBe(FAIL);
  });
});
