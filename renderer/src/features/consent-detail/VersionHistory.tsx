import { Badge, Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { ConsentDetail } from '../../../../shared/ipc/contract.js';
import { diffVersions, valueText } from '../../../../shared/consents/diff.js';
import { visibleText } from '../../../../shared/text/visible.js';
import { EmptyState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';

/** Every version of the consent the cache has seen, newest first, each with what changed field by field. */
const KIND_COLOUR = { added: 'teal', removed: 'red', changed: 'blue' } as const;

export function VersionHistory({ versions }: { versions: ConsentDetail['versions'] }) {
  if (versions.length === 0) return <EmptyState title="No versions cached">Sync to fetch this consent.</EmptyState>;
  const newestFirst = versions.map((v, i) => ({ v, i })).reverse();
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {versions.length === 1
          ? 'One version seen so far: the cache keeps every distinct payload the intermediary sends.'
          : `${versions.length} versions seen. Each lists what changed from the one before.`}
      </Text>
      {newestFirst.map(({ v, i }) => {
        const changes = i === 0 ? [] : diffVersions(versions[i - 1]!.consent, v.consent);
        return (
          <Paper key={`${i}-${v.seenAt}`} withBorder p="sm" component="section" aria-label={`Version ${v.version ?? '?'} seen ${v.seenAt}`}>
            <Group justify="space-between" mb={6}>
              <Group gap="xs">
                <Text fw={600} size="sm">
                  Version {v.version ?? 'unknown'}
                </Text>
                {i === versions.length - 1 ? (
                  <Badge size="xs" variant="light">
                    current
                  </Badge>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed">
                seen <Time iso={v.seenAt} seconds focusable />
              </Text>
            </Group>
            {i === 0 ? (
              <Text size="sm" c="dimmed">
                The first version the cache saw.
              </Text>
            ) : changes.length === 0 ? (
              <Text size="sm" c="dimmed">
                No field changed (the payload differed only in order).
              </Text>
            ) : (
              <Table fz="xs" withTableBorder aria-label={`Changes in version ${v.version ?? '?'}`}>
                <TableHead columns={[['Field', '28%'], 'Before', 'After']} />
                <Table.Tbody>
                  {changes.map((ch) => (
                    <Table.Tr key={ch.path}>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Badge size="xs" variant="light" color={KIND_COLOUR[ch.kind]}>
                            {ch.kind}
                          </Badge>
                          <Code>{ch.path}</Code>
                        </Group>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="xs" td={ch.kind !== 'added' ? 'line-through' : undefined} c="dimmed" span>
                          {visibleText(valueText(ch.before))}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="xs" fw={500} span>
                          {visibleText(valueText(ch.after))}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
