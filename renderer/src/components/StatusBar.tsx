import { Group, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../bridge/ClientContext.js';
import { formatAgo, formatCount } from '../format.js';
import { useSession } from '../stores/session.js';

const ENVIRONMENT_LABEL = { sandbox: 'Sandbox', nonprod: 'Non-production', prod: 'Production' } as const;

/** Profile, environment, last sync and online state: always visible at the bottom. */
export function StatusBar() {
  const client = useClient();
  const connection = useSession((s) => s.connection);
  const progress = useSession((s) => s.syncProgress);
  const status = useQuery({ queryKey: ['app:status'], queryFn: () => client.appStatus({}), refetchInterval: 30_000 });
  const s = status.data;

  let online: { label: string; colour: string; detail: string };
  if (connection !== 'connected')
    online = { label: 'Disconnected', colour: 'red', detail: 'The connection to the console host was lost; reconnecting.' };
  else if (!s) online = { label: '…', colour: 'gray', detail: '' };
  else if (s.online) online = { label: 'Online', colour: 'teal', detail: 'The last call to the intermediary succeeded.' };
  else
    online = {
      label: 'Offline',
      colour: 'orange',
      detail: s.lastSyncError ?? 'The intermediary has not been reached yet; showing cached data.',
    };

  return (
    <Group h="100%" px="md" gap="lg" wrap="nowrap" role="status" aria-label="Status bar" fz="xs">
      <Text size="xs">
        Profile: <strong data-testid="status-profile">{s?.profile.name ?? '…'}</strong>
      </Text>
      <Text size="xs">
        Environment: <strong data-testid="status-environment">{s ? ENVIRONMENT_LABEL[s.profile.environment] : '…'}</strong>
      </Text>
      <Text size="xs" title={s?.lastSyncAt ?? undefined}>
        Last sync:{' '}
        <strong data-testid="status-last-sync">
          {progress
            ? `syncing… ${formatCount(progress.done)}${progress.total !== null ? ` of ${formatCount(progress.total)}` : ''}`
            : formatAgo(s?.lastSyncAt ?? null)}
        </strong>
      </Text>
      {s?.lastSyncError && !progress ? (
        <Text size="xs" c="red.8" truncate="end" maw={420} title={s.lastSyncError}>
          Last sync failed: {s.lastSyncError}
        </Text>
      ) : null}
      {s ? (
        <Tooltip label={s.keyStorage.description} withArrow multiline w={360}>
          <Text size="xs" data-testid="status-key-storage">
            Secrets: <strong>{s.keyStorage.kind === 'os-keychain' ? 'OS keychain' : 'key file (owner only)'}</strong>
          </Text>
        </Tooltip>
      ) : null}
      <Tooltip label={online.detail} disabled={!online.detail} withArrow>
        <Text size="xs" ml="auto" c={`${online.colour}.8`} fw={600} data-testid="status-online">
          ● {online.label}
        </Text>
      </Tooltip>
      <Text size="xs" c="dimmed">
        {s ? `v${s.appVersion} · ${s.host === 'browser' ? 'browser host' : 'desktop'}` : ''}
      </Text>
    </Group>
  );
}
