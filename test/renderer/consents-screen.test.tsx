import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../../electron/ipc/router.js';
import { BulkRevokeDialog, parseIds } from '../../renderer/src/features/consent-actions/BulkRevokeDialog.js';
import { filterOf, paramsFromView, viewFromParams } from '../../renderer/src/features/consents/view.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { memoryClient, renderRoute, renderWithClient } from './harness.js';

const rows = () => screen.getAllByTestId('table-row');
const columnText = (index: number) => rows().map((r) => within(r).getAllByRole('cell')[index]!.textContent ?? '');
const range = () => screen.getByTestId('consent-range').textContent;

describe('Consents screen', () => {
  it('lists the cached consents with the default columns, newest first, all in one scrollable list', async () => {
    const { client } = memoryClient(230);
    renderRoute('/consents', client);
    await waitFor(() => expect(range()).toBe('230 consents in the cache'));
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    expect(headers).toEqual(['', 'Status', 'Consumer e-mail', 'Data holder', 'Use case', 'Created', 'Sharing end date']);
    await waitFor(() => expect(rows().length).toBeGreaterThan(10));
    const created = rows().map((r) => r.querySelectorAll('time')[0]!.getAttribute('datetime')!);
    expect(created).toEqual([...created].sort().reverse());
    expect(screen.getByRole('columnheader', { name: /Created/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('grid', { name: 'Consents' })).toHaveAttribute('aria-rowcount', '231');
  });

  it('opens the filters, New consent and Bulk revoke from the list (their code loaded when first opened)', async () => {
    const { client } = memoryClient(40);
    const { location } = renderRoute('/consents', client);
    await waitFor(() => expect(range()).toBe('40 consents in the cache'));
    // Not in the page until asked for: the list shows its rows without them.
    expect(screen.queryByLabelText('Data holder')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(await screen.findByLabelText('Data holder', { selector: 'input' }));
    await userEvent.click((await screen.findAllByRole('option'))[0]!);
    await waitFor(() => expect(decodeURIComponent(location())).toMatch(/holder=\S+/));
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New consent' }));
    const create = await screen.findByRole('dialog', { name: 'New consent' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(create).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Bulk revoke…' }));
    expect(await screen.findByRole('textbox', { name: /Consent ids/ })).toBeInTheDocument();
  });

  it('searches as you type (any identifier), writes the view to the URL, and reads windows with the filter', async () => {
    const { client, calls, cache } = memoryClient(300);
    const { location } = renderRoute('/consents', client);
    await waitFor(() => expect(range()).toBe('300 consents in the cache'));
    const target = cache.consents.find((c) => c.cdrArrangementId)!;
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search consents' }), target.cdrArrangementId!.slice(0, 13));
    await waitFor(() => expect(decodeURIComponent(location())).toContain(`q=${target.cdrArrangementId!.slice(0, 13)}`));
    await waitFor(() => expect(range()).toBe('1 of 300 cached consents match this view'));
    expect(rows()).toHaveLength(1);
    expect(rows()[0]!.dataset.rowId).toBe(target.consentId);
    expect(screen.getByRole('searchbox', { name: 'Search consents' })).toHaveValue(target.cdrArrangementId!.slice(0, 13));
    // The rows on screen may still be the previous prefix's (the same one consent); the window of the final text follows.
    await waitFor(() =>
      expect(calls.filter((c) => c.channel === 'consents:list').at(-1)!.input).toMatchObject({
        filter: { search: target.cdrArrangementId!.slice(0, 13) },
        offset: 0,
      }),
    );
  });

  it('as you type, a shorter search answered late never replaces the rows or the count of the final text', async () => {
    const { client, cache } = memoryClient(300);
    const target = cache.consents.find((c) => c.cdrArrangementId)!;
    const text = target.cdrArrangementId!.slice(0, 13);
    // Every search but the final text waits until released: its answers come after the final text's.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const searchOf = (input: { filter: { search?: string | undefined } }) => input.filter.search;
    const [list, count] = [client.consentsList, client.consentsCount];
    client.consentsList = async (input) => {
      const answer = await list(input);
      if (searchOf(input) && searchOf(input) !== text) await held;
      return answer;
    };
    client.consentsCount = async (input) => {
      const answer = await count(input);
      if (searchOf(input) && searchOf(input) !== text) await held;
      return answer;
    };
    renderRoute('/consents', client);
    await waitFor(() => expect(range()).toBe('300 consents in the cache'));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search consents' }), text);
    await waitFor(() => expect(range()).toBe('1 of 300 cached consents match this view'));
    await waitFor(() => expect(rows().map((r) => r.dataset.rowId)).toEqual([target.consentId]));
    expect(screen.getByRole('grid', { name: 'Consents' })).not.toHaveAttribute('aria-busy');
    // The shorter searches' answers arrive now: they belong to their own searches, not to this one.
    release();
    await new Promise((r) => setTimeout(r, 50));
    expect(range()).toBe('1 of 300 cached consents match this view');
    expect(rows().map((r) => r.dataset.rowId)).toEqual([target.consentId]);
  });

  it('keeps the previous rows, the table busy, until the new search’s rows are read, and then shows its count', async () => {
    const { client, cache } = memoryClient(300);
    const target = cache.consents.find((c) => c.cdrArrangementId)!;
    const text = target.cdrArrangementId!;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const [list, count] = [client.consentsList, client.consentsCount];
    client.consentsList = async (input) => {
      const answer = await list(input);
      if (input.filter.search === text) await held;
      return answer;
    };
    client.consentsCount = async (input) => {
      const answer = await count(input);
      if (input.filter.search === text) await held;
      return answer;
    };
    renderRoute('/consents', client);
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    const before = rows().map((r) => r.dataset.rowId);
    const box = screen.getByRole('searchbox', { name: 'Search consents' });
    await userEvent.click(box);
    await userEvent.paste(text);
    // Not read yet: the previous rows are shown, the table says it is busy, the count is not claimed.
    const grid = screen.getByRole('grid', { name: 'Consents' });
    await waitFor(() => expect(grid).toHaveAttribute('aria-busy', 'true'));
    expect(rows().map((r) => r.dataset.rowId)).toEqual(before);
    expect(range()).toBe('Counting the matches…');
    release();
    await waitFor(() => expect(grid).not.toHaveAttribute('aria-busy'));
    expect(rows().map((r) => r.dataset.rowId)).toEqual([target.consentId]);
    await waitFor(() => expect(range()).toBe('1 of 300 cached consents match this view'));
  });

  it('reads a keystroke’s first rows and its count in one call', async () => {
    const { client, calls } = memoryClient(300);
    renderRoute('/consents', client);
    await waitFor(() => expect(range()).toBe('300 consents in the cache'));
    const mark = calls.length;
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search consents' }), 'a');
    await waitFor(() => expect(range()).toMatch(/of 300 cached consents match this view$/));
    const reads = calls.slice(mark).filter((c) => c.channel === 'consents:list' || c.channel === 'consents:count');
    expect(reads).toEqual([
      { channel: 'consents:list', input: expect.objectContaining({ filter: { search: 'a' }, offset: 0, withCount: true }) as unknown },
    ]);
    const counted = await client.consentsCount({ filter: { search: 'a' } });
    expect(range()).toBe(`${counted.total} of 300 cached consents match this view`);
  });

  it('filters by status chips that show their counts, and keeps other filters from the URL', async () => {
    const { client, cache } = memoryClient(200);
    const holder = cache.consents[0]!.dataHolderBrandId!;
    renderRoute(`/consents?holder=${holder}`, client);
    const atHolder = cache.consents.filter((c) => c.dataHolderBrandId === holder);
    const active = atHolder.filter((c) => c.status === 'ACTIVE').length;
    const chip = await screen.findByRole('checkbox', { name: `Active: ${active} consents` });
    await userEvent.click(chip);
    await waitFor(() => expect(range()).toBe(`${active} of 200 cached consents match this view`));
    await waitFor(() => expect(new Set(columnText(1))).toEqual(new Set(['Active'])));
  });

  it('finds the consents whose webhook deliveries failed yesterday in three actions, and keeps "yesterday" in the URL', async () => {
    const gen = createConsentGenerator(5, 60); // memoryClient's consents
    const noon = (daysAgo: number) => {
      const d = new Date();
      d.setHours(12, 0, 0, 0);
      d.setDate(d.getDate() - daysAgo);
      return d.toISOString();
    };
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => gen.at(i));
    const events = [
      { consentId: a!.consentId, eventType: 'WEBHOOK_SENDING_FAILED', timestamp: noon(1) },
      { consentId: b!.consentId, eventType: 'WEBHOOK_MAX_RETRIES_REACHED', timestamp: noon(1) },
      { consentId: b!.consentId, eventType: 'WEBHOOK_SENDING_FAILED', timestamp: noon(1) },
      // Failed two days ago, delivered yesterday, failed today: none of them yesterday's failures.
      { consentId: c!.consentId, eventType: 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', timestamp: noon(2) },
      { consentId: d!.consentId, eventType: 'WEBHOOK_SENT', timestamp: noon(1) },
      { consentId: d!.consentId, eventType: 'WEBHOOK_SENDING_FAILED', timestamp: noon(0) },
    ];
    const { client } = memoryClient(60, {}, { events: events as never });
    const { location } = renderRoute('/consents', client);
    await waitFor(() => expect(range()).toBe('60 consents in the cache'));
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    await userEvent.click(await screen.findByLabelText('Webhook failures', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Yesterday' }));
    await waitFor(() => expect(range()).toBe('2 of 60 cached consents match this view'));
    expect(
      rows()
        .map((r) => r.dataset.rowId)
        .sort(),
    ).toEqual([a!.consentId, b!.consentId].sort());
    expect(decodeURIComponent(location())).toContain('failed=yesterday');
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toBeInTheDocument();
    // At any time: the four consents with a failure (d's today).
    await userEvent.click(screen.getByLabelText('Webhook failures', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'At any time' }));
    await waitFor(() => expect(range()).toBe('4 of 60 cached consents match this view'));
  });

  it('sorts by a column when its header is clicked, and reverses on a second click', async () => {
    const { client, calls } = memoryClient(120);
    const { location } = renderRoute('/consents', client);
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    await userEvent.click(screen.getByRole('button', { name: /Consumer e-mail/ }));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Consumer e-mail/ })).toHaveAttribute('aria-sort', 'ascending'));
    await waitFor(() => {
      const emails = columnText(2);
      expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    });
    expect(location()).toContain('sort=consumerEmail.asc');
    await userEvent.click(screen.getByRole('button', { name: /Consumer e-mail/ }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ input: { sort: { field: 'consumerEmail', direction: 'desc' } } }));
  });

  it('moves through rows with the keyboard and opens one with Enter', async () => {
    const { client } = memoryClient(50);
    const { location } = renderRoute('/consents', client);
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    const grid = screen.getByRole('grid', { name: 'Consents' });
    grid.focus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}j');
    await waitFor(() => expect(grid.getAttribute('aria-activedescendant')).toBe(rows()[3]!.id));
    const above = rows()[2]!.dataset.rowId!;
    await userEvent.keyboard('k{Enter}');
    await waitFor(() => expect(location()).toBe(`/consents/${encodeURIComponent(above)}`));
  });

  it('selects rows with checkboxes, a range with shift, and all matching', async () => {
    const { client } = memoryClient(80);
    renderRoute('/consents', client);
    await waitFor(() => expect(rows().length).toBeGreaterThan(10));
    const user = userEvent.setup();
    const box = (i: number) => within(rows()[i]!).getByRole('checkbox');
    await user.click(box(1));
    expect(await screen.findByText('1 consent selected')).toBeInTheDocument();
    await user.keyboard('{Shift>}');
    await user.click(box(5));
    await user.keyboard('{/Shift}');
    expect(await screen.findByText('5 consents selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Select all 80 matching' }));
    expect(await screen.findByText('80 consents selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();
  });

  it('says so when nothing matches, and what to do when the cache is empty', async () => {
    const { client } = memoryClient(20);
    renderRoute('/consents?q=nobody-at-all', client);
    expect(await screen.findByText('No consent matches this view')).toBeInTheDocument();
    const empty = memoryClient(0);
    renderRoute('/consents', empty.client);
    expect(await screen.findByText('No consents in the cache yet')).toBeInTheDocument();
  });

  it('shows the reason when the cache cannot be read', async () => {
    const { client } = memoryClient(0, {
      'consents:count': async () => {
        throw new CoreError('CACHE', 'The cache is locked by another console.');
      },
    });
    renderRoute('/consents', client);
    expect(await screen.findByText('The consent list could not be read')).toBeInTheDocument();
    expect(screen.getByText('The cache is locked by another console.')).toBeInTheDocument();
  });

  it('chooses and orders columns, remembered as the default', async () => {
    const { client, calls } = memoryClient(30);
    renderRoute('/consents', client);
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'External id' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move Status right' }));
    await waitFor(() =>
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim())).toEqual([
        '',
        'Consumer e-mail',
        'Status',
        'Data holder',
        'Use case',
        'Created',
        'Sharing end date',
        'External id',
      ]),
    );
    expect(calls.filter((c) => c.channel === 'settings:set').at(-1)!.input).toEqual({
      consentColumns: ['consumerEmail', 'status', 'dataHolderName', 'useCaseName', 'created', 'sharingEndDate', 'externalId'],
    });
  });
});

