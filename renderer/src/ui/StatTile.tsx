import { Anchor, Paper, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatCount } from './format.js';
import { ink } from './ink.js';

/** One number on a dashboard, linking to the list it counts; `id` names it for tests when the label is words (default: the label). */
export function StatTile({
  id,
  label,
  value,
  to,
  hint,
  tone,
}: {
  id?: string;
  label: string;
  value: number | undefined;
  to: string;
  hint?: string;
  tone?: string;
}) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Anchor
        component={Link}
        to={to}
        fz={26}
        fw={700}
        {...(tone ? { c: ink(tone) } : {})}
        aria-label={`${label}: ${value === undefined ? 'loading' : formatCount(value)} — open the list`}
        data-testid={`tile-${id ?? label}`}
      >
        {value === undefined ? '…' : formatCount(value)}
      </Anchor>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}
