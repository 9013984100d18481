import { addDays, eachDayOfInterval, format, parse } from 'date-fns';
import type { DayCounts } from '../../../shared/ipc/contract.js';
import { instantsOfDays } from '../../../shared/time/periods.js';

/**
 * Per-day counts with every day of the period present, oldest first: the cache answers only the
 * days that have events, and a chart "per day" that skipped the quiet days would squeeze the
 * time axis and hide them. `from` and `to` (local days, yyyy-MM-dd) default to the first and last
 * day answered.
 */
export function fillDays(days: readonly DayCounts[], bounds: { from?: string; to?: string } = {}): DayCounts[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const known = [...byDay.keys()].sort();
  const from = bounds.from ?? known[0];
  const to = bounds.to ?? known.at(-1);
  if (!from || !to || from > to) return [...days].sort((a, b) => a.day.localeCompare(b.day));
  const start = parse(from, 'yyyy-MM-dd', new Date());
  const end = parse(to, 'yyyy-MM-dd', new Date());
  return eachDayOfInterval({ start, end }).map((d) => {
    const day = format(d, 'yyyy-MM-dd');
    return byDay.get(day) ?? { day, counts: {}, total: 0 };
  });
}

/**
 * A period of whole local days as UTC instants, [from, to): from the first day's midnight to the
 * midnight after the last day (the form the cache's filters take). A missing end is open.
 */
export function periodOfDays([from, to]: readonly [string | null, string | null]): { from: string | undefined; to: string | undefined } {
  const p = instantsOfDays(from ?? undefined, to ?? undefined);
  return { from: p.from, to: p.to };
}

/** The local days a period of instants covers, as periodOfDays made it: its first day and its last. */
export function daysOfPeriod(period: { from?: string | undefined; to?: string | undefined }): [string | null, string | null] {
  return [
    period.from ? format(new Date(period.from), 'yyyy-MM-dd') : null,
    period.to ? format(addDays(new Date(period.to), -1), 'yyyy-MM-dd') : null,
  ];
}
