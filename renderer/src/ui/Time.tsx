import { Tooltip } from '@mantine/core';
import { formatLocalDate, formatLocalDateTime, formatUtc } from './format.js';

/**
 * A time in local time; the stored UTC value to the millisecond is one step away: on hover in
 * tables (the title), on hover or keyboard focus elsewhere (a tooltip; `focusable`).
 */
export function Time({
  iso,
  dateOnly = false,
  seconds = false,
  focusable = false,
}: {
  iso: string | null | undefined;
  dateOnly?: boolean;
  seconds?: boolean;
  focusable?: boolean;
}) {
  if (!iso) return <span aria-label="none">—</span>;
  const text = dateOnly ? formatLocalDate(iso) : formatLocalDateTime(iso, seconds);
  if (!focusable)
    return (
      <time dateTime={iso} title={formatUtc(iso)}>
        {text}
      </time>
    );
  return (
    <Tooltip label={formatUtc(iso)} events={{ hover: true, focus: true, touch: true }} withArrow openDelay={150}>
      <time dateTime={iso} tabIndex={0} style={{ textDecoration: 'underline dotted', textUnderlineOffset: 3 }}>
        {text}
      </time>
    </Tooltip>
  );
}
