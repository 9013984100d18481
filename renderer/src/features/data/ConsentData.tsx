import { Alert, Anchor, Badge, Button, Chip, Drawer, Group, MultiSelect, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  DATA_VIEWS,
  type DataConsentMeta,
  type DataRecordRow,
  type DataView,
  type TransactionFilter,
} from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { ChartPanel, PanelLineChart } from '../../ui/ChartPanel.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { enumText, formatCount, formatLocalDate, formatLocalDateTime, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { usePagedList } from '../../ui/table/useWindowedList.js';
import { WindowedTable } from '../../ui/table/WindowedTable.js';
import { Time } from '../../ui/Time.js';
import { useQueryParams } from '../../ui/url.js';
import { RecordSource } from '../products/RecordSource.js';
import { ProductTerms, ShapeBadge, type Note } from '../products/terms.js';
import { SyncJob, useDataSync } from './data-sync.js';
import { dayText } from './recurrence.js';
import { fieldOf, rowLabel, VIEW_COLUMNS, VIEW_LABEL } from './views.js';
import { unitText } from '../../ui/glossary.js';

/**
 * One consent's cached data, view by view: when it was fetched and whether any of it is stale;
 * what retention did to it (instead of an empty table); transactions searched and filtered with a
 * running balance; any record's normalised form beside the payload as sent with the normaliser's
 * notes (accounts: their fees and rates drawn like products'); energy usage as a chart.
 */
const isView = (v: string | null): v is DataView => !!v && (DATA_VIEWS as readonly string[]).includes(v);

function txFilterOf(p: URLSearchParams): TransactionFilter {
  const f: TransactionFilter = {};
  const get = (k: string) => p.get(k) ?? undefined;
  if (get('q')) f.search = get('q')!;
  if (get('account')) f.accountIds = [get('account')!];
  if (get('from')) f.fromDay = get('from')!;
  if (get('to')) f.toDay = get('to')!;
  if (get('min')) f.minAmount = get('min')!;
  if (get('max')) f.maxAmount = get('max')!;
  if (get('type')) f.types = get('type')!.split(',');
  if (get('status')) f.statuses = get('status')!.split(',');
  return f;
}

