/**
 * A consent's status in words, with the time that matters for it, relative to `now`:
 * "Active — sharing ends 14 Oct 2027, in 326 days". Pure: the caller formats dates (local time
 * in the UI, UTC in the evidence pack) and supplies the clock.
 */
export interface StatusFacts {
  status?: string | null | undefined;
  sharingEndDate?: string | null | undefined;
  revoked?: string | null | undefined;
  created?: string | null | undefined;
}

const DAY = 86_400_000;

export function relativeDays(iso: string, now: Date): string {
  const days = Math.round((Date.parse(iso) - now.getTime()) / DAY);
  if (days === 0) {
    const hours = Math.round((Date.parse(iso) - now.getTime()) / 3_600_000);
    if (hours === 0) return 'now';
    return hours > 0 ? `in ${hours} hour${hours === 1 ? '' : 's'}` : `${-hours} hour${hours === -1 ? '' : 's'} ago`;
  }
  return days > 0 ? `in ${days} day${days === 1 ? '' : 's'}` : `${-days} day${days === -1 ? '' : 's'} ago`;
}

export function statusSentence(c: StatusFacts, now: Date, date: (iso: string) => string): string {
  const end = c.sharingEndDate;
  switch (c.status) {
    case 'ACTIVE':
      if (!end) return 'Active — no sharing end date';
      return Date.parse(end) > now.getTime()
        ? `Active — sharing ends ${date(end)}, ${relativeDays(end, now)}`
        : `Active — its sharing end date ${date(end)} passed ${relativeDays(end, now)}; the intermediary has not yet marked it expired`;
    case 'REVOKED':
      return c.revoked ? `Revoked — withdrawn ${date(c.revoked)}, ${relativeDays(c.revoked, now)}` : 'Revoked';
    case 'EXPIRED':
      return end ? `Expired — sharing ended ${date(end)}, ${relativeDays(end, now)}` : 'Expired';
    case 'REQUESTED':
      return c.created
        ? `Requested — created ${date(c.created)}, ${relativeDays(c.created, now)}; not yet authorised by the consumer`
        : 'Requested — not yet authorised by the consumer';
    case null:
    case undefined:
      return 'Status unknown — the intermediary did not send one';
    default:
      return `${c.status} — a status this console does not know; shown as the intermediary sent it`;
  }
}

/** A consent as people name it, in toasts and titles: its consumer's e-mail, else their id, else the consent's id. */
export function consentName(c: {
  consumerEmail?: string | null | undefined;
  consumerId?: string | null | undefined;
  consentId: string;
}): string {
  return c.consumerEmail ?? c.consumerId ?? c.consentId;
}
