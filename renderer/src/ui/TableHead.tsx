import { Table } from '@mantine/core';

/**
 * The header row of a small table that is not windowed (a dialog's facts, a report's counts, a
 * panel's list): each column's label, and its width where it has one (`['Scope', '30%']`).
 */
export type HeadColumn = string | readonly [label: string, width: number | string];

export function TableHead({ columns }: { columns: readonly HeadColumn[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <Table.Th key={c}>{c}</Table.Th>
          ) : (
            <Table.Th key={c[0]} w={c[1]}>
              {c[0]}
            </Table.Th>
          ),
        )}
      </Table.Tr>
    </Table.Thead>
  );
}
