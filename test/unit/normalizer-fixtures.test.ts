import { describe, expect, it } from 'vitest';
import { normalizePayload, type NormalizationNote } from '../../shared/banking/index.js';
import { ProductDetail } from '../../shared/schemas/banking-product.js';
import { fixtureFiles, loadFixture } from '../helpers/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- fixtures are read as loose JSON on purpose */

/** Normalises a real fixture (a `{data: product}` response) and returns the product and its notes. */
function product(prefix: string): { p: any; notes: NormalizationNote[]; shape: string } {
  const out = normalizePayload(loadFixture('products-real', prefix));
  return { p: (out.data as any).data, notes: out.notes, shape: out.records[0]!.shape };
}
const fee = (p: any, name: string) => {
  const found = p.fees.filter((f: any) => f.name.trim() === name);
  if (found.length === 0) throw new Error(`no fee named ${name}`);
  return found;
};
const notesAt = (notes: NormalizationNote[], path: string) => notes.filter((n) => n.path === path || n.path.startsWith(`${path}.`));
const tiers = (p: any) => [...(p.depositRates ?? []), ...(p.lendingRates ?? [])].flatMap((r: any) => r.tiers ?? []);

describe('normalizer on the real product fixtures', () => {
  it.each(fixtureFiles('products-real'))('%s normalizes to a valid 2.0.0 form', (file) => {
    const out = normalizePayload(loadFixture('products-real', file));
    const d = out.data as any;
    const records = d.data.products ?? [d.data];
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      const parsed = ProductDetail.safeParse(r);
      expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
    }
    // The envelope is kept.
    expect(Object.keys(d)).toEqual(Object.keys(loadFixture('products-real', file) as object));
  });

  it('amp_tier_DOLLAR_sentinel_max: the 999999999999.99 maximum is read as "no upper bound", noted', () => {
    const { p, notes } = product('amp_tier_DOLLAR_sentinel_max');
    const tier = tiers(p).find((t: any) => t.minimumValueString === '5000000.01');
    expect(tier).toBeDefined();
    expect(tier).not.toHaveProperty('maximumValueString');
    expect(notes.find((n) => n.action.includes('removed maximum 999999999999.99'))).toMatchObject({
      kind: 'guessed',
      original: 999999999999.99,
    });
  });

  it('anz_fee_VARIABLE_no_amount_and_empty_conditions: VARIABLE → OTHER + variable {}, empty conditions omitted', () => {
    const { p, notes } = product('anz_fee_VARIABLE_no_amount');
    const [f] = fee(p, 'Enforcement expenses');
    expect(f).toMatchObject({ feeType: 'OTHER', feeMethodUType: 'variable', variable: {} });
    expect(f.additionalInfo).toBeTruthy();
    const i = p.fees.indexOf(f);
    expect(notesAt(notes, `data.fees[${i}].feeType`)[0]).toMatchObject({
      kind: 'lossy',
      action: 'feeType VARIABLE → OTHER',
      original: 'VARIABLE',
    });
    // No "guessed variable" note: for an old VARIABLE fee, no amount is the documented meaning.
    expect(notesAt(notes, `data.fees[${i}].feeMethodUType`)).toEqual([]);
    const lvr = tiers(p).filter((t: any) => t.unitOfMeasure === 'PERCENT');
    expect(lvr.length).toBeGreaterThan(0);
    for (const t of lvr) expect(t).not.toHaveProperty('applicabilityConditionList');
  });

  it('anz_fee_amount_plus_transactionRate: the zero rate is dropped, the $600 kept, the text still says "plus a %"', () => {
    const { p, notes } = product('anz_fee_amount_plus_transactionRate');
    const fees = fee(p, 'Locked Rate Fee');
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ feeMethodUType: 'fixedAmount', fixedAmount: { amount: '600.00' } });
    expect(fees[0].additionalInfo).toMatch(/plus a %/);
    expect(notes.find((n) => n.path === `data.fees[${p.fees.indexOf(fees[0])}]` && n.kind === 'lossy')).toMatchObject({
      original: { transactionRate: '0.00' },
    });
  });

  it('cba_homeloan_lvr_tiers: whole-percentage LVR bounds kept as written and flagged; the condition object becomes OTHER', () => {
    const { p, notes } = product('cba_homeloan_lvr_tiers');
    const lvr = tiers(p).filter((t: any) => t.unitOfMeasure === 'PERCENT');
    expect(lvr.map((t: any) => t.minimumValueString)).toContain('60.01');
    expect(notes.some((n) => n.kind === 'ambiguous' && n.action === 'PERCENT bounds kept as written')).toBe(true);
    const withCondition = lvr.find((t: any) => t.applicabilityConditionList);
    expect(withCondition.applicabilityConditionList).toHaveLength(1);
    expect(withCondition.applicabilityConditionList[0]).toMatchObject({ rateApplicabilityType: 'OTHER' });
    expect(withCondition.applicabilityConditionList[0].additionalInfo).toBeTruthy();
    expect(withCondition.applicabilityConditionList[0].additionalInfoUri).toMatch(/^https:/);
  });

  it('cba_product_list: a product list normalizes record by record (77 products)', () => {
    const out = normalizePayload(loadFixture('products-real', 'cba_product_list'));
    expect(out.records).toHaveLength(77);
    expect(out.records.every((r) => r.kind === 'product')).toBe(true);
    expect(out.notes.every((n) => n.path.startsWith('data.products['))).toBe(true);
  });

  it('cba_term_deposit_tiers: 598 tiers, every bound a string, MONTH and DOLLAR tiers kept', () => {
    const { p } = product('cba_term_deposit_tiers');
    const all = tiers(p);
    expect(all).toHaveLength(598);
    expect(all.every((t: any) => typeof t.minimumValueString === 'string')).toBe(true);
    expect(all.filter((t: any) => t.unitOfMeasure === 'MONTH')).toHaveLength(289);
    expect(all.find((t: any) => t.unitOfMeasure === 'DOLLAR' && t.minimumValueString === '1')?.maximumValueString).toBe('4999.99');
  });

  it('cusa_fee_amount_balanceRate_transactionRate_zeros: zero padding dropped, noted with the original', () => {
    const { p, notes } = product('cusa_fee_amount_balanceRate_transactionRate_zeros');
    const [f] = fee(p, 'Application fee');
    expect(f).toMatchObject({ feeMethodUType: 'fixedAmount', fixedAmount: { amount: '600.00' } });
    expect(f).not.toHaveProperty('balanceRate');
    expect(notesAt(notes, `data.fees[${p.fees.indexOf(f)}]`)[0]).toMatchObject({
      kind: 'lossy',
      original: { balanceRate: '0.0', transactionRate: '0.0' },
    });
  });

  it('cusa_fee_balanceRate_transactionRate_TS0: the non-zero rate wins; the invalid accrualFrequency is kept and flagged', () => {
    const { p, notes } = product('cusa_fee_balanceRate_transactionRate_TS0');
    const [f] = fee(p, 'Currency Conversion');
    expect(f).toMatchObject({ feeMethodUType: 'rateBased', rateBased: { rateType: 'TRANSACTION', rate: '0.03', accrualFrequency: 'TS0' } });
    expect(notes.find((n) => n.kind === 'invalid' && n.action.includes('TS0'))).toBeDefined();
  });

  it('deposit_BONUS_rate: the bonus rate and its criteria survive; applicationType comes from applicationFrequency', () => {
    const { p, notes } = product('deposit_BONUS_rate');
    const bonus = p.depositRates.find((r: any) => r.depositRateType === 'BONUS');
    expect(bonus).toMatchObject({ rate: '0.033', applicationType: 'PERIODIC' });
    expect(bonus.additionalValue).toBeTruthy();
    expect(notes.find((n) => n.path.endsWith('.applicationType'))?.reason).toMatch(/applicationFrequency/);
  });

  it('discount_FEE_CAP: kept as a discount, not turned into fee.feeCap', () => {
    const { p, notes } = product('discount_FEE_CAP');
    const [annual] = fee(p, 'Annual fee');
    expect(annual).not.toHaveProperty('feeCap');
    expect(annual.discounts[0]).toMatchObject({
      discountType: 'FEE_CAP',
      discountMethodUType: 'fixedAmount',
      fixedAmount: { amount: '64.0000' },
      additionalValue: 'P1Y',
    });
    expect(notes.find((n) => n.action.includes('FEE_CAP'))).toMatchObject({ kind: 'ambiguous' });
  });

  it('discount_all_five_rate_fields: the amount is kept, the four zero rates dropped', () => {
    const { p, notes } = product('discount_all_five_rate_fields');
    const [f] = fee(p, 'Monthly Account Fee');
    for (const d of f.discounts) expect(d).toMatchObject({ discountMethodUType: 'fixedAmount', fixedAmount: { amount: '10.0000' } });
    expect(notes.filter((n) => n.path.includes('.discounts[') && n.kind === 'lossy')[0]?.original).toEqual({
      feeRate: '0.0',
      balanceRate: '0.0',
      transactionRate: '0.0',
      accruedRate: '0.0',
    });
  });

  it('discount_amount_BALANCE: an amount discount with its eligibility list', () => {
    const { p } = product('discount_amount_BALANCE');
    const d = p.fees.flatMap((f: any) => f.discounts ?? []).find((x: any) => x.discountType === 'BALANCE');
    expect(d).toMatchObject({ discountMethodUType: 'fixedAmount', fixedAmount: { amount: '3.50' } });
    expect(d.eligibility.map((e: any) => e.discountEligibilityType)).toEqual(expect.arrayContaining(['MAX_AGE', 'INTRODUCTORY', 'OTHER']));
  });

  it('discount_feeRate_with_eligibility: a feeRate of 1.0 is a full waiver (rateBased FEE)', () => {
    const { p } = product('discount_feeRate_with_eligibility');
    const d = p.fees.flatMap((f: any) => f.discounts ?? []).find((x: any) => x.discountType === 'ELIGIBILITY_ONLY');
    expect(d).toMatchObject({ discountMethodUType: 'rateBased', rateBased: { rateType: 'FEE', rate: '1.0' } });
  });

  it('feeType_VARIABLE_trailing_space: "VARIABLE " is trimmed (flagged), then mapped like VARIABLE', () => {
    const { p, notes } = product('feeType_VARIABLE_trailing_space');
    const [f] = fee(p, 'Application fee');
    expect(f).toMatchObject({ feeType: 'OTHER', feeMethodUType: 'variable' });
    const at = `data.fees[${p.fees.indexOf(f)}].feeType`;
    expect(notesAt(notes, at).map((n) => n.kind)).toEqual(['invalid', 'lossy']);
  });

  it('fee_VARIABLE_with_transactionRate: the rate is kept through rateBased, the type becomes OTHER', () => {
    const { p } = product('fee_VARIABLE_with_transactionRate');
    const [f] = fee(p, 'Rate Lock Fee');
    expect(f).toMatchObject({ feeType: 'OTHER', feeMethodUType: 'rateBased', rateBased: { rateType: 'TRANSACTION', rate: '0.001' } });
  });

  it('fee_accruedRate_only: INTEREST_ACCRUED with its accrualFrequency', () => {
    const { p } = product('fee_accruedRate_only');
    const [f] = fee(p, 'Overdue interest (Default / Penalty Interest)');
    expect(f).toMatchObject({
      feeMethodUType: 'rateBased',
      rateBased: { rateType: 'INTEREST_ACCRUED', rate: '0.00', accrualFrequency: 'P1Y' },
    });
  });

  it('fee_balanceRate_with_accrualFrequency: BALANCE with its accrualFrequency, nothing lost', () => {
    const { p, notes } = product('fee_balanceRate_with_accrualFrequency');
    const [f] = fee(p, 'Overdrawn Account Interest');
    expect(f).toMatchObject({ feeMethodUType: 'rateBased', rateBased: { rateType: 'BALANCE', rate: '0.1395', accrualFrequency: 'P1M' } });
    expect(notesAt(notes, `data.fees[${p.fees.indexOf(f)}]`)).toEqual([]);
  });

  it('fee_extension_x-pc-feeId: extension keys pass through untouched', () => {
    const { p } = product('fee_extension_x-pc-feeId');
    const withId = p.fees.filter((f: any) => 'x-pc-feeId' in f);
    expect(withId).toHaveLength(6);
    expect(withId[0]['x-pc-feeId']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('fee_no_amount_not_variable: a fee with no method is read as variable, and the guess is noted', () => {
    const { p, notes } = product('fee_no_amount_not_variable');
    const [f] = fee(p, 'NON-RESIDENT_WITHHOLDING_TAX');
    expect(f).toMatchObject({ feeType: 'EVENT', feeMethodUType: 'variable', variable: {} });
    expect(notesAt(notes, `data.fees[${p.fees.indexOf(f)}].feeMethodUType`)[0]).toMatchObject({ kind: 'guessed' });
  });

  it('fee_typo_additionaInfo: the misspelt key is read as additionalInfo, flagged', () => {
    const { p, notes } = product('fee_typo_additionaInfo');
    const typo = p.fees.filter((f: any) => ['ATM', 'Establishment Fee', 'Facility Fee'].includes(f.name));
    expect(typo).toHaveLength(3);
    for (const f of typo) {
      expect(f).not.toHaveProperty('additionaInfo');
      expect(f.additionalInfo).toBeTruthy();
    }
    expect(notes.filter((n) => n.action.includes('additionaInfo'))).toHaveLength(3);
  });

  it('gateway_fee_amount0_plus_balanceRate: the zero amount is dropped, the balance rate kept', () => {
    const { p } = product('gateway_fee_amount0_plus_balanceRate');
    const [f] = fee(p, 'Rate Lock Fee');
    expect(f).toMatchObject({ feeMethodUType: 'rateBased', rateBased: { rateType: 'BALANCE', rate: '0.0015' } });
  });

  it('lending_INTRODUCTORY_rate: introductory rate, its period, and UNCONSTRAINED for absent repayment type and purpose', () => {
    const { p } = product('lending_INTRODUCTORY_rate');
    const intro = p.lendingRates.find((r: any) => r.lendingRateType === 'INTRODUCTORY');
    expect(intro).toMatchObject({ rate: '0.0099', additionalValue: 'P28M' });
    for (const r of p.lendingRates) {
      expect(typeof r.repaymentType).toBe('string');
      expect(typeof r.loanPurpose).toBe('string');
      expect(typeof r.applicationType).toBe('string');
    }
  });

  it('qudos_fee_amount0_plus_accruedRate: the zero amount is dropped, the accrued-interest rate kept', () => {
    const { p } = product('qudos_fee_amount0_plus_accruedRate');
    const [f] = fee(p, 'Early Withdrawal Fee (FTD)');
    expect(f).toMatchObject({ feeMethodUType: 'rateBased', rateBased: { rateType: 'INTEREST_ACCRUED', rate: '0.02' } });
  });

  it('tier_DOLLAR_PER_TIER: numeric bounds become strings; the top tier has no maximum', () => {
    const { p } = product('tier_DOLLAR_PER_TIER');
    const perTier = tiers(p).filter((t: any) => t.rateApplicationMethod === 'PER_TIER');
    expect(perTier.map((t: any) => [t.minimumValueString, t.maximumValueString])).toEqual(
      expect.arrayContaining([
        ['0', '9999'],
        ['10000', '49999'],
        ['50000', '249999'],
        ['250000', undefined],
      ]),
    );
  });

  it('tier_PERCENT_mixed_scale: 0.1 and 95 kept as written, and the mixed scale flagged', () => {
    const { p, notes } = product('tier_PERCENT_mixed_scale');
    const mixed = tiers(p).find((t: any) => t.minimumValueString === '0.1' && t.maximumValueString === '95');
    expect(mixed).toBeDefined();
    expect(notes.some((n) => n.kind === 'ambiguous' && /mix scales/.test(n.reason))).toBe(true);
  });

  it('tier_applicabilityConditions_object: a condition object with text becomes one OTHER condition, unflagged', () => {
    const { p, notes } = product('tier_applicabilityConditions_object');
    const bonus = tiers(p).find((t: any) => /Bonus/.test(t.name));
    expect(bonus.applicabilityConditionList).toEqual([
      expect.objectContaining({ rateApplicabilityType: 'OTHER', additionalInfo: expect.stringMatching(/.{40,}/) }),
    ]);
    expect(notes.filter((n) => n.path.includes('applicabilityConditionList'))).toEqual([]);
  });

  it('tier_minimumValue_null: the missing minimum is read as "0", each noted as a guess', () => {
    const { p, notes } = product('tier_minimumValue_null');
    const lowest = tiers(p).filter((t: any) => t.name === 'Amount' && t.maximumValueString === '9999');
    expect(lowest).toHaveLength(6);
    for (const t of lowest) expect(t.minimumValueString).toBe('0');
    // The other 18 tiers had real minimums, kept as written.
    expect(tiers(p).filter((t: any) => t.minimumValueString === '10000')).toHaveLength(6);
    expect(notes.filter((n) => n.path.endsWith('minimumValueString') && n.kind === 'guessed')).toHaveLength(6);
  });

  it('tier_unitOfMeasure_Dollar_lowercase: "Dollar" → DOLLAR (flagged); a maximum below the minimum is removed (flagged)', () => {
    const { p, notes } = product('tier_unitOfMeasure_Dollar_lowercase');
    const all = tiers(p);
    expect(all.every((t: any) => t.unitOfMeasure === 'DOLLAR')).toBe(true);
    expect(notes.find((n) => n.action === 'unitOfMeasure "Dollar" read as "DOLLAR"')).toMatchObject({
      kind: 'invalid',
      original: 'Dollar',
    });
    const upper = all.find((t: any) => t.minimumValueString === '1000');
    expect(upper).not.toHaveProperty('maximumValueString');
    expect(notes.find((n) => n.action.includes('below the minimum'))).toMatchObject({ kind: 'ambiguous', original: 0 });
  });

  it('westpac_credit_card: card art keeps its image; scheme and type are noted guesses', () => {
    const { p, notes } = product('westpac_credit_card');
    expect(p.cardArt[0]).toMatchObject({ cardScheme: 'OTHER', cardType: 'CREDIT', imageUri: expect.stringMatching(/^https:/) });
    expect(notes.filter((n) => n.path.startsWith('data.cardArt[0]')).map((n) => n.kind)).toEqual(['guessed', 'guessed']);
  });
});

describe('normalizer on the synthetic fixtures (mock-data-holder-java)', () => {
  it.each(fixtureFiles('products-synthetic'))('%s (a bare product) normalizes to a valid 2.0.0 form', (file) => {
    const out = normalizePayload(loadFixture('products-synthetic', file));
    expect(ProductDetail.safeParse(out.data).success).toBe(true);
    expect(out.records[0]).toMatchObject({ path: '', kind: 'product', shape: 'cds-legacy' });
  });

  it('splits a fee with an amount and a rate into two fees of the same name', () => {
    const out = normalizePayload(loadFixture('products-synthetic', 'mock-data-holder-java_product1')) as {
      data: any;
      notes: NormalizationNote[];
    };
    const cash = out.data.fees.filter((f: any) => f.name === 'Cash Advance Fee');
    expect(cash).toEqual([
      expect.objectContaining({ feeMethodUType: 'fixedAmount', fixedAmount: { amount: '2.50' } }),
      expect.objectContaining({ feeMethodUType: 'rateBased', rateBased: { rateType: 'TRANSACTION', rate: '0.02' } }),
    ]);
    expect(out.notes.find((n) => n.action.startsWith('split into 2 fees'))).toMatchObject({ kind: 'lossy' });
  });

  it('keeps a PERIODIC fee period, and a DEPOSITS discount with its threshold', () => {
    const out = normalizePayload(loadFixture('products-synthetic', 'mock-data-holder-java_product2')) as { data: any };
    const periodic = out.data.fees.find((f: any) => f.feeType === 'PERIODIC');
    expect(periodic).toMatchObject({ feeMethodUType: 'fixedAmount', fixedAmount: { amount: '6.00' }, additionalValue: 'P1M' });
    expect(periodic.discounts[0]).toMatchObject({
      discountType: 'DEPOSITS',
      discountMethodUType: 'fixedAmount',
      fixedAmount: { amount: '6.00' },
      additionalValue: '500.00',
    });
  });
});
