import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CoreError } from '../../electron/ipc/router.js';
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

describe('Settings on the desktop: Connect to a team server', () => {
  it('asks for the address and sends it; the server’s refusal is shown', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    const asked: string[] = [];
    const { client } = memoryClient(3, {
      'app:status': async () => productionStatus({ host: 'electron' }),
      'profiles:list': async () => [profile('uat', 'UAT intermediary', true)],
      'client:connect': async ({ url }: { url: string }) => {
        asked.push(url);
        throw new CoreError(
          'INVALID_INPUT',
          'A team server beyond this machine is reached over https (its sign-in and data travel the network).',
        );
      },
    });
    renderWithClient(<SettingsScreen />, client);
    const address = await screen.findByLabelText('Team server address');
    await userEvent.type(address, 'http://console.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Connect to a team server' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('reached over https');
    expect(asked).toEqual(['http://console.example.com']);
  });

  it('is not offered in a browser (the browser host or a team server)', async () => {
    open('team');
    await screen.findByText('Production intermediary');
    expect(screen.queryByLabelText('Team server address')).toBeNull();
  });
});