export function ConsentData({ consentId }: { consentId: string }) {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const meta = useQuery({ queryKey: ['data:meta', consentId], queryFn: () => client.dataMeta({ consentId }) });
  const sync = useDataSync();
  const present = (meta.data?.kinds ?? []).map((k) => k.kind).filter(isView);
  const chosen = params.get('view');
  const view: DataView | undefined = isView(chosen) ? chosen : present.includes('accounts') ? 'accounts' : present[0];
  const setView = (v: string | null) =>
    setParams(() => {
      const n = new URLSearchParams();
      n.set('consent', consentId);
      if (v) n.set('view', v);
      return n;
    });

  if (meta.error) return <ErrorState title="The consent’s data could not be read" error={meta.error} />;
  if (!meta.data) return <LoadingState label="Reading the cache…" />;
  const m = meta.data;
  const c = m.consent;
  const stale = m.kinds.reduce((a, k) => a + k.stale, 0);
  const lastRetention = m.retention.at(-1);
  return (
    <Stack h="100%" gap="xs">
      <ScreenHeader
        back={{ to: '/data', label: 'All cached data' }}
        title={`Data of ${c?.consumerEmail ?? c?.consumerId ?? 'a consent'}`}
        description={
          <>
            Consent{' '}
            <Anchor component={Link} to={`/consents/${encodeURIComponent(consentId)}`} size="sm" underline="always">
              {consentId}
            </Anchor>
            {c
              ? ` · ${c.dataHolderName ?? c.dataHolderBrandId ?? 'unknown data holder'} · ${enumText(c.status)} · post-usage action ${enumText(c.postUsageAction)}`
              : ' (not in the cache)'}
          </>
        }
        actions={
          <Button
            size="xs"
            variant="default"
            disabled={sync.running || c?.status !== 'ACTIVE'}
            title={c?.status !== 'ACTIVE' ? 'Data is fetched for ACTIVE consents only' : undefined}
            onClick={() => void sync.start({ consentIds: [consentId] })}
          >
            Sync this consent’s data
          </Button>
        }
      >
        <Text size="sm" data-testid="data-fetched">
          {m.lastFetchedAt ? (
            <>
              Fetched <Time iso={m.lastFetchedAt} focusable /> (its last data sync) from consent {consentId}.
            </>
          ) : (
            'No data of this consent is cached.'
          )}{' '}
          {stale ? (
            <Badge color="orange" variant="light">
              {plural(stale, 'stale record')}: fetched by an earlier sync
            </Badge>
          ) : null}
        </Text>
        {m.history ? (
          <Text size="sm" data-testid="data-history">
            Transactions held: {formatLocalDate(m.history.from)} – {formatLocalDate(m.history.to)}{' '}
            <Text span size="sm" c="dimmed">
              (from the consent’s start less{' '}
              {m.history.assumed
                ? `seven years: its use case does not say how far back it may collect`
                : `its use case’s ${plural(m.history.days, 'day')} of history`}
              , to its last data sync)
            </Text>
          </Text>
        ) : null}
      </ScreenHeader>
      <SyncJob sync={sync} />
      {lastRetention ? (
        <Alert
          color={lastRetention.action === 'deleted' ? 'gray' : 'blue'}
          title={retentionTitle(lastRetention)}
          data-testid="retention-notice"
        >
          {lastRetention.records
            ? `${plural(lastRetention.records, 'record')} (${lastRetention.kinds.split(',').join(', ')})`
            : 'Its records'}{' '}
          {lastRetention.action === 'deleted'
            ? 'were deleted from the cache; the record of the deletion is kept (audit log).'
            : 'were de-identified: they are kept without anything that identifies the consumer or the accounts, and no longer belong to this consent.'}
        </Alert>
      ) : null}
      {present.length === 0 ? (
        lastRetention ? null : (
          <EmptyState title="No Data API records of this consent are cached">
            {c?.status === 'ACTIVE' ? 'Sync its data to browse it here.' : 'Data is fetched for ACTIVE consents only.'}
          </EmptyState>
        )
      ) : (
        <Tabs
          value={view ?? null}
          onChange={setView}
          keepMounted={false}
          style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
        >
          <Tabs.List>
            {DATA_VIEWS.filter((v) => present.includes(v)).map((v) => {
              const k = m.kinds.find((x) => x.kind === v)!;
              return (
                <Tabs.Tab key={v} value={v}>
                  {VIEW_LABEL[v]} ({formatCount(k.count)})
                </Tabs.Tab>
              );
            })}
          </Tabs.List>
          {view ? (
            <Tabs.Panel value={view} pt="xs" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
              <RecordsView key={view} consentId={consentId} kind={view} meta={m} />
            </Tabs.Panel>
          ) : null}
        </Tabs>
      )}
    </Stack>
  );
}

export function retentionTitle(r: DataConsentMeta['retention'][number]): string {
  return `${r.action === 'deleted' ? 'Deleted' : 'De-identified'} on ${formatLocalDateTime(r.at)} because ${r.reason}`;
}

