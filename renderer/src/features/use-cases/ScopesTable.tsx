import { Table, Text } from '@mantine/core';
import type { UseCase } from '../../../../shared/schemas/consent.js';
import { visibleText } from '../../../../shared/text/visible.js';
import { TableHead } from '../../ui/TableHead.js';

/**
 * A use case's scopes as a table: each scope's name and id, its purpose, its claims. `described`
 * adds each scope's description under its id (the consent page); `widths` are those of the scope
 * and claims columns.
 */
export function ScopesTable({
  scopes,
  label,
  widths = ['34%', '22%'],
  described = false,
}: {
  scopes: UseCase['scopes'];
  label: string;
  widths?: readonly [scope: string, claims: string];
  described?: boolean;
}) {
  return (
    <Table fz="sm" withTableBorder aria-label={label}>
      <TableHead columns={[['Scope', widths[0]], 'Purpose', ['Claims', widths[1]]]} />
      <Table.Tbody>
        {(scopes ?? []).map((s) => (
          <Table.Tr key={s.id} data-testid="scope-row">
            <Table.Td>
              <Text size="sm" fw={500}>
                {s.name ?? s.id}
              </Text>
              <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {s.id}
              </Text>
              {described && s.description ? (
                <Text size="xs" c="dimmed">
                  {s.description}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>{s.purpose ? visibleText(s.purpose) : '—'}</Table.Td>
            <Table.Td>{s.claims?.length ? s.claims.join(', ') : 'None listed'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
