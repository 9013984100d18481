import { eachDayOfInterval, format, parse } from 'date-fns';
import type { DayCounts } from '../../../shared/ipc/contract.js';

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
