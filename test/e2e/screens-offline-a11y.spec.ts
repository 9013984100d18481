import { expect, test } from '@playwright/test';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { pinnedNow, startConsole, uatProfile, type ConsoleProcess } from './console-host.js';
import { look } from './look.js';

/**
 * The console on a non-production profile whose intermediary is a sandbox in this test process,
 * so the test can stop it: every screen in light and dark (screenshots), an axe scan of each with no
 * serious or critical violation, and offline — lists and details from the cache, actions refused
 * with the reason.
 */
let sandbox: RunningSandbox;
let app: ConsoleProcess;
test.beforeAll(async () => {
  sandbox = await startSandbox({ seed: 31, consents: 150, clockOrigin: pinnedNow(), legacyHolders: 1 });
  app = await startConsole(['--profile', 'uat'], {
    env: { CDR_CONSOLE_CLIENT_SECRET: 'sandbox-secret' },
    setup: uatProfile(sandbox.url, 'Axel Accessible'),
  });
});
test.afterAll(async () => {
  await app?.stop();
  await sandbox?.close().catch(() => undefined);
});

const origin = () => new URL(app.launchUrl).origin;

test('the overview, consents and a consent, in light and dark, readable and with no accessibility violation', async ({ page }) => {
  test.setTimeout(240_000); // sixteen axe scans
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await look(page, 'overview');
  await page.goto(`${origin()}/#/consents`);
  await expect(page.getByTestId('consent-range')).toHaveText('150 consents in the cache');
  // A non-production profile is unmistakable.
  await expect(page.getByTestId('environment-bar')).toContainText('Non-production');
  await expect(page).toHaveTitle('Intermediary UAT (Non-production) — CDR Console');
  await look(page, 'consents');

  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.locator('label', { hasText: /^Revoked \d/ }).click(); // the chip's label: its checkbox is visually hidden
  await expect(page.getByTestId('consent-range')).toHaveText(/of 150 cached consents match this view/);
  await look(page, 'consents-filtered');

  await page.getByTestId('table-row').first().click();
  await expect(page.getByTestId('status-sentence')).toBeVisible();
  await look(page, 'consent-overview');
  await page.getByRole('tab', { name: /Timeline/ }).click();
  await look(page, 'consent-timeline');
  await page.getByRole('tab', { name: /Versions/ }).click();
  await look(page, 'consent-versions');
  await page.getByRole('tab', { name: /Cached data/ }).click();
  await look(page, 'consent-data');

  // The consents whose webhook deliveries failed, and one's problems above its facts.
  await page.goto(`${origin()}/#/consents`);
  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.getByRole('combobox', { name: 'Webhook failures' }).click();
  await look(page, 'consents-webhook-failures-choices');
  await page.getByRole('option', { name: 'At any time' }).click();
  await expect(page).toHaveURL(/failed=any/);
  await expect(page.getByTestId('consent-range')).toHaveText(/^[1-9]\d* of 150 cached consents match this view$/);
  await page.getByTestId('table-row').first().click();
  await expect(page.getByRole('region', { name: 'Problems with this consent' })).toContainText(/failed webhook deliver|retries exhausted/);
  await look(page, 'consent-problems');
});

