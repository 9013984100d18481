import { Chip, Group, Text } from '@mantine/core';
import type { ConsentCountOutput } from '../../../../shared/ipc/contract.js';
import { CountChip } from '../../ui/CountChip.js';
import { STATUS_COLOURS } from '../../ui/StatusBadge.js';
import { statusTerm } from '../../ui/glossary.js';
import type { ConsentView } from './view.js';

/** Status chips, each with how many consents it would show given the other filters. */
export function StatusChips({
  view,
  counts,
  onChange,
}: {
  view: ConsentView;
  counts: ConsentCountOutput | undefined;
  onChange(statuses: string[]): void;
}) {
  const known = ['ACTIVE', 'REQUESTED', 'REVOKED', 'EXPIRED'];
  const seen = counts?.statuses.map((s) => s.status ?? 'UNKNOWN') ?? [];
  const all = [...new Set([...known, ...seen, ...view.statuses])];
  const countOf = (s: string) => counts?.statuses.find((x) => (x.status ?? 'UNKNOWN') === s)?.count ?? 0;
  return (
    <Group gap={6} role="group" aria-label="Status">
      <Text size="sm" fw={500} mr={4} aria-hidden>
        Status
      </Text>
      <Chip.Group multiple value={view.statuses} onChange={onChange}>
        {all.map((s) => (
          <CountChip
            key={s}
            value={s}
            label={statusTerm(s)?.words ?? s}
            count={counts ? countOf(s) : undefined}
            noun="consents"
            color={STATUS_COLOURS[s] ?? 'dark'}
          />
        ))}
      </Chip.Group>
    </Group>
  );
}
