import { Chip, Group, MultiSelect, Select, SimpleGrid, Text } from '@mantine/core';
import type { ConsentCountOutput, ConsentOptionsOutput } from '../../../../shared/ipc/contract.js';
import { DayRangeInput } from '../../ui/DayRangeInput.js';
import { enumText, formatCount } from '../../ui/format.js';
import { STATUS_COLOURS } from '../../ui/StatusBadge.js';
import type { ConsentView, DayRange } from './view.js';

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
          <Chip
            key={s}
            value={s}
            size="xs"
            variant="light"
            color={STATUS_COLOURS[s] ?? 'dark'}
            aria-label={`${s}: ${formatCount(countOf(s))} consents`}
          >
            {s} {counts ? formatCount(countOf(s)) : ''}
          </Chip>
        ))}
      </Chip.Group>
    </Group>
  );
}

/** A range of days (both ends optional), as the view keeps it. */
function DaysFilter({ label, value, onChange }: { label: string; value: DayRange; onChange(r: DayRange): void }) {
  return (
    <DayRangeInput
      label={label}
      value={[value.from ?? null, value.to ?? null]}
      onChange={([from, to]) => onChange({ ...(from ? { from } : {}), ...(to ? { to } : {}) })}
    />
  );
}

/** Every other filter: data holder, use case, access frequency, post-usage action, direct marketing, date ranges. */
export function ConsentFilters({
  view,
  options,
  onChange,
}: {
  view: ConsentView;
  options: ConsentOptionsOutput | undefined;
  onChange(change: Partial<ConsentView>): void;
}) {
  const counted = (items: { id: string; name: string | null; count: number }[] | undefined) =>
    (items ?? []).map((o) => ({ value: o.id, label: `${o.name ?? o.id} (${formatCount(o.count)})` }));
  const enums = (items: { value: string; count: number }[] | undefined) =>
    (items ?? []).map((o) => ({ value: o.value, label: `${enumText(o.value)} (${formatCount(o.count)})` }));
  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="xs" verticalSpacing={6}>
      <MultiSelect
        label="Data holder"
        size="xs"
        searchable
        clearable
        placeholder={view.dataHolderBrandIds.length ? undefined : 'Any'}
        data={counted(options?.dataHolders)}
        value={view.dataHolderBrandIds}
        onChange={(dataHolderBrandIds) => onChange({ dataHolderBrandIds })}
      />
      <MultiSelect
        label="Use case"
        size="xs"
        searchable
        clearable
        placeholder={view.useCaseIds.length ? undefined : 'Any'}
        data={counted(options?.useCases)}
        value={view.useCaseIds}
        onChange={(useCaseIds) => onChange({ useCaseIds })}
      />
      <MultiSelect
        label="Access frequency"
        size="xs"
        clearable
        placeholder={view.accessFrequencies.length ? undefined : 'Any'}
        data={enums(options?.accessFrequencies)}
        value={view.accessFrequencies}
        onChange={(accessFrequencies) => onChange({ accessFrequencies })}
      />
      <MultiSelect
        label="Post-usage action"
        size="xs"
        clearable
        placeholder={view.postUsageActions.length ? undefined : 'Any'}
        data={enums(options?.postUsageActions)}
        value={view.postUsageActions}
        onChange={(postUsageActions) => onChange({ postUsageActions })}
      />
      <Select
        label="Direct marketing"
        size="xs"
        allowDeselect={false}
        data={[
          { value: 'any', label: 'Any' },
          { value: 'yes', label: 'Allowed' },
          { value: 'no', label: 'Not allowed' },
        ]}
        value={view.directMarketing === undefined ? 'any' : view.directMarketing ? 'yes' : 'no'}
        onChange={(v) => onChange({ directMarketing: v === 'yes' ? true : v === 'no' ? false : undefined })}
      />
      <Select
        label="Data collected"
        size="xs"
        allowDeselect={false}
        data={[
          { value: 'any', label: 'Any' },
          { value: 'yes', label: 'At least once' },
          { value: 'no', label: 'Never' },
        ]}
        value={view.collected === undefined ? 'any' : view.collected ? 'yes' : 'no'}
        onChange={(v) => onChange({ collected: v === 'yes' ? true : v === 'no' ? false : undefined })}
      />
      <DaysFilter label="Created" value={view.created} onChange={(created) => onChange({ created })} />
      <DaysFilter label="Sharing ends" value={view.sharingEnd} onChange={(sharingEnd) => onChange({ sharingEnd })} />
      <DaysFilter label="Revoked" value={view.revoked} onChange={(revoked) => onChange({ revoked })} />
    </SimpleGrid>
  );
}
