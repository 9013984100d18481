import { Badge } from '@mantine/core';

/** Consent status as a coloured label; unknown statuses are shown as sent, in grey. */
const COLOURS: Record<string, string> = {
  ACTIVE: 'teal',
  REQUESTED: 'blue',
  REVOKED: 'red',
  EXPIRED: 'gray',
};

export function StatusBadge({ status }: { status: string | null }) {
  const label = status ?? 'UNKNOWN';
  return (
    <Badge size="sm" radius="sm" variant="light" color={COLOURS[label] ?? 'dark'} styles={{ root: { minWidth: 88 } }}>
      {label}
    </Badge>
  );
}
