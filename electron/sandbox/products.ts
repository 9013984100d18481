import { hashString, Rng } from './random.js';
import type { SandboxDataHolder } from './reference-data.js';

/* A product is loose JSON here: the shapes are exactly what the Data API serves. */
type Json = Record<string, unknown>;

/**
 * The banking product catalogue, in the Data API 2.0.0 form: per data holder a transaction
 * account, a bonus saver, a term deposit, a home loan, a credit card with instalments and a
 * personal loan. Between them they use every fee method (fixedAmount, rateBased, variable with
 * bounds), both discount methods, fee caps, tiers in DOLLAR, MONTH and PERCENT with numeric and
 * non-numeric bounds, condition lists, and instalments. Rates vary by holder, from the seed.
 */
const K_PRODUCT = hashString('product');
const rate = (r: Rng, base: number, spread: number) => (base + r.float() * spread).toFixed(4);

export function productCatalogue(seed: number, holder: SandboxDataHolder, holderIndex: number): Json[] {
  if (holder.industry !== 'banking') return [];
  const r = new Rng(seed, K_PRODUCT, holderIndex);
  const slug = holder.brandName
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase()
    .slice(0, 6);
  const base = (id: string, category: string, name: string, description: string): Json => ({
    productId: `${slug}-${id}`,
    effectiveFrom: '2025-07-01T00:00:00.000Z',
    lastUpdated: '2026-10-01T00:00:00.000Z',
    productCategory: category,
    name,
    description,
    brand: holder.brandName,
    brandName: holder.brandName,
    dataHolderId: holder.dataHolderBrandId,
    dataHolderBrandName: holder.brandName,
    applicationUri: `https://www.${slug.toLowerCase()}.example/apply/${id}`,
    isTailored: false,
    additionalInformation: {
      overviewUri: `https://www.${slug.toLowerCase()}.example/${id}`,
      feesAndPricingUri: `https://www.${slug.toLowerCase()}.example/${id}/fees`,
    },
  });
  const monthly = r.pick(['4.00', '5.00', '6.00']);
  return [
    {
      ...base('EVERYDAY', 'TRANS_AND_SAVINGS_ACCOUNTS', 'Everyday Account', 'A transaction account with a debit card.'),
      features: [
        { featureType: 'CARD_ACCESS' },
        { featureType: 'NPP_PAYID' },
        { featureType: 'DIGITAL_WALLET', additionalValue: 'Apple Pay, Google Pay' },
      ],
      fees: [
        {
          name: 'Monthly account fee',
          feeType: 'PERIODIC',
          feeMethodUType: 'fixedAmount',
          fixedAmount: { amount: monthly },
          additionalValue: 'P1M',
          currency: 'AUD',
          discounts: [
            {
              description: 'Waived when you deposit $2,000 or more in the month',
              discountType: 'DEPOSITS',
              discountMethodUType: 'fixedAmount',
              fixedAmount: { amount: monthly },
              additionalValue: '2000.00',
            },
            {
              description: 'Waived for customers under 25',
              discountType: 'ELIGIBILITY_ONLY',
              discountMethodUType: 'rateBased',
              rateBased: { rateType: 'FEE', rate: '1.00' },
              eligibility: [{ discountEligibilityType: 'MAX_AGE', additionalValue: '25' }],
            },
          ],
        },
        { name: 'Overseas ATM withdrawal', feeType: 'WITHDRAWAL', feeMethodUType: 'fixedAmount', fixedAmount: { amount: '5.00' } },
        {
          name: 'International transaction fee',
          feeType: 'TRANSACTION',
          feeMethodUType: 'rateBased',
          rateBased: { rateType: 'TRANSACTION', rate: '0.0300', amountRange: { feeMinimum: '0.50' } },
        },
        {
          name: 'Dishonour fee',
          feeType: 'DISHONOUR',
          feeMethodUType: 'variable',
          variable: { feeMinimum: '5.00', feeMaximum: '15.00' },
          additionalInfo: 'Depends on the payment returned',
        },
      ],
      depositRates: [
        {
          depositRateType: 'VARIABLE',
          rate: '0.0001',
          applicationType: 'PERIODIC',
          calculationFrequency: 'P1D',
          applicationFrequency: 'P1M',
        },
      ],
    },
    {
      ...base('SAVER', 'TRANS_AND_SAVINGS_ACCOUNTS', 'Bonus Saver', 'A savings account that pays a bonus when the balance grows.'),
      fees: [],
      depositRates: [
        {
          depositRateType: 'VARIABLE',
          rate: rate(r, 0.005, 0.01),
          applicationType: 'PERIODIC',
          calculationFrequency: 'P1D',
          applicationFrequency: 'P1M',
          tiers: [
            {
              name: 'Up to $250,000',
              unitOfMeasure: 'DOLLAR',
              minimumValueString: '0.00',
              maximumValueString: '250000.00',
              rateApplicationMethod: 'PER_TIER',
            },
            { name: 'Above $250,000', unitOfMeasure: 'DOLLAR', minimumValueString: '250000.01', rateApplicationMethod: 'PER_TIER' },
          ],
        },
        {
          depositRateType: 'BONUS',
          rate: rate(r, 0.03, 0.015),
          applicationType: 'PERIODIC',
          applicationFrequency: 'P1M',
          additionalValue: 'Grow your balance each month and make no withdrawals',
          applicabilityConditionList: [
            { rateApplicabilityType: 'DEPOSIT_BALANCE_INCREASED', additionalValue: '0.01' },
            { rateApplicabilityType: 'MAX_WITHDRAWALS', additionalValue: '0' },
          ],
          tiers: [
            {
              name: 'Bonus on balances to $100,000',
              unitOfMeasure: 'DOLLAR',
              minimumValueString: '0.00',
              maximumValueString: '100000.00',
              rateApplicationMethod: 'WHOLE_BALANCE',
              applicabilityConditionList: [
                { rateApplicabilityType: 'OTHER', additionalInfo: 'Balance must be higher on the last day of the month than on the first' },
              ],
            },
          ],
        },
      ],
    },
    {
      ...base('TD', 'TERM_DEPOSITS', 'Term Deposit', 'A fixed rate for a fixed term; interest paid at maturity.'),
      fees: [
        {
          name: 'Early withdrawal',
          feeType: 'EXIT',
          feeMethodUType: 'rateBased',
          rateBased: { rateType: 'INTEREST_ACCRUED', rate: '0.3000' },
          additionalInfo: 'A reduction of the interest accrued',
        },
      ],
      depositRates: [3, 6, 12, 24].map((months) => ({
        depositRateType: 'FIXED',
        rate: rate(r, 0.035 + months / 1000, 0.005),
        applicationType: 'MATURITY',
        additionalValue: `P${months}M`,
        tiers: [
          { name: `${months} months`, unitOfMeasure: 'MONTH', minimumValueString: String(months), maximumValueString: String(months) },
          {
            name: 'Minimum deposit',
            unitOfMeasure: 'DOLLAR',
            minimumValueString: '5000.00',
            maximumValueString: 'Contact us for deposits over $2 million',
          },
        ],
      })),
    },
    {
      ...base('HOMELOAN', 'RESIDENTIAL_MORTGAGES', 'Home Loan', 'Variable and fixed rate home loans for owner occupiers and investors.'),
      features: [{ featureType: 'OFFSET' }, { featureType: 'REDRAW' }, { featureType: 'EXTRA_REPAYMENTS' }],
      fees: [
        {
          name: 'Establishment fee',
          feeType: 'UPFRONT',
          feeMethodUType: 'fixedAmount',
          fixedAmount: { amount: r.pick(['0.00', '395.00', '600.00']) },
        },
        {
          name: 'Package fee',
          feeType: 'PERIODIC',
          feeMethodUType: 'fixedAmount',
          fixedAmount: { amount: '395.00' },
          additionalValue: 'P1Y',
          discounts: [
            {
              description: 'Half price in the first year',
              discountType: 'FEE_CAP',
              discountMethodUType: 'rateBased',
              rateBased: { rateType: 'FEE', rate: '0.50' },
              additionalValue: 'P1Y',
            },
          ],
        },
        {
          name: 'Rate lock',
          feeType: 'EVENT',
          feeMethodUType: 'rateBased',
          rateBased: { rateType: 'BALANCE', rate: '0.0015', amountRange: { feeMinimum: '750.00' } },
        },
        { name: 'Valuation', feeType: 'OTHER', feeMethodUType: 'variable', variable: {}, additionalInfo: 'At cost, charged by the valuer' },
        {
          name: 'Late payment',
          feeType: 'LATE_PAYMENT',
          feeMethodUType: 'fixedAmount',
          fixedAmount: { amount: '20.00' },
          additionalValue: '14',
          feeCap: '60.00',
          feeCapPeriod: 'P1Y',
        },
      ],
      lendingRates: (['OWNER_OCCUPIED', 'INVESTMENT'] as const).flatMap((purpose) => [
        {
          lendingRateType: 'VARIABLE',
          rate: rate(r, purpose === 'INVESTMENT' ? 0.064 : 0.059, 0.006),
          comparisonRate: rate(r, 0.062, 0.006),
          applicationType: 'PERIODIC',
          calculationFrequency: 'P1D',
          applicationFrequency: 'P1M',
          interestPaymentDue: 'IN_ARREARS',
          repaymentType: 'PRINCIPAL_AND_INTEREST',
          loanPurpose: purpose,
          tiers: [
            {
              name: 'LVR up to 60%',
              unitOfMeasure: 'PERCENT',
              minimumValueString: '0.00',
              maximumValueString: '0.60',
              rateApplicationMethod: 'WHOLE_BALANCE',
            },
            {
              name: 'LVR 60% to 80%',
              unitOfMeasure: 'PERCENT',
              minimumValueString: '0.6001',
              maximumValueString: '0.80',
              rateApplicationMethod: 'WHOLE_BALANCE',
            },
            {
              name: 'LVR above 80%',
              unitOfMeasure: 'PERCENT',
              minimumValueString: '0.8001',
              maximumValueString: '0.95',
              rateApplicationMethod: 'WHOLE_BALANCE',
              applicabilityConditionList: [
                {
                  rateApplicabilityType: 'OTHER',
                  additionalInfo: 'Lenders mortgage insurance applies',
                  additionalInfoUri: `https://www.${slug.toLowerCase()}.example/lmi`,
                },
              ],
            },
          ],
        },
        {
          lendingRateType: 'FIXED',
          rate: rate(r, 0.055, 0.008),
          applicationType: 'PERIODIC',
          applicationFrequency: 'P1M',
          additionalValue: 'P3Y',
          repaymentType: 'INTEREST_ONLY',
          loanPurpose: purpose,
          applicabilityConditionList: [{ rateApplicabilityType: 'NEW_CUSTOMER' }],
        },
      ]),
    },
    {
      ...base('CARD', 'CRED_AND_CHRG_CARDS', 'Low Rate Card', 'A low rate credit card with instalment plans.'),
      cardArt: [
        {
          cardScheme: r.pick(['VISA', 'MASTERCARD']),
          cardType: 'CREDIT',
          title: 'Low Rate',
          imageUri: `https://www.${slug.toLowerCase()}.example/cards/low-rate.png`,
        },
      ],
      fees: [
        {
          name: 'Annual fee',
          feeType: 'PERIODIC',
          feeMethodUType: 'fixedAmount',
          fixedAmount: { amount: '59.00' },
          additionalValue: 'P1Y',
        },
        {
          name: 'Cash advance fee',
          feeType: 'CASH_ADVANCE',
          feeMethodUType: 'rateBased',
          rateBased: { rateType: 'TRANSACTION', rate: '0.0300', amountRange: { feeMinimum: '3.00' } },
        },
        { name: 'Late payment fee', feeType: 'LATE_PAYMENT', feeMethodUType: 'fixedAmount', fixedAmount: { amount: '25.00' } },
        {
          name: 'Instalment plan fee',
          feeType: 'UPFRONT_PER_PLAN',
          feeMethodUType: 'rateBased',
          rateBased: { rateType: 'BALANCE', rate: '0.0150' },
        },
      ],
      lendingRates: [
        {
          lendingRateType: 'PURCHASE',
          rate: rate(r, 0.1199, 0.02),
          applicationType: 'PERIODIC',
          applicationFrequency: 'P1M',
          repaymentType: 'UNCONSTRAINED',
          loanPurpose: 'UNCONSTRAINED',
        },
        {
          lendingRateType: 'CASH_ADVANCE',
          rate: rate(r, 0.2149, 0.01),
          applicationType: 'PERIODIC',
          applicationFrequency: 'P1M',
          repaymentType: 'UNCONSTRAINED',
          loanPurpose: 'UNCONSTRAINED',
        },
        {
          lendingRateType: 'BALANCE_TRANSFER',
          rate: '0.0000',
          applicationType: 'PERIODIC',
          applicationFrequency: 'P1M',
          additionalValue: 'P12M',
          repaymentType: 'UNCONSTRAINED',
          loanPurpose: 'UNCONSTRAINED',
        },
      ],
      instalments: {
        maximumConcurrentPlans: 3,
        instalmentsLimit: '5000.00',
        minimumPlanValue: '100.00',
        maximumPlanValue: '2000.00',
        minimumSplit: 3,
        maximumSplit: 12,
      },
    },
    {
      ...base('PERSLOAN', 'PERS_LOANS', 'Personal Loan', 'A fixed rate personal loan from $5,000.'),
      fees: [{ name: 'Establishment fee', feeType: 'UPFRONT', feeMethodUType: 'fixedAmount', fixedAmount: { amount: '250.00' } }],
      lendingRates: [
        {
          lendingRateType: 'FIXED',
          rate: rate(r, 0.079, 0.05),
          comparisonRate: rate(r, 0.089, 0.05),
          applicationType: 'PERIODIC',
          applicationFrequency: 'P1M',
          repaymentType: 'PRINCIPAL_AND_INTEREST',
          loanPurpose: 'OTHER',
          tiers: [{ name: 'Loan amount', unitOfMeasure: 'DOLLAR', minimumValueString: '5000.00', maximumValueString: '50000.00' }],
        },
      ],
      constraints: [
        { constraintType: 'MIN_LIMIT', additionalValue: '5000.00' },
        { constraintType: 'MAX_LIMIT', additionalValue: '50000.00' },
      ],
    },
  ];
}

