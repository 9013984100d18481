import { formatLocalDate, formatLocalDateTime } from '../format.js';

/** A date in local time; hovering shows the stored UTC value. */
export function DateTime({ iso, dateOnly = false }: { iso: string | null; dateOnly?: boolean }) {
  if (!iso) return <span aria-label="none">—</span>;
  return (
    <time dateTime={iso} title={`${iso} (UTC)`}>
      {dateOnly ? formatLocalDate(iso) : formatLocalDateTime(iso)}
    </time>
  );
}
