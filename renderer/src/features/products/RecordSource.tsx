import { Code, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Note } from './terms.js';

/**
 * A record as the console reads it (the Data API 2.0.0 form) beside the payload its data holder
 * sent, with every note the normaliser left: one click from any product or cached record.
 */
export function RecordSource({
  record,
  raw,
  notes,
  shape,
}: {
  record: unknown;
  raw: unknown;
  notes: readonly Note[];
  shape?: string | null;
}) {
  const [view, setView] = useState<'side' | 'normalised' | 'raw'>('side');
  const block = (title: string, value: unknown) => (
    <Paper withBorder p="xs" component="section" aria-label={title}>
      <Title order={4} size="h6" mb={4}>
        {title}
      </Title>
      {/* Focusable, so the keyboard can scroll it. */}
      <div tabIndex={0} aria-label={`${title}, JSON`} style={{ maxHeight: 520, overflow: 'auto' }}>
        <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {JSON.stringify(value, null, 2)}
        </Code>
      </div>
    </Paper>
  );
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {shape ? `Arrived as ${shape}. ` : ''}
          {notes.length
            ? `${notes.length} note${notes.length === 1 ? '' : 's'} from the normaliser.`
            : 'The normaliser changed nothing it had to explain.'}
        </Text>
        <SegmentedControl
          size="xs"
          value={view}
          onChange={(v) => setView(v as typeof view)}
          aria-label="Show the record"
          data={[
            { value: 'side', label: 'Side by side' },
            { value: 'normalised', label: 'Normalised' },
            { value: 'raw', label: 'As sent' },
          ]}
        />
      </Group>
      {view === 'side' ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {block('Normalised (Data API 2.0.0)', record)}
          {block('As sent by the data holder', raw)}
        </SimpleGrid>
      ) : view === 'normalised' ? (
        block('Normalised (Data API 2.0.0)', record)
      ) : (
        block('As sent by the data holder', raw)
      )}
      {notes.length ? (
        <Paper withBorder p="xs" component="section" aria-label="Normaliser’s notes">
          <Title order={4} size="h6" mb={4}>
            Normaliser’s notes
          </Title>
          {notes.map((n, i) => (
            <Text key={i} size="xs">
              <code>{n.path}</code> ({n.kind}): {n.action} — {n.reason}
              {n.original !== undefined ? ` (sent: ${JSON.stringify(n.original)})` : ''}
            </Text>
          ))}
        </Paper>
      ) : null}
    </Stack>
  );
}
