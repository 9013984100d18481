import { DatePickerInput } from '@mantine/dates';

/**
 * A range of local calendar days (yyyy-MM-dd) picked on a calendar; one day is a range too. Cleared
 * (when `clearable`), it reads "Any time". See days.ts for turning the days into instants and back.
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
      valueFormat="D MMM YYYY"
      {...(clearable ? { placeholder: 'Any time' } : {})}
      value={value}
      onChange={([from, to]) => onChange([from ? String(from).slice(0, 10) : null, to ? String(to).slice(0, 10) : null])}
    />
  );
}
