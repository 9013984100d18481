import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DataStore } from '../../electron/core/data/port.js';
import { DataRepo } from '../../electron/core/cache/data-repo.js';
import { CustomerScreen } from '../../renderer/src/features/data/CustomerScreen.js';
import { DataScreen } from '../../renderer/src/features/data/DataScreen.js';
import { recurrenceText } from '../../renderer/src/features/data/recurrence.js';
import { CompareScreen } from '../../renderer/src/features/products/CompareScreen.js';
import { ProductDetailScreen } from '../../renderer/src/features/products/ProductDetailScreen.js';
import { ProductsScreen } from '../../renderer/src/features/products/ProductsScreen.js';
import { useSession } from '../../renderer/src/stores/session.js';
import { memoryClient, renderWithClient } from './harness.js';

/**
 * The products and data browser screens against the real client, router and cache queries (SQLite
 * in memory): every fee method, discount method, tier shape and condition list drawn as the analyst
 * reads it — from a synthetic product that has each, and from real data holders' edge cases among
 * the normaliser's fixtures — badges and notes, the comparison, recurrence in words, transactions
 * searched, and a purged consent's retention notice.
 */
type Json = Record<string, unknown>;
/** A real data holder's product among the normaliser's fixtures (test/fixtures/products-real, with its licence). */
const REAL = join(process.cwd(), 'test/fixtures/products-real');
const real = (prefix: string): Json => {
  const [file, ...more] = readdirSync(REAL).filter((f) => f.startsWith(prefix));
  if (!file || more.length) throw new Error(`one fixture should start with ${prefix}`);
  return (JSON.parse(readFileSync(join(REAL, file), 'utf8')) as { data: Json }).data;
};

/** A 2.0.0 product with every fee method, both discount methods, every tier shape and condition list. */
const EVERYTHING: Json = {
  productId: 'ALL-METHODS',
  name: 'Everything Account',
  brandName: 'Test Bank',
  dataHolderId: 'holder-test',
  productCategory: 'TRANS_AND_SAVINGS_ACCOUNTS',
  lastUpdated: '2026-01-01T00:00:00Z',
  fees: [
    {
      name: 'Monthly fee',
      feeType: 'PERIODIC',
      feeMethodUType: 'fixedAmount',
      fixedAmount: { amount: '6.00' },
      additionalValue: 'P1M',
      feeCap: '60.00',
      feeCapPeriod: 'P1Y',
      discounts: [
        {
          description: 'Waived with deposits',
          discountType: 'DEPOSITS',
          discountMethodUType: 'fixedAmount',
          fixedAmount: { amount: '6.00' },
          additionalValue: '2000.00',
        },
        {
          description: 'Half for students',
          discountType: 'ELIGIBILITY_ONLY',
          discountMethodUType: 'rateBased',
          rateBased: { rateType: 'FEE', rate: '0.50' },
          eligibility: [{ discountEligibilityType: 'STUDENT', additionalInfo: 'Full-time students' }],
        },
      ],
    },
    {
      name: 'Overdrawn interest',
      feeType: 'TRANSACTION',
      feeMethodUType: 'rateBased',
      rateBased: { rateType: 'BALANCE', rate: '0.0125', accrualFrequency: 'P1D', amountRange: { feeMinimum: '1.00', feeMaximum: '25.00' } },
    },
    { name: 'Dishonour fee', feeType: 'DISHONOUR', feeMethodUType: 'variable', variable: { feeMinimum: '5.00', feeMaximum: '15.00' } },
    { name: 'Valuation fee', feeType: 'OTHER', feeMethodUType: 'variable', variable: {} },
  ],
  depositRates: [
    {
      depositRateType: 'BONUS',
      rate: '0.0425',
      applicationType: 'PERIODIC',
      applicationFrequency: 'P1M',
      applicabilityConditionList: [
        { rateApplicabilityType: 'DEPOSIT_BALANCE_INCREASED', additionalValue: '0.01' },
        { rateApplicabilityType: 'MAX_WITHDRAWALS', additionalValue: '0' },
      ],
      tiers: [
        {
          name: 'Balances',
          unitOfMeasure: 'DOLLAR',
          minimumValueString: '0.00',
          maximumValueString: '250000.00',
          rateApplicationMethod: 'PER_TIER',
        },
        { name: 'Term', unitOfMeasure: 'MONTH', minimumValueString: '3', maximumValueString: '12' },
        {
          name: 'Large',
          unitOfMeasure: 'DOLLAR',
          minimumValueString: '5000.00',
          maximumValueString: 'Contact us for deposits over $2 million',
        },
        {
          name: 'LVR',
          unitOfMeasure: 'PERCENT',
          minimumValueString: '0.8001',
          maximumValueString: '0.95',
          rateApplicationMethod: 'WHOLE_BALANCE',
          applicabilityConditionList: [{ rateApplicabilityType: 'OTHER', additionalInfo: 'Lenders mortgage insurance applies' }],
        },
      ],
    },
  ],
};

