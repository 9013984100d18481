import type { Consent } from '../../shared/schemas/consent.js';
import { stableUuid } from './ids.js';

/** Data holders and use cases of the sandbox: fixed lists, identifiers derived from the seed. */

const HOLDER_BRANDS = [
  ['Commonwealth Bank', 'commbank'],
  ['ANZ', 'anz'],
  ['Westpac', 'westpac'],
  ['NAB', 'nab'],
  ['Macquarie Bank', 'macquarie'],
  ['ING', 'ing'],
  ['Bendigo Bank', 'bendigobank'],
  ['Bank of Queensland', 'boq'],
  ['Suncorp Bank', 'suncorp'],
  ['Great Southern Bank', 'greatsouthernbank'],
  ['AGL', 'agl'],
  ['Origin Energy', 'originenergy'],
  ['EnergyAustralia', 'energyaustralia'],
] as const;

export interface SandboxDataHolder {
  dataHolderBrandId: string;
  brandName: string;
  logoUri: string;
  industry: 'banking' | 'energy';
}

export function dataHolders(seed: number): SandboxDataHolder[] {
  return HOLDER_BRANDS.map(([brandName, slug], i) => ({
    dataHolderBrandId: stableUuid(seed, 'data-holder', i),
    brandName,
    logoUri: `https://sandbox.cdr-console.invalid/logos/${slug}.png`,
    industry: i >= 10 ? 'energy' : 'banking',
  }));
}

type UseCase = NonNullable<Consent['useCase']>;

const SCOPE_TEXT: Record<string, [string, string]> = {
  'bank:accounts.basic:read': ['Account name, type and balance', 'Name of account; Type of account; Account balance'],
  'bank:accounts.detail:read': [
    'Account numbers and features',
    'Account number; Interest rates; Fees; Discounts; Account terms; Account mail address',
  ],
  'bank:transactions:read': [
    'Transaction details',
    'Incoming and outgoing transactions; Amounts; Dates; Descriptions of transactions; Who you have sent money to and received money from',
  ],
  'bank:payees:read': ['Saved payees', 'Names and details of accounts you have saved'],
  'bank:regular_payments:read': ['Direct debits and scheduled payments', 'Direct debits; Scheduled payments'],
  'common:customer.basic:read': ['Name and occupation', 'Name; Occupation'],
  'energy:accounts.basic:read': ['Account and plan information', 'Account and plan information'],
  'energy:billing:read': [
    'Billing payments and history',
    'Account balance; Payment method; Payment status; Charges, discounts, credits; Billing date; Usage for billing period; Payment date; Invoice number',
  ],
  'energy:electricity.servicepoints.basic:read': [
    'Electricity connection',
    'National meter identifier; Customer type; Connection point details',
  ],
  'energy:electricity.usage:read': ['Energy usage information', 'Usage; Meter details'],
};

const USE_CASES: {
  key: string;
  name: string;
  description: string;
  accessFrequency: string;
  sharingDurations: string[];
  scopes: string[];
  industry: 'banking' | 'energy';
  /** historicalCollectionPeriodInDays: how far before its start a consent may collect. */
  historyDays: number;
}[] = [
  {
    key: 'budget',
    name: 'Budgeting insights',
    description: 'We use your transaction history to show where your money goes each month.',
    accessFrequency: 'ONGOING',
    sharingDurations: ['THREE_MONTHS', 'SIX_MONTHS', 'ONE_YEAR'],
    scopes: ['bank:accounts.basic:read', 'bank:accounts.detail:read', 'bank:transactions:read', 'common:customer.basic:read'],
    industry: 'banking',
    historyDays: 730,
  },
  {
    key: 'loan',
    name: 'Home loan application',
    description: 'We verify your income and expenses once to assess your home loan application.',
    accessFrequency: 'ONCE_OFF',
    sharingDurations: ['ONCE_OFF'],
    scopes: ['bank:accounts.basic:read', 'bank:transactions:read', 'common:customer.basic:read'],
    industry: 'banking',
    historyDays: 90,
  },
  {
    key: 'payments',
    name: 'Bill payment assistant',
    description: 'We read your payees and regular payments to remind you before bills are due.',
    accessFrequency: 'ONGOING',
    sharingDurations: ['ONE_MONTH', 'SIX_MONTHS', 'ONE_YEAR', 'CUSTOM'],
    scopes: ['bank:accounts.basic:read', 'bank:payees:read', 'bank:regular_payments:read'],
    industry: 'banking',
    historyDays: 365,
  },
  {
    key: 'energy',
    name: 'Energy plan comparison',
    description: 'We compare your usage and bills with plans in your area.',
    accessFrequency: 'ONGOING',
    sharingDurations: ['THREE_MONTHS', 'ONE_YEAR'],
    scopes: [
      'energy:accounts.basic:read',
      'energy:billing:read',
      'energy:electricity.servicepoints.basic:read',
      'energy:electricity.usage:read',
    ],
    industry: 'energy',
    historyDays: 365,
  },
];

export type SandboxUseCase = UseCase & { industry: 'banking' | 'energy' };

export function useCases(seed: number): SandboxUseCase[] {
  const holders = dataHolders(seed);
  return USE_CASES.map((u, i) => ({
    id: stableUuid(seed, 'use-case', u.key),
    name: u.name,
    description: u.description,
    softwareProductId: stableUuid(seed, 'software-product', 0),
    priority: i + 1,
    historicalCollectionPeriodInDays: u.historyDays,
    notificationType: 'EMAIL',
    accessFrequency: u.accessFrequency,
    sharingDurations: u.sharingDurations,
    scopes: u.scopes.map((id, p) => ({
      id,
      name: SCOPE_TEXT[id]![0],
      purpose: u.description,
      description: SCOPE_TEXT[id]![1],
      claims: [],
      priority: p + 1,
    })),
    dataHolders: holders
      .filter((h) => h.industry === u.industry)
      .map(({ dataHolderBrandId, brandName, logoUri }) => ({ dataHolderBrandId, brandName, logoUri })),
    industry: u.industry,
  }));
}
