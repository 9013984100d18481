import { format, formatDistanceToNowStrict, isValid, parseISO } from 'date-fns';

/** Dates are stored in UTC and shown in local time; the UTC value is in the title (hover). */
export function formatLocalDateTime(iso: string | null): string {
  if (!iso) return '—';
  const d = parseISO(iso);
  return isValid(d) ? format(d, 'd MMM yyyy, HH:mm') : iso;
}

export function formatLocalDate(iso: string | null): string {
  if (!iso) return '—';
  const d = parseISO(iso);
  return isValid(d) ? format(d, 'd MMM yyyy') : iso;
}

export function formatAgo(iso: string | null, now = new Date()): string {
  if (!iso) return 'never';
  const d = parseISO(iso);
  if (!isValid(d)) return iso;
  return now.getTime() - d.getTime() < 60_000 ? 'just now' : `${formatDistanceToNowStrict(d)} ago`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-AU');
}
