import { canonicalTimeZone, machineTimeZone, zonedDateTime } from '../../../shared/time/zone.js';

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

/** The zone's calendar day of an instant (YYYY-MM-DD): the day of its local time (shared/time/zone.ts). */
const dayOf = (iso: string, timeZone: string) => zonedDateTime(iso, timeZone).slice(0, 10);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "1 Oct 2026", as the console's screens write a day (date-fns' "d MMM yyyy"). */
const dayText = (iso: string, timeZone: string) => {
  const [y, m, d] = dayOf(iso, timeZone).split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
};

export function localPeriod(from: string, to: string, timeZone: string): LocalPeriod {
  const last = new Date(Date.parse(to) - 1).toISOString();
  const firstDay = dayOf(from, timeZone);
  const lastDay = dayOf(last, timeZone);
  const text = firstDay === lastDay ? dayText(from, timeZone) : `${dayText(from, timeZone)} – ${dayText(last, timeZone)}`;
  return { timeZone, firstDay, lastDay, text };
}
