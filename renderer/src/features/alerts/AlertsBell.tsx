import { ActionIcon, Badge, Button, Drawer, Group, Indicator, Stack, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AlertView } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useFirstScreenShown } from '../../ui/first-screen.js';
import { formatAgo } from '../../ui/format.js';
import { EmptyState, ErrorState } from '../../ui/states.js';
import { Time } from '../../ui/Time.js';

/** The alerts' reads start with this key: a change here or on another console (cache:changed alerts) reads them again. */
export const ALERTS_KEY = 'alerts:list';

/**
 * The notification centre (issue 38): a bell in the header with the number of firing alerts nobody
 * has acknowledged, and a panel listing the alerts — firing first, each with what its rule found,
 * since when, and who acknowledged it — with Acknowledge, and a link to the rules in Settings.
 */
export function AlertsBell() {
  const client = useClient();
  const [opened, setOpened] = useState(false);
  // Read once the first screen has shown its rows: the bell is never in the first screen's way.
  const painted = useFirstScreenShown();
  const list = useQuery({
    queryKey: [ALERTS_KEY],
    queryFn: () => client.alertsList({ limit: 100 }),
    refetchInterval: 60_000,
    enabled: painted || opened,
  });
  const attention = list.data?.attention ?? 0;
  const label = attention ? `Alerts: ${attention} firing, not acknowledged` : 'Alerts: none needs attention';
  return (
    <>
      <Tooltip label={label}>
        <Indicator label={attention} size={16} disabled={!attention} color="red" offset={4}>
          <ActionIcon variant="subtle" aria-label={label} onClick={() => setOpened(true)}>
            <IconBell size={18} aria-hidden />
          </ActionIcon>
        </Indicator>
      </Tooltip>
      <Drawer opened={opened} onClose={() => setOpened(false)} position="right" size="md" title="Alerts">
        {list.error ? <ErrorState title="The alerts could not be read" error={list.error} /> : null}
        {list.data && list.data.alerts.length === 0 ? (
          <EmptyState title="No alert">
            Alerts appear here when a rule fires.{' '}
            <Link to="/settings#alerts" onClick={() => setOpened(false)}>
              Alert rules
            </Link>{' '}
            are in Settings.
          </EmptyState>
        ) : null}
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Alerts">
          {(list.data?.alerts ?? []).map((a) => (
            <AlertItem key={a.id} alert={a} />
          ))}
        </Stack>
        {list.data?.alerts.length ? (
          <Text size="xs" c="dimmed" mt="md">
            <Link to="/settings#alerts" onClick={() => setOpened(false)}>
              Alert rules
            </Link>{' '}
            are in Settings; every alert, acknowledgement and silence is in the audit log.
          </Text>
        ) : null}
      </Drawer>
    </>
  );
}

function AlertItem({ alert: a }: { alert: AlertView }) {
  const client = useClient();
  const queries = useQueryClient();
  const ack = useMutation({
    mutationFn: () => client.alertsAcknowledge({ id: a.id }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: [ALERTS_KEY] }),
  });
  const firing = a.state === 'firing';
  return (
    <li aria-label={`${a.title}: ${firing ? 'firing' : 'resolved'}`}>
      <Stack gap={4} p="xs" style={{ borderLeft: `3px solid var(--mantine-color-${firing ? 'red' : 'gray'}-filled)` }}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm">
            {a.title}
          </Text>
          <Badge size="sm" variant="light" color={firing ? 'red' : 'gray'}>
            {firing ? (a.silenced ? 'Firing · silenced' : 'Firing') : 'Resolved'}
          </Badge>
        </Group>
        <Text size="sm">{a.summary}</Text>
        <Text size="xs" c="dimmed">
          {firing ? 'Since ' : 'From '}
          <Time iso={a.firstAt} />
          {a.resolvedAt ? (
            <>
              {' '}
              to <Time iso={a.resolvedAt} />
            </>
          ) : (
            ` (${formatAgo(a.firstAt)})`
          )}
          {' · '}
          {a.rule}
        </Text>
        {a.acknowledgedBy ? (
          <Text size="xs" c="dimmed">
            Acknowledged by {a.acknowledgedBy}, {formatAgo(a.acknowledgedAt)}
          </Text>
        ) : firing ? (
          <Group>
            <Button
              size="compact-xs"
              variant="default"
              loading={ack.isPending}
              onClick={() => ack.mutate()}
              aria-label={`Acknowledge: ${a.title}`}
            >
              Acknowledge
            </Button>
            {ack.error ? (
              <Text size="xs" c="red">
                {ack.error.message}
              </Text>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </li>
  );
}
