import { Table, Text, UnstyledButton } from '@mantine/core';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { ConsentRow, ConsentSortField, SortDirection } from '../../../shared/ipc/contract.js';
import { DateTime } from '../components/DateTime.js';
import { StatusBadge } from '../components/StatusBadge.js';
import classes from './ConsentTable.module.css';

/**
 * One page of consents. Sorting and paging happen in main (the cache), so the table is told
 * the order and only reports clicks; rows are virtualised so a 500-row page stays light.
 */
const ROW_HEIGHT = 34;
const column = createColumnHelper<ConsentRow>();

/** Text cut to its column shows the whole value on hover. */
function Truncated({ text }: { text: string | null }) {
  return text ? <span title={text}>{text}</span> : <span aria-label="none">—</span>;
}

const COLUMNS = [
  column.accessor('status', { id: 'status', header: 'Status', size: 120, cell: (c) => <StatusBadge status={c.getValue()} /> }),
  column.accessor('consumerEmail', {
    id: 'consumerEmail',
    header: 'Consumer e-mail',
    size: 300,
    cell: (c) => <Truncated text={c.getValue()} />,
  }),
  column.accessor('dataHolderName', {
    id: 'dataHolderName',
    header: 'Data holder',
    size: 190,
    cell: (c) => <Truncated text={c.getValue()} />,
  }),
  column.accessor('useCaseName', { id: 'useCaseName', header: 'Use case', size: 220, cell: (c) => <Truncated text={c.getValue()} /> }),
  column.accessor('created', { id: 'created', header: 'Created', size: 170, cell: (c) => <DateTime iso={c.getValue()} /> }),
  column.accessor('sharingEndDate', {
    id: 'sharingEndDate',
    header: 'Sharing end date',
    size: 150,
    cell: (c) => <DateTime iso={c.getValue()} dateOnly />,
  }),
];

export interface ConsentTableProps {
  rows: ConsentRow[];
  sort: { field: ConsentSortField; direction: SortDirection };
  onSort(field: ConsentSortField): void;
  busy?: boolean;
}

export function ConsentTable({ rows, sort, onSort, busy = false }: ConsentTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const table = useReactTable({
    data: rows,
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.consentId,
    manualSorting: true,
    manualPagination: true,
  });
  const tableRows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // Render everything when the environment cannot measure (tests); real windows virtualise.
    initialRect: { width: 1200, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <div ref={scrollRef} className={classes.scroll} aria-busy={busy} data-testid="consent-table-scroll">
      <Table
        stickyHeader
        highlightOnHover
        striped
        withColumnBorders={false}
        verticalSpacing={6}
        fz="sm"
        className={classes.table}
        aria-label="Consents"
        aria-rowcount={rows.length + 1}
      >
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => {
                const field = header.column.id as ConsentSortField;
                const active = sort.field === field;
                const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
                return (
                  <Table.Th key={header.id} style={{ width: header.getSize() }} aria-sort={ariaSort}>
                    <UnstyledButton onClick={() => onSort(field)} className={classes.sortButton} data-active={active || undefined}>
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <span aria-hidden className={classes.sortMark}>
                        {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
                      </span>
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {padTop > 0 && (
            <tr aria-hidden>
              <td colSpan={COLUMNS.length} style={{ height: padTop, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const row = tableRows[item.index]!;
            return (
              <Table.Tr key={row.id} data-testid="consent-row" data-consent-id={row.id} style={{ height: ROW_HEIGHT }}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id} className={classes.cell}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden>
              <td colSpan={COLUMNS.length} style={{ height: padBottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && !busy ? (
        <Text ta="center" c="dimmed" py="xl">
          No consents in the cache yet. Sync to fetch them from the intermediary.
        </Text>
      ) : null}
    </div>
  );
}
