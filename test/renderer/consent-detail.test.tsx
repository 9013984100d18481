import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoreError } from '../../electron/ipc/router.js';
import type { ConsentEvent } from '../../shared/schemas/consent.js';
import { memoryClient, renderRoute } from './harness.js';

/**
 * The consent detail screen and its actions, against the real router and cache queries (actions
 * that need the intermediary are played by the test). The clock is pinned where the words depend
 * on it.
 */
const NOW = new Date('2026-11-01T00:00:00.000Z');
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

function activeOf(cache: ReturnType<typeof memoryClient>['cache']) {
  return cache.consents.find((c) => c.status === 'ACTIVE' && c.sharingEndDate && Date.parse(c.sharingEndDate) > NOW.getTime())!;
}

/** Events of one consent, as the intermediary sends them. */
const eventOf =
  (consentId: string) =>
  (type: string, t: string, detail: string | null = null): ConsentEvent =>
    ({ eventType: type, timestamp: t, consentId, eventDetail: detail }) as ConsentEvent;

describe('Consent detail', () => {
  it('says so, with the way back, when the consent is not in the cache', async () => {
    const { client } = memoryClient(5);
    renderRoute('/consents/no-such-consent', client);
    expect(await screen.findByText('This consent is not in the cache')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to consents' })).toBeInTheDocument();
  });

  it('shows every field, the status in words with the days left, and the use case with its scopes', async () => {
    const { client, cache } = memoryClient(40);
    const c = activeOf(cache);
    renderRoute(`/consents/${c.consentId}`, client);
    const days = Math.round((Date.parse(c.sharingEndDate!) - NOW.getTime()) / 86_400_000);
    expect(await screen.findByTestId('status-sentence')).toHaveTextContent(new RegExp(`^Active — sharing ends .+, in ${days} days?$`));
    for (const label of [
      'Consent id',
      'CDR arrangement id',
      'Version',
      'External id',
      'Created',
      'Sharing ends',
      'Post-usage action',
      'Customer IP address',
    ])
      expect(screen.getByText(label, { exact: true })).toBeInTheDocument();
    expect(screen.getAllByText(c.consentId).length).toBeGreaterThan(0);
    if (c.consumerMobileNumber) expect(screen.getByText(c.consumerMobileNumber)).toBeInTheDocument();
    // Times in local time, the UTC value to the millisecond one step away.
    const created = screen.getByText('Created', { exact: true }).parentElement!.querySelector('time')!;
    expect(created).toHaveAttribute('dateTime', c.created);
    expect(created).toHaveAttribute('tabindex', '0');
    const scopes = screen.getByRole('table', { name: 'Scopes' });
    expect(within(scopes).getAllByRole('row')).toHaveLength((c.useCase!.scopes ?? []).length + 1);
    expect(screen.getByText(`Use case: ${c.useCase!.name}`)).toBeInTheDocument();
  });

  it('lists every version with what changed, field by field', async () => {
    const { client, cache } = memoryClient(20);
    const c = activeOf(cache);
    cache.repo.upsertPage(
      [{ ...c, version: (c.version ?? 1) + 1, externalId: 'CRM-NEW-9', directMarketingAllowed: !c.directMarketingAllowed }],
      '2026-11-02T00:00:00.000Z',
    );
    renderRoute(`/consents/${c.consentId}?tab=versions`, client);
    const table = await screen.findByRole('table', { name: `Changes in version ${(c.version ?? 1) + 1}` });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^changedversion/),
        expect.stringMatching(/externalId.*CRM-NEW-9$/),
        expect.stringMatching(/^changeddirectMarketingAllowed/),
      ]),
    );
    expect(screen.getByText('The first version the cache saw.')).toBeInTheDocument();
  });

  it('shows one timeline: events (webhook failures marked, detail in full), staff actions, filterable by kind', async () => {
    const { client, cache } = memoryClient(10, {}, {});
    const c = activeOf(cache);
    const event = eventOf(c.consentId);
    cache.events.upsertPage(
      [
        event('GRANTED', '2026-10-01T00:00:00.000Z'),
        event('WEBHOOK_SENDING_FAILED_CLIENT_ERROR', '2026-10-01T00:00:01.000Z', '400 Bad Request: {"error":"unknown consent ‮gnp.exe"}'),
      ],
      (e) => `${e.eventType}-${e.timestamp}`,
    );
    cache.audit.append({ operator: 'sam (Sam)', action: 'update', target: c.consentId, reason: 'CRM merge', result: 'updated externalId' });
    renderRoute(`/consents/${c.consentId}?tab=timeline`, client);
    const entries = await screen.findAllByTestId('timeline-entry');
    expect(entries.map((e) => e.dataset.type)).toEqual(['update', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'GRANTED']);
    const failure = entries[1]!;
    expect(within(failure).getByText('Webhook failure')).toBeInTheDocument();
    // In full, and a bidi override shown as what it is rather than reversing the text.
    expect(within(failure).getByLabelText('Event detail')).toHaveTextContent(
      '400 Bad Request: {"error":"unknown consent ⟦U+202E⟧gnp.exe"}',
    );
    expect(within(failure).getByRole('button', { name: 'Copy the event detail' })).toBeInTheDocument();
    expect(within(entries[0]!).getByText(/Reason:/)).toHaveTextContent('Reason: CRM merge · Result: updated externalId');
    await userEvent.click(screen.getByRole('checkbox', { name: /Staff actions/ }));
    await waitFor(() => expect(screen.getAllByTestId('timeline-entry')).toHaveLength(1));
  });

  it('puts the consent’s problems above its facts, worst first, each a click from its evidence', async () => {
    const { client, cache } = memoryClient(10, {}, {});
    const c = activeOf(cache);
    const event = eventOf(c.consentId);
    cache.events.upsertPage(
      [
        event('GRANTED', '2026-10-01T00:00:00.000Z'),
        event('WEBHOOK_SENDING_FAILED', '2026-10-01T00:01:00.000Z', '502 Bad Gateway'),
        event('WEBHOOK_SENDING_FAILED', '2026-10-01T00:03:00.000Z', 'connect ETIMEDOUT'),
        event('WEBHOOK_SENDING_FAILED', '2026-10-01T00:07:00.000Z', '502 Bad Gateway'),
        event('WEBHOOK_MAX_RETRIES_REACHED', '2026-10-01T00:07:01.000Z'),
      ],
      (e) => `${e.eventType}-${e.timestamp}`,
    );
    renderRoute(`/consents/${c.consentId}`, client);
    const problems = await screen.findByRole('region', { name: 'Problems with this consent' });
    const alerts = within(problems).getAllByRole('alert');
    expect(alerts[0]).toHaveTextContent(/Webhook retries exhausted 1 time/);
    expect(alerts[1]).toHaveTextContent(/3 failed webhook deliveries/);
    expect(alerts[1]).toHaveTextContent(/502 Bad Gateway\. No delivery has gone through since\./);
    // Above the facts.
    const facts = screen.getByRole('heading', { name: 'Consent' });
    expect(problems.compareDocumentPosition(facts) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(within(alerts[0]!).getByRole('button', { name: 'See the timeline' }));
    expect((await screen.findAllByTestId('timeline-entry')).length).toBeGreaterThanOrEqual(5);
  });

  it('says in one line when nothing is wrong with the consent', async () => {
    const { client, cache } = memoryClient(40, {}, {});
    const c = cache.consents.find(
      (x) =>
        x.status === 'ACTIVE' &&
        x.firstDataCollection &&
        x.sharingEndDate &&
        Date.parse(x.sharingEndDate) > NOW.getTime() + 40 * 86_400_000,
    )!;
    renderRoute(`/consents/${c.consentId}`, client);
    expect(await screen.findByText('No problems found: no failed webhook deliveries, and nothing due.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Problems with this consent' })).toBeNull();
  });

  it('disables actions offline, saying why', async () => {
    const { client, cache } = memoryClient(10, {}, { status: { online: false, lastSyncError: 'unreachable' } });
    renderRoute(`/consents/${activeOf(cache).consentId}`, client);
    expect(await screen.findByRole('button', { name: 'Revoke…' })).toBeDisabled();
    expect(screen.getByLabelText(/^Revoke… — unavailable: Offline: the intermediary could not be reached/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update…' })).toBeDisabled();
  });
});