/**
 * Data API 1.x shapes (CDS Product Detail V4), for `x-v: 1` requests and legacy data holders:
 * method fields on the fee, numeric tier bounds, one condition object, no applicationType,
 * no instalments, no rate-level conditions, card art without scheme and type.
 */
export function toLegacyShape(record: Json): Json {
  const out: Json = { ...record };
  delete out.instalments;
  if (Array.isArray(out.cardArt))
    out.cardArt = (out.cardArt as Json[]).map(({ title, imageUri }) => ({ ...(title ? { title } : {}), imageUri }));
  if (Array.isArray(out.fees)) out.fees = (out.fees as Json[]).map(legacyFee);
  for (const key of ['depositRates', 'lendingRates']) {
    if (Array.isArray(out[key])) out[key] = (out[key] as Json[]).map(legacyRate);
  }
  return out;
}

const RATE_FIELD: Record<string, string> = {
  BALANCE: 'balanceRate',
  TRANSACTION: 'transactionRate',
  INTEREST_ACCRUED: 'accruedRate',
  FEE: 'feeRate',
};

function legacyMethod(item: Json, method: string): Json {
  const {
    feeMethodUType: _f,
    discountMethodUType: _d,
    fixedAmount,
    rateBased,
    variable: _v,
    feeCap: _c,
    feeCapPeriod: _p,
    ...rest
  } = item as Json & { fixedAmount?: Json; rateBased?: Json };
  if (method === 'fixedAmount' && fixedAmount) return { ...rest, amount: fixedAmount.amount };
  if (method === 'rateBased' && rateBased) {
    const out: Json = { ...rest, [RATE_FIELD[String(rateBased.rateType)] ?? 'transactionRate']: rateBased.rate };
    if (rateBased.accrualFrequency) out.accrualFrequency = rateBased.accrualFrequency;
    return out;
  }
  return { ...rest, feeType: 'VARIABLE' };
}

