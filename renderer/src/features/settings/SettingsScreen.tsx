import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  List,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  useMantineColorScheme,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ProfileSummary } from '../../../../shared/ipc/contract.js';
import { knownTimeZones, machineTimeZone } from '../../../../shared/time/zone.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useSession } from '../../stores/session.js';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { ink } from '../../ui/ink.js';
import { Panel } from '../../ui/Panel.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { ErrorState, LoadingState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { useAppStatus } from '../status/app-status.js';
import { useCan } from '../status/can.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { ENVIRONMENT_LABEL } from '../status/environment.js';
import { ProfileForm } from './ProfileForm.js';
import { AlertRules } from '../alerts/AlertRules.js';
import { useSaveSettings, useSettings } from './settings.js';

/**
 * Settings: connection profiles (add, edit, remove, test each step, switch — the console reopens on
 * the other profile's cache), the operator's name, the sync schedule and whether Data API records
 * are synced, the theme, and resetting the cache (moved aside, never deleted).
 */
const ENV_COLOUR = { sandbox: 'teal', nonprod: 'yellow', prod: 'red' } as const;

function ProfileTest({ profile }: { profile: ProfileSummary }) {
  const client = useClient();
  const test = useMutation({ mutationFn: () => client.profilesTest({ id: profile.id }) });
  return (
    <Stack gap={4}>
      <Button
        size="compact-xs"
        variant="default"
        onClick={() => test.mutate()}
        loading={test.isPending}
        aria-label={`Test ${profile.name}`}
      >
        Test
      </Button>
      {test.data ? (
        <List size="xs" spacing={2} aria-label={`Test of ${profile.name}`}>
          {test.data.steps.map((s) => (
            <List.Item key={s.step} c={s.ok ? 'var(--cc-teal-light-text)' : 'var(--cc-red-light-text)'}>
              {s.ok ? '✓' : '✗'} {s.step}: {s.detail}
            </List.Item>
          ))}
        </List>
      ) : null}
      {test.error ? (
        <Text size="xs" c="var(--cc-red-light-text)">
          {test.error.message}
        </Text>
      ) : null}
    </Stack>
  );
}

const TEAM_PROFILE =
  'A team server serves one profile to the whole team, into one shared store: to change it, restart every server of the team with --profile.';

