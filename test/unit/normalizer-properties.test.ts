import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePayload, normalizeRecord } from '../../shared/banking/index.js';
import { numberToString, tooDeep } from '../../shared/banking/values.js';
import { ProductDetail } from '../../shared/schemas/banking-product.js';
import { fixtureFiles, loadFixture } from '../helpers/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- generated records are loose JSON */

const amount = fc.oneof(
  fc.tuple(fc.nat(100_000), fc.nat(99)).map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`),
  fc.constantFrom('0', '0.0', '0.00', '0.0000', '600.00'),
);
const rate = fc.oneof(
  fc.nat(9999).map((n) => `0.${String(n).padStart(4, '0')}`),
  fc.constantFrom('0.0', '1.0', '0.03'),
);
const duration = fc.constantFrom('P1M', 'P1Y', 'P1D', 'TS0');
const feeType = fc.constantFrom('PERIODIC', 'EVENT', 'TRANSACTION', 'UPFRONT', 'EXIT', 'VARIABLE', 'VARIABLE ', 'WITHDRAWAL');

const legacyDiscount = fc.record(
  {
    description: fc.string({ minLength: 1, maxLength: 20 }),
    discountType: fc.constantFrom('BALANCE', 'DEPOSITS', 'ELIGIBILITY_ONLY', 'FEE_CAP', 'PAYMENTS'),
    amount,
    feeRate: rate,
    balanceRate: rate,
    transactionRate: rate,
    accruedRate: rate,
    additionalValue: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: ['description', 'discountType'] },
);

const legacyFee = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 30 }),
    feeType,
    amount,
    balanceRate: rate,
    transactionRate: rate,
    accruedRate: rate,
    accrualFrequency: duration,
    additionalValue: fc.string({ maxLength: 10 }),
    additionalInfo: fc.string({ maxLength: 30 }),
    discounts: fc.array(legacyDiscount, { maxLength: 3 }),
    'x-ext': fc.string(),
  },
  { requiredKeys: ['name', 'feeType'] },
);

const bound = fc.oneof(
  fc.nat(1_000_000),
  fc.double({ min: 0, max: 1_000_000, noNaN: true }),
  fc.constant(null),
  fc.constant(999999999999.99),
);
const legacyTier = fc.record(
  {
    name: fc.string({ maxLength: 10 }),
    unitOfMeasure: fc.constantFrom('DOLLAR', 'PERCENT', 'MONTH', 'DAY', 'Dollar'),
    minimumValue: bound,
    maximumValue: bound,
    rateApplicationMethod: fc.constantFrom('PER_TIER', 'WHOLE_BALANCE'),
    applicabilityConditions: fc.oneof(
      fc.constant(null),
      fc.constant({}),
      fc.record({ additionalInfo: fc.string({ minLength: 1 }) }),
      fc.record({ additionalInfoUri: fc.webUrl() }),
    ),
  },
  { requiredKeys: ['unitOfMeasure'] },
);
const legacyRate = (kind: 'deposit' | 'lending') =>
  fc.record(
    {
      [kind === 'deposit' ? 'depositRateType' : 'lendingRateType']: fc.constantFrom('FIXED', 'VARIABLE', 'INTRODUCTORY'),
      rate,
      applicationFrequency: duration,
      calculationFrequency: duration,
      tiers: fc.array(legacyTier, { maxLength: 4 }),
    },
    { requiredKeys: [kind === 'deposit' ? 'depositRateType' : 'lendingRateType', 'rate'] },
  );

const legacyProduct = fc.record({
  productId: fc.uuid(),
  productCategory: fc.constantFrom('TERM_DEPOSITS', 'RESIDENTIAL_MORTGAGES', 'CRED_AND_CHRG_CARDS', 'TRANS_AND_SAVINGS_ACCOUNTS'),
  name: fc.string(),
  fees: fc.array(legacyFee, { maxLength: 6 }),
  depositRates: fc.array(legacyRate('deposit'), { maxLength: 3 }),
  lendingRates: fc.array(legacyRate('lending'), { maxLength: 3 }),
  cardArt: fc.array(fc.record({ title: fc.string(), imageUri: fc.webUrl() }), { maxLength: 2 }),
});

const METHOD_KEYS = ['amount', 'balanceRate', 'transactionRate', 'accruedRate', 'feeRate'];
const isZero = (v: string) => Number(v) === 0;

/** Every non-zero amount or rate string of the input's fees and discounts. */
function sourceValues(p: any): string[] {
  const out: string[] = [];
  for (const fee of p.fees) {
    for (const k of METHOD_KEYS) if (typeof fee[k] === 'string' && !isZero(fee[k])) out.push(fee[k]);
    for (const d of fee.discounts ?? []) for (const k of METHOD_KEYS) if (typeof d[k] === 'string' && !isZero(d[k])) out.push(d[k]);
  }
  return out;
}
/** Every amount or rate string in the output's method objects. */
function outputValues(p: any): string[] {
  const out: string[] = [];
  for (const fee of p.fees) {
    if (fee.fixedAmount) out.push(fee.fixedAmount.amount);
    if (fee.rateBased) out.push(fee.rateBased.rate);
    for (const d of fee.discounts ?? []) {
      if (d.fixedAmount) out.push(d.fixedAmount.amount);
      if (d.rateBased) out.push(d.rateBased.rate);
    }
  }
  return out;
}
const count = (xs: string[]) => xs.reduce<Record<string, number>>((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {});

describe('normalizer properties (random old-shape records)', () => {
  it('never throws, and always yields the 2.0.0 form', () => {
    fc.assert(
      fc.property(legacyProduct, (p) => {
        const { data } = normalizeRecord(p as any);
        const parsed = ProductDetail.safeParse(data);
        if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues.slice(0, 2)));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps every non-zero amount and rate, unchanged, as the same string', () => {
    fc.assert(
      fc.property(legacyProduct, (p) => {
        const produced = count(outputValues(normalizeRecord(p as any).data));
        for (const [value, n] of Object.entries(count(sourceValues(p)))) expect(produced[value] ?? 0).toBeGreaterThanOrEqual(n);
      }),
      { numRuns: 400 },
    );
  });

  it('writes numeric tier bounds as their own digits', () => {
    fc.assert(
      fc.property(legacyProduct, (p) => {
        const { data } = normalizeRecord(p as any);
        (p.depositRates as any[]).forEach((r, i) =>
          r.tiers?.forEach((t: any, j: number) => {
            const out = (data.depositRates as any)[i].tiers[j];
            if (typeof t.minimumValue === 'number') expect(Number(out.minimumValueString)).toBe(t.minimumValue);
            if (typeof t.maximumValue === 'number' && out.maximumValueString !== undefined)
              expect(Number(out.maximumValueString)).toBe(t.maximumValue);
          }),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent: normalising its own output changes nothing', () => {
    fc.assert(
      fc.property(legacyProduct, (p) => {
        const once = normalizeRecord(p as any).data;
        const twice = normalizeRecord(structuredClone(once)).data;
        expect(twice).toEqual(once);
        expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
      }),
      { numRuns: 400 },
    );
  });
});

describe('idempotence on the real fixtures', () => {
  it.each([
    ...fixtureFiles('products-real').map((f) => ['products-real', f]),
    ...fixtureFiles('products-synthetic').map((f) => ['products-synthetic', f]),
    ['products-cds-1.36', 'credit-card-with-instalments.json'],
  ])('%s/%s', (folder, file) => {
    const once = normalizePayload(loadFixture(folder!, file!));
    const twice = normalizePayload(structuredClone(once.data));
    expect(JSON.stringify(twice.data)).toBe(JSON.stringify(once.data));
    expect(twice.records.every((r) => r.shape === 'data-api-2.0.0' || r.shape === 'cds-1.34+' || r.shape === 'undetermined')).toBe(true);
  });
});

describe('number to string', () => {
  it.each([
    [5e-324, '0.' + '0'.repeat(323) + '5'],
    [5e-7, '0.0000005'],
    [1.5e21, '1500000000000000000000'],
    [60.01, '60.01'],
    [999999999999.99, '999999999999.99'],
    [0, '0'],
  ])('%s → %s, which reads back as the same number', (n, text) => {
    expect(numberToString(n)).toBe(text);
    expect(Number(numberToString(n))).toBe(n);
  });
});

describe('the nesting limit', () => {
  /** Levels of objects/lists below `v` (a primitive 0, {} or [] 1), by plain recursion. */
  const levels = (v: unknown): number =>
    typeof v !== 'object' || v === null ? 0 : 1 + Math.max(0, ...Object.values(v as object).map(levels));
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'large', maxDepth: 12 },
      fc.integer(),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
      tie('list'),
      tie('object'),
    ),
    list: fc.array(tie('value'), { maxLength: 3 }),
    object: fc.dictionary(fc.stringMatching(/^[a-z]{1,3}$/), tie('value'), { maxKeys: 3 }),
  })).value;

  it('refuses exactly the values with an object or list `limit` levels down, naming a path that leads there', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 8 }), (value, limit) => {
        const path = tooDeep(value, limit);
        expect(path !== null).toBe(levels(value) > limit);
        if (path === null || path === '(root)') return;
        // The path leads, step by step, to an object or list exactly `limit` levels down.
        const steps = [...path.matchAll(/\[(\d+)\]|\.?([a-z]+)/g)].map((m) => m[1] ?? m[2]);
        expect(steps.join('')).toBe(path.replace(/[.[\]]/g, ''));
        const reached = steps.reduce<any>((v, step) => v[step!], value);
        expect(steps).toHaveLength(limit);
        expect(typeof reached === 'object' && reached !== null).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
