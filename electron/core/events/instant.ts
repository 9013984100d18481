/**
 * Instants of the API (event timestamps and the like) as numbers, without Date.parse's leniency.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|([+-])(\d{2}):?(\d{2})?)$/;

/**
 * Milliseconds since the epoch of an ISO 8601 date-time with a zone (Z, ±hh:mm, ±hhmm, ±hh), as the
 * API schemas accept them; NaN for anything else. Fractions beyond milliseconds are cut.
 */
export function isoMillis(text: string): number {
  const m = ISO.exec(text);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s, frac, zone, sign, zh, zm] = m;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), Math.floor(Number(frac ?? 0) * 1000));
  if (zone === 'Z') return local;
  const offset = (Number(zh) * 60 + Number(zm ?? 0)) * 60_000;
  return sign === '+' ? local - offset : local + offset;
}