describe('Revoke dialog', () => {
  it('requires a reason, sends it with the chosen words, and reports "already inactive" in words', async () => {
    const revoke = vi.fn(async ({ consentId }: { consentId: string; reason: string }) => ({
      outcome: 'already-inactive' as const,
      consent: { consentId, status: 'REVOKED' },
    }));
    const { client, cache } = memoryClient(10, { 'consents:revoke': revoke });
    renderRoute(`/consents/${activeOf(cache).consentId}`, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this consent?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke consent' }));
    expect(within(dialog).getAllByText('Choose a reason.').length).toBeGreaterThan(0);
    expect(revoke).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByLabelText(/^Reason/));
    await userEvent.click(await screen.findByRole('option', { name: 'Consumer complaint' }));
    await userEvent.type(within(dialog).getByLabelText('Details (ticket number, who asked)'), 'ticket 12');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke consent' }));
    expect(await within(dialog).findByText('Already inactive at the data holder')).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/no authorised consent exists at the data holder/);
    expect(revoke.mock.calls[0]![0]).toMatchObject({ reason: 'Consumer complaint: ticket 12' });
  });

  it('in production, asks for the last 6 characters of the id; a failure says nothing changed', async () => {
    const revoke = vi.fn(async () => {
      throw new CoreError('UPSTREAM', 'revocation refused by the intermediary (500) [request abc]');
    });
    const { client, cache } = memoryClient(
      10,
      { 'consents:revoke': revoke },
      { status: { profile: { id: 'p', name: 'Prod', environment: 'prod', embedded: false } } },
    );
    const c = activeOf(cache);
    renderRoute(`/consents/${c.consentId}`, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this consent?' });
    await userEvent.click(within(dialog).getByLabelText(/^Reason/));
    await userEvent.click(await screen.findByRole('option', { name: 'Duplicate consent' }));
    const confirm = within(dialog).getByLabelText(
      new RegExp(`type the last 6 characters of the consent id \\(${c.consentId.slice(-6)}\\)`),
    );
    await userEvent.type(confirm, 'wrong!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke consent' }));
    expect(within(dialog).getByText('The characters do not match the consent id.')).toBeInTheDocument();
    expect(revoke).not.toHaveBeenCalled();
    await userEvent.clear(confirm);
    await userEvent.type(confirm, c.consentId.slice(-6));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke consent' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('revocation refused by the intermediary (500) [request abc]');
    expect(alert).toHaveTextContent('Nothing was changed.');
  });
});

