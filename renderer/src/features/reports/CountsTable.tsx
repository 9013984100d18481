import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatCount } from '../../ui/format.js';
import { TableHead } from '../../ui/TableHead.js';

/** A count of a report: a part of the one above it is labelled "— …" and drawn indented. */
export interface CountRow {
  key: string;
  label: string;
  count: number;
  /** Where its records are (a route), or null. */
  to: string | null;
  note: string;
}

/**
 * A report's counts (the compliance report, the rule 9.4 report): each label, its count opening its
 * records, and a dimmed note (how it was counted); parts indented under their whole.
 */
export function CountsTable({
  label,
  columns,
  rows,
  testId,
}: {
  label: string;
  columns: [string, string, string];
  rows: readonly CountRow[];
  testId: (key: string) => string;
}) {
  return (
    <Table fz="sm" withTableBorder aria-label={label}>
      <TableHead columns={[columns[0], [columns[1], 110], columns[2]]} />
      <Table.Tbody>
        {rows.map((c) => {
          const part = c.label.startsWith('— ');
          const text = c.label.replace(/^— /, '');
          return (
            <Table.Tr key={c.key} data-testid={testId(c.key)}>
              <Table.Td fw={part ? 400 : 600} pl={part ? 'lg' : 'xs'}>
                {text}
              </Table.Td>
              <Table.Td>
                {c.to ? (
                  <Anchor component={Link} to={c.to} aria-label={`${text}: ${formatCount(c.count)} — open the records`}>
                    {formatCount(c.count)}
                  </Anchor>
                ) : (
                  formatCount(c.count)
                )}
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {c.note}
                </Text>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
