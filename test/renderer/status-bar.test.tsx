import { act, screen, waitFor } from '@testing-library/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import type { EventName } from '../../shared/ipc/channels.js';
import type { TeamDatabase } from '../../shared/ipc/contract.js';
import { useClient } from '../../renderer/src/bridge/ClientContext.js';
import type { ConsoleClient } from '../../renderer/src/bridge/client.js';
import { bindMainEvents } from '../../renderer/src/events.js';
import { StatusBar } from '../../renderer/src/features/status/StatusBar.js';
import { useSession } from '../../renderer/src/stores/session.js';
import { emptySyncSummary } from '../helpers/summaries.js';
import { memoryClient, productionStatus, renderWithClient } from './harness.js';

describe('Status bar', () => {
  it('shows profile, environment, last sync and online state', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    renderWithClient(<StatusBar />, memoryClient(3).client);
    expect(await screen.findByText('Embedded sandbox')).toBeInTheDocument();
    expect(screen.getByTestId('status-environment')).toHaveTextContent('Sandbox');
    expect(screen.getByTestId('status-last-sync')).toHaveTextContent('5 minutes ago');
    expect(screen.getByTestId('status-online')).toHaveTextContent('Online');
    expect(screen.getByTestId('status-key-storage')).toHaveTextContent('Secrets: key file (owner only)');
  });

  it('says Offline with the reason when the last sync could not reach the intermediary', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    const { client } = memoryClient(3, {
      'app:status': async () =>
        productionStatus({
          host: 'browser',
          lastSyncError: 'GET /consents/v2 could not be reached: ECONNREFUSED',
          online: false,
        }),
    });
    renderWithClient(<StatusBar />, client);
    expect(await screen.findByText('● Offline')).toBeInTheDocument();
    expect(screen.getByTestId('status-last-sync')).toHaveTextContent('never');
    expect(screen.getByText(/Last sync failed: GET \/consents\/v2 could not be reached/)).toBeInTheDocument();
  });

  it('says what a sync fetched when it finishes, one consent and one event in the singular', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    const summary = emptySyncSummary();
    const { client } = memoryClient(3, {
      'sync:start': async () => ({
        ...summary,
        consents: { ...summary.consents, fetched: 1, changed: 1 },
        events: { ...summary.events, new: 1 },
      }),
    });
    renderWithClient(<StatusBar />, client);
    await act(async () => (await screen.findByRole('button', { name: 'Sync now' })).click());
    expect(await screen.findByText('1 consent (0 new, 1 changed), 1 new event.')).toBeInTheDocument();
  });

  it('says Disconnected when the host connection drops, and shows sync progress', async () => {
    useSession.setState({ connection: 'disconnected', syncProgress: { phase: 'consents', done: 500, total: 1200, state: 'running' } });
    renderWithClient(<StatusBar />, memoryClient(3).client);
    expect(await screen.findByText('● Disconnected')).toBeInTheDocument();
    expect(screen.getByTestId('status-sync')).toHaveTextContent('Syncing consents: 500 of 1,200');
    expect(screen.getByRole('button', { name: 'Cancel sync' })).toBeInTheDocument();
  });

  it('on a team server: the number of servers, and a sync running on another one, which cannot be cancelled here', async () => {
    useSession.setState({ connection: 'connected', syncProgress: { phase: 'events', done: 2000, total: 9000, state: 'running' } });
    const { client } = memoryClient(3, {
      'app:status': async () =>
        productionStatus({
          host: 'team',
          team: { servers: 2, syncingOn: 'the team server on ops-2 (process 4242)' },
        }),
    });
    renderWithClient(<StatusBar />, client);
    expect(await screen.findByTestId('status-team')).toHaveTextContent('Team: 2 servers');
    expect(screen.getByTestId('status-sync')).toHaveTextContent(
      'Syncing events: 2,000 of 9,000 · on the team server on ops-2 (process 4242)',
    );
    const cancel = screen.getByRole('button', { name: 'Cancel sync (it runs on the team server on ops-2 (process 4242))' });
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText('v1 · team server')).toBeInTheDocument();
  });

  it('on a team server whose database is away: says so, since when, that it reconnects, and keeps what it showed', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    const since = new Date(2025, 2, 14, 10, 42, 5).toISOString();
    const { client } = memoryClient(3, {
      'app:status': async () =>
        productionStatus({
          host: 'team',
          lastSyncAt: new Date(Date.now() - 5 * 60_000).toISOString(),
          team: {
            servers: 2,
            syncingOn: null,
            database: {
              state: 'unreachable',
              since,
              problem: 'The team database cannot be reached (connect ECONNREFUSED 127.0.0.1:5432); reconnecting.',
            },
          },
        }),
    });
    renderWithClient(<StatusBar />, client);
    const line = await screen.findByTestId('status-team-database');
    expect(line).toHaveTextContent('Team database unreachable since 10:42 — reconnecting');
    // Focusable, so the reason (its tooltip) is one key away.
    expect(line).toHaveAttribute('tabindex', '0');
    expect(screen.getByTestId('status-team')).toHaveTextContent('Team: 2 servers');
    expect(screen.getByTestId('status-last-sync')).toHaveTextContent('5 minutes ago');
    expect(screen.getByRole('status', { name: 'Status bar' })).toBeInTheDocument();
  });

  it('on a team server whose database is reachable: no database line', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    const { client } = memoryClient(3, {
      'app:status': async () =>
        productionStatus({
          host: 'team',
          team: { servers: 1, syncingOn: null, database: { state: 'ok', since: new Date().toISOString(), problem: null } },
        }),
    });
    renderWithClient(<StatusBar />, client);
    expect(await screen.findByTestId('status-team')).toHaveTextContent('Team: 1 server');
    expect(screen.queryByTestId('status-team-database')).toBeNull();
  });

  it('hears the team database go and come back (team:database) without a reload', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    let database: TeamDatabase = { state: 'ok', since: new Date().toISOString(), problem: null };
    const { client: memory } = memoryClient(3, {
      'app:status': async () =>
        productionStatus({
          host: 'team',
          team: { servers: 1, syncingOn: null, database },
        }),
    });
    // The main process's events, sent by the test.
    const listeners = new Set<(event: EventName, payload: unknown) => void>();
    // The memory client with its events replaced (its methods are made when first asked for: inherited, not spread).
    const client = Object.assign(Object.create(memory) as ConsoleClient, {
      on: (event: EventName, listener: (payload: unknown) => void) => {
        const l = (name: EventName, payload: unknown) => name === event && listener(payload);
        listeners.add(l);
        return () => listeners.delete(l);
      },
    }) as ConsoleClient;
    const emit = (event: EventName, payload: unknown) => act(() => listeners.forEach((l) => l(event, payload)));
    function Events() {
      const queries = useQueryClient();
      const c = useClient();
      useEffect(() => bindMainEvents(c, queries), [c, queries]);
      return null;
    }
    renderWithClient(
      <>
        <Events />
        <StatusBar />
      </>,
      client,
    );
    expect(await screen.findByTestId('status-team')).toHaveTextContent('Team: 1 server');
    expect(screen.queryByTestId('status-team-database')).toBeNull();
    database = { state: 'unreachable', since: new Date(2025, 2, 14, 9, 5).toISOString(), problem: 'The team database cannot be reached.' };
    emit('team:database', database);
    expect(await screen.findByTestId('status-team-database')).toHaveTextContent('Team database unreachable since 09:05 — reconnecting');
    database = { state: 'ok', since: new Date().toISOString(), problem: null };
    emit('team:database', database);
    await waitFor(() => expect(screen.queryByTestId('status-team-database')).toBeNull());
  });
});
