import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Channel } from '../../../shared/ipc/contract.js';
import { ExportMenu, type StartResult } from './export.js';
import { ScreenHeader } from './ScreenHeader.js';

/**
 * The top of a list screen: the title, the live range line under it ("1,234 events match this
 * view"; until the count is read, "Reading the cache…"), the screen's actions and, last, the export
 * of the whole view. The range line is announced politely as the view changes; `rangeId` is its
 * test id.
 *
 * Without a title it is the head of a list inside a screen (a tab's list): the range line and the
 * export on one line, centred on each other.
 */
/**
 * The range line of a list whose count keeps the previous view's answer while the next view is
 * counted (react-query's keepPreviousData): the line once this view is counted; "Counting the
 * matches…" meanwhile, as the kept count would claim the wrong matches under the new filters;
 * undefined (the header's "Reading…") before any count.
 */
export function rangeLine<T>(count: { data?: T; isPlaceholderData: boolean }, line: (data: NonNullable<T>) => ReactNode): ReactNode {
  const { data } = count;
  if (data === undefined || data === null) return undefined;
  return count.isPlaceholderData ? 'Counting the matches…' : line(data);
}

export function ListHeader({
  title,
  range,
  rangeId,
  reading = 'Reading the cache…',
  actions,
  exportMenu,
}: {
  title?: ReactNode;
  /** The range line; undefined while the count is being read. */
  range: ReactNode;
  rangeId: string;
  reading?: string;
  actions?: ReactNode;
  /** The export of the whole view: `channel` is the one `start` calls (its roles say who may). */
  exportMenu?: { label: string; channel: Channel; start(format: 'csv' | 'json'): Promise<StartResult> };
}) {
  const line = range === undefined ? reading : range;
  const exporter = exportMenu ? <ExportMenu label={exportMenu.label} channel={exportMenu.channel} start={exportMenu.start} /> : null;
  if (title === undefined)
    return (
      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid={rangeId}>
          {line}
        </Text>
        <Group gap="xs">
          {actions}
          {exporter}
        </Group>
      </Group>
    );
  return (
    <ScreenHeader
      title={title}
      description={line}
      descriptionProps={{ 'data-testid': rangeId, 'aria-live': 'polite' }}
      actions={
        <>
          {actions}
          {exporter}
        </>
      }
    />
  );
}
