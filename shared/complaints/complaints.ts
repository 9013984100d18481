/**
 * The complaints register (issue 38): CDR complaint data as rule 9.3 asks an accredited data
 * recipient to keep it, and rule 9.4's report counts it. One record per complaint, against a
 * consent, a consumer or both. The words and the rules a complaint must keep live here once: the
 * contract checks them (contract/complaints.ts), the register's form says them, the store counts
 * by them. Kept free of zod: the renderer's form reads it.
 */

/** How the complaint reached the recipient. */
export const COMPLAINT_CHANNELS = ['phone', 'email', 'web-form', 'letter', 'in-person', 'data-holder', 'regulator', 'other'] as const;
export type ComplaintChannel = (typeof COMPLAINT_CHANNELS)[number];

/** What the complaint is about (the categories a rule 9.4 report counts complaints by). */
export const COMPLAINT_CATEGORIES = [
  'consent',
  'withdrawal',
  'data-sharing',
  'data-quality',
  'privacy',
  'security',
  'deletion',
  'service',
  'other',
] as const;
export type ComplaintCategory = (typeof COMPLAINT_CATEGORIES)[number];

/** How a resolved complaint ended. */
export const COMPLAINT_OUTCOMES = ['upheld', 'partly-upheld', 'not-upheld', 'withdrawn'] as const;
export type ComplaintOutcome = (typeof COMPLAINT_OUTCOMES)[number];

export const CHANNEL_TEXT: Record<ComplaintChannel, string> = {
  phone: 'Phone',
  email: 'E-mail',
  'web-form': 'Web form',
  letter: 'Letter',
  'in-person': 'In person',
  'data-holder': 'Through the data holder',
  regulator: 'Through a regulator (ACCC, OAIC)',
  other: 'Other',
};

export const CATEGORY_TEXT: Record<ComplaintCategory, string> = {
  consent: 'Consent (giving, amending, its terms)',
  withdrawal: 'Withdrawing consent',
  'data-sharing': 'Collection or use of data',
  'data-quality': 'Accuracy of data',
  privacy: 'Privacy',
  security: 'Security',
  deletion: 'Deletion or de-identification',
  service: 'Service (availability, the dashboard)',
  other: 'Other',
};

export const OUTCOME_TEXT: Record<ComplaintOutcome, string> = {
  upheld: 'Upheld',
  'partly-upheld': 'Partly upheld',
  'not-upheld': 'Not upheld',
  withdrawn: 'Withdrawn by the consumer',
};

/** External dispute resolution bodies a complaint is commonly referred to (free text is allowed too). */
export const DISPUTE_BODIES = ['AFCA', 'EWON', 'EWOV', 'EWOSA', 'EWOQ', 'OAIC'] as const;

/** What a person records and changes on a complaint. Days are calendar days in the console's zone (YYYY-MM-DD). */
export interface ComplaintFields {
  receivedOn: string;
  channel: ComplaintChannel;
  category: ComplaintCategory;
  description: string;
  /** The consent concerned, and/or the consumer: at least one. */
  consentId: string | null;
  consumerId: string | null;
  /** Set together when the complaint is resolved. */
  outcome: ComplaintOutcome | null;
  resolvedOn: string | null;
  /** The external dispute resolution body it was referred to (AFCA…), or null. */
  referredTo: string | null;
}

export const DESCRIPTION_MAX = 4000;

/**
 * What is wrong with a complaint's fields, each problem in a sentence naming its field, or none.
 * `today` is the console's calendar day (YYYY-MM-DD): no day may be after it.
 */
export function complaintProblems(f: ComplaintFields, today?: string): { field: keyof ComplaintFields; message: string }[] {
  const problems: { field: keyof ComplaintFields; message: string }[] = [];
  if (!f.consentId && !f.consumerId)
    problems.push({ field: 'consentId', message: 'Name the consent or the consumer the complaint concerns (or both).' });
  if (!f.description.trim()) problems.push({ field: 'description', message: 'Say what the complaint is about.' });
  if (today && f.receivedOn > today)
    problems.push({ field: 'receivedOn', message: `The day received (${f.receivedOn}) is after today (${today}).` });
  if ((f.outcome === null) !== (f.resolvedOn === null))
    problems.push(
      f.outcome === null
        ? { field: 'outcome', message: 'A resolved complaint needs its outcome.' }
        : { field: 'resolvedOn', message: 'A complaint with an outcome needs the day it was resolved.' },
    );
  if (f.resolvedOn !== null && f.resolvedOn < f.receivedOn)
    problems.push({ field: 'resolvedOn', message: `It cannot be resolved (${f.resolvedOn}) before it was received (${f.receivedOn}).` });
  if (today && f.resolvedOn !== null && f.resolvedOn > today)
    problems.push({ field: 'resolvedOn', message: `The day resolved (${f.resolvedOn}) is after today (${today}).` });
  return problems;
}

/** A complaint's reference as staff quote it: "CMP-0042". */
export const complaintReference = (number: number) => `CMP-${String(number).padStart(4, '0')}`;

/** What changed between two versions of a complaint, in words for its audit entry: "outcome: – → Upheld; resolved on: – → 2026-11-02". */
export function complaintChanges(before: ComplaintFields, after: ComplaintFields): string {
  const label: Record<keyof ComplaintFields, string> = {
    receivedOn: 'received on',
    channel: 'channel',
    category: 'category',
    description: 'description',
    consentId: 'consent',
    consumerId: 'consumer',
    outcome: 'outcome',
    resolvedOn: 'resolved on',
    referredTo: 'referred to',
  };
  const shown = (k: keyof ComplaintFields, v: string | null) => {
    if (v === null || v === '') return '–';
    if (k === 'description') return `${v.length} characters`;
    if (k === 'outcome') return OUTCOME_TEXT[v as ComplaintOutcome];
    if (k === 'category') return CATEGORY_TEXT[v as ComplaintCategory];
    if (k === 'channel') return CHANNEL_TEXT[v as ComplaintChannel];
    return v;
  };
  return (Object.keys(label) as (keyof ComplaintFields)[])
    .filter((k) => before[k] !== after[k])
    .map((k) => `${label[k]}: ${shown(k, before[k])} → ${shown(k, after[k])}`)
    .join('; ');
}
