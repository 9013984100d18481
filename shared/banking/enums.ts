/**
 * The enum values of the Data API 2.0.0 banking product form (CDS 1.36.0 names), used to flag
 * values we do not know. Unknown values are kept as sent; DESIGN.md: never rejected.
 */
export const FEE_TYPES = [
  'CASH_ADVANCE',
  'DEPOSIT',
  'DISHONOUR',
  'ENQUIRY',
  'EVENT',
  'EXIT',
  'LATE_PAYMENT',
  'OTHER',
  'PAYMENT',
  'PERIODIC',
  'PURCHASE',
  'REPLACEMENT',
  'TRANSACTION',
  'UPFRONT',
  'UPFRONT_PER_PLAN',
  'VARIATION',
  'WITHDRAWAL',
] as const;
export const FEE_METHODS = ['fixedAmount', 'rateBased', 'variable'] as const;
export const DISCOUNT_METHODS = ['fixedAmount', 'rateBased'] as const;
export const FEE_RATE_TYPES = ['BALANCE', 'INTEREST_ACCRUED', 'TRANSACTION'] as const;
export const DISCOUNT_RATE_TYPES = ['BALANCE', 'FEE', 'INTEREST_ACCRUED', 'TRANSACTION'] as const;
export const DISCOUNT_TYPES = ['BALANCE', 'DEPOSITS', 'ELIGIBILITY_ONLY', 'FEE_CAP', 'PAYMENTS'] as const;
export const UNITS_OF_MEASURE = ['DAY', 'DOLLAR', 'MONTH', 'PERCENT'] as const;
export const RATE_APPLICATION_METHODS = ['PER_TIER', 'WHOLE_BALANCE'] as const;
export const RATE_APPLICABILITY_TYPES = [
  'MIN_DEPOSITS',
  'MIN_DEPOSIT_AMOUNT',
  'DEPOSIT_BALANCE_INCREASED',
  'EXISTING_CUST',
  'NEW_ACCOUNTS',
  'NEW_CUSTOMER',
  'NEW_CUSTOMER_TO_GROUP',
  'ONLINE_ONLY',
  'OTHER',
  'MIN_PURCHASES',
  'MAX_WITHDRAWALS',
  'MAX_WITHDRAWAL_AMOUNT',
] as const;
export const DEPOSIT_RATE_TYPES = ['BONUS', 'BUNDLE_BONUS', 'FIXED', 'FLOATING', 'INTRODUCTORY', 'MARKET_LINKED', 'VARIABLE'] as const;
export const LENDING_RATE_TYPES = [
  'BALANCE_TRANSFER',
  'BUNDLE_DISCOUNT_FIXED',
  'BUNDLE_DISCOUNT_VARIABLE',
  'CASH_ADVANCE',
  'DISCOUNT',
  'FIXED',
  'FLOATING',
  'INTRODUCTORY',
  'MARKET_LINKED',
  'PENALTY',
  'PURCHASE',
  'VARIABLE',
] as const;
export const APPLICATION_TYPES = ['MATURITY', 'PERIODIC', 'UPFRONT'] as const;
export const REPAYMENT_TYPES = ['INTEREST_ONLY', 'OTHER', 'PRINCIPAL_AND_INTEREST', 'UNCONSTRAINED'] as const;
export const LOAN_PURPOSES = ['INVESTMENT', 'OTHER', 'OWNER_OCCUPIED', 'UNCONSTRAINED'] as const;
export const INTEREST_PAYMENT_DUE = ['IN_ADVANCE', 'IN_ARREARS'] as const;
export const CARD_SCHEMES = ['AMEX', 'EFTPOS', 'MASTERCARD', 'VISA', 'OTHER'] as const;
export const CARD_TYPES = ['CHARGE', 'CREDIT', 'DEBIT'] as const;
export const FEATURE_ACTIVATION = ['ACTIVATED', 'NOT_ACTIVATED', 'UNKNOWN'] as const;

/** Method discriminators are read case-insensitively (FIXED_AMOUNT = fixedAmount) and written camelCase. */
export function methodFromAnyCase<T extends string>(value: string, known: readonly T[]): T | undefined {
  const squashed = value.replace(/[_\s-]/g, '').toLowerCase();
  return known.find((k) => k.toLowerCase() === squashed);
}
