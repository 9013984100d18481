import { Badge, Button, Chip, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import type { ProductFilter, ProductRow } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { CountChip } from '../../ui/CountChip.js';
import { useDebouncedText } from '../../ui/fields.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { enumText, formatCount, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { SelectionBar, useChosen } from '../../ui/SelectionBar.js';
import { usePagedList } from '../../ui/table/useWindowedList.js';
import { useQueryParams } from '../../ui/url.js';
import { NoCachedDataYet, SyncJob, useDataSync } from '../data/data-sync.js';
import { EmptyState, ErrorState } from '../../ui/states.js';
import { WindowedTable, type Column } from '../../ui/table/WindowedTable.js';
import { Time } from '../../ui/Time.js';
import { ShapeBadge } from './terms.js';

/**
 * The banking product catalogue from the cache: filter by data holder, category (chips with the
 * count each would show) and name; open one; choose 2 to 4 to compare side by side.
 */
const COLUMNS: Column<ProductRow>[] = [
  { id: 'name', header: 'Product', width: 240, cell: (p) => p.name ?? p.productId },
  { id: 'brandName', header: 'Data holder', width: 200, cell: (p) => p.brandName ?? '—' },
  { id: 'category', header: 'Category', width: 220, cell: (p) => enumText(p.category) },
  {
    id: 'shape',
    header: 'Source',
    width: 170,
    cell: (p) => (p.shape && p.shape !== 'data-api-2.0.0' ? <ShapeBadge shape={p.shape} /> : 'Data API 2.0.0'),
  },
  { id: 'versions', header: 'Versions', width: 90, cell: (p) => formatCount(p.versions) },
  { id: 'fetchedAt', header: 'Fetched', width: 170, cell: (p) => <Time iso={p.fetchedAt} /> },
];

export function productFilterOf(p: URLSearchParams): ProductFilter {
  const holder = p.get('holder');
  const category = p.get('category');
  const q = p.get('q');
  return {
    ...(holder ? { dataHolderBrandIds: [holder] } : {}),
    ...(category ? { categories: [category] } : {}),
    ...(q ? { search: q } : {}),
  };
}

export function ProductsScreen() {
  const client = useClient();
  const navigate = useNavigate();
  const [params, update] = useQueryParams();
  const filter = useMemo(() => productFilterOf(params), [params]);
  const set = (key: string, value: string | null) => update({ [key]: value });
  const search = useDebouncedText(params.get('q') ?? '', (q) => update({ q: q.trim() }, { replace: true }), 200);
  const sync = useDataSync();
  const { head, total, table } = usePagedList({
    key: ['products:list', filter],
    read: (offset, limit) => client.productsList({ filter, offset, limit }),
  });
  const { chosen, clear, selection } = useChosen<ProductRow>((p) => p.recordId, { headerLabel: 'Clear the products chosen to compare' });
  const categoryTotal = head.data?.categories.reduce((a, c) => a + c.count, 0) ?? 0;

  return (
    <Stack h="100%" gap="xs">
      <ListHeader
        title="Products"
        range={rangeLine(head, () => `${plural(total, 'product')} in this view, in the Data API 2.0.0 form`)}
        rangeId="products-range"
        exportMenu={{
          channel: 'products:export',
          label: `Export all ${formatCount(total)} products of this view`,
          start: (format) => client.productsExport({ filter, format }),
        }}
      />
      <FilterRow>
        <TextInput label="Search by name" size="xs" w={260} type="search" {...search.input} placeholder="e.g. saver" />
        <Select
          label="Data holder"
          size="xs"
          w={260}
          clearable
          searchable
          placeholder="All data holders"
          value={params.get('holder')}
          onChange={(v) => set('holder', v)}
          data={(head.data?.dataHolders ?? []).map((h) => ({ value: h.id, label: `${h.name || h.id} (${formatCount(h.count)})` }))}
        />
      </FilterRow>
      <Group gap={6} role="group" aria-label="Categories">
        <Chip size="xs" variant="light" checked={!params.get('category')} onChange={() => set('category', null)}>
          All {formatCount(categoryTotal)}
        </Chip>
        {(head.data?.categories ?? []).map((c) => (
          <CountChip
            key={c.category}
            label={enumText(c.category)}
            count={c.count}
            noun="products"
            checked={params.get('category') === c.category}
            onChange={() => set('category', params.get('category') === c.category ? null : c.category)}
          />
        ))}
      </Group>
      {chosen.length ? (
        <SelectionBar
          label="Chosen to compare"
          summary={`${plural(chosen.length, 'product')} chosen to compare${chosen.length > 4 ? ' (at most 4)' : ''}:`}
          onClear={clear}
        >
          {chosen.map((c) => (
            <Badge key={c.recordId} variant="light">
              {c.name} · {c.brandName}
            </Badge>
          ))}
          <Button
            size="xs"
            disabled={chosen.length < 2 || chosen.length > 4}
            onClick={() => navigate(`/products/compare?ids=${chosen.map((c) => encodeURIComponent(c.recordId)).join(',')}`)}
          >
            Compare {chosen.length}
          </Button>
        </SelectionBar>
      ) : null}
      <SyncJob sync={sync} />
      {head.error ? <ErrorState title="The products could not be read" error={head.error} /> : null}
      <WindowedTable<ProductRow>
        label="Products"
        {...table}
        columns={COLUMNS}
        rowId={(p) => p.recordId}
        rowLabel={(p) => `${p.name ?? p.productId} of ${p.brandName ?? 'unknown data holder'}`}
        onOpen={(p) => navigate(`/products/${encodeURIComponent(p.recordId)}`)}
        selection={selection}
        empty={
          head.data ? (
            Object.keys(filter).length ? (
              <EmptyState title="No product matches this view">Change or clear the search and the filters.</EmptyState>
            ) : (
              <NoCachedDataYet what="products" sync={sync} />
            )
          ) : null
        }
      />
    </Stack>
  );
}
