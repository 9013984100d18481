import { ActionIcon, Badge, Button, Drawer, Group, Indicator, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { AlertView } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useFirstScreenShown } from '../../ui/first-screen.js';
import { formatAgo } from '../../ui/format.js';
import { EmptyState, ErrorState } from '../../ui/states.js';
import { Time } from '../../ui/Time.js';

/** The alerts' reads start with this key: a change here or on another console (cache:changed alerts) reads them again. */
export const ALERTS_KEY = 'alerts:list';

/** The bell's name: what is new to this person, then what nobody has acknowledged. */
export function bellLabel(unread: number, attention: number): string {
  if (unread) return `Alerts: ${unread} new${attention ? `, ${attention} firing and not acknowledged` : ''}`;
  return attention ? `Alerts: ${attention} firing, not acknowledged` : 'Alerts: none needs attention';
}

/**
 * The notification centre (issue 38): a bell in the header with the number of alerts new to this
 * person (each person's own, on a team server too; red while one fires unacknowledged), and a panel
 * listing the alerts — firing first, each with what its rule found, since when, and who
 * acknowledged it — with Acknowledge, and a link to the rules in Settings. Opening the panel reads
 * what it shows: those new are marked so until it closes.
 */
export function AlertsBell() {
  const client = useClient();
  const queries = useQueryClient();
  const [opened, setOpened] = useState(false);
  // The alerts that were new when this person saw them in the open panel.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  // Read once the first screen has shown its rows: the bell is never in the first screen's way.
  const painted = useFirstScreenShown();
  const list = useQuery({
    queryKey: [ALERTS_KEY],
    queryFn: () => client.alertsList({ limit: 100 }),
    refetchInterval: 60_000,
    enabled: painted || opened,
  });
  const attention = list.data?.attention ?? 0;
  const unread = list.data?.unread ?? 0;
  useDesktopNotifications(list.data?.alerts);
  const markRead = useMutation({
    mutationFn: (ids: string[]) => client.alertsMarkRead({ ids }),
    onMutate: (ids) => setFresh((old) => new Set([...old, ...ids])),
    onSuccess: () => void queries.invalidateQueries({ queryKey: [ALERTS_KEY] }),
  });
  // What the open panel shows is read: marked so (the bell's count drops), and kept "New" here until it closes.
  const { mutate: read } = markRead;
  useEffect(() => {
    if (!opened || !list.data) return;
    const ids = list.data.alerts.filter((a) => a.unread).map((a) => a.id);
    if (ids.length) read(ids);
  }, [opened, list.data, read]);
  const label = bellLabel(unread, attention);
  return (
    <>
      <Tooltip label={label}>
        {/* The number new to this person; a red dot alone while an alert they have read still fires unacknowledged. */}
        <Indicator
          label={unread || undefined}
          size={unread ? 16 : 10}
          disabled={!unread && !attention}
          color={attention ? 'red' : 'blue'}
          offset={4}
        >
          <ActionIcon variant="subtle" aria-label={label} onClick={() => setOpened(true)}>
            <IconBell size={18} aria-hidden />
          </ActionIcon>
        </Indicator>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={() => {
          setOpened(false);
          setFresh(new Set());
        }}
        position="right"
        size="md"
        title="Alerts"
      >
        <DesktopSwitch />
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
            <AlertItem key={a.id} alert={a} fresh={fresh.has(a.id)} />
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

function AlertItem({ alert: a, fresh }: { alert: AlertView; fresh: boolean }) {
  const client = useClient();
  const queries = useQueryClient();
  const ack = useMutation({
    mutationFn: () => client.alertsAcknowledge({ id: a.id }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: [ALERTS_KEY] }),
  });
  const firing = a.state === 'firing';
  return (
    <li aria-label={`${a.title}: ${firing ? 'firing' : 'resolved'}${fresh ? ', new' : ''}`}>
      <Stack gap={4} p="xs" style={{ borderLeft: `3px solid var(--mantine-color-${firing ? 'red' : 'gray'}-filled)` }}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm">
            {a.title}
          </Text>
          {/* The badges keep their words: the title wraps instead. */}
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            {fresh ? (
              <Badge size="sm" variant="filled" color="blue">
                New
              </Badge>
            ) : null}
            <Badge size="sm" variant="light" color={firing ? 'red' : 'gray'}>
              {firing ? (a.silenced ? 'Firing · silenced' : 'Firing') : 'Resolved'}
            </Badge>
          </Group>
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

/** Whether this person asked for desktop notifications on this computer (kept by the browser). */
const DESKTOP_KEY = 'cdr-console.alerts.desktop';
const desktopSupported = () => typeof Notification !== 'undefined';
const desktopWanted = () => desktopSupported() && Notification.permission === 'granted' && localStorage.getItem(DESKTOP_KEY) === 'on';

/**
 * The desktop's own notifications (the Notification API: the operating system's, in the desktop
 * app and in a browser that allows them): one per alert that starts firing while the console is
 * open, never for the ones already firing when it opened.
 */
function useDesktopNotifications(alerts: readonly AlertView[] | undefined) {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!alerts) return;
    const firing = alerts.filter((a) => a.state === 'firing' && !a.acknowledgedAt && !a.silenced);
    const before = seen.current;
    seen.current = new Set(firing.map((a) => a.id));
    if (!before || !desktopWanted()) return;
    for (const a of firing) if (!before.has(a.id)) new Notification(`CDR Console: ${a.title}`, { body: a.summary, tag: a.id });
  }, [alerts]);
}

function DesktopSwitch() {
  const [on, setOn] = useState(desktopWanted);
  const [refused, setRefused] = useState(false);
  if (!desktopSupported()) return null;
  const toggle = async (want: boolean) => {
    if (want && Notification.permission !== 'granted' && (await Notification.requestPermission()) !== 'granted') {
      setRefused(true);
      return;
    }
    localStorage.setItem(DESKTOP_KEY, want ? 'on' : 'off');
    setRefused(false);
    setOn(want);
  };
  return (
    <Stack gap={2} mb="sm">
      <Switch label="Also tell me on this computer’s desktop" checked={on} onChange={(e) => void toggle(e.currentTarget.checked)} />
      {refused ? (
        <Text size="xs" c="dimmed">
          The browser did not allow notifications: allow them for this address in its site settings, then try again.
        </Text>
      ) : null}
    </Stack>
  );
}
