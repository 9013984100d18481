import { TZDate } from '@date-fns/tz';

/**
 * The rule 9.4 report (issue 38): an accredited data recipient reports to the ACCC and the OAIC for
 * each half-year — 1 January to 30 June and 1 July to 31 December, in Australian time — within 30
 * days of its end. What the report's period is, when it is due, and the fields only a person can
 * answer are written here once: the core makes and checks reports with them, the screen says them.
 * Kept free of zod: the renderer's form reads it.
 */

/** Australian time: the reports' calendar (the ACCC's, in Canberra). */
export const REPORT_ZONE = 'Australia/Sydney';

/** Days after its period a report is due (and reminded of until signed off). */
export const DUE_DAYS = 30;

/** A half-year's id: "2026-H2". */
export type HalfYearId = `${number}-H${1 | 2}`;

export const HALF_YEAR_ID = /^(\d{4})-H([12])$/;

export interface HalfYear {
  id: string;
  /** The first instant (local midnight of 1 January or 1 July in Sydney), ISO UTC. */
  from: string;
  /** The first instant after it (exclusive), ISO UTC. */
  to: string;
  /** Its first and last days (YYYY-MM-DD, Australian time). */
  firstDay: string;
  lastDay: string;
  /** "1 Jul 2026 – 31 Dec 2026". */
  text: string;
  /** The last day to lodge it (YYYY-MM-DD): 30 days after its last day. */
  dueOn: string;
}

const midnight = (year: number, month: number) => new TZDate(year, month, 1, REPORT_ZONE).getTime();

/** The half-year with this id; null for an id that is not one. */
export function halfYear(id: string): HalfYear | null {
  const m = HALF_YEAR_ID.exec(id);
  if (!m) return null;
  const year = Number(m[1]);
  const second = m[2] === '2';
  if (year < 2019 || year > 2200) return null;
  const from = midnight(year, second ? 6 : 0);
  const to = second ? midnight(year + 1, 0) : midnight(year, 6);
  const lastDay = second ? `${year}-12-31` : `${year}-06-30`;
  const due = new Date(Date.UTC(year + (second ? 1 : 0), second ? 0 : 6, DUE_DAYS));
  return {
    id: `${year}-H${second ? 2 : 1}`,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    firstDay: `${year}-${second ? '07' : '01'}-01`,
    lastDay,
    text: second ? `1 Jul ${year} – 31 Dec ${year}` : `1 Jan ${year} – 30 Jun ${year}`,
    dueOn: due.toISOString().slice(0, 10),
  };
}

/** The half-year an instant falls in (Australian time). */
export function halfYearOf(at: Date): HalfYear {
  const local = new TZDate(at.getTime(), REPORT_ZONE);
  return halfYear(`${local.getFullYear()}-H${local.getMonth() < 6 ? 1 : 2}`)!;
}

/** The half-year before this one. */
export function previousHalfYear(h: HalfYear): HalfYear {
  const [, y, n] = HALF_YEAR_ID.exec(h.id)!;
  return halfYear(n === '2' ? `${y}-H1` : `${Number(y) - 1}-H2`)!;
}

/** The last half-year that has ended at `now`: the one whose report is made on the first day after it. */
export const lastEndedHalfYear = (now: Date): HalfYear => previousHalfYear(halfYearOf(now));

/** Whether a half-year has ended at `now`: only an ended one has a report. */
export const hasEnded = (h: HalfYear, now: Date): boolean => Date.parse(h.to) <= now.getTime();

/** Whole days from `now` until the end of a due day in Australian time (negative once past). */
export function daysLeft(h: HalfYear, now: Date): number {
  const [y, m, d] = h.dueOn.split('-').map(Number) as [number, number, number];
  const endOfDue = new TZDate(y, m - 1, d + 1, REPORT_ZONE).getTime();
  return Math.ceil((endOfDue - now.getTime()) / 86_400_000) - 1;
}

/**
 * What the console cannot know, for a person to answer before sign-off: who reports, and what the
 * records of this console do not hold. `required` ones must be answered to sign off.
 */
export const ANSWER_FIELDS = [
  {
    key: 'entityName',
    label: 'Accredited person’s name',
    help: 'As on the Register of Accredited Persons.',
    required: true,
    lines: 1,
  },
  {
    key: 'accreditationNumber',
    label: 'Accreditation number',
    help: 'The ADR number the ACCC gave, e.g. ADRBNK000123.',
    required: true,
    lines: 1,
  },
  {
    key: 'complaintsElsewhere',
    label: 'CDR complaints received outside this register',
    help: 'Complaints handled in another system this period, with their categories and outcomes; “None” when there were none.',
    required: true,
    lines: 3,
  },
  {
    key: 'disputeResolution',
    label: 'External dispute resolution',
    help: 'The scheme the recipient is a member of (e.g. AFCA) and anything it decided this period.',
    required: false,
    lines: 2,
  },
  {
    key: 'otherMatters',
    label: 'Other matters for the ACCC and the OAIC',
    help: 'Changes to the CDR policy, outsourced service providers, or anything else the report should say.',
    required: false,
    lines: 3,
  },
] as const;

export type AnswerKey = (typeof ANSWER_FIELDS)[number]['key'];
export type Answers = { [K in AnswerKey]?: string | undefined };

export const ANSWER_MAX = 4000;

/** What stops a sign-off: the required answers still empty, in words ("Accreditation number is not answered."). */
export function signOffProblems(answers: Answers): string[] {
  return ANSWER_FIELDS.filter((f) => f.required && !(answers[f.key] ?? '').trim()).map((f) => `${f.label} is not answered.`);
}
