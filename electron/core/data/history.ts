/**
 * How far back a consent's Data API history reaches, and what a data sync asks for.
 *
 * The intermediary's Data API defaults a transaction listing to the last 90 days (`oldestTime` "if
 * absent defaults to newest-time minus 90 days") and usage to the last 24 months, so the data sync
 * never relies on a default: it sends explicit bounds that cover every consent it reads. A consent
 * may be read back to its sharing start (its creation) less its use case's
 * `historicalCollectionPeriodInDays`; when the use case does not say, the console asks for
 * {@link UNKNOWN_HISTORY_DAYS} days (the seven years of transaction data the CDR rules reach back to)
 * and the intermediary returns what the consent allows.
 */

export const UNKNOWN_HISTORY_DAYS = 2557;
const DAY_MS = 86_400_000;

/** The earliest instant a consent created at `created` may collect history from. */
export function historyStart(created: string, days: number | null | undefined): string {
  const period = typeof days === 'number' && Number.isInteger(days) && days >= 0 ? days : UNKNOWN_HISTORY_DAYS;
  return new Date(Date.parse(created) - period * DAY_MS).toISOString();
}

/** One use case's earliest ACTIVE consent in the store, with the use case's collection period. */
export interface HistoryBasis {
  /** The earliest creation time among the use case's consents (ISO 8601). */
  created: string | null;
  days: number | null;
}

/**
 * The bounds of one data sync: transactions from the earliest any consent allows to the sync's
 * start, and the same calendar days for usage (YYYY-MM-DD). Null when the store holds no consent
 * with a creation time (the sync then asks from {@link UNKNOWN_HISTORY_DAYS} days before now).
 */
export function syncBounds(
  bases: readonly HistoryBasis[],
  now: string,
): { oldestTime: string; newestTime: string; oldestDate: string; newestDate: string } {
  let oldest: string | undefined;
  for (const b of bases) {
    if (!b.created || Number.isNaN(Date.parse(b.created))) continue;
    const start = historyStart(b.created, b.days);
    oldest = oldest === undefined ? start : min(oldest, start);
  }
  oldest ??= historyStart(now, null);
  return { oldestTime: oldest, newestTime: now, oldestDate: oldest.slice(0, 10), newestDate: now.slice(0, 10) };
}

const min = (a: string, b: string) => (Date.parse(a) <= Date.parse(b) ? a : b);
