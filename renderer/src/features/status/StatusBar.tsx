import { roleText } from '../../ui/glossary.js';
import { Button, Group, Menu, Popover, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronUp } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataView } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { VIEW_LABEL } from '../data/views.js';
import { formatAgo, formatCount, formatClock, formatLocalDateTime, plural } from '../../ui/format.js';
import { useSession } from '../../stores/session.js';
import { JobProgress } from '../../ui/jobs/JobProgress.js';
import { isEnded, useJobsStore } from '../../ui/jobs/jobs-store.js';
import { useAppStatus } from './app-status.js';
import { ENVIRONMENT_LABEL } from './environment.js';
import { ink } from '../../ui/ink.js';
import { signOut } from './sign-out.js';

const PHASE: Record<string, string> = {
  consents: 'consents',
  events: 'events',
  'use-cases': 'use cases',
  'data-holders': 'data holders',
  data: 'data',
  retention: 'retention',
};

/** A Data API kind as the data browser names it (scheduledPayments → scheduled payments). */
const words = (kind: string) => VIEW_LABEL[kind as DataView]?.toLowerCase() ?? kind;

function eta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '';
  if (seconds < 60) return `, ${seconds} s left`;
  return `, ${Math.round(seconds / 60)} min left`;
}

function JobsIndicator() {
  const jobs = Object.values(useJobsStore((s) => s.jobs)).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const open = jobs.filter((j) => !isEnded(j));
  if (jobs.length === 0) return null;
  return (
    <Popover position="top-end" withArrow shadow="md" width={520}>
      <Popover.Target>
        <UnstyledButton
          fz="xs"
          data-testid="status-jobs"
          aria-label={`Jobs: ${open.length} running or waiting, ${jobs.length} in all`}
          style={{ flexShrink: 0, whiteSpace: 'nowrap' }}
        >
          Jobs: <strong>{open.length ? `${open.length} open` : `${jobs.length} done`}</strong>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <ScrollArea.Autosize mah={520}>
          <Stack gap="md">
            {jobs.map((j) => (
              <JobProgress key={j.jobId} job={j} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * Signing out of a team server: this browser's session, or every session of the person (their
 * other browsers and devices too); then the sign-in page.
 */
function SignOutMenu() {
  const out = useMutation({
    mutationFn: (everywhere: boolean) => signOut(everywhere),
    onError: (e) => notifications.show({ color: 'red', title: 'Not signed out', message: e.message, autoClose: false }),
  });
  return (
    <Menu position="top-end" shadow="md" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          size="compact-xs"
          variant="default"
          loading={out.isPending}
          rightSection={<IconChevronUp size={12} aria-hidden />}
          style={{ flexShrink: 0 }}
        >
          Sign out
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => out.mutate(false)}>Sign out</Menu.Item>
        <Menu.Item onClick={() => out.mutate(true)} title="Also in every other browser you signed in with">
          Sign out everywhere
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** How the status bar names what serves the console. */
const HOST_NAMES: Record<string, string> = { browser: 'browser host', team: 'team server', electron: 'desktop', cli: 'command line' };

/**
 * The bar is one line: an item never wraps (at 1,400 px a team server's bar once broke every item
 * over two lines); when they do not all fit, these give up their width first, cut with an ellipsis
 * (the whole text in their title or tooltip), and the others after them.
 */
const GIVES_WAY = { flexShrink: 1 } as const;
/**
 * The last sync, the team and who is signed in keep their width (as the buttons do): shrunk by even a
 * fraction of a pixel, a text is cut with an ellipsis ("just n…"). A sync's progress (long, and
 * changing every second) gives way, so Sign out is never pushed out of the bar.
 */
const KEEPS_WIDTH = { flexShrink: 0 } as const;

/**
 * Always at the bottom: profile and environment, the sync (its phase, progress, rate and time
 * left, with Cancel; or when the last one ended and what failed; Sync now), the jobs running in
 * main, whether the intermediary is reachable (with a check), how secrets are kept, and who is
 * signed in with which role (team mode).
 * Shown once the first screen has shown its rows (app/AppLayout.tsx, ui/first-screen.ts), its code loaded then.
 */
export function StatusBar() {
  const client = useClient();
  const queries = useQueryClient();
  const connection = useSession((s) => s.connection);
  const progress = useSession((s) => s.syncProgress);
  const status = useAppStatus();
  const s = status.data;
  const sync = useMutation({
    mutationFn: () => client.syncStart({}),
    onSuccess: (summary) =>
      notifications.show({
        color: summary.failures.length ? 'orange' : 'teal',
        title: summary.failures.length ? 'Sync finished with failures' : 'Sync finished',
        message: `${plural(summary.consents.fetched, 'consent')} (${formatCount(summary.consents.new)} new, ${formatCount(summary.consents.changed)} changed), ${plural(summary.events.new, 'new event')}.${summary.failures.map((f) => ` ${f.phase}: ${f.reason}`).join('')}`,
      }),
    onError: (e) => {
      if (!/cancelled/i.test(e.message)) notifications.show({ color: 'red', title: 'Sync failed', message: e.message, autoClose: false });
    },
    onSettled: () => void queries.invalidateQueries({ queryKey: ['app:status'] }),
  });
  const cancel = useMutation({ mutationFn: () => client.syncCancel({}) });
  const check = useMutation({
    mutationFn: () => client.profilesTest({}),
    onSuccess: (r) => {
      void queries.invalidateQueries({ queryKey: ['app:status'] });
      notifications.show({
        color: r.ok ? 'teal' : 'red',
        title: r.ok ? 'The intermediary is reachable' : 'The intermediary cannot be used',
        message: r.steps.map((step) => `${step.ok ? '✓' : '✗'} ${step.step}: ${step.detail}`).join(' · '),
      });
    },
  });

  let online: { label: string; colour: string; detail: string };
  if (connection !== 'connected')
    online = { label: 'Disconnected', colour: 'red', detail: 'The connection to the console host was lost; reconnecting.' };
  else if (!s) online = { label: '…', colour: 'gray', detail: '' };
  else if (s.online) online = { label: 'Online', colour: 'teal', detail: 'The last call to the intermediary succeeded.' };
  // Not reached yet, and nothing failed: not "Offline" (the embedded sandbox, say, before its first sync).
  else if (!s.lastSyncError && !s.lastSyncAt)
    online = {
      label: 'Not reached yet',
      colour: 'gray',
      detail: 'The intermediary has not been asked anything yet: Check connection asks it now.',
    };
  else
    online = {
      label: 'Offline',
      colour: 'orange',
      detail: s.lastSyncError ?? 'The intermediary has not been reached yet; showing cached data.',
    };
  const syncing = progress !== null || sync.isPending;
  // A team server: the sync may run on another server of the team (its progress reaches every console).
  const elsewhere = s?.team?.syncingOn ?? null;

  return (
    <Group h="100%" px="md" gap="sm" wrap="nowrap" role="status" aria-label="Status bar" fz="xs" style={{ overflow: 'hidden' }}>
      <Text size="xs" truncate="end" style={GIVES_WAY} title={s ? `Profile: ${s.profile.name}` : undefined}>
        Profile: <strong data-testid="status-profile">{s?.profile.name ?? '…'}</strong>
      </Text>
      <Text size="xs" truncate="end" style={GIVES_WAY} title={s ? `Environment: ${ENVIRONMENT_LABEL[s.profile.environment]}` : undefined}>
        Environment: <strong data-testid="status-environment">{s ? ENVIRONMENT_LABEL[s.profile.environment] : '…'}</strong>
      </Text>
      <Text
        size="xs"
        truncate="end"
        title={s?.lastSyncAt ?? undefined}
        data-testid="status-sync"
        style={progress ? GIVES_WAY : KEEPS_WIDTH}
      >
        {progress ? (
          <>
            Syncing {PHASE[progress.phase] ?? progress.phase}
            {progress.phase === 'data' && progress.message ? ` (${words(progress.message)})` : ''}:{' '}
            <strong data-testid="status-last-sync">
              {formatCount(progress.done)}
              {progress.total !== null ? ` of ${formatCount(progress.total)}` : ''}
            </strong>
            {progress.rate ? ` · ${formatCount(Math.round(progress.rate))}/s${eta(progress.etaSeconds)}` : ''}
            {elsewhere ? <span data-testid="status-sync-elsewhere"> · on {elsewhere}</span> : null}
          </>
        ) : (
          <>
            Last sync: <strong data-testid="status-last-sync">{formatAgo(s?.lastSyncAt ?? null)}</strong>
          </>
        )}
      </Text>
      {syncing && elsewhere ? (
        <Tooltip label={`The sync runs on ${elsewhere}: it can be cancelled there.`} withArrow multiline w={320}>
          <Button
            size="compact-xs"
            variant="default"
            data-disabled
            aria-disabled
            aria-label={`Cancel sync (it runs on ${elsewhere})`}
            onClick={(e) => e.preventDefault()}
            style={{ flexShrink: 0 }}
          >
            Cancel sync
          </Button>
        </Tooltip>
      ) : syncing ? (
        <Button size="compact-xs" variant="default" onClick={() => cancel.mutate()} loading={cancel.isPending} style={{ flexShrink: 0 }}>
          Cancel sync
        </Button>
      ) : (
        <Button
          size="compact-xs"
          variant="default"
          onClick={() => sync.mutate()}
          disabled={connection !== 'connected'}
          style={{ flexShrink: 0 }}
        >
          Sync now
        </Button>
      )}
      {s?.lastSyncError && !progress ? (
        <Tooltip label={s.lastSyncError} multiline w={420} withArrow>
          <Text size="xs" c={ink('red')} truncate="end" maw={320} tabIndex={0}>
            Last sync failed: {s.lastSyncError}
          </Text>
        </Tooltip>
      ) : null}
      {s?.team ? (
        <Text size="xs" truncate="end" data-testid="status-team" style={KEEPS_WIDTH}>
          Team: <strong>{s.team.servers === 1 ? '1 server' : `${s.team.servers} servers`}</strong>
        </Text>
      ) : null}
      {s?.team?.database?.state === 'unreachable' ? (
        // The server reconnects by itself; what the console shows stays as it was until then.
        <Tooltip
          label={`${s.team.database.problem ?? 'The team server cannot reach its database.'} Since ${formatLocalDateTime(s.team.database.since, true)}. What is shown is what the server had; it catches up when the database is back.`}
          withArrow
          multiline
          w={420}
        >
          <Text size="xs" c={ink('red')} fw={600} data-testid="status-team-database" tabIndex={0}>
            Team database unreachable since {formatClock(s.team.database.since)} — reconnecting
          </Text>
        </Tooltip>
      ) : null}
      <JobsIndicator />
      {s ? (
        <Tooltip label={s.keyStorage.description} withArrow multiline w={360}>
          <Text size="xs" truncate="end" style={GIVES_WAY} data-testid="status-key-storage" tabIndex={0}>
            Secrets: <strong>{s.keyStorage.kind === 'os-keychain' ? 'OS keychain' : 'key file (owner only)'}</strong>
          </Text>
        </Tooltip>
      ) : null}
      <Group gap={6} ml="auto" wrap="nowrap" style={{ flexShrink: 0 }}>
        <Tooltip label={online.detail} disabled={!online.detail} withArrow multiline w={360}>
          <Text size="xs" c={ink(online.colour)} fw={600} data-testid="status-online" tabIndex={0}>
            ● {online.label}
          </Text>
        </Tooltip>
        {s && !s.online && connection === 'connected' ? (
          <Button size="compact-xs" variant="subtle" onClick={() => check.mutate()} loading={check.isPending}>
            Check connection
          </Button>
        ) : null}
      </Group>
      {s?.user ? (
        <Text size="xs" truncate="end" data-testid="status-user" style={KEEPS_WIDTH}>
          Signed in as <strong>{s.user.displayName}</strong> · <span title={s.user.role}>{roleText(s.user.role)}</span>
        </Text>
      ) : null}
      {s?.user ? <SignOutMenu /> : null}
      <Text
        size="xs"
        c="dimmed"
        truncate="end"
        style={GIVES_WAY}
        title={s ? `v${s.appVersion} · ${HOST_NAMES[s.host] ?? s.host}` : undefined}
      >
        {s ? `v${s.appVersion} · ${HOST_NAMES[s.host] ?? s.host}` : ''}
      </Text>
    </Group>
  );
}