function RecordsView({ consentId, kind, meta }: { consentId: string; kind: DataView; meta: DataConsentMeta }) {
  const client = useClient();
  const [params] = useSearchParams();
  const filter = useMemo(() => (kind === 'transactions' ? txFilterOf(params) : undefined), [kind, params]);
  const input = { consentId, kind, ...(filter && Object.keys(filter).length ? { filter } : {}) };
  const { head, total, table } = usePagedList({
    key: ['data:records', input],
    read: (offset, limit) => client.dataRecords({ ...input, offset, limit }),
  });
  const [open, setOpen] = useState<DataRecordRow | null>(null);
  const k = meta.kinds.find((x) => x.kind === kind);
  // Transactions of several accounts: which account each is on.
  const columns = useMemo(() => {
    if (kind !== 'transactions' || meta.accounts.length < 2) return VIEW_COLUMNS[kind];
    const label = new Map(meta.accounts.map((a) => [a.accountId, a.label]));
    const account = {
      id: 'account',
      header: 'Account',
      width: 200,
      cell: (r: DataRecordRow) => label.get(String(fieldOf(r, 'accountId'))) ?? String(fieldOf(r, 'accountId') ?? '—'),
    };
    return [...VIEW_COLUMNS.transactions.slice(0, 2), account, ...VIEW_COLUMNS.transactions.slice(2)];
  }, [kind, meta.accounts]);
  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      <ListHeader
        range={
          <>
            {rangeLine(head, () => `${plural(total, 'record')}${filter && Object.keys(filter).length ? ' match these filters' : ''}`) ??
              'Reading…'}
            {k?.fetchedAt ? (
              <>
                {' '}
                · fetched <Time iso={k.fetchedAt} /> from consent {consentId}
              </>
            ) : null}
            {k?.stale ? ` · ${plural(k.stale, 'stale record')}` : ''}
          </>
        }
        rangeId="records-range"
        exportMenu={{
          channel: 'data:export',
          label: `Export all ${formatCount(total)} ${VIEW_LABEL[kind].toLowerCase()} of this view`,
          start: (format) => client.dataExport({ ...input, format }),
        }}
      />
      {kind === 'transactions' ? <TransactionFilters meta={meta} /> : null}
      {kind === 'usage' ? <UsageChart consentId={consentId} /> : null}
      {head.error ? <ErrorState title="The records could not be read" error={head.error} /> : null}
      <WindowedTable<DataRecordRow>
        label={VIEW_LABEL[kind]}
        {...table}
        columns={columns}
        rowId={(r) => r.recordId}
        rowLabel={(r) => rowLabel(kind, r)}
        rowTone={(r) => (r.stale ? 'warning' : undefined)}
        onOpen={(r) => setOpen(r)}
        empty={head.data ? <EmptyState title="No record matches">Change the filters.</EmptyState> : null}
      />
      <Drawer
        opened={!!open}
        onClose={() => setOpen(null)}
        position="right"
        size="xl"
        title={open ? `${VIEW_LABEL[kind]}: ${rowLabel(kind, open)}` : ''}
      >
        {open ? <RecordDetail row={open} /> : null}
      </Drawer>
    </Stack>
  );
}

function RecordDetail({ row }: { row: DataRecordRow }) {
  const notes = row.notes as unknown as Note[];
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm">
          Fetched <Time iso={row.fetchedAt} focusable />
        </Text>
        {row.stale ? (
          <Badge color="orange" variant="light">
            stale: the consent’s last sync did not return it
          </Badge>
        ) : null}
        <ShapeBadge shape={row.shape} />
        {row.runningBalance ? <Badge variant="light">Balance after: {row.runningBalance}</Badge> : null}
      </Group>
      {row.kind === 'accounts' ? <ProductTerms record={row.record} notes={notes} /> : null}
      <RecordSource record={row.record} raw={row.raw} notes={notes} shape={row.shape} />
    </Stack>
  );
}

/** The amount boxes of the transaction filters: typed freely, sent once they read as an amount. */
const AMOUNTS = [
  { key: 'min', label: 'Min amount', placeholder: '-100', example: 'e.g. -12.50' },
  { key: 'max', label: 'Max amount', placeholder: '0', example: 'e.g. 250' },
] as const;
const amountOk = (v: string) => v.trim() === '' || /^-?\d{1,12}(\.\d{1,2})?$/.test(v.trim());