test('the dialogs, the command palette and the help, in light and dark, readable and with no accessibility violation', async ({ page }) => {
  test.setTimeout(240_000); // fourteen axe scans
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto(`${origin()}/#/consents?status=ACTIVE`);
  await page.getByTestId('table-row').first().click();
  await page.getByRole('button', { name: 'Revoke…', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Revoke this consent?' })).toBeVisible();
  await look(page, 'revoke-dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.goto(`${origin()}/#/consents`);
  await page.getByRole('button', { name: 'Bulk revoke…' }).click();
  await page.getByLabel('Consent ids').fill('not-a-real-id\nnot-a-real-id\n../../etc');
  await page.getByRole('button', { name: 'Check 1 id' }).click();
  await expect(page.getByText('1 id unknown to the cache: not-a-real-id')).toBeVisible();
  await look(page, 'bulk-revoke-dialog');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'New consent' }).click();
  await expect(page.getByRole('dialog', { name: 'New consent' })).toBeVisible();
  await look(page, 'new-consent-dialog');
  await page.keyboard.press('Escape');

  await page.keyboard.press('Control+k');
  await page.getByRole('textbox', { name: 'Search consents, screens and commands' }).fill('go to');
  await look(page, 'palette');
  await page.keyboard.press('Escape');

  // `?` opens the help: the shortcuts, and the glossary of every value the screens put in words.
  await page.getByRole('heading', { level: 2 }).first().click(); // not in a field, where ? is typed
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Help' });
  await expect(help.getByRole('region', { name: 'Anywhere' })).toContainText('Open the command palette');
  await look(page, 'help-shortcuts');
  await help.getByRole('tab', { name: 'Glossary' }).click();
  await help.getByRole('textbox', { name: 'Find a word' }).fill('retries');
  await expect(help.getByRole('term').filter({ hasText: 'Webhook retries exhausted' })).toContainText('WEBHOOK_MAX_RETRIES_REACHED');
  await expect(help.getByRole('term').filter({ hasText: /^Granted/ })).toHaveCount(0);
  await look(page, 'help-glossary');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

test('every other screen, in light and dark, readable and with no accessibility violation', async ({ page }) => {
  test.setTimeout(240_000); // twenty axe scans
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  for (const screen of [
    'events',
    'webhook-failures',
    'use-cases',
    'data',
    'products',
    'audit',
    'complaints',
    'reports',
    'users',
    'settings',
  ]) {
    await page.goto(`${origin()}/#/${screen}`);
    await expect(page.getByRole('heading', { level: 2 })).toBeVisible();
    await look(page, screen);
  }
});

// The data browser and products with data: three tests in order (they share the console and the
// data the first one syncs; after a failure the rest are skipped), each with its own time limit, so
// a slow machine names the part that was slow.
const VIEW_LABEL = {
  transactions: 'Transactions',
  accounts: 'Accounts',
  scheduledPayments: 'Scheduled payments',
  usage: 'Usage',
  invoices: 'Invoices',
} as const;
type View = keyof typeof VIEW_LABEL;

test.describe.serial('with the customer data synced', () => {
  test('the data browser with data: synced, by data holder, one customer, in light and dark, with no accessibility violation', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.goto(app.launchUrl);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    // Synced from the Data screen first.
    await page.goto(`${origin()}/#/data`);
    await page.getByRole('button', { name: 'Sync data of all active consents' }).click();
    await expect(page.getByRole('region', { name: 'Data sync' })).toContainText(/finished/i, { timeout: 60_000 });
    await look(page, 'data-synced');
    await page.getByText('By data holder', { exact: true }).click();
    await expect(page.getByRole('table', { name: 'Data holders with cached data' })).toBeVisible();
    await look(page, 'data-by-holder');
    // One customer: from the data browser's consumers to everything cached of theirs.
    await page.getByText('By consumer', { exact: true }).click();
    const consumers = page.getByRole('table', { name: 'Consumers with cached data' });
    await consumers.getByRole('link').first().click();
    await expect(page).toHaveURL(/#\/data\/customer\?id=/);
    await expect(page.getByRole('table', { name: 'The customer’s consents' })).toBeVisible();
    await expect(page.getByTestId('customer-cached-records')).toHaveText(/^[1-9][\d,]*$/);
    await expect(page.getByRole('table', { name: 'The customer’s cached data by kind' })).toBeVisible();
    await look(page, 'data-customer');
  });

  test('the data browser with data: each kind of record, in light and dark, with no accessibility violation', async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto(app.launchUrl); // the launch address signs this page in
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await page.goto(`${origin()}/#/data`);
    const rows = page.getByRole('grid', { name: 'Consents with cached data' }).getByTestId('table-row');
    await expect(rows.first(), 'consents with cached data (the test before synced them)').toBeVisible();
    const ids = await rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id')!));
    // Which consent has which kind is not knowable here: a consent's tabs name its kinds, so open
    // consents until every kind has one (one visit per consent, not one per consent and kind).
    const where = new Map<View, string>();
    for (const id of ids.slice(0, 60)) {
      await page.goto(`${origin()}/#/data?consent=${encodeURIComponent(id)}`);
      await expect(page.getByTestId('data-fetched')).toBeVisible();
      const tabs = await page.getByRole('tab').allTextContents();
      for (const [view, label] of Object.entries(VIEW_LABEL) as [View, string][]) {
        if (!where.has(view) && tabs.some((t) => t.startsWith(`${label} (`))) where.set(view, id);
      }
      if (where.size === Object.keys(VIEW_LABEL).length) break;
    }
    for (const view of Object.keys(VIEW_LABEL) as View[]) {
      const id = where.get(view);
      expect(id, `a consent with ${view}`).toBeDefined();
      await page.goto(`${origin()}/#/data?consent=${encodeURIComponent(id!)}&view=${view}`);
      await expect(page.getByRole('tab', { name: new RegExp(`^${VIEW_LABEL[view]} \\(`), selected: true })).toBeVisible();
      await expect(page.getByTestId('table-row').first()).toBeVisible();
      await look(page, `data-${view}`);
      if (view === 'accounts') {
        await page.getByTestId('table-row').first().click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await look(page, 'data-account-record');
        await page.keyboard.press('Escape');
      }
      if (view === 'usage') {
        await page.getByText('Table', { exact: true }).click();
        await look(page, 'data-usage-table');
      }
    }
  });

  test('the products screens, in light and dark, with no accessibility violation', async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto(app.launchUrl); // the launch address signs this page in
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await page.goto(`${origin()}/#/products`);
    await expect(page.getByTestId('products-range')).toHaveText(/^\d+ products in this view/);
    await look(page, 'products');
    for (const name of ['Everyday Account', 'Bonus Saver', 'Home Loan', 'Low Rate Card']) {
      await page.goto(
        `${origin()}/#/products?holder=${encodeURIComponent(sandbox.world.gen.holders[name === 'Everyday Account' ? 0 : 1]!.dataHolderBrandId)}&q=${encodeURIComponent(name)}`,
      );
      await page.getByTestId('table-row').first().click();
      await expect(page.getByRole('tab', { name: 'Terms' })).toBeVisible();
      await look(page, `product-${name.toLowerCase().replace(/ /g, '-')}`);
    }
    await page.getByRole('tab', { name: 'Normalised and as sent' }).click();
    await look(page, 'product-source');
    await page.getByRole('tab', { name: /^Versions/ }).click();
    await look(page, 'product-versions');
    await page.goto(`${origin()}/#/products?q=home`);
    await page.getByTestId('table-row').nth(0).getByRole('checkbox').click();
    await page.getByTestId('table-row').nth(1).getByRole('checkbox').click();
    await look(page, 'products-chosen');
    await page.getByRole('button', { name: 'Compare 2' }).click();
    await expect(page.getByRole('table', { name: 'Products side by side' })).toBeVisible();
    await look(page, 'products-compare');
  });
});

test('offline: lists and details come from the cache; actions are refused, with the reason', async ({ page }) => {
  await page.goto(`${app.launchUrl}`);
  await expect(page.getByTestId('status-online')).toHaveText('● Online');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto(`${origin()}/#/consents?status=ACTIVE`);
  const first = page.getByTestId('table-row').first();
  const id = await first.getAttribute('data-row-id');

  await sandbox.close(); // the intermediary goes away

  await page.getByRole('searchbox', { name: 'Search consents' }).fill(id!.slice(0, 8));
  await expect(page.getByTestId('consent-range')).toHaveText(/^1 of 150 cached consents match this view$/);
  await page.locator(`[data-row-id="${id}"]`).click();
  await expect(page.getByText('Consent id', { exact: true })).toBeVisible();
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Active/);

  // The console does not know yet: the attempt fails clearly, and nothing changes.
  await page.getByRole('button', { name: 'Revoke…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this consent?' });
  await dialog.getByLabel(/^Reason/).click();
  await page.getByRole('option', { name: 'Consumer complaint' }).click();
  await dialog.getByRole('button', { name: 'Revoke consent' }).click();
  await expect(dialog.getByRole('alert')).toContainText('You are offline: the revocation was not sent');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Active/);

  // Now it knows: actions are disabled, and say why.
  await expect(page.getByTestId('status-online')).toHaveText('● Offline');
  await expect(page.getByRole('button', { name: 'Revoke…', exact: true })).toBeDisabled();
  await expect(page.getByLabel(/^Revoke… — unavailable: Offline: the intermediary could not be reached/)).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/offline-detail.png' });
  await page.getByRole('tab', { name: /Timeline/ }).click();
  await expect(page.getByTestId('timeline-entry').first()).toBeVisible();
  await page.goto(`${origin()}/#/consents`);
  await expect(page.getByTestId('consent-range')).toHaveText('150 consents in the cache');
  await expect(page.getByRole('button', { name: 'New consent' })).toBeDisabled();
});