function setup() {
  const made: { query?: DataStore } = {};
  const q = () => made.query!;
  const mem = memoryClient(40, {
    'products:list': async ({ filter, offset, limit }) => q().products(filter, offset, limit),
    'products:get': async ({ recordId }) => (await q().product(recordId))!,
    'products:versions': async ({ recordId, hashes }) => q().productVersions(recordId, hashes),
    'data:meta': async ({ consentId }) => ({ ...(await q().meta(consentId)), history: null }),
    'data:records': async (input) => q().records(input),
    'data:consents': async (input) => q().consents(input),
  });
  made.query = mem.cache.stores.data;
  return { ...mem, repo: new DataRepo(mem.cache.db), query: made.query };
}

function show(path: string, client: ReturnType<typeof setup>['client']) {
  useSession.setState({ connection: 'connected', syncProgress: null });
  const router = createMemoryRouter(
    [
      { path: '/products', element: <ProductsScreen /> },
      { path: '/products/compare', element: <CompareScreen /> },
      { path: '/products/:recordId', element: <ProductDetailScreen /> },
      { path: '/data', element: <DataScreen /> },
      { path: '/data/customer', element: <CustomerScreen /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  return renderWithClient(<RouterProvider router={router} />, client);
}

const fees = async () => within(await screen.findByRole('region', { name: /^Fees/ }));

describe('product detail', () => {
  it('draws every fee method, both discount methods, caps, every tier shape and condition list', async () => {
    const { client, repo } = setup();
    repo.upsertPage('products', [EVERYTHING], '2026-11-01T00:00:00.000Z');
    show(`/products/${encodeURIComponent('holder-test:ALL-METHODS')}`, client);
    const f = await fees();
    const methods = f.getAllByTestId('fee-method').map((m) => m.textContent);
    expect(methods).toEqual([
      'Fixed $6.00',
      'Rate-based: 1.25% of the balance; accrued every day; min $1.00, max $25.00',
      'Variable: from $5.00 to $15.00',
      'Variable (no bounds given)',
    ]);
    expect(f.getByText('Every month')).toBeInTheDocument();
    expect(f.getByText('Capped at $60.00 per year')).toBeInTheDocument();
    // Fees grouped by type.
    for (const group of ['Periodic', 'Transaction', 'Dishonour', 'Other']) expect(f.getByText(group)).toBeInTheDocument();
    const discounts = f.getAllByTestId('discount');
    expect(discounts[0]).toHaveTextContent('Deposits — $6.00 off (value 2000.00)');
    expect(discounts[1]).toHaveTextContent('Eligibility only — 50% of the fee off');
    expect(within(discounts[1]!).getByRole('list', { name: 'Discount eligibility' })).toHaveTextContent('Student — Full-time students');

    const rates = within(screen.getByRole('region', { name: /^Deposit rates/ }));
    expect(rates.getByText('4.25%')).toBeInTheDocument();
    expect(rates.getByRole('list', { name: 'Applicability conditions' })).toHaveTextContent(
      'Deposit balance increased: 0.01Max withdrawals: 0',
    );
    const tiers = rates.getAllByTestId('tier').map((t) => [...t.querySelectorAll('td')].map((c) => c.textContent));
    expect(tiers).toEqual([
      ['Balances', '$0.00', '$250,000.00', 'Dollar', 'Per tier', ''],
      ['Term', '3 months', '12 months', 'Month', '—', ''],
      ['Large', '$5,000.00', '“Contact us for deposits over $2 million”', 'Dollar', '—', ''],
      ['LVR', '80.01%', '95%', 'Percent', 'Whole balance', 'Other — Lenders mortgage insurance applies'],
    ]);
    expect(screen.queryByTestId('shape-badge')).toBeNull(); // 2.0.0 as served
  });

  it('a legacy product: the "normalised from 1.x" badge, and each note beside the fee it concerns (ANZ: amount plus transactionRate)', async () => {
    const { client, repo, query } = setup();
    const product = real('anz_fee_amount_plus_transactionRate');
    repo.upsertPage('products', [product], '2026-11-01T00:00:00.000Z');
    const id = (await query.products({}, 0, 1)).rows[0]!.recordId;
    const stored = (await query.product(id))!;
    show(`/products/${encodeURIComponent(id)}`, client);
    expect(await screen.findByTestId('shape-badge')).toHaveTextContent('Normalised from 1.x');
    const f = await fees();
    // Each note sits in the fee it concerns, by path.
    const rows = f.getAllByTestId('fee');
    const noted = (stored.notes as { path: string }[])
      .map((n) => Number(/^fees\[(\d+)\]/.exec(n.path)?.[1]))
      .filter((n) => !Number.isNaN(n));
    expect(noted.length).toBeGreaterThan(0);
    const feeRows = (stored.record.fees as Json[]).map((fee, i) => ({ fee, i }));
    for (const i of new Set(noted)) {
      const name = String(feeRows[i]!.fee.name);
      const row = rows.find((r) => r.textContent?.startsWith(name) && within(r).queryByTestId('normalizer-notes'))!;
      expect(row, `fee ${i} ${name}`).toBeDefined();
      expect(within(row).getByTestId('normalizer-notes')).toHaveTextContent(`fees[${i}]`);
    }
    // Every fee is drawn with its method, in words.
    expect(f.getAllByTestId('fee-method')).toHaveLength((stored.record.fees as Json[]).length);
    expect(f.getAllByTestId('fee-method').filter((m) => m.textContent === 'Variable (no bounds given)').length).toBe(
      (stored.record.fees as Json[]).filter((fee) => fee.feeMethodUType === 'variable').length,
    );
  });

  it('real tier edge cases: a sentinel maximum noted as guessed; conditions sent as one object read as a list; a discount with eligibility', async () => {
    const { client, repo, query } = setup();
    repo.upsertPage(
      'products',
      [real('amp_tier_DOLLAR_sentinel_max'), real('tier_applicabilityConditions_object'), real('discount_feeRate_with_eligibility')],
      '2026-11-01T00:00:00.000Z',
    );
    const listed = (await query.products({}, 0, 10)).rows.sort((a, b) => (a.recordId < b.recordId ? -1 : 1));
    const byId = Object.fromEntries(
      await Promise.all(listed.slice(0, 3).map(async (p) => [p.recordId, (await query.product(p.recordId))!] as const)),
    );
    for (const [id, p] of Object.entries(byId)) {
      const { unmount } = show(`/products/${encodeURIComponent(id)}`, client);
      await screen.findByRole('heading', { level: 2 });
      const notes = p.notes as { path: string; kind: string }[];
      // Every note on a rate or tier is drawn inside that rate's section.
      for (const n of notes.filter((x) => /^(deposit|lending)Rates\[\d+\]\.tiers/.test(x.path))) {
        const shown = screen.getAllByTestId('normalizer-notes').filter((el) => el.textContent?.includes(n.path));
        expect(shown.length, n.path).toBeGreaterThan(0);
        expect(shown[0]!.textContent).toContain(n.kind);
      }
      const tierConditions = screen.queryAllByRole('list', { name: 'Tier conditions' });
      const tiersWithConditions = [...((p.record.depositRates as Json[]) ?? []), ...((p.record.lendingRates as Json[]) ?? [])]
        .flatMap((r) => (r.tiers as Json[]) ?? [])
        .filter((t) => ((t.applicabilityConditionList as unknown[]) ?? []).length > 0);
      expect(tierConditions).toHaveLength(tiersWithConditions.length);
      const withEligibility = ((p.record.fees as Json[]) ?? [])
        .flatMap((f) => (f.discounts as Json[]) ?? [])
        .filter((d) => (d.eligibility as unknown[])?.length);
      expect(screen.queryAllByRole('list', { name: 'Discount eligibility' })).toHaveLength(withEligibility.length);
      unmount();
    }
    // Between the three fixtures: a guessed maximum, a condition object made a list, an eligibility list.
    const allNotes = Object.values(byId).flatMap((p) => p.notes as { path: string; kind: string }[]);
    expect(allNotes.some((n) => /tiers\[0\]\.maximumValueString/.test(n.path) && n.kind === 'guessed')).toBe(true);
  });

  it('the payload as sent is one click away, beside the normalised form, with every note', async () => {
    const { client, repo, query } = setup();
    repo.upsertPage('products', [real('discount_feeRate_with_eligibility')], '2026-11-01T00:00:00.000Z');
    const id = (await query.products({}, 0, 1)).rows[0]!.recordId;
    show(`/products/${encodeURIComponent(id)}`, client);
    await userEvent.click(await screen.findByRole('tab', { name: 'Normalised and as sent' }));
    expect(screen.getByRole('region', { name: 'Normalised (Data API 2.0.0)' })).toHaveTextContent('"discountMethodUType"');
    expect(screen.getByRole('region', { name: 'As sent by the data holder' })).not.toHaveTextContent('"discountMethodUType"');
    expect(screen.getByRole('region', { name: 'Normaliser’s notes' }).querySelectorAll('p')).toHaveLength(
      (await query.product(id))!.notes.length,
    );
  });
});

describe('catalogue and comparison', () => {
  it('counts per category, and compares two products with the differing terms marked', async () => {
    const { client, repo } = setup();
    const other = {
      ...EVERYTHING,
      productId: 'OTHER',
      name: 'Other Account',
      fees: [{ ...(EVERYTHING.fees as Json[])[0]!, fixedAmount: { amount: '4.00' } }],
    };
    const loan = { ...EVERYTHING, productId: 'LOAN', name: 'A Loan', productCategory: 'PERS_LOANS' };
    repo.upsertPage('products', [EVERYTHING, other, loan], '2026-11-01T00:00:00.000Z');
    const list = show('/products', client);
    await waitFor(() => expect(screen.getByTestId('products-range')).toHaveTextContent('3 products in this view'));
    expect(screen.getByRole('checkbox', { name: 'Transaction and savings accounts: 2 products' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Personal loans: 1 product' })).toBeInTheDocument();

    list.unmount();
    show(`/products/compare?ids=${encodeURIComponent('holder-test:ALL-METHODS')},${encodeURIComponent('holder-test:OTHER')}`, client);
    const table = await screen.findByRole('table', { name: 'Products side by side' });
    const row = (label: RegExp) =>
      within(table)
        .getAllByRole('row')
        .find((r) => label.test(r.textContent ?? ''))!;
    expect(row(/^Fee: Monthly fee/)).toHaveAttribute('data-differs', 'true');
    expect(row(/^Fee: Monthly fee/)).toHaveTextContent('differs');
    expect(row(/^Fee: Overdrawn interest/)).toHaveTextContent('—'); // the other product has no such fee
    expect(row(/^Category/)).not.toHaveAttribute('data-differs');
  });
});

describe('recurrence in words', () => {
  it.each([
    [
      {
        recurrenceUType: 'intervalSchedule',
        intervalSchedule: { finalPaymentDate: '2027-06-30', intervals: [{ interval: 'P2W', dayInInterval: 'P1D' }] },
      },
      'every 2nd Monday until 30 Jun 2027',
    ],
    [
      {
        recurrenceUType: 'intervalSchedule',
        intervalSchedule: { paymentsRemaining: 4, intervals: [{ interval: 'P1M', dayInInterval: 'P15D' }] },
      },
      'every month on the 15th, 4 payments left',
    ],
    [
      { recurrenceUType: 'intervalSchedule', nextPaymentDate: '2027-01-05', intervalSchedule: { intervals: [{ interval: 'P1W' }] } },
      'every week; next on 5 Jan 2027',
    ],
    [{ recurrenceUType: 'lastWeekDay', lastWeekDay: { interval: 'P1M', lastWeekDay: 'FRI' } }, 'the last Friday of every month'],
    [{ recurrenceUType: 'onceOff', onceOff: { paymentDate: '2027-02-03' } }, 'once, on 3 Feb 2027'],
    [{ recurrenceUType: 'eventBased', eventBased: { description: 'the invoice is issued' } }, 'when: the invoice is issued'],
  ])('%j → %s', (recurrence, words) => expect(recurrenceText(recurrence)).toBe(words));
});

/** A consent's account (with every kind of fee), its balance and three transactions, two of them at Woolworths. */
function seedTransactions(repo: ReturnType<typeof setup>['repo'], consentId: string) {
  const adatree = { consentId };
  repo.upsertPage(
    'accounts',
    [
      {
        accountId: 'acc-1',
        displayName: 'Everyday',
        maskedNumber: 'xxxx1234',
        productCategory: 'TRANS_AND_SAVINGS_ACCOUNTS',
        adatree,
        fees: EVERYTHING.fees,
      },
    ],
    '2026-11-01T00:00:00.000Z',
  );
  repo.upsertPage(
    'balances',
    [{ accountId: 'acc-1', currentBalance: '100.00', availableBalance: '100.00', adatree }],
    '2026-11-01T00:00:00.000Z',
  );
  repo.upsertPage(
    'transactions',
    [
      {
        accountId: 'acc-1',
        transactionId: 't1',
        status: 'POSTED',
        type: 'PAYMENT',
        description: 'WOOLWORTHS NEWTOWN',
        amount: '-20.00',
        postingDateTime: '2026-10-30T00:00:00Z',
        executionDateTime: '2026-10-30T00:00:00Z',
        adatree,
      },
      {
        accountId: 'acc-1',
        transactionId: 't2',
        status: 'POSTED',
        type: 'PAYMENT',
        description: 'COLES BONDI',
        amount: '-5.50',
        postingDateTime: '2026-10-31T00:00:00Z',
        executionDateTime: '2026-10-31T00:00:00Z',
        adatree,
      },
      {
        accountId: 'acc-1',
        transactionId: 't3',
        status: 'PENDING',
        type: 'PAYMENT',
        description: 'WOOLWORTHS METRO',
        amount: '-3.00',
        executionDateTime: '2026-11-01T00:00:00Z',
        adatree,
      },
    ],
    '2026-11-01T00:00:00.000Z',
  );
}

describe('data browser', () => {
  it('a consent’s transactions, searched in their descriptions, with the balance after each; the raw payload one click away', async () => {
    const { client, repo, cache } = setup();
    const consentId = cache.consents.find((c) => c.status === 'ACTIVE')!.consentId;
    seedTransactions(repo, consentId);
    show(`/data?consent=${consentId}&view=transactions`, client);
    const grid = await screen.findByRole('grid', { name: 'Transactions' });
    await waitFor(() => expect(within(grid).getAllByTestId('table-row')).toHaveLength(3));
    const cells = () =>
      within(grid)
        .getAllByTestId('table-row')
        .map((r) => [...r.querySelectorAll('td')].slice(1, 4).map((c) => c.textContent));
    expect(cells()).toEqual([
      ['WOOLWORTHS METRO', '-$3.00', '—'],
      ['COLES BONDI', '-$5.50', '$100.00'],
      ['WOOLWORTHS NEWTOWN', '-$20.00', '$105.50'],
    ]);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search descriptions' }), 'wool');
    await waitFor(() => expect(cells().map((c) => c[0])).toEqual(['WOOLWORTHS METRO', 'WOOLWORTHS NEWTOWN']));
    expect(screen.getByTestId('records-range')).toHaveTextContent('2 records match these filters');
    expect(screen.getByTestId('data-fetched')).toHaveTextContent(`from consent ${consentId}`);

    await userEvent.click(screen.getByRole('tab', { name: 'Accounts (1)' }));
    await userEvent.click(await screen.findByText('Everyday'));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('region', { name: /^Fees/ })).toBeInTheDocument();
    expect(within(drawer).getByRole('region', { name: 'As sent by the data holder' })).toHaveTextContent('"adatree"');
  });

  it('while a search is being counted, the range line says so rather than claiming the previous view’s count', async () => {
    const { client, repo, cache } = setup();
    const consentId = cache.consents.find((c) => c.status === 'ACTIVE')!.consentId;
    seedTransactions(repo, consentId);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const read = client.dataRecords;
    client.dataRecords = async (input) => {
      const answer = await read(input);
      if (input.filter?.search) await held;
      return answer;
    };
    show(`/data?consent=${consentId}&view=transactions`, client);
    const grid = await screen.findByRole('grid', { name: 'Transactions' });
    await waitFor(() => expect(within(grid).getAllByTestId('table-row')).toHaveLength(3));
    expect(screen.getByTestId('records-range')).toHaveTextContent(/^3 records · fetched/);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search descriptions' }), 'wool');
    await waitFor(() => expect(screen.getByTestId('records-range')).toHaveTextContent(/^Counting the matches…/));
    expect(screen.getByTestId('records-range')).not.toHaveTextContent(/records? match/);
    release();
    await waitFor(() => expect(screen.getByTestId('records-range')).toHaveTextContent(/^2 records match these filters/));
    expect(within(grid).getAllByTestId('table-row')).toHaveLength(2);
  });

  it('one customer: every consent of theirs, their accounts at each data holder, their cached records by kind', async () => {
    const { client, repo, cache } = setup();
    // A consumer with two consents (the sandbox's consumers come back), data cached under one.
    const counts = new Map<string, number>();
    for (const c of cache.consents) if (c.consumerId) counts.set(c.consumerId, (counts.get(c.consumerId) ?? 0) + 1);
    const consumerId = [...counts].find(([, n]) => n >= 2)?.[0];
    expect(consumerId).toBeDefined();
    const theirs = cache.consents.filter((c) => c.consumerId === consumerId);
    const adatree = { consentId: theirs[0]!.consentId };
    repo.upsertPage(
      'accounts',
      [
        { accountId: 'acc-9', displayName: 'Everyday', maskedNumber: 'xxxx9876', productCategory: 'TRANS_AND_SAVINGS_ACCOUNTS', adatree },
        { accountId: 'acc-8', displayName: 'Rainy day', maskedNumber: 'xxxx5555', productCategory: 'TRANS_AND_SAVINGS_ACCOUNTS', adatree },
      ],
      '2026-11-01T00:00:00.000Z',
    );
    repo.upsertPage(
      'balances',
      [{ accountId: 'acc-9', currentBalance: '1.00', availableBalance: '1.00', adatree }],
      '2026-11-01T00:00:00.000Z',
    );
    show(`/data/customer?id=${encodeURIComponent(consumerId!)}`, client);
    expect(await screen.findByRole('heading', { level: 2, name: theirs[0]!.consumerEmail! })).toBeInTheDocument();
    expect(screen.getByTestId('customer-consents')).toHaveTextContent(String(theirs.length));
    const table = screen.getByRole('table', { name: 'The customer’s consents' });
    expect(within(table).getAllByRole('row')).toHaveLength(theirs.length + 1);
    const accounts = await screen.findByRole('table', { name: 'The customer’s accounts' });
    expect(
      within(accounts)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([expect.stringContaining('Everyday'), expect.stringContaining('Rainy day')]);
    const kinds = screen.getByRole('table', { name: 'The customer’s cached data by kind' });
    expect(within(kinds).getByRole('row', { name: /^Accounts 2 / })).toBeInTheDocument();
    expect(within(kinds).getByRole('row', { name: /^Balances 1 / })).toBeInTheDocument();
    expect(screen.getByTestId('customer-cached-records')).toHaveTextContent('3');
  });

  it('a purged consent says when and why its data was deleted, instead of an empty table', async () => {
    const { client, cache } = setup();
    const consentId = cache.consents[0]!.consentId;
    cache.db
      .prepare('INSERT INTO retention_log (consent_id, action, records, kinds, reason, at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(consentId, 'deleted', 42, 'accounts,transactions', 'consent revoked; post-usage action DELETION', '2026-11-02T03:04:05.000Z');
    show(`/data?consent=${consentId}`, client);
    const notice = await screen.findByTestId('retention-notice');
    expect(notice).toHaveTextContent(/^Deleted on 2 Nov 2026, \d\d:\d\d because consent revoked; post-usage action DELETION/);
    expect(notice).toHaveTextContent('42 records (accounts, transactions) were deleted from the cache');
    expect(screen.queryByText('No Data API records of this consent are cached')).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
  });
});
