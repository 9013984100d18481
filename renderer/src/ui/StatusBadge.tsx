import { STATUS_TERMS } from './glossary.js';
import classes from './StatusBadge.module.css';

/** Consent status as a coloured label (the glossary's colour); unknown statuses are shown as sent, in grey. */
export const STATUS_COLOURS: Record<string, string> = Object.fromEntries(STATUS_TERMS.map((t) => [t.value, t.pill]));

export function StatusBadge({ status, size = 'sm' }: { status: string | null | undefined; size?: 'sm' | 'md' | 'lg' }) {
  const label = status ?? 'UNKNOWN';
  const colour = STATUS_COLOURS[label] ?? 'dark';
  return (
    <span
      className={classes.badge}
      data-size={size}
      style={{ background: `var(--cc-${colour}-light-bg)`, color: `var(--cc-${colour}-light-text)` }}
    >
      {label}
    </span>
  );
}
