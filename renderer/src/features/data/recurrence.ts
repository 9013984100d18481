import { format, isValid, parseISO } from 'date-fns';

/**
 * A scheduled payment's recurrence in words, from the Data API's recurrence object:
 * "every 2nd Monday until 30 Jun 2027", "every month on the 15th, 4 payments left",
 * "the last Friday of every month", "once, on 3 Feb 2027", "when: the invoice is issued".
 */
type Json = Record<string, unknown>;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const WEEKDAY: Record<string, string> = {
  MON: 'Monday',
  TUE: 'Tuesday',
  WED: 'Wednesday',
  THU: 'Thursday',
  FRI: 'Friday',
  SAT: 'Saturday',
  SUN: 'Sunday',
};

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

export function dayText(day: unknown): string | undefined {
  if (typeof day !== 'string') return undefined;
  const d = parseISO(day);
  return isValid(d) ? format(d, 'd MMM yyyy') : day;
}

function parseDuration(v: unknown): { n: number; unit: 'D' | 'W' | 'M' | 'Y' } | undefined {
  const m = typeof v === 'string' ? /^P(\d+)([DWMY])$/.exec(v) : null;
  return m ? { n: Number(m[1]), unit: m[2] as 'D' | 'W' | 'M' | 'Y' } : undefined;
}
const UNIT = { D: 'day', W: 'week', M: 'month', Y: 'year' } as const;

/** One interval: P2W with dayInInterval P1D → "every 2nd Monday"; P1M with P15D → "every month on the 15th". */
export function intervalText(interval: unknown, dayInInterval?: unknown): string {
  const i = parseDuration(interval);
  if (!i) return typeof interval === 'string' ? `every ${interval}` : 'on an unstated schedule';
  const day = parseDuration(dayInInterval);
  if (i.unit === 'W' && day?.unit === 'D' && day.n >= 1 && day.n <= 7)
    return i.n === 1 ? `every ${DAYS[day.n - 1]}` : `every ${ordinal(i.n)} ${DAYS[day.n - 1]}`;
  const every = i.n === 1 ? `every ${UNIT[i.unit]}` : `every ${i.n} ${UNIT[i.unit]}s`;
  if (day?.unit === 'D')
    return `${every} on the ${ordinal(day.n)} day`.replace(/(every (?:\d+ )?months?) on the (\d+\w\w) day/, '$1 on the $2');
  return every;
}

function ending(s: Json): string {
  const parts: string[] = [];
  if (typeof s.finalPaymentDate === 'string') parts.push(` until ${dayText(s.finalPaymentDate)}`);
  if (typeof s.paymentsRemaining === 'number') parts.push(`, ${s.paymentsRemaining} payment${s.paymentsRemaining === 1 ? '' : 's'} left`);
  return parts.join('');
}

export function recurrenceText(recurrence: unknown): string {
  if (!recurrence || typeof recurrence !== 'object') return 'No recurrence given';
  const r = recurrence as Json;
  const type = r.recurrenceUType;
  const next = typeof r.nextPaymentDate === 'string' ? `; next on ${dayText(r.nextPaymentDate)}` : '';
  const body = (typeof type === 'string' ? r[type] : undefined) as Json | undefined;
  switch (type) {
    case 'onceOff':
      return `once, on ${dayText(body?.paymentDate) ?? dayText(r.nextPaymentDate) ?? 'a date not given'}`;
    case 'intervalSchedule': {
      const intervals = Array.isArray(body?.intervals) ? (body!.intervals as Json[]) : [];
      const text = intervals.length
        ? intervals.map((i) => intervalText(i.interval, i.dayInInterval)).join(', then ')
        : 'on a schedule without intervals';
      return `${text}${ending(body ?? {})}${next}`;
    }
    case 'lastWeekDay': {
      const day =
        typeof body?.lastWeekDay === 'string'
          ? (WEEKDAY[body.lastWeekDay] ?? body.lastWeekDay)
          : typeof body?.lastWeekDay === 'number'
            ? DAYS[body.lastWeekDay - 1]
            : 'weekday';
      const i = parseDuration(body?.interval);
      const every =
        !i || (i.n === 1 && i.unit === 'M') ? 'every month' : i.n === 1 ? `every ${UNIT[i.unit]}` : `every ${i.n} ${UNIT[i.unit]}s`;
      return `the last ${day} of ${every}${ending(body ?? {})}${next}`;
    }
    case 'eventBased':
      return `when: ${typeof body?.description === 'string' ? body.description : 'an event (not described)'}`;
    default:
      return `${String(type ?? 'unknown')} recurrence${next}`;
  }
}
