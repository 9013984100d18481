import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../../electron/ipc/router.js';
import type { ProfileSummary } from '../../shared/ipc/contract.js';
import { memoryClient, renderRoute } from './harness.js';

/**
 * The oversight screens in their states — loaded, empty, failing — against the real router and
 * cache queries over the sandbox's seeded consents and events.
 */
const FAILURES = ['WEBHOOK_SENDING_FAILED', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'WEBHOOK_MAX_RETRIES_REACHED'];

describe('Overview', () => {
  it('counts consents by status, each number a link to the list it counts', async () => {
    const { client, cache } = memoryClient(120, {}, { withSeededEvents: true });
    renderRoute('/overview', client);
    const active = cache.consents.filter((c) => c.status === 'ACTIVE').length;
    const tile = await screen.findByRole('link', { name: `Active: ${active} — open the list` });
    expect(tile).toHaveAttribute('href', '/consents?status=ACTIVE');
    expect(screen.getByRole('link', { name: /^Active, never collected: \d+ — open the list$/ })).toHaveAttribute(
      'href',
      '/consents?status=ACTIVE&collected=no',
    );
    expect(await screen.findByRole('link', { name: /^Webhook failures, 7 days: \d+/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/webhook-failures\?from=.+&range=7$/),
    );
    expect(screen.getByText('No sync has finished with this cache yet: use Sync now in the status bar.')).toBeInTheDocument();
  });

  it('shows a chart’s numbers as a table, one toggle away', async () => {
    const { client } = memoryClient(60, {}, { withSeededEvents: true });
    renderRoute('/overview', client);
    const panel = await screen.findByRole('region', { name: 'Consents granted and withdrawn per week' });
    await userEvent.click(within(panel).getByText('Table'));
    const table = within(panel).getByRole('table', { name: 'Consents granted and withdrawn per week (numbers)' });
    expect(within(table).getAllByRole('row')).toHaveLength(27); // 26 weeks and the header
  });
});

describe('Events', () => {
  it('lists every event newest first, with type chips that count', async () => {
    const { client } = memoryClient(50, {}, { withSeededEvents: true });
    renderRoute('/events', client);
    const text = await screen.findByTestId('events-range');
    await waitFor(() => expect(text).toHaveTextContent(/^\d+ events match this view$/));
    const total = Number(text.textContent!.split(' ')[0]);
    // "1 event", "2 events": the chips' names are plural as English is.
    const chips = screen.getAllByRole('checkbox').filter((c) => /: (1 event|\d+ events)$/.test(c.getAttribute('aria-label') ?? ''));
    expect(chips.reduce((n, c) => n + Number(c.getAttribute('aria-label')!.match(/: (\d+) events?$/)![1]), 0)).toBe(total);
    await userEvent.click(screen.getByRole('checkbox', { name: /^GRANTED:/ }));
    await waitFor(() => expect(screen.getAllByTestId('table-row').every((r) => r.textContent!.includes('Granted'))).toBe(true));
  });

  it('says so when no event matches, and when the cache cannot be read', async () => {
    const { client } = memoryClient(5);
    renderRoute('/events', client);
    expect(await screen.findByText('No event matches this view')).toBeInTheDocument();
    const broken = memoryClient(5, {
      'events:count': async () => {
        throw new CoreError('CACHE', 'The cache file is read-only.');
      },
    });
    renderRoute('/events', broken.client);
    expect(await screen.findByText('The cache file is read-only.')).toBeInTheDocument();
  });
});

describe('Webhook failures', () => {
  it('groups failures by masked response, each with its latest message in full', async () => {
    const { client, cache } = memoryClient(200, {}, { withSeededEvents: true });
    renderRoute('/webhook-failures?range=all', client);
    const groups = await screen.findAllByTestId('failure-group');
    const failures = cache.db
      .prepare(`SELECT count(*) AS n FROM events WHERE event_type IN (${FAILURES.map(() => '?').join(',')})`)
      .get(...FAILURES) as {
      n: number;
    };
    const counted = groups.reduce((n, g) => n + Number(within(g).getAllByRole('cell')[1]!.textContent!.replace(/,/g, '')), 0);
    expect(counted).toBe(failures.n);
    const withIds = groups.find((g) => g.textContent!.includes('"requestId":"<id>"'))!;
    expect(within(withIds).getByLabelText('Latest message in full').textContent).toMatch(/"requestId":"[0-9a-f]{8}-/);
  });

  it('opens on the last 30 days; All is a choice, and a period of years has years on its axis', async () => {
    const { client } = memoryClient(200, {}, { withSeededEvents: true });
    const { location } = renderRoute('/webhook-failures', client);
    expect(await screen.findByRole('radio', { name: '30 days' })).toBeChecked();
    await waitFor(() => expect(screen.getByTestId('webhook-range')).toHaveTextContent(/failed deliver\w+ since /));
    await userEvent.click(screen.getByText('All'));
    await waitFor(() => expect(location()).toBe('/webhook-failures?range=all'));
    await waitFor(() => expect(screen.getByTestId('webhook-range')).toHaveTextContent(/failed deliver\w+ in the cache/));
    // The seeded events span years: each day on the axis names its year.
    const panel = screen.getByRole('region', { name: 'Deliveries and failures per day' });
    await waitFor(() =>
      expect(within(panel).getByRole('img')).toHaveAccessibleDescription(
        / points from \d{1,2} [A-Z][a-z]{2} \d{4} to \d{1,2} [A-Z][a-z]{2} \d{4}\./,
      ),
    );
  });

  it('says there is nothing to triage when nothing failed', async () => {
    const { client } = memoryClient(5);
    renderRoute('/webhook-failures', client);
    expect(await screen.findByText('No webhook failures in this period')).toBeInTheDocument();
  });
});

describe('Use cases', () => {
  it('shows each use case with its scopes; without a combined view synced the toggle is off', async () => {
    const { client, cache } = memoryClient(10);
    renderRoute('/use-cases', client);
    const cards = await screen.findAllByTestId('use-case');
    expect(cards).toHaveLength(cache.reference.useCases().length);
    expect(screen.getByRole('radio', { name: 'Separate and combined' })).toBeDisabled();
  });

  it('says what to do when none is cached, and why when they cannot be read', async () => {
    const { client } = memoryClient(0, { 'reference:list': async () => ({ useCases: [], combinedUseCases: [], dataHolders: [] }) });
    renderRoute('/use-cases', client);
    expect(await screen.findByText('No use cases in the cache yet')).toBeInTheDocument();
    const broken = memoryClient(0, {
      'reference:list': async () => {
        throw new CoreError('CACHE', 'Damaged page.');
      },
    });
    renderRoute('/use-cases', broken.client);
    expect(await screen.findByText('The use cases could not be read')).toBeInTheDocument();
  });
});

describe('Audit', () => {
  it('shows the chain verified on top, the entries newest first, filtered by action', async () => {
    const { client, cache } = memoryClient(5);
    cache.audit.append({ operator: 'sam (Sam)', action: 'revoke', target: 'c-1', reason: 'complaint', result: 'revoked' });
    cache.audit.append({ operator: 'sam (Sam)', action: 'export-consents', target: null, reason: null, result: '5 consents exported' });
    const { location } = renderRoute('/audit', client);
    expect(await screen.findByTestId('audit-verification')).toHaveTextContent('Audit chain intact');
    await waitFor(() => expect(screen.getAllByTestId('table-row').map((r) => r.dataset.rowId)).toEqual(['2', '1']));
    await userEvent.click(screen.getByPlaceholderText('Any action'));
    await userEvent.click(await screen.findByRole('option', { name: 'Revoked a consent' }));
    await waitFor(() => expect(screen.getAllByTestId('table-row').map((r) => r.dataset.rowId)).toEqual(['1']));
    expect(location()).toBe('/audit?action=revoke');
  });

  it('says where the chain breaks', async () => {
    const { client } = memoryClient(5, {
      'audit:verify': async () => ({ ok: false, entries: 12, brokenAt: 7, problem: 'entry 7 was changed after it was written' }),
    });
    renderRoute('/audit', client);
    expect(await screen.findByRole('alert')).toHaveTextContent('Audit chain broken at entry 7entry 7 was changed after it was written');
  });

  it('on a team server, says which client sent each action (address and browser); a solo console has no such column', async () => {
    const entry = {
      seq: 1,
      at: '2026-11-20T01:02:03.000Z',
      operator: 'sam (Sam)',
      action: 'revoke',
      target: 'c-1',
      reason: 'complaint',
      result: 'revoked',
      prevHash: '0'.repeat(64),
      hash: 'a'.repeat(64),
      client: '10.1.2.3 Mozilla/5.0 (X11; Linux x86_64) Chrome/153',
    };
    const team = memoryClient(5, { 'audit:query': async () => ({ rows: [entry], total: 1 }) }, { status: { host: 'team' } });
    const { unmount } = renderRoute('/audit', team.client);
    expect(await screen.findByRole('columnheader', { name: 'Client' })).toBeInTheDocument();
    // In words, the raw value on hover.
    expect(await screen.findByText('Chrome 153 on Linux · 10.1.2.3')).toHaveAttribute(
      'title',
      '10.1.2.3 Mozilla/5.0 (X11; Linux x86_64) Chrome/153',
    );
    unmount();
    renderRoute('/audit', memoryClient(5, { 'audit:query': async () => ({ rows: [entry], total: 1 }) }).client);
    expect(await screen.findByRole('columnheader', { name: 'Operator' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Client' })).toBeNull();
  });

  it('lists the solo logs imported into a team’s, each checked as stored now', async () => {
    const { client } = memoryClient(5, {
      'audit:verify': async () => ({
        ok: true,
        entries: 3,
        imported: [
          {
            chain: 'import:1',
            origin: 'the solo console in /home/sam/cdr, profile "prod" (Production)',
            entries: 41,
            ok: true,
            problems: [],
          },
          {
            chain: 'import:2',
            origin: 'the solo console in /home/kim/cdr, profile "prod" (Production)',
            entries: 9,
            ok: false,
            problems: ['entry 4 was changed after it was written'],
          },
        ],
      }),
    });
    renderRoute('/audit', client);
    const imported = await screen.findByTestId('audit-imported');
    expect(imported).toHaveAttribute('role', 'alert');
    expect(imported).toHaveTextContent('Imported solo audit logs: 2, 1 broken');
    expect(imported).toHaveTextContent('/home/sam/cdr, profile "prod" (Production): 41 entries, intact');
    expect(imported).toHaveTextContent(
      '/home/kim/cdr, profile "prod" (Production): 9 entries, BROKEN: entry 4 was changed after it was written',
    );
    expect(screen.getByTestId('audit-verification')).toHaveTextContent('Audit chain intact');
  });
});

describe('Compliance reports', () => {
  it('counts the chosen days, each count a link to its records', async () => {
    const { client } = memoryClient(150, {}, { withSeededEvents: true });
    renderRoute('/reports?from=2025-11-01&to=2026-10-31', client);
    const granted = await screen.findByRole('link', { name: /^Consents granted: \d+ — open the records$/ });
    expect(granted.getAttribute('href')).toMatch(/^\/events\?type=GRANTED&from=.+&to=.+$/);
    expect(screen.getByRole('link', { name: /^withdrawn by staff: 0 — open the records$/ }).getAttribute('href')).toMatch(
      /^\/audit\?action=revoke&/,
    );
  });
});

describe('Settings', () => {
  const profiles: ProfileSummary[] = [
    {
      id: 'sandbox',
      name: 'Embedded sandbox',
      environment: 'sandbox',
      embedded: true,
      consentApiBaseUrl: null,
      tokenUrl: null,
      clientId: 'sandbox-client',
      authMethod: 'client_secret_basic',
      isDefault: true,
      isCurrent: true,
      hasCredential: true,
    },
    {
      id: 'uat',
      name: 'UAT',
      environment: 'nonprod',
      embedded: false,
      consentApiBaseUrl: 'https://uat.example/',
      tokenUrl: 'https://uat.example/token',
      clientId: 'c',
      authMethod: 'client_secret_basic',
      scopes: ['consents:read'],
      isDefault: false,
      isCurrent: false,
      hasCredential: false,
    },
  ];

  it('lists profiles with their credential as stored or missing, never its value; a new profile needs its secret', async () => {
    const saved: unknown[] = [];
    const { client } = memoryClient(3, {
      'profiles:list': async () => profiles,
      'profiles:save': async (input) => {
        saved.push(input);
        throw new CoreError('INVALID_INPUT', 'The profile is not valid: tokenUrl: a production profile needs https.');
      },
    });
    renderRoute('/settings', client);
    const uat = await screen.findByTestId('profile-uat');
    expect(within(uat).getByText('missing')).toBeInTheDocument();
    expect(within(screen.getByTestId('profile-sandbox')).getByText('open')).toBeInTheDocument();
    await userEvent.click(within(uat).getByRole('button', { name: 'Edit UAT' }));
    const form = await screen.findByRole('dialog', { name: 'Edit profile “UAT”' });
    const secret = within(form).getByLabelText(/^Client secret/);
    expect(secret).toHaveValue('');
    expect(secret).toBeRequired(); // none stored yet: the form cannot be sent without one
    await userEvent.type(secret, 'typed-once');
    await userEvent.click(within(form).getByRole('button', { name: 'Save profile' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('tokenUrl: a production profile needs https.');
    expect(saved).toEqual([expect.objectContaining({ id: 'uat', secret: 'typed-once' })]);
  });
});
