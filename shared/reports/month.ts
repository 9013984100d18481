import { TZDate } from '@date-fns/tz';

/**
 * A calendar month in a time zone (issue 38's monthly compliance pack): "October 2026" in Sydney is
 * 1 Oct 00:00 to 1 Nov 00:00 there. Kept free of zod and of the core: the screen names months with it.
 */
export interface Month {
  /** "2026-10". */
  id: string;
  timeZone: string;
  /** Its first instant and the first instant after it (ISO UTC). */
  from: string;
  to: string;
  /** "October 2026". */
  text: string;
}

export const MONTH_ID = /^(\d{4})-(0[1-9]|1[0-2])$/;
const NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The month with this id in `timeZone`; null for an id that is not one. */
export function month(id: string, timeZone: string): Month | null {
  const m = MONTH_ID.exec(id);
  if (!m) return null;
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  if (year < 2019 || year > 2200) return null;
  const from = new TZDate(year, index, 1, timeZone).getTime();
  const to = new TZDate(index === 11 ? year + 1 : year, (index + 1) % 12, 1, timeZone).getTime();
  return { id, timeZone, from: new Date(from).toISOString(), to: new Date(to).toISOString(), text: `${NAMES[index]} ${year}` };
}

/** The month before the one `now` falls in, in `timeZone`: the last that has ended. */
export function lastEndedMonth(now: Date, timeZone: string): Month {
  const local = new TZDate(now.getTime(), timeZone);
  const year = local.getMonth() === 0 ? local.getFullYear() - 1 : local.getFullYear();
  const index = (local.getMonth() + 11) % 12;
  return month(`${year}-${String(index + 1).padStart(2, '0')}`, timeZone)!;
}
