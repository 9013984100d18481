import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AppStatus, ProfileSummary } from '../../shared/ipc/contract.js';
import { SettingsScreen } from '../../renderer/src/features/settings/SettingsScreen.js';
import { useSession } from '../../renderer/src/stores/session.js';
import { memoryClient, productionStatus, renderWithClient } from './harness.js';

const profile = (id: string, name: string, isCurrent: boolean): ProfileSummary => ({
  id,
  name,
  environment: 'nonprod',
  embedded: false,
  consentApiBaseUrl: `https://${id}.example.test/consents`,
  tokenUrl: `https://${id}.example.test/token`,
  clientId: 'client',
  authMethod: 'client_secret_basic',
  isDefault: isCurrent,
  isCurrent,
  hasCredential: true,
});

function open(host: AppStatus['host']) {
  useSession.setState({ connection: 'connected', syncProgress: null });
  const { client } = memoryClient(3, {
    'app:status': async () =>
      productionStatus({ host, profile: { id: 'uat', name: 'UAT intermediary', environment: 'nonprod', embedded: false } }),
    'profiles:list': async () => [profile('uat', 'UAT intermediary', true), profile('prod', 'Production intermediary', false)],
  });
  renderWithClient(<SettingsScreen />, client);
}

describe('Settings on a team server', () => {
  it('offers no profile switch and no cache reset: both shown disabled, with why', async () => {
    open('team');
    const row = (await screen.findByText('Production intermediary')).closest('tr')!;
    const unavailable = await within(row).findByLabelText(
      /^Switch to Production intermediary — unavailable: A team server serves one profile/,
    );
    expect(within(unavailable).getByRole('button', { name: 'Switch to Production intermediary' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset the cache…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset the cache…' })).toHaveAccessibleDescription(
      /shared by every server and every console of the team/,
    );
  });

  it('in solo mode, both are there to use', async () => {
    open('browser');
    expect(await screen.findByRole('button', { name: 'Switch to Production intermediary' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reset the cache…' })).toBeEnabled();
  });
});
