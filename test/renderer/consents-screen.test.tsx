import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../electron/ipc/router.js';
import { ConsentsScreen } from '../../renderer/src/screens/ConsentsScreen.js';
import { useConsentsView } from '../../renderer/src/stores/consents-view.js';
import { memoryClient, renderWithClient } from './harness.js';

beforeEach(() => {
  useConsentsView.setState({ page: 1, pageSize: 100, sort: { field: 'created', direction: 'desc' } });
});

const rows = () => screen.getAllByTestId('consent-row');
const columnText = (index: number) => rows().map((r) => within(r).getAllByRole('cell')[index]!.textContent ?? '');

describe('Consents screen', () => {
  it('lists the cached consents with the six columns, newest first', async () => {
    const { client } = memoryClient(230);
    renderWithClient(<ConsentsScreen />, client);
    expect(await screen.findByText('Showing 1–100 of 230 cached consents')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    expect(headers).toEqual(['Status', 'Consumer e-mail', 'Data holder', 'Use case', 'Created', 'Sharing end date']);
    expect(rows().length).toBeGreaterThan(10);
    const created = rows().map((r) => r.querySelectorAll('time')[0]!.getAttribute('datetime')!);
    expect(created).toEqual([...created].sort().reverse());
    expect(screen.getByRole('columnheader', { name: /Created/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('sorts by a column when its header is clicked, and reverses on a second click', async () => {
    const { client, calls } = memoryClient(120);
    renderWithClient(<ConsentsScreen />, client);
    await screen.findByText(/Showing 1–100 of 120/);
    await userEvent.click(screen.getByRole('button', { name: /Consumer e-mail/ }));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Consumer e-mail/ })).toHaveAttribute('aria-sort', 'ascending'));
    await waitFor(() => {
      const emails = columnText(1);
      expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    });
    expect(calls.at(-1)).toMatchObject({
      channel: 'consents:list',
      input: { sort: { field: 'consumerEmail', direction: 'asc' }, offset: 0 },
    });
    await userEvent.click(screen.getByRole('button', { name: /Consumer e-mail/ }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ input: { sort: { field: 'consumerEmail', direction: 'desc' } } }));
  });

  it('pages through the cache', async () => {
    const { client } = memoryClient(230);
    renderWithClient(<ConsentsScreen />, client);
    await screen.findByText(/Showing 1–100 of 230/);
    const firstPageIds = rows().map((r) => r.dataset.consentId);
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Showing 201–230 of 230 cached consents')).toBeInTheDocument();
    expect(rows()).toHaveLength(30);
    expect(
      rows()
        .map((r) => r.dataset.consentId)
        .some((id) => firstPageIds.includes(id)),
    ).toBe(false);
  });

  it('shows the reason when the cache cannot be read', async () => {
    const { client } = memoryClient(0, {
      'consents:list': async () => {
        throw new CoreError('CACHE', 'The cache is locked by another console.');
      },
    });
    renderWithClient(<ConsentsScreen />, client);
    expect(await screen.findByText('The consent list could not be read')).toBeInTheDocument();
    expect(screen.getByText('The cache is locked by another console.')).toBeInTheDocument();
  });

  it('says what to do when the cache is empty', async () => {
    const { client } = memoryClient(0);
    renderWithClient(<ConsentsScreen />, client);
    expect(await screen.findByText(/No consents in the cache yet/)).toBeInTheDocument();
  });
});
