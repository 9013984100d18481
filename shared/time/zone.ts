import { tz, tzOffset } from '@date-fns/tz';
import { format, startOfDay } from 'date-fns';

/**
 * The console's time zone: every date a person reads (labels, days, periods, exports) is in it.
 * It is the machine's, unless a person pins another in Settings (`Settings.timeZone`): a support
 * agent in Perth serving a recipient whose reports follow Sydney's calendar, or a laptop whose
 * clock is on UTC. The one module that asks `Intl` about zones (lint refuses it elsewhere in
 * shared/ and the renderer).
 *
 * date-fns works in the machine's zone unless told otherwise: every call that reads or makes a
 * calendar day passes `inZone()` (its `in` option), which is nothing when the console's zone is the
 * machine's, so the common case costs what it always did.
 */

let pinned: string | null = null;
let generation = 0;

let machine: { zone: string; at: number } | undefined;

/**
 * The machine's zone (an IANA name; UTC when the runtime does not say). Asked of Intl at most once
 * a minute: making the formatter that says it costs far more than the calls that need it (every
 * row of an export, every day of a chart), and a machine's zone seldom changes while it runs.
 */
export function machineTimeZone(): string {
  const now = Date.now();
  if (!machine || now - machine.at > 60_000) {
    let zone = 'UTC';
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      // UTC
    }
    machine = { zone, at: now };
  }
  return machine.zone;
}

/** Whether `name` is a time zone this runtime knows ("Australia/Sydney", "UTC"); its canonical name, else null. */
export function canonicalTimeZone(name: unknown): string | null {
  if (typeof name !== 'string' || !name.trim() || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Every zone this runtime knows, for a person to pick from (the machine's first when it is missing). */
export function knownTimeZones(): string[] {
  const machine = machineTimeZone();
  let names: string[] = [];
  try {
    names = Intl.supportedValuesOf('timeZone');
  } catch {
    names = [];
  }
  return names.includes(machine) ? names : [machine, ...names];
}

/** The console's zone: the pinned one, else the machine's. */
export function consoleTimeZone(): string {
  return pinned ?? machineTimeZone();
}

/**
 * Pins the console's zone (null: follow the machine). An unknown name is refused (false), and the
 * zone stays as it was. Returns whether the zone is now `zone`.
 */
export function pinTimeZone(zone: string | null): boolean {
  const next = zone === null ? null : canonicalTimeZone(zone);
  if (zone !== null && next === null) return false;
  const effective = next !== null && next !== machineTimeZone() ? next : null;
  if (effective !== pinned) {
    pinned = effective;
    generation++;
  }
  return true;
}

/** Changes each time the console's zone does (what a cache of formatted times keys on). */
export function zoneGeneration(): number {
  return generation;
}

const contexts = new Map<string, { in: ReturnType<typeof tz> }>();

/**
 * date-fns's options for the console's zone: `format(d, 'yyyy-MM-dd', inZone())`. Empty when it is
 * the machine's (date-fns's own local time), else `{ in: tz(zone) }`; `zone` asks for another.
 */
export function inZone(zone: string | null = pinned): { in?: ReturnType<typeof tz> } {
  if (zone === null || zone === machineTimeZone()) return {};
  let context = contexts.get(zone);
  if (!context) {
    context = { in: tz(zone) };
    contexts.set(zone, context);
  }
  return context;
}

/** An instant as stored: UTC, to the millisecond (a zoned date's own toISOString names its offset). */
export const utcIso = (d: Date | number): string => new Date(typeof d === 'number' ? d : d.getTime()).toISOString();

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The calendar day (yyyy-MM-dd) of an instant in `zone` (the machine's when null or the same), and
 * the first instant of that day (daylight saving as the zone's rules say): what groups events by day.
 */
export function dayOfInstant(ms: number, zone: string | null): { day: string; start: number } {
  const context = inZone(zone);
  if (!context.in) {
    const d = new Date(ms);
    const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    d.setHours(0, 0, 0, 0);
    return { day, start: d.getTime() };
  }
  const start = startOfDay(ms, context);
  return { day: format(start, 'yyyy-MM-dd', context), start: start.getTime() };
}

/**
 * Offsets from UTC (minutes) of the zones asked for, per quarter of an hour: every zone's offset is
 * a whole number of quarter hours and changes only on a quarter hour (UTC), so one look-up serves
 * all the instants of that quarter. An export of a million events asks Intl a few thousand times.
 */
const offsets = new Map<string, Map<number, number>>();
function offsetMinutes(ms: number, zone: string): number {
  let byQuarter = offsets.get(zone);
  if (!byQuarter) offsets.set(zone, (byQuarter = new Map()));
  const quarter = Math.floor(ms / 900_000);
  let offset = byQuarter.get(quarter);
  if (offset === undefined) {
    if (byQuarter.size >= 200_000) byQuarter.clear();
    offset = tzOffset(zone, new Date(ms));
    byQuarter.set(quarter, offset);
  }
  return offset;
}

/**
 * A time as a person reads it in an export, in `zone`: "2026-10-01 00:00:00" (seconds; the column
 * or the line names the zone, and the UTC instant stands beside it). Unparseable values stay as they are.
 */
export function zonedDateTime(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const d = new Date(ms + offsetMinutes(ms, zone) * 60_000);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** An export's file-name stamp in `zone`, to the second, the zone named: "2026-11-28T22:40:05 Australia/Sydney". */
export function zonedStamp(at: Date, zone: string): string {
  return `${format(at, "yyyy-MM-dd'T'HH:mm:ss", inZone(zone))} ${zone}`;
}