function TransactionFilters({ meta }: { meta: DataConsentMeta }) {
  const [params, update] = useQueryParams();
  const set = (key: string, value: string | null | undefined, replace = false) => update({ [key]: value }, { replace });
  const [text, setText] = useState({ q: params.get('q') ?? '', min: params.get('min') ?? '', max: params.get('max') ?? '' });
  const push = useDebouncedCallback((key: string, value: string) => set(key, value.trim() || null, true), 250);
  const typed = (key: 'q' | 'min' | 'max', value: string) => {
    setText((t) => ({ ...t, [key]: value }));
    if (key === 'q' || amountOk(value)) push(key, value);
  };
  const statuses = (params.get('status') ?? '').split(',').filter(Boolean);
  const keys = ['q', 'account', 'from', 'to', 'min', 'max', 'type', 'status'];
  const clear = () => {
    setText({ q: '', min: '', max: '' });
    update(Object.fromEntries(keys.map((k) => [k, null])));
  };
  return (
    <FilterRow
      role="search"
      aria-label="Filter transactions"
      onClear={keys.some((k) => params.get(k)) ? clear : undefined}
      clearLabel="Clear filters"
    >
      <TextInput
        size="xs"
        w={220}
        type="search"
        label="Search descriptions"
        placeholder="e.g. woolworths"
        value={text.q}
        onChange={(e) => typed('q', e.currentTarget.value)}
      />
      <Select
        size="xs"
        w={220}
        label="Account"
        clearable
        placeholder="All accounts"
        value={params.get('account')}
        onChange={(v) => set('account', v)}
        data={meta.accounts.map((a) => ({ value: a.accountId, label: a.label }))}
      />
      {(['from', 'to'] as const).map((key) => (
        <TextInput
          key={key}
          size="xs"
          w={140}
          type="date"
          label={key === 'from' ? 'From day' : 'To day'}
          value={params.get(key) ?? ''}
          onChange={(e) => set(key, e.currentTarget.value)}
        />
      ))}
      {AMOUNTS.map(({ key, label, placeholder, example }) => (
        <TextInput
          key={key}
          size="xs"
          w={110}
          label={label}
          placeholder={placeholder}
          value={text[key]}
          error={amountOk(text[key]) ? undefined : example}
          onChange={(e) => typed(key, e.currentTarget.value)}
        />
      ))}
      <MultiSelect
        size="xs"
        w={240}
        label="Types"
        placeholder={params.get('type') ? undefined : 'All types'}
        clearable
        value={(params.get('type') ?? '').split(',').filter(Boolean)}
        onChange={(v) => set('type', v.join(','))}
        data={meta.transactionTypes.map((t) => ({ value: t, label: enumText(t) }))}
      />
      <Chip.Group multiple value={statuses} onChange={(v) => set('status', v.join(','))}>
        <Group gap={4} role="group" aria-label="Status">
          {meta.transactionStatuses.map((s) => (
            <Chip key={s} value={s} size="xs" variant="light">
              {enumText(s)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </FilterRow>
  );
}

const SERIES = ['indigo.6', 'teal.6', 'orange.7', 'grape.6'];

function UsageChart({ consentId }: { consentId: string }) {
  const client = useClient();
  const reads = useQuery({
    queryKey: ['data:records', { consentId, kind: 'usage' }, 'chart'],
    queryFn: () => client.dataRecords({ consentId, kind: 'usage', offset: 0, limit: 200 }),
  });
  const byDay = new Map<string, Record<string, number>>();
  const points = new Set<string>();
  for (const r of reads.data?.rows ?? []) {
    const day = String(fieldOf(r, 'readStartDate') ?? '');
    const point = String(fieldOf(r, 'servicePointId') ?? '?');
    const value = Number(fieldOf(r, 'basicRead.value'));
    if (!day || !Number.isFinite(value)) continue;
    points.add(point);
    const d = byDay.get(day) ?? {};
    d[point] = Math.round(((d[point] ?? 0) + value) * 100) / 100;
    byDay.set(day, d);
  }
  const data = [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, v]) => ({ day, label: dayText(day) ?? day, ...v }));
  const unit = unitText(String(fieldOf(reads.data?.rows[0] ?? ({ record: {} } as DataRecordRow), 'unitOfMeasure') ?? 'KWH'));
  return (
    <ChartPanel
      title="Usage over time"
      description={`${unit} per day and service point${(reads.data?.total ?? 0) > 200 ? ' (the first 200 reads; export for all)' : ''}.`}
      rows={data}
      columns={[
        { key: 'day', label: 'Day', value: (d) => d.label },
        ...[...points].map((p) => ({
          key: p,
          label: `${p} (${unit})`,
          value: (d: (typeof data)[number]) => String((d as Record<string, unknown>)[p] ?? '—'),
        })),
      ]}
      empty="No usage reads cached."
      chart={
        <PanelLineChart
          h={180}
          data={data}
          dataKey="label"
          series={[...points].map((p, i) => ({ name: p, color: SERIES[i % SERIES.length]! }))}
        />
      }
    />
  );
}
