import { useMantineColorScheme } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { spotlight, Spotlight, type SpotlightActionData, type SpotlightActionGroupData } from '@mantine/spotlight';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useClient } from '../../bridge/ClientContext.js';
import { SCREENS } from '../../app/screens.js';
import { useSession } from '../../stores/session.js';
import { useSaveSettings } from '../settings/settings.js';
import { useCan } from '../status/can.js';
import classes from './CommandPalette.module.css';

/**
 * The command palette (Ctrl/Cmd+K): jump to any consent by any identifier (consent id, arrangement
 * id, external id, consumer id, e-mail, mobile) straight from the cache, to any screen, or run a
 * command (sync now, cancel the sync, check the connection, theme).
 */
export function CommandPalette() {
  const client = useClient();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const saveSettings = useSaveSettings();
  const { setColorScheme } = useMantineColorScheme();
  const syncing = useSession((s) => s.syncProgress !== null);
  // Commands a role may not run stay listed, disabled, saying why.
  const canBulk = useCan('bulk:revoke');
  const canSwitch = useCan('profiles:switch');
  const [query, setQuery] = useState('');
  const profiles = useQuery({ queryKey: ['profiles:list'], queryFn: () => client.profilesList({}), staleTime: 60_000 });
  const [debounced] = useDebouncedValue(query.trim(), 80);
  const found = useQuery({
    queryKey: ['consents:list', 'palette', debounced],
    queryFn: () =>
      client.consentsList({ filter: { search: debounced }, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 8 }),
    enabled: debounced.length >= 2,
    placeholderData: (previous) => previous,
  });

  const run = (label: string, action: () => Promise<unknown>) =>
    void action().then(
      () => notifications.show({ message: `${label}: done.` }),
      (e: Error) => notifications.show({ color: 'red', title: `${label} failed`, message: e.message }),
    );
  const theme = (scheme: 'light' | 'dark' | 'auto') => {
    setColorScheme(scheme);
    saveSettings.mutate({ theme: scheme });
  };
  const commands: SpotlightActionData[] = [
    {
      id: 'sync-now',
      label: 'Sync now',
      description: 'Fetch consents, events and use cases from the intermediary',
      onClick: () => run('Sync', () => client.syncStart({})),
    },
    {
      id: 'sync-full',
      label: 'Full sync: read every consent again',
      // Changes another client made without an event (a PATCH of the external id) otherwise wait for
      // the periodic full listing.
      description: 'Also picks up changes the events feed does not announce',
      onClick: () => run('Full sync', () => client.syncStart({ full: true })),
    },
    ...(syncing ? [{ id: 'sync-cancel', label: 'Cancel the sync', onClick: () => run('Cancel', () => client.syncCancel({})) }] : []),
    {
      id: 'check-connection',
      label: 'Check the connection',
      description: 'Token and consent list, step by step',
      onClick: () =>
        run('Connection check', async () => {
          const r = await client.profilesTest({});
          void queries.invalidateQueries({ queryKey: ['app:status'] });
          if (!r.ok) throw new Error(r.steps.find((s) => !s.ok)?.detail ?? 'failed');
        }),
    },
    {
      id: 'bulk',
      label: 'Bulk revoke…',
      description: canBulk.reason ?? 'Revoke a pasted list of consents',
      disabled: !canBulk.allowed,
      onClick: () => navigate('/consents?bulk=1'),
    },
    { id: 'theme-light', label: 'Theme: light', onClick: () => theme('light') },
    { id: 'theme-dark', label: 'Theme: dark', onClick: () => theme('dark') },
    { id: 'theme-auto', label: 'Theme: follow the system', onClick: () => theme('auto') },
    ...(profiles.data ?? [])
      .filter((p) => !p.isCurrent)
      .map((p) => ({
        id: `profile-${p.id}`,
        label: `Switch to profile: ${p.name}`,
        description: canSwitch.reason ?? `${p.environment} — the console reopens on its cache`,
        disabled: !canSwitch.allowed,
        onClick: () => run(`Switch to ${p.name}`, () => client.profilesSwitch({ id: p.id })),
      })),
    {
      id: 'profiles',
      label: 'Connection profiles…',
      description: 'Add, edit, test profiles in Settings',
      onClick: () => navigate('/settings'),
    },
  ];
  const screens: SpotlightActionData[] = SCREENS.map((s) => ({
    id: `screen-${s.path}`,
    label: `Go to ${s.label}`,
    description: s.purpose,
    onClick: () => navigate(s.path),
  }));
  const matches = (a: SpotlightActionData) =>
    !query.trim() || `${a.label} ${a.description ?? ''}`.toLowerCase().includes(query.trim().toLowerCase());
  const consents: SpotlightActionData[] =
    debounced.length >= 2
      ? (found.data?.rows ?? []).map((r) => ({
          id: `consent-${r.consentId}`,
          label: `${r.consumerEmail ?? r.consumerId ?? r.consentId}`,
          description: `${r.status ?? '?'} · ${r.dataHolderName ?? '?'} · ${r.useCaseName ?? '?'} · ${r.consentId}`,
          onClick: () => navigate(`/consents/${encodeURIComponent(r.consentId)}`),
        }))
      : [];
  const groups: SpotlightActionGroupData[] = [
    ...(consents.length ? [{ group: 'Consents', actions: consents }] : []),
    { group: 'Screens', actions: screens.filter(matches) },
    { group: 'Commands', actions: commands.filter(matches) },
  ].filter((g) => g.actions.length);

  return (
    <Spotlight
      actions={groups}
      query={query}
      onQueryChange={setQuery}
      filter={(_q, actions) => actions}
      shortcut={['mod + K']}
      limit={40}
      nothingFound={debounced.length >= 2 && !found.isFetching ? 'No consent, screen or command matches' : 'Type to search'}
      highlightQuery
      classNames={{ action: classes.action }}
      scrollable
      maxHeight={480}
      // The list scrolls: keyboard users reach it too (the arrows in the search box move the selection).
      scrollAreaProps={{ viewportProps: { tabIndex: 0, 'aria-label': 'Results' } }}
      searchProps={{
        placeholder: 'Consent id, arrangement id, external id, e-mail, mobile — or a screen or command',
        'aria-label': 'Search consents, screens and commands',
        // Consents arrive after the list was first drawn, which drops the palette's own selection of
        // the top entry: Enter then opens the top entry, as the user expects.
        onKeyDown: (e) => {
          if (e.key !== 'Enter' || e.currentTarget.closest('[role="dialog"]')?.querySelector('[data-selected]')) return;
          const top = groups[0]?.actions[0];
          if (!top) return;
          e.preventDefault();
          top.onClick?.(e as never);
          spotlight.close();
        },
      }}
    />
  );
}
