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
 * How far past the sync's start it asks for transactions. Not "now": a transaction the intermediary
 * dates ahead of the console's clock (the two clocks apart, a posting dated tomorrow) would be left
 * out, and an incremental sync, which asks only for what was retrieved since the last one began,
 * would never ask for it again.
 */
const AHEAD_DAYS = 366;

/**
 * The bounds of one data sync: transactions from the earliest any consent allows to a year past the
 * sync's start (AHEAD_DAYS), and the same calendar days for usage (YYYY-MM-DD). When the store holds
 * no consent with a creation time, from {@link UNKNOWN_HISTORY_DAYS} days before now.
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
  const newest = new Date(Date.parse(now) + AHEAD_DAYS * DAY_MS).toISOString();
  return { oldestTime: oldest, newestTime: newest, oldestDate: oldest.slice(0, 10), newestDate: newest.slice(0, 10) };
}

const min = (a: string, b: string) => (Date.parse(a) <= Date.parse(b) ? a : b);

/** Up to when the intermediary's retrievals of transactions are in the store (a sync's start): where the next one asks from. */
export const TRANSACTIONS_RETRIEVED = 'data.transactions.retrievedTo';
/** When the store last read every transaction (that sync's fetch time), in its sync state. */
export const TRANSACTIONS_FULL_READ = 'data.transactions.fullReadAt';

/**
 * Before when a record of `kind` is stale: fetched before the consent's last data sync, which did
 * not return it. Transactions are read incrementally after a full read (only what the intermediary
 * retrieved since), so one that a later sync did not return is stale only if the last full read did
 * not return it either.
 */
export function staleBefore(kind: string, lastFetch: string | null, fullReadAt: string | null): string | null {
  if (kind !== 'transactions' || lastFetch === null || fullReadAt === null) return lastFetch;
  return fullReadAt < lastFetch ? fullReadAt : lastFetch;
}