describe('Authorize dialog', () => {
  it('offers the use case durations, shows the URI, decodes a pasted response and its problems before sending', async () => {
    const { client, cache } = memoryClient(30, {
      'authorization:start': async () => ({
        uri: 'https://holder.example/authorize?request_uri=x',
        expiry: '2026-11-01T00:10:00.000Z',
        state: 's1',
      }),
      'authorization:decode': async () => ({
        header: { alg: 'PS256' },
        claims: { code: 'c', state: 'other', exp: 1_700_000_000 },
        problems: [
          'It expired at 2023-11-14T22:13:20.000Z.',
          'Its state does not match an authorization started from this console (state mismatch).',
        ],
      }),
    });
    const c = cache.consents.find(
      (x) => x.status === 'ACTIVE' && x.useCase?.accessFrequency === 'ONGOING' && Date.parse(x.sharingEndDate!) > NOW.getTime(),
    )!;
    renderRoute(`/consents/${c.consentId}`, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Extend…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend this consent' });
    expect(within(dialog).getAllByRole('radio').length).toBeGreaterThan(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start extension' }));
    expect(await within(dialog).findByLabelText('Authorization URI')).toHaveTextContent('https://holder.example/authorize?request_uri=x');
    expect(within(dialog).queryByRole('button', { name: 'Simulate consumer approval' })).toBeInTheDocument(); // embedded sandbox
    await userEvent.type(within(dialog).getByLabelText('The data holder’s response (JWT)'), 'eyJ.eyJ.sig');
    const problems = await within(dialog).findByRole('alert');
    expect(problems).toHaveTextContent('It expired at 2023-11-14T22:13:20.000Z.');
    expect(problems).toHaveTextContent('state mismatch');
  });
});
