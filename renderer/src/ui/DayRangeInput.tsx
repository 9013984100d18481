import { DatePickerInput } from '@mantine/dates';
import { pickerPresets } from './periods.js';

/**
 * A range of local calendar days (yyyy-MM-dd) picked on a calendar, or named beside it (Today,
 * Yesterday, Last 7 days, Last 30 days, This month, Last month: periods.ts); one day is a range too.
 * Cleared (when `clearable`), it reads "Any time". See days.ts for turning the days into instants and back.
 * The one picker of days in the console: every screen's period is chosen the same way.
 */
export type DayPair = [from: string | null, to: string | null];

export function DayRangeInput({
  label = 'Days',
  value,
  onChange,
  w,
  clearable = true,
}: {
  label?: string;
  value: DayPair;
  onChange(days: DayPair): void;
  w?: number;
  clearable?: boolean;
}) {
  return (
    <DatePickerInput
      type="range"
      label={label}
      size="xs"
      {...(w !== undefined ? { w } : {})}
      clearable={clearable}
      allowSingleDateInRange
      presets={pickerPresets()}
      valueFormat="D MMM YYYY"
      {...(clearable ? { placeholder: 'Any time' } : {})}
      value={value}
      onChange={([from, to]) => onChange([from ? String(from).slice(0, 10) : null, to ? String(to).slice(0, 10) : null])}
    />
  );
}
