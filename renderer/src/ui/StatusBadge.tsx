import { STATUS_TERMS, statusTerm } from './glossary.js';
import classes from './StatusBadge.module.css';

/**
 * Consent status as a coloured label: the glossary's words and colour ("Active"), the API's value on
 * hover ("ACTIVE"); an unknown status is shown as sent, in grey.
 */
export const STATUS_COLOURS: Record<string, string> = Object.fromEntries(STATUS_TERMS.map((t) => [t.value, t.pill]));

export function StatusBadge({ status, size = 'sm' }: { status: string | null | undefined; size?: 'sm' | 'md' | 'lg' }) {
  const value = status ?? 'UNKNOWN';
  const colour = STATUS_COLOURS[value] ?? 'dark';
  return (
    <span
      className={classes.badge}
      data-size={size}
      title={value}
      style={{ background: `var(--cc-${colour}-light-bg)`, color: `var(--cc-${colour}-light-text)` }}
    >
      {statusTerm(value)?.words ?? value}
    </span>
  );
}
