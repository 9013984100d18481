import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Caller, ProfileSummary, Role } from '../../shared/ipc/contract.js';
import { StatusBar } from '../../renderer/src/features/status/StatusBar.js';
import { useSession } from '../../renderer/src/stores/session.js';
import { memoryClient, renderRoute, renderWithClient } from './harness.js';

/**
 * Team mode's roles in the console (issue 20): what the signed-in person's role cannot do is shown
 * where it always is, disabled, with the server's own reason; the status bar says who is signed in.
 * The harness's router checks the role too, as a team server's does.
 */
const NOW = new Date('2026-11-01T00:00:00.000Z');
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

const person = (role: Role, displayName = `Pat ${role}`): Caller => ({ userId: `u-${role}`, displayName, role, method: 'test' });

function activeOf(cache: ReturnType<typeof memoryClient>['cache']) {
  return cache.consents.find((c) => c.status === 'ACTIVE' && c.sharingEndDate && Date.parse(c.sharingEndDate) > NOW.getTime())!;
}

const profile: ProfileSummary = {
  id: 'uat',
  name: 'UAT intermediary',
  environment: 'nonprod',
  embedded: false,
  consentApiBaseUrl: 'https://uat.example.test/consents',
  tokenUrl: 'https://uat.example.test/token',
  clientId: 'client',
  authMethod: 'client_secret_basic',
  isDefault: false,
  isCurrent: false,
  hasCredential: true,
};

describe('the status bar', () => {
  it('says who is signed in, and their role', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    renderWithClient(<StatusBar />, memoryClient(3, {}, { user: person('compliance', 'Cleo Compliance') }).client);
    expect(await screen.findByTestId('status-user')).toHaveTextContent('Signed in as Cleo Compliance · Compliance');
  });

  it('says nothing of the kind without sign-in (solo mode)', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    renderWithClient(<StatusBar />, memoryClient(3).client);
    expect(await screen.findByText('Embedded sandbox')).toBeInTheDocument();
    expect(screen.queryByTestId('status-user')).not.toBeInTheDocument();
  });
});

describe('a viewer', () => {
  it('sees the consent’s actions and its evidence pack disabled, each saying which role it needs', async () => {
    const { client, cache } = memoryClient(10, {}, { user: person('viewer') });
    renderRoute(`/consents/${activeOf(cache).consentId}`, client);
    await screen.findByTestId('status-sentence');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Revoke…' })).toBeDisabled());
    expect(screen.getByLabelText('Revoke… — unavailable: Revoking needs the support role; you are a viewer.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update…' })).toBeDisabled();
    expect(
      screen.getByLabelText('Update… — unavailable: Updating a consent needs the support role; you are a viewer.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Extend…' })).toBeDisabled();
    expect(screen.getByLabelText(/^Extend… — unavailable: Extending or authorising a consent needs the support role/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Evidence pack' })).toBeDisabled();
    expect(
      screen.getByLabelText('Evidence pack — unavailable: Exporting an evidence pack needs the compliance role; you are a viewer.'),
    ).toBeInTheDocument();
  });

  it('sees New consent, Bulk revoke and the export of the list disabled with why, and the list itself', async () => {
    const { client } = memoryClient(12, {}, { user: person('viewer') });
    renderRoute('/consents', client);
    await waitFor(() => expect(screen.getByTestId('consent-range')).toHaveTextContent('12 consents in the cache'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'New consent' })).toBeDisabled());
    expect(
      screen.getByLabelText('New consent — unavailable: Creating a consent needs the support role; you are a viewer.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bulk revoke…' })).toBeDisabled();
    expect(
      screen.getByLabelText('Bulk revoke… — unavailable: Revoking in bulk needs the support role; you are a viewer.'),
    ).toBeInTheDocument();
    const exporter = screen.getByLabelText(
      'Export all 12 consents of this view — unavailable: Exporting consents needs the compliance role; you are a viewer.',
    );
    expect(within(exporter).getByRole('button', { name: 'Export' })).toBeDisabled();
  });

  it('is told why the audit chain is not checked, instead of an error', async () => {
    const { client, calls } = memoryClient(3, {}, { user: person('viewer') });
    renderRoute('/audit', client);
    expect(await screen.findByTestId('audit-verification')).toHaveTextContent(
      /Audit chain not checked.*Verifying the audit log needs the compliance role; you are a viewer\./,
    );
    expect(calls.some((c) => c.channel === 'audit:verify')).toBe(false);
  });
});

describe('a support agent', () => {
  it('revokes and updates, but exports neither the list nor an evidence pack', async () => {
    const { client, cache } = memoryClient(10, {}, { user: person('support') });
    renderRoute(`/consents/${activeOf(cache).consentId}`, client);
    await screen.findByTestId('status-sentence');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Evidence pack' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Revoke…' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Update…' })).toBeEnabled();
    expect(
      screen.getByLabelText('Evidence pack — unavailable: Exporting an evidence pack needs the compliance role; you are a support agent.'),
    ).toBeInTheDocument();
  });

  it('sees profiles, the sync schedule and the cache reset in Settings, disabled with why; the theme stays theirs', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    const { client, calls } = memoryClient(3, { 'profiles:list': async () => [profile] }, { user: person('support') });
    renderRoute('/settings', client);
    const row = (await screen.findByText('UAT intermediary')).closest('tr')!;
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Edit UAT intermediary' })).toBeDisabled());
    expect(
      screen.getByLabelText('Add profile — unavailable: Saving a connection profile needs the admin role; you are a support agent.'),
    ).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Switch to UAT intermediary' })).toBeDisabled();
    expect(within(row).getByRole('button', { name: 'Remove UAT intermediary' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset the cache…' })).toBeDisabled();
    expect(
      screen.getByLabelText('Reset the cache… — unavailable: Resetting the cache needs the admin role; you are a support agent.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Sync on a schedule', { selector: 'input' })).toBeDisabled();
    expect(screen.getByText('Changing the sync schedule needs the admin role; you are a support agent.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /Also sync Data API records/ })).toBeDisabled();
    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(calls.some((c) => c.channel === 'settings:set')).toBe(true));
  });
});

describe('a compliance officer', () => {
  it('exports the list and evidence packs, but cannot revoke', async () => {
    const { client, cache } = memoryClient(10, {}, { user: person('compliance') });
    renderRoute(`/consents/${activeOf(cache).consentId}`, client);
    await screen.findByTestId('status-sentence');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Revoke…' })).toBeDisabled());
    expect(
      screen.getByLabelText('Revoke… — unavailable: Revoking needs the support role; you are a compliance officer.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Evidence pack' })).toBeEnabled();
  });
});

describe('an admin', () => {
  it('has every action of the consent', async () => {
    const { client, cache } = memoryClient(10, {}, { user: person('admin') });
    renderRoute(`/consents/${activeOf(cache).consentId}`, client);
    await screen.findByTestId('status-sentence');
    for (const name of ['Revoke…', 'Update…', 'Evidence pack']) expect(screen.getByRole('button', { name })).toBeEnabled();
    expect(screen.queryByLabelText(/needs the .* role/)).not.toBeInTheDocument();
  });
});
