import { MultiSelect, SimpleGrid, Stack } from '@mantine/core';
import type { ConsentOptionsOutput } from '../../../../shared/ipc/contract.js';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { DayRangeInput } from '../../ui/DayRangeInput.js';
import { enumText, formatCount } from '../../ui/format.js';
import { PERIOD_PRESETS } from '../../ui/periods.js';
import type { ConsentView, DayRange, WebhookFailuresPeriod } from './view.js';

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

/**
 * Consents whose webhook deliveries failed: not filtered, at any time, in a named period
 * (Yesterday…), or on days picked on a calendar.
 */
function WebhookFailuresFilter({ value, onChange }: { value: WebhookFailuresPeriod; onChange(value: WebhookFailuresPeriod): void }) {
  const days = value.includes('..');
  const [from, to] = days ? value.split('..') : [];
  return (
    <Stack gap={4}>
      <ChoiceSelect
        label="Webhook failures"
        size="xs"
        maxDropdownHeight={360}
        data={[
          { value: '', label: 'Not filtered' },
          { value: 'any', label: 'At any time' },
          ...PERIOD_PRESETS.map((p) => ({ value: p.key, label: p.label })),
          { value: 'days', label: 'Days I pick…' },
        ]}
        value={days ? 'days' : value}
        onChange={(v) => onChange(v === 'days' ? '..' : (v as WebhookFailuresPeriod))}
      />
      {days && (
        <DayRangeInput
          label="Days with webhook failures"
          value={[from || null, to || null]}
          onChange={([f, t]) => onChange(`${f ?? ''}..${t ?? ''}`)}
        />
      )}
    </Stack>
  );
}

/** A filter by any of several values; none chosen matches all ("Any"). */
function AnyOf({
  label,
  searchable = false,
  data,
  value,
  onChange,
}: {
  label: string;
  searchable?: boolean;
  data: { value: string; label: string }[];
  value: string[];
  onChange(value: string[]): void;
}) {
  return (
    <MultiSelect
      label={label}
      size="xs"
      searchable={searchable}
      clearable
      placeholder={value.length ? undefined : 'Any'}
      data={data}
      value={value}
      onChange={onChange}
    />
  );
}

/** A filter by yes or no, or either ("Any"); `yes` and `no` name the two in words. */
function YesNoFilter({
  label,
  yes,
  no,
  value,
  onChange,
}: {
  label: string;
  yes: string;
  no: string;
  value: boolean | undefined;
  onChange(value: boolean | undefined): void;
}) {
  return (
    <ChoiceSelect
      label={label}
      size="xs"
      data={[
        { value: 'any', label: 'Any' },
        { value: 'yes', label: yes },
        { value: 'no', label: no },
      ]}
      value={value === undefined ? 'any' : value ? 'yes' : 'no'}
      onChange={(v) => onChange(v === 'yes' ? true : v === 'no' ? false : undefined)}
    />
  );
}

/** Every other filter: data holder, use case, access frequency, post-usage action, direct marketing, date ranges, webhook failures. */
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
  // A filter's value in the view, and the change that sets it.
  const field = <K extends keyof ConsentView>(key: K) => ({
    value: view[key],
    onChange: (value: ConsentView[K]) => onChange({ [key]: value }),
  });
  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="xs" verticalSpacing={6}>
      <AnyOf label="Data holder" searchable data={counted(options?.dataHolders)} {...field('dataHolderBrandIds')} />
      <AnyOf label="Use case" searchable data={counted(options?.useCases)} {...field('useCaseIds')} />
      <AnyOf label="Access frequency" data={enums(options?.accessFrequencies)} {...field('accessFrequencies')} />
      <AnyOf label="Post-usage action" data={enums(options?.postUsageActions)} {...field('postUsageActions')} />
      <YesNoFilter label="Direct marketing" yes="Allowed" no="Not allowed" {...field('directMarketing')} />
      <YesNoFilter label="Data collected" yes="At least once" no="Never" {...field('collected')} />
      <DaysFilter label="Created" {...field('created')} />
      <DaysFilter label="Sharing ends" {...field('sharingEnd')} />
      <DaysFilter label="Revoked" {...field('revoked')} />
      <WebhookFailuresFilter {...field('webhookFailures')} />
    </SimpleGrid>
  );
}
