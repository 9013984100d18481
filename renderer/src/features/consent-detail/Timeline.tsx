import { Badge, Button, Chip, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { ConsentDetail } from '../../../../shared/ipc/contract.js';
import { visibleText } from '../../../../shared/text/visible.js';
import { Copy } from '../../ui/Copy.js';
import { enumText } from '../../ui/format.js';
import { EmptyState } from '../../ui/states.js';
import { Time } from '../../ui/Time.js';
import { ink } from '../../ui/ink.js';
import { auditActionText, eventTerm } from '../../ui/glossary.js';

/**
 * One timeline of a consent, newest first: its events (eventDetail in full, wrapped, copyable;
 * webhook failures marked), what staff did to it (the audit log) and what retention did to its
 * data. Filter by kind.
 */
export type TimelineEntry =
  | { kind: 'event'; at: string; key: string; type: string; detail: string | null; eventId: string }
  | { kind: 'staff'; at: string; key: string; action: string; operator: string; reason: string | null; result: string; seq: number }
  | { kind: 'retention'; at: string; key: string; action: string; records: number; kinds: string; reason: string };

const FAILURES = new Set(['WEBHOOK_SENDING_FAILED', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'WEBHOOK_MAX_RETRIES_REACHED']);
export const STAFF = 'Staff actions';
export const RETENTION = 'Retention';

export function timelineOf(detail: ConsentDetail): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...detail.events.map((e) => ({
      kind: 'event' as const,
      at: e.timestamp,
      key: `e-${e.eventId}`,
      type: e.eventType,
      detail: e.eventDetail,
      eventId: e.eventId,
    })),
    ...detail.audit.map((a) => ({
      kind: 'staff' as const,
      at: a.at,
      key: `a-${a.seq}`,
      action: a.action,
      operator: a.operator,
      reason: a.reason,
      result: a.result,
      seq: a.seq,
    })),
    ...detail.retention.map((r, i) => ({
      kind: 'retention' as const,
      at: r.at,
      key: `r-${i}`,
      action: r.action,
      records: r.records,
      kinds: r.kinds,
      reason: r.reason,
    })),
  ];
  return entries.sort((a, b) => b.at.localeCompare(a.at) || a.key.localeCompare(b.key));
}

const categoryOf = (e: TimelineEntry) => (e.kind === 'event' ? e.type : e.kind === 'staff' ? STAFF : RETENTION);
const PAGE = 200;

export function Timeline({ detail }: { detail: ConsentDetail }) {
  const entries = useMemo(() => timelineOf(detail), [detail]);
  const categories = useMemo(() => [...new Set(entries.map(categoryOf))].sort(), [entries]);
  const [shown, setShown] = useState<string[]>([]);
  const [limit, setLimit] = useState(PAGE);
  const visible = entries.filter((e) => shown.length === 0 || shown.includes(categoryOf(e)));
  if (entries.length === 0)
    return <EmptyState title="Nothing has happened to this consent yet">Events arrive with the next sync.</EmptyState>;
  return (
    <Stack gap="sm">
      <Group gap={6} role="group" aria-label="Show in the timeline">
        <Text size="sm" fw={500} aria-hidden>
          Show
        </Text>
        <Chip.Group multiple value={shown} onChange={setShown}>
          {categories.map((c) => (
            <Chip key={c} value={c} size="xs" variant="light" color={FAILURES.has(c) ? 'red' : 'indigo'}>
              {c === STAFF || c === RETENTION ? c : enumText(c)} ({entries.filter((e) => categoryOf(e) === c).length})
            </Chip>
          ))}
        </Chip.Group>
        {shown.length ? (
          <Button size="compact-xs" variant="subtle" onClick={() => setShown([])}>
            Show all
          </Button>
        ) : null}
      </Group>
      <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Timeline, newest first">
        {visible.slice(0, limit).map((e) => (
          <Paper
            key={e.key}
            component="li"
            withBorder
            p="xs"
            data-testid="timeline-entry"
            data-kind={e.kind}
            data-type={e.kind === 'event' ? e.type : e.kind === 'staff' ? e.action : e.action}
            style={e.kind === 'event' && FAILURES.has(e.type) ? { borderLeft: '4px solid var(--mantine-color-red-filled)' } : undefined}
          >
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Group gap="xs" wrap="nowrap">
                {e.kind === 'event' ? (
                  <Badge size="sm" variant="light" color={eventTerm(e.type).pill} title={e.type}>
                    {eventTerm(e.type).words}
                  </Badge>
                ) : e.kind === 'staff' ? (
                  <Badge size="sm" variant="outline" color="violet" title={e.action}>
                    Staff: {auditActionText(e.action)}
                  </Badge>
                ) : (
                  <Badge size="sm" variant="outline" color="orange">
                    Retention: {e.action}
                  </Badge>
                )}
                {e.kind === 'event' && FAILURES.has(e.type) ? (
                  <Text size="xs" c={ink('red')} fw={600}>
                    Webhook failure
                  </Text>
                ) : null}
                {e.kind === 'staff' ? <Text size="sm">{e.operator}</Text> : null}
              </Group>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                <Time iso={e.at} seconds focusable />
              </Text>
            </Group>
            {e.kind === 'event' && e.detail ? (
              <Group gap={4} wrap="nowrap" align="flex-start" mt={6}>
                <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} aria-label="Event detail">
                  {visibleText(e.detail)}
                </Code>
                <Copy value={e.detail} label="Copy the event detail" />
              </Group>
            ) : null}
            {e.kind === 'staff' ? (
              <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
                {e.reason ? (
                  <>
                    Reason: <strong>{visibleText(e.reason)}</strong> ·{' '}
                  </>
                ) : null}
                Result: {visibleText(e.result)}
              </Text>
            ) : null}
            {e.kind === 'retention' ? (
              <Text size="sm" mt={4}>
                {e.records} records ({e.kinds}) — {e.reason}
              </Text>
            ) : null}
          </Paper>
        ))}
      </Stack>
      {visible.length > limit ? (
        <Button variant="default" size="xs" onClick={() => setLimit((l) => l + PAGE)}>
          Show {Math.min(PAGE, visible.length - limit)} more of {visible.length - limit}
        </Button>
      ) : null}
    </Stack>
  );
}
