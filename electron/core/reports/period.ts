import { canonicalTimeZone, machineTimeZone } from '../../../shared/time/zone.js';

/**
 * A report's period as people read it (issue 34): the local calendar days of the console that asked,
 * in its time zone, beside the UTC instants it is counted on. "October" in Sydney is 1 Oct 00:00 to
 * 1 Nov 00:00 there, which is 30 Sep 14:00 to 31 Oct 13:00 UTC: its export was named and headed with
 * the UTC dates ("2026-09-30 – 2026-10-31"), another period than the screen's.
 */
export interface LocalPeriod {
  timeZone: string;
  /** The first and last local days (YYYY-MM-DD), the end exclusive instant less a millisecond. */
  firstDay: string;
  lastDay: string;
  /** "1 Oct 2026 – 31 Oct 2026" (one day: "1 Oct 2026"). */
  text: string;
}

/** The zone asked for when it is a real one, else this host's (UTC when it says none). */
export function zoneOf(asked: string | undefined): string {
  return canonicalTimeZone(asked) ?? machineTimeZone();
}

const parts = (iso: string, timeZone: string) => {
  const f = new Intl.DateTimeFormat('en-AU', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
};

/** "2026-10-01 00:00:00" in the zone. */
export function localDateTime(iso: string, timeZone: string): string {
  const p = parts(iso, timeZone);
  return `${p.date} ${p.time}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "1 Oct 2026", as the console's screens write a day (date-fns' "d MMM yyyy"). */
const dayText = (iso: string, timeZone: string) => {
  const [y, m, d] = parts(iso, timeZone).date.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
};

export function localPeriod(from: string, to: string, timeZone: string): LocalPeriod {
  const last = new Date(Date.parse(to) - 1).toISOString();
  const firstDay = parts(from, timeZone).date;
  const lastDay = parts(last, timeZone).date;
  const text = firstDay === lastDay ? dayText(from, timeZone) : `${dayText(from, timeZone)} – ${dayText(last, timeZone)}`;
  return { timeZone, firstDay, lastDay, text };
}
