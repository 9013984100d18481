import { addDays, eachDayOfInterval, format, parse } from 'date-fns';
import type { DayCounts } from '../../../shared/ipc/contract.js';
import { instantsOfDays } from '../../../shared/time/periods.js';
import { inZone } from '../../../shared/time/zone.js';

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
  const start = parse(from, 'yyyy-MM-dd', new Date(), inZone());
  const end = parse(to, 'yyyy-MM-dd', new Date(), inZone());
  return eachDayOfInterval({ start, end }, inZone()).map((d) => {
    const day = format(d, 'yyyy-MM-dd', inZone());
    return byDay.get(day) ?? { day, counts: {}, total: 0 };
  });
}

/**
 * A period of whole days of the console's zone as UTC instants, [from, to): from the first day's midnight to the
 * midnight after the last day (the form the cache's filters take). A missing end is open.
 */
export function periodOfDays([from, to]: readonly [string | null, string | null]): { from: string | undefined; to: string | undefined } {
  const p = instantsOfDays(from ?? undefined, to ?? undefined);
  return { from: p.from, to: p.to };
}

/** The local days a period of instants covers, as periodOfDays made it: its first day and its last. */
export function daysOfPeriod(period: { from?: string | undefined; to?: string | undefined }): [string | null, string | null] {
  return [
    period.from ? format(new Date(period.from), 'yyyy-MM-dd', inZone()) : null,
    period.to ? format(addDays(new Date(period.to), -1, inZone()), 'yyyy-MM-dd', inZone()) : null,
  ];
}

/** A calendar day (yyyy-MM-dd) as people read it ("1 Oct 2026"; `pattern` for another form): a day names no instant, so no zone applies. */
export function dayText(day: string, pattern = 'd MMM yyyy'): string {
  const d = parse(day, 'yyyy-MM-dd', new Date());
  return Number.isNaN(d.getTime()) ? day : format(d, pattern);
}
