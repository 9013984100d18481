import { Badge } from '@mantine/core';

/** Consent status as a coloured label; unknown statuses are shown as sent, in grey. */
export const STATUS_COLOURS: Record<string, string> = {
  ACTIVE: 'teal',
  REQUESTED: 'blue',
  REVOKED: 'red',
  EXPIRED: 'gray',
};

export function StatusBadge({ status, size = 'sm' }: { status: string | null | undefined; size?: 'sm' | 'md' | 'lg' }) {
  const label = status ?? 'UNKNOWN';
  return (
    <Badge size={size} radius="sm" variant="light" color={STATUS_COLOURS[label] ?? 'dark'} styles={{ root: { minWidth: 88 } }}>
      {label}
    </Badge>
  );
}
