import * as z from 'zod';

/**
 * The normalised banking product form (the spec's Data API 2.0.0 names) that the normalizer
 * produces and the UI reads. Strict where 2.0.0 is: exactly one method object per fee and
 * discount, string tier bounds, condition lists, no old-shape fields. Loose elsewhere: enum
 * values are strings (unknown ones are flagged in notes, not rejected) and extension keys pass.
 */
const text = z.string();
const absent = z.never({ error: 'an old-shape field; 2.0.0 has no such field here' }).optional();

export const RateCondition = z.looseObject({
  rateApplicabilityType: text,
  additionalValue: text.nullish(),
  additionalInfo: text.nullish(),
  additionalInfoUri: text.nullish(),
});

export const RateTier = z.looseObject({
  name: text,
  unitOfMeasure: text,
  minimumValueString: text,
  maximumValueString: text.optional(),
  rateApplicationMethod: text.nullish(),
  applicabilityConditionList: z.array(RateCondition).optional(),
  additionalInfo: text.nullish(),
  additionalInfoUri: text.nullish(),
  minimumValue: absent,
  maximumValue: absent,
  applicabilityConditions: absent,
});

const Range = z.looseObject({ feeMinimum: text.nullish(), feeMaximum: text.nullish() });

/** Exactly one of the method objects, and it is the one the discriminator names. */
function oneMethod(methods: readonly string[], discriminator: string) {
  return (value: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    const present = methods.filter((m) => value[m] !== undefined);
    const chosen = value[discriminator];
    if (typeof chosen === 'string' && methods.includes(chosen) && (present.length !== 1 || present[0] !== chosen)) {
      ctx.addIssue({
        code: 'custom',
        path: [discriminator],
        message: `${discriminator} is ${chosen} but the method objects present are [${present.join(', ')}]`,
      });
    }
  };
}

export const Discount = z
  .looseObject({
    description: text,
    discountType: text,
    discountMethodUType: text,
    fixedAmount: z.looseObject({ amount: text }).optional(),
    rateBased: z.looseObject({ rateType: text, rate: text, amountRange: z.looseObject({}).nullish() }).optional(),
    additionalValue: text.nullish(),
    additionalInfo: text.nullish(),
    additionalInfoUri: text.nullish(),
    eligibility: z.array(z.looseObject({ discountEligibilityType: text })).nullish(),
    amount: absent,
    balanceRate: absent,
    transactionRate: absent,
    accruedRate: absent,
    feeRate: absent,
  })
  .superRefine(oneMethod(['fixedAmount', 'rateBased'], 'discountMethodUType'));

export const Fee = z
  .looseObject({
    name: text,
    feeType: text,
    feeMethodUType: text,
    fixedAmount: z.looseObject({ amount: text }).optional(),
    rateBased: z.looseObject({ rateType: text, rate: text, accrualFrequency: text.nullish(), amountRange: Range.nullish() }).optional(),
    variable: Range.optional(),
    feeCap: text.nullish(),
    feeCapPeriod: text.nullish(),
    currency: text.nullish(),
    additionalValue: text.nullish(),
    additionalInfo: text.nullish(),
    additionalInfoUri: text.nullish(),
    discounts: z.array(Discount).nullish(),
    amount: absent,
    balanceRate: absent,
    transactionRate: absent,
    accruedRate: absent,
    accrualFrequency: absent,
  })
  .superRefine(oneMethod(['fixedAmount', 'rateBased', 'variable'], 'feeMethodUType'));

const rateCommon = {
  rate: text,
  applicationType: text,
  calculationFrequency: text.nullish(),
  applicationFrequency: text.nullish(),
  tiers: z.array(RateTier).nullish(),
  applicabilityConditionList: z.array(RateCondition).optional(),
  additionalValue: text.nullish(),
  additionalInfo: text.nullish(),
  additionalInfoUri: text.nullish(),
  applicabilityConditions: absent,
};

export const DepositRate = z.looseObject({ depositRateType: text, ...rateCommon });
export const LendingRate = z.looseObject({
  lendingRateType: text,
  comparisonRate: text.nullish(),
  interestPaymentDue: text.nullish(),
  repaymentType: text,
  loanPurpose: text,
  ...rateCommon,
});

export const Instalments = z.looseObject({
  maximumConcurrentPlans: z.number().int().nullish(),
  instalmentsLimit: text.nullish(),
  minimumPlanValue: text.nullish(),
  maximumPlanValue: text.nullish(),
  minimumSplit: z.number().int().positive(),
  maximumSplit: z.number().int().positive(),
});

const CardArt = z.looseObject({ cardScheme: text, cardType: text, title: text.nullish(), imageUri: text });

const detailParts = {
  fees: z.array(Fee).nullish(),
  depositRates: z.array(DepositRate).nullish(),
  lendingRates: z.array(LendingRate).nullish(),
  instalments: Instalments.nullish(),
};

export const ProductDetail = z.looseObject({
  productId: text,
  lastUpdated: text.nullish(),
  productCategory: text.nullish(),
  name: text.nullish(),
  brand: text.nullish(),
  cardArt: z.array(CardArt).nullish(),
  ...detailParts,
});

export const AccountDetail = z.looseObject({
  accountId: text,
  features: z.array(z.looseObject({ isActivated: text.optional() })).nullish(),
  ...detailParts,
});

export type Fee = z.infer<typeof Fee>;
export type Discount = z.infer<typeof Discount>;
export type RateTier = z.infer<typeof RateTier>;
export type ProductDetail = z.infer<typeof ProductDetail>;
export type AccountDetail = z.infer<typeof AccountDetail>;
