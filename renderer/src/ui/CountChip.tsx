import { Chip, type ChipProps } from '@mantine/core';
import { formatCount, nounFor } from './format.js';

/**
 * A filter chip that says how many rows it would show — "ACTIVE 1,234" — and is named in full for
 * a screen reader: "ACTIVE: 1,234 consents" (`name` when the chip's words differ from the value
 * named, as "Webhook sent" for WEBHOOK_SENT). While the count is unknown the chip shows none. In a
 * Chip.Group it needs its `value`; alone, `checked` and `onChange`.
 */
export function CountChip({
  label,
  name = label,
  count,
  noun,
  ...chip
}: { label: string; name?: string; count: number | undefined; noun: string } & Omit<ChipProps, 'children'>) {
  return (
    <Chip size="xs" variant="light" aria-label={`${name}: ${formatCount(count ?? 0)} ${nounFor(count ?? 0, noun)}`} {...chip}>
      {label} {count === undefined ? '' : formatCount(count)}
    </Chip>
  );
}