describe('the consent view in the URL', () => {
  it('round-trips every part, and turns local days into UTC instants with an inclusive end', () => {
    const params = new URLSearchParams(
      'q=jane&status=ACTIVE,REVOKED&holder=h1&useCase=u1,u2&frequency=ONGOING&postUsage=DELETION&dm=no&created=2026-01-01..2026-01-31&sort=consumerEmail.asc&cols=status,externalId',
    );
    const view = viewFromParams(params);
    expect(paramsFromView(view).toString()).toBe(params.toString().replaceAll('%2C', ',').replaceAll(',', '%2C'));
    const filter = filterOf(view);
    expect(filter).toMatchObject({ search: 'jane', statuses: ['ACTIVE', 'REVOKED'], directMarketing: false, useCaseIds: ['u1', 'u2'] });
    expect(new Date(filter.created!.from!).getDate()).toBe(1);
    expect(Date.parse(filter.created!.to!) - Date.parse(filter.created!.from!)).toBeGreaterThanOrEqual(31 * 86_400_000 - 3_600_000);
    expect(viewFromParams(new URLSearchParams('sort=password.asc&cols=nope')).sort).toEqual({ field: 'created', direction: 'desc' });
  });

  it('reads a pasted list of ids: malformed ones out, duplicates removed', () => {
    expect(parseIds('a1, b2\nb2 ../etc/passwd "c3";\n\n<script>')).toEqual({
      ids: ['a1', 'b2', 'c3'],
      invalid: ['../etc/passwd', '<script>'],
      duplicates: 1,
    });
  });
});

describe('Bulk revoke dialog', () => {
  it('says why the ids could not be checked, and lets the user try again', async () => {
    let fail = true;
    const { client, cache } = memoryClient(20, {
      'consents:resolve': async ({ consentIds }) => {
        if (fail) throw new CoreError('CACHE', 'The cache could not be read: disk I/O error.');
        return { known: consentIds.map((consentId) => ({ consentId, status: 'ACTIVE' })), unknown: [] };
      },
    });
    renderWithClient(<BulkRevokeDialog opened onClose={() => undefined} />, client);
    const ids = cache.consents.slice(0, 2).map((c) => c.consentId);
    await userEvent.type(await screen.findByRole('textbox', { name: /Consent ids/ }), ids.join('\n'));
    await userEvent.click(screen.getByRole('button', { name: 'Check 2 ids' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not checked');
    expect(alert).toHaveTextContent('disk I/O error');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Check 2 ids' }));
    expect(await screen.findByRole('status')).toHaveTextContent('2 consents found in the cache.');
  });
});
