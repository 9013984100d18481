import { addDays, endOfMonth, format, isValid, parse, startOfMonth, subMonths } from 'date-fns';
import { inZone, utcIso } from './zone.js';

/**
 * The periods a person names rather than picks ("yesterday", "last month"), as local calendar days
 * (yyyy-MM-dd, both ends inclusive) in the console's time zone, worked out from `now` each time they
 * are used: a view kept in a link or the URL says "yesterday" and means the day before today.
 */
export const PERIOD_PRESETS = [
  { key: 'today', label: 'Today' },
  { key: 'yesterday', label: 'Yesterday' },
  { key: 'last7', label: 'Last 7 days' },
  { key: 'last30', label: 'Last 30 days' },
  { key: 'thisMonth', label: 'This month' },
  { key: 'lastMonth', label: 'Last month' },
] as const;

export type PeriodPreset = (typeof PERIOD_PRESETS)[number]['key'];

export const isPeriodPreset = (v: string): v is PeriodPreset => PERIOD_PRESETS.some((p) => p.key === v);

const day = (d: Date) => format(d, 'yyyy-MM-dd', inZone());

/** The days a preset names, today being `now`'s day in the console's time zone (shared/time/zone.ts). */
export function presetDays(preset: PeriodPreset, now: Date = new Date()): [from: string, to: string] {
  switch (preset) {
    case 'today':
      return [day(now), day(now)];
    case 'yesterday':
      return [day(addDays(now, -1, inZone())), day(addDays(now, -1, inZone()))];
    case 'last7':
      return [day(addDays(now, -6, inZone())), day(now)];
    case 'last30':
      return [day(addDays(now, -29, inZone())), day(now)];
    case 'thisMonth':
      return [day(startOfMonth(now, inZone())), day(now)];
    case 'lastMonth': {
      const last = subMonths(now, 1, inZone());
      return [day(startOfMonth(last, inZone())), day(endOfMonth(last, inZone()))];
    }
  }
}

const dayStart = (day: string) => parse(day, 'yyyy-MM-dd', new Date(), inZone());

/** Whether a text is a calendar day written yyyy-MM-dd. */
export const isDay = (v: string | undefined): boolean => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v) && isValid(dayStart(v));

/**
 * Calendar days of the console's zone (both ends inclusive, either open) as the UTC instants a filter takes:
 * [the first day's midnight, the midnight after the last day).
 */
export function instantsOfDays(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  return {
    ...(from ? { from: utcIso(dayStart(from)) } : {}),
    ...(to ? { to: utcIso(addDays(dayStart(to), 1, inZone())) } : {}),
  };
}

/**
 * A period as a person writes it on a command line: `any` (every time), a named period (`yesterday`,
 * `last7`…), one day (`2026-11-27`) or days (`2026-11-01..2026-11-27`, either end open), as instants
 * (`{}` for any). Undefined when it is none of these.
 */
export function periodOfText(text: string, now: Date = new Date()): { from?: string; to?: string } | undefined {
  const t = text.trim();
  if (t === 'any') return {};
  if (isPeriodPreset(t)) return instantsOfDays(...presetDays(t, now));
  if (isDay(t)) return instantsOfDays(t, t);
  const [from, to, ...rest] = t.split('..');
  if (rest.length || to === undefined || (from && !isDay(from)) || (to && !isDay(to)) || (!from && !to)) return undefined;
  if (from && to && from > to) return undefined;
  return instantsOfDays(from || undefined, to || undefined);
}