function legacyFee(fee: Json): Json {
  const out = legacyMethod(fee, String(fee.feeMethodUType));
  if (
    !['DEPOSIT', 'EVENT', 'EXIT', 'PAYMENT', 'PERIODIC', 'PURCHASE', 'TRANSACTION', 'UPFRONT', 'VARIABLE', 'WITHDRAWAL'].includes(
      String(out.feeType),
    )
  )
    out.feeType = 'EVENT';
  if (Array.isArray(fee.discounts)) out.discounts = (fee.discounts as Json[]).map((d) => legacyMethod(d, String(d.discountMethodUType)));
  return out;
}

function legacyBound(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

function legacyRate(rate: Json): Json {
  const { applicationType: _a, applicabilityConditionList: _c, ...out } = rate as Json;
  if (out.repaymentType === 'UNCONSTRAINED' || out.repaymentType === 'OTHER') delete out.repaymentType;
  if (out.loanPurpose === 'UNCONSTRAINED' || out.loanPurpose === 'OTHER') delete out.loanPurpose;
  if (out.lendingRateType === 'BALANCE_TRANSFER') out.lendingRateType = 'INTRODUCTORY';
  if (Array.isArray(out.tiers)) {
    out.tiers = (out.tiers as Json[]).map((t) => {
      const { minimumValueString, maximumValueString, applicabilityConditionList, ...tier } = t as Json & {
        applicabilityConditionList?: Json[];
      };
      const first = applicabilityConditionList?.find((c) => c.additionalInfo || c.additionalInfoUri);
      return {
        ...tier,
        minimumValue: legacyBound(minimumValueString) ?? 0,
        ...(legacyBound(maximumValueString) !== null ? { maximumValue: legacyBound(maximumValueString) } : {}),
        ...(first
          ? {
              applicabilityConditions: {
                ...(first.additionalInfo ? { additionalInfo: first.additionalInfo } : {}),
                ...(first.additionalInfoUri ? { additionalInfoUri: first.additionalInfoUri } : {}),
              },
            }
          : {}),
      };
    });
  }
  return out;
}