function Profiles() {
  const client = useClient();
  const queries = useQueryClient();
  const profiles = useQuery({ queryKey: ['profiles:list'], queryFn: () => client.profilesList({}) });
  const [editing, setEditing] = useState<ProfileSummary | 'new' | null>(null);
  const [removing, setRemoving] = useState<ProfileSummary | null>(null);
  const switched = useSession((s) => s.profileSwitch);
  const team = useAppStatus().data?.host === 'team';
  // Profiles and their credentials are an admin's: the others see them, and why they cannot change them.
  const canSave = useCan('profiles:save');
  const canRemove = useCan('profiles:remove');
  const canSwitch = useCan('profiles:switch');
  const switchTo = useMutation({
    mutationFn: (id: string) => client.profilesSwitch({ id }),
    onSuccess: () => notifications.show({ message: 'Opening the profile…', loading: true, autoClose: 2000 }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => client.profilesRemove({ id }),
    onSuccess: (list) => {
      queries.setQueryData(['profiles:list'], list);
      setRemoving(null);
    },
  });
  const makeDefault = useMutation({
    mutationFn: (p: ProfileSummary) =>
      client.profilesSave({
        id: p.id,
        name: p.name,
        environment: p.environment === 'prod' ? 'prod' : 'nonprod',
        consentApiBaseUrl: p.consentApiBaseUrl!,
        ...(p.dataApiBaseUrl ? { dataApiBaseUrl: p.dataApiBaseUrl } : {}),
        tokenUrl: p.tokenUrl!,
        clientId: p.clientId,
        authMethod: p.authMethod as 'client_secret_basic',
        ...(p.keyId ? { keyId: p.keyId } : {}),
        ...(p.algorithm ? { algorithm: p.algorithm as 'PS256' } : {}),
        scopes: p.scopes ?? [],
        ...(p.softwareProductId ? { softwareProductId: p.softwareProductId } : {}),
        ...(p.redirectUri ? { redirectUri: p.redirectUri } : {}),
        makeDefault: true,
      }),
    onSuccess: (list) => queries.setQueryData(['profiles:list'], list),
  });

  return (
    <Panel
      title="Connection profiles"
      aside={
        <Unavailable label="Add profile" reason={canSave.reason}>
          <Button size="xs" onClick={() => setEditing('new')} disabled={!canSave.allowed}>
            Add profile
          </Button>
        </Unavailable>
      }
    >
      {switched && !switched.ok ? (
        <Alert color="red" mb="xs" role="alert" title="The profile did not open">
          {switched.message}
        </Alert>
      ) : null}
      {profiles.error ? <ErrorState title="The profiles could not be read" error={profiles.error} /> : null}
      {!profiles.data ? (
        <LoadingState label="Reading the profiles…" />
      ) : (
        <Table fz="sm" withTableBorder verticalSpacing={6} aria-label="Profiles">
          <TableHead columns={['Profile', 'Intermediary', 'Client', 'Credential', ['Connection', 260], ['Actions', 220]]} />
          <Table.Tbody>
            {profiles.data.map((p) => (
              <Table.Tr key={p.id} data-testid={`profile-${p.id}`}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {p.name}
                  </Text>
                  <Group gap={4}>
                    <Badge size="xs" variant="light" color={ENV_COLOUR[p.environment]}>
                      {ENVIRONMENT_LABEL[p.environment]}
                    </Badge>
                    {p.isCurrent ? (
                      <Badge size="xs" variant="filled">
                        open
                      </Badge>
                    ) : null}
                    {p.isDefault ? (
                      <Badge size="xs" variant="outline">
                        default
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {p.embedded ? (
                    'The embedded sandbox'
                  ) : (
                    <>
                      <Text size="xs">{p.consentApiBaseUrl}</Text>
                      <Text size="xs" c="dimmed">
                        token: {p.tokenUrl}
                      </Text>
                    </>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{p.clientId}</Text>
                  <Text size="xs" c="dimmed">
                    {p.authMethod}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {p.embedded ? (
                    <Text size="xs">Demo credential</Text>
                  ) : p.hasCredential ? (
                    <Badge size="sm" variant="light" color="teal">
                      stored
                    </Badge>
                  ) : (
                    <Badge size="sm" variant="light" color="red">
                      missing
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{p.embedded ? <Text size="xs">Always reachable</Text> : <ProfileTest profile={p} />}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {!p.isCurrent ? (
                      <Unavailable label={`Switch to ${p.name}`} reason={team ? TEAM_PROFILE : canSwitch.reason}>
                        <Button
                          size="compact-xs"
                          onClick={() => switchTo.mutate(p.id)}
                          loading={switchTo.isPending && switchTo.variables === p.id}
                          disabled={team || !canSwitch.allowed}
                          aria-label={`Switch to ${p.name}`}
                        >
                          Switch to
                        </Button>
                      </Unavailable>
                    ) : null}
                    {!p.embedded ? (
                      <>
                        <Unavailable label={`Edit ${p.name}`} reason={canSave.reason}>
                          <Button
                            size="compact-xs"
                            variant="default"
                            onClick={() => setEditing(p)}
                            disabled={!canSave.allowed}
                            aria-label={`Edit ${p.name}`}
                          >
                            Edit
                          </Button>
                        </Unavailable>
                        {!p.isDefault ? (
                          <Unavailable label={`Make ${p.name} the default`} reason={canSave.reason}>
                            <Button
                              size="compact-xs"
                              variant="default"
                              onClick={() => makeDefault.mutate(p)}
                              disabled={!canSave.allowed}
                              aria-label={`Make ${p.name} the default`}
                            >
                              Make default
                            </Button>
                          </Unavailable>
                        ) : null}
                        {!p.isCurrent ? (
                          <Unavailable label={`Remove ${p.name}`} reason={canRemove.reason}>
                            <Button
                              size="compact-xs"
                              variant="default"
                              color="red"
                              onClick={() => setRemoving(p)}
                              disabled={!canRemove.allowed}
                              aria-label={`Remove ${p.name}`}
                            >
                              Remove
                            </Button>
                          </Unavailable>
                        ) : null}
                      </>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {switchTo.error ? (
        <Alert color="red" mt="xs" role="alert">
          {switchTo.error.message}
        </Alert>
      ) : null}
      {editing ? <ProfileForm editing={editing === 'new' ? null : editing} opened onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Remove this profile?"
        size="sm"
        action="Remove profile"
        onConfirm={() => removing && remove.mutate(removing.id)}
        mutation={remove}
      >
        “{removing?.name}” and its stored credential are removed. Its cache stays in the data directory until you delete it.
      </ConfirmDialog>
    </Panel>
  );
}

function OperatorName() {
  const client = useClient();
  const queries = useQueryClient();
  const operator = useQuery({ queryKey: ['operator:get'], queryFn: () => client.operatorGet({}) });
  const [name, setName] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (displayName: string) => client.operatorSet({ displayName }),
    onSuccess: (o) => {
      queries.setQueryData(['operator:get'], o);
      setName(null);
      notifications.show({ color: 'teal', message: 'Your name is saved: it is recorded with what you do from now on.' });
    },
  });
  const can = useCan('operator:set');
  const value = name ?? operator.data?.displayName ?? '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim().length >= 2) save.mutate(value.trim());
  };
  return (
    <form onSubmit={submit}>
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Your name in the audit log"
          description={can.reason ?? (operator.data ? `Recorded beside your computer account, ${operator.data.account}.` : undefined)}
          value={value}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={80}
          w={320}
          readOnly={!can.allowed}
          error={save.error?.message}
        />
        <Unavailable label="Save name" reason={can.reason}>
          <Button
            type="submit"
            size="sm"
            variant="default"
            loading={save.isPending}
            disabled={!can.allowed || name === null || value.trim().length < 2}
          >
            Save name
          </Button>
        </Unavailable>
      </Group>
    </form>
  );
}

/**
 * The desktop as a team server's client (issue 20): the address, checked by main (https, a CDR
 * Console team server answering), then the desktop starts again on that server's console, where
 * the person signs in. Console → Switch to solo mode (the app menu) comes back to this computer's
 * cache as it was.
 */
function ConnectTeamServer() {
  const client = useClient();
  const [url, setUrl] = useState('');
  const connect = useMutation({ mutationFn: (address: string) => client.clientConnect({ url: address }) });
  return (
    <Panel title="Team server">
      <Stack gap="xs">
        <Text size="sm">
          Connect this desktop to your team&rsquo;s server: it then shows the server&rsquo;s console, where you sign in, and keeps no
          intermediary credentials or data of its own while connected. This computer&rsquo;s own cache stays as it is; Console &rarr; Switch
          to solo mode brings it back.
        </Text>
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Team server address"
            placeholder="https://console.example.com"
            w={420}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
          <Button onClick={() => connect.mutate(url)} loading={connect.isPending} disabled={!url.trim()}>
            Connect to a team server
          </Button>
        </Group>
        {connect.error ? (
          <Text size="sm" c={ink('red')} role="alert">
            {connect.error.message}
          </Text>
        ) : null}
      </Stack>
    </Panel>
  );
}

/**
 * The console's time zone: the computer's, or one a person pins (a Perth agent working to Sydney's
 * calendar, a laptop on UTC). Every date, day, period and export follows it (shared/time/zone.ts).
 */
function TimeZoneSelect({ zone, onChange }: { zone: string | null; onChange(zone: string | null): void }) {
  const machine = machineTimeZone();
  const [zones] = useState(() => knownTimeZones().filter((z) => z !== machine));
  return (
    <ChoiceSelect
      label="Time zone"
      description="Dates, days, periods and exports are in this zone. Exports also give each time in UTC."
      w={420}
      searchable
      nothingFoundMessage="No time zone by that name"
      data={[{ value: MACHINE, label: `This computer’s (${machine})` }, ...zones.map((z) => ({ value: z, label: z.replace(/_/g, ' ') }))]}
      value={zone ?? MACHINE}
      onChange={(v) => onChange(v === MACHINE ? null : v)}
    />
  );
}
const MACHINE = 'machine';

export function SettingsScreen() {
  const client = useClient();
  const settings = useSettings().data;
  const save = useSaveSettings();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [confirmReset, setConfirmReset] = useState(false);
  const team = useAppStatus().data?.host === 'team';
  const desktop = useAppStatus().data?.host === 'electron';
  const reset = useMutation({ mutationFn: () => client.cacheReset({}), onSuccess: () => setConfirmReset(false) });
  // The sync schedule and what it fetches, and resetting the cache: an admin's (the theme is everyone's).
  const canSchedule = useCan('settings:set', { input: { syncEveryMinutes: 0 } });
  const canSyncData = useCan('settings:set', { input: { syncData: false } });
  const canApprovals = useCan('settings:set', { input: { bulkApprovalOver: 50 } });
  const canReset = useCan('cache:reset');

  return (
    <Stack gap="md" pb="xl">
      <ScreenHeader title="Settings" />
      <Profiles />
      {desktop ? <ConnectTeamServer /> : null}
      <Panel title="You">
        <OperatorName />
      </Panel>
      <Panel title="Sync and appearance">
        <Stack gap="sm">
          <ChoiceSelect
            label="Sync on a schedule"
            description={canSchedule.reason ?? undefined}
            disabled={!canSchedule.allowed}
            w={320}
            data={[
              { value: '0', label: 'Never (only Sync now)' },
              { value: '5', label: 'Every 5 minutes' },
              { value: '15', label: 'Every 15 minutes' },
              { value: '60', label: 'Every hour' },
              { value: '240', label: 'Every 4 hours' },
            ]}
            value={String(settings?.syncEveryMinutes ?? 15)}
            onChange={(v) => save.mutate({ syncEveryMinutes: Number(v) })}
          />
          <Switch
            label="Also sync Data API records (accounts, transactions, energy data) of active consents"
            description={canSyncData.reason ?? 'On by default for the embedded sandbox; off for an intermediary until you turn it on.'}
            disabled={!canSyncData.allowed}
            checked={settings?.syncData ?? false}
            onChange={(e) => save.mutate({ syncData: e.currentTarget.checked })}
          />
          {team ? (
            <NumberInput
              label="Bulk revocations of more consents than this need a second person's approval"
              description={
                canApprovals.reason ??
                'A support agent or an admin other than the one who asked approves or rejects it in Jobs; nothing is sent until then.'
              }
              disabled={!canApprovals.allowed}
              w={520}
              min={1}
              max={10_000}
              step={10}
              allowDecimal={false}
              value={settings?.bulkApprovalOver ?? 50}
              onBlur={(e) => {
                const n = Number(e.currentTarget.value.replace(/[^0-9]/g, ''));
                if (Number.isInteger(n) && n >= 1 && n <= 10_000 && n !== settings?.bulkApprovalOver) save.mutate({ bulkApprovalOver: n });
              }}
            />
          ) : null}
          <div>
            <Text size="sm" fw={500} mb={4} id="theme-label">
              Theme
            </Text>
            <SegmentedControl
              aria-labelledby="theme-label"
              value={colorScheme}
              onChange={(v) => {
                setColorScheme(v as 'auto' | 'light' | 'dark');
                save.mutate({ theme: v as 'auto' | 'light' | 'dark' });
              }}
              data={[
                { value: 'auto', label: 'Follow the system' },
                { value: 'light', label: 'Light' },
                { value: 'dark', label: 'Dark' },
              ]}
            />
          </div>
          <TimeZoneSelect zone={settings?.timeZone ?? null} onChange={(timeZone) => save.mutate({ timeZone })} />
        </Stack>
      </Panel>
      <AlertRules />
      <Panel title="Cache">
        {team ? (
          <Text size="sm" mb="xs" id="team-store-note">
            This team server keeps the team’s data in its PostgreSQL database, shared by every server and every console of the team: it is
            not reset from a console.
          </Text>
        ) : (
          <Text size="sm" mb="xs">
            The open profile’s cache is encrypted on this computer. Resetting it moves the file aside (kept, renamed) and starts an empty
            one, filled again by the next sync; the intermediary loses nothing.
          </Text>
        )}
        <Unavailable label="Reset the cache…" reason={team ? null : canReset.reason}>
          <Button
            color="red"
            variant="light"
            disabled={team || !canReset.allowed}
            aria-describedby={team ? 'team-store-note' : undefined}
            onClick={() => setConfirmReset(true)}
          >
            Reset the cache…
          </Button>
        </Unavailable>
      </Panel>
      <ConfirmDialog
        opened={confirmReset}
        onClose={() => setConfirmReset(false)}
        title="Reset the cache?"
        size="md"
        action="Move the cache aside and start empty"
        onConfirm={() => reset.mutate()}
        mutation={reset}
      >
        The console closes the cache, moves the file aside and opens an empty one. Consents, events and data come back with the next sync.
        The audit log of the old cache stays in the moved file.
      </ConfirmDialog>
    </Stack>
  );
}
