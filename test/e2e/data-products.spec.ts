import type { Page } from '@playwright/test';
import { expect, test } from './journey.js';
import { RecordSource } from '../../electron/sandbox/records.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { pinnedNow, startConsole, uatProfile, type ConsoleProcess } from './console-host.js';

/**
 * The data browser and the products, end to end through the browser host, against a sandbox in this
 * test process (so the test can reprice a product and stop it): sync a consent's data, browse its
 * accounts and transactions (search a description), a legacy (1.x) data holder's product with its
 * badge and notes, two products compared, a product's change between two syncs, a purged consent's
 * "deleted on … because …", and browsing on with the intermediary gone.
 */
let sandbox: RunningSandbox;
let app: ConsoleProcess;
/** Consents found from the sandbox's own generator: ACTIVE, with transactions; with scheduled payments; one to purge. */
function pick(): { banking: string; payments: string; purge: string } {
  const src = new RecordSource(sandbox.world);
  let banking: string | undefined;
  let payments: string | undefined;
  let purge: string | undefined;
  for (let i = 0; i < sandbox.world.total; i++) {
    const b = src.consentBasis(i);
    if (!b || b.holder < 1 || src.count('accounts', i) === 0) continue;
    const c = sandbox.world.consent(i);
    if (!banking && src.count('transactions', i) > 0) banking = c.consentId;
    else if (!payments && src.count('scheduledPayments', i) > 0) payments = c.consentId;
    else if (!purge && c.postUsageAction === 'DELETION') purge = c.consentId;
  }
  if (!banking || !payments || !purge) throw new Error('the sandbox has no suitable consents');
  return { banking, payments, purge };
}

test.beforeAll(async () => {
  sandbox = await startSandbox({ seed: 41, consents: 120, clockOrigin: pinnedNow(), legacyHolders: 1 });
  app = await startConsole(['--profile', 'uat'], {
    env: { CDR_CONSOLE_CLIENT_SECRET: 'sandbox-secret' },
    setup: uatProfile(sandbox.url, 'Dana Data'),
  });
});
test.afterAll(async () => {
  await app?.stop();
  await sandbox?.close().catch(() => undefined);
});

const origin = () => new URL(app.launchUrl).origin;
async function go(page: Page, path: string) {
  await page.goto(`${origin()}/#${path}`);
}
async function syncAllData(page: Page) {
  await go(page, '/data');
  await page.getByRole('button', { name: 'Sync data of all active consents' }).click();
  const job = page.getByRole('region', { name: 'Data sync' });
  await expect(job).toContainText(/finished/i, { timeout: 60_000 });
  return job;
}

test('data browser and products, end to end, then offline', async ({ page }) => {
  test.setTimeout(180_000);
  const { banking, payments, purge } = pick();
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();

  // A data sync for one consent, from its data view, as a job with progress.
  await go(page, `/data?consent=${banking}`);
  await expect(page.getByText('No Data API records of this consent are cached')).toBeVisible();
  await page.getByRole('button', { name: 'Sync this consent’s data' }).click();
  await expect(page.getByRole('region', { name: 'Data sync' })).toContainText(/finished/i, { timeout: 60_000 });
  await expect(page.getByTestId('data-fetched')).toContainText(`from consent ${banking}`);
  // The period of transactions the cache holds: the consent's start less its use case's history, to now.
  await expect(page.getByTestId('data-history')).toContainText(
    /^Transactions held: \d{1,2} \w{3} \d{4} – \d{1,2} \w{3} \d{4} \(from the consent’s start less its use case’s \d+ days of history, to its last data sync\)$/,
  );

  // Accounts: an account's fees and rates, drawn like a product's; the payload as sent one click away.
  await page.getByRole('tab', { name: /^Accounts/ }).click();
  await page.getByTestId('table-row').first().click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('region', { name: 'Normalised (Data API 2.0.0)' })).toBeVisible();
  await expect(drawer.getByRole('region', { name: 'As sent by the data holder' })).toBeVisible();
  await expect(drawer.getByRole('region', { name: /^Fees/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // Transactions: search a description.
  await page.getByRole('tab', { name: /^Transactions/ }).click();
  const grid = page.getByRole('grid', { name: 'Transactions' });
  await expect(grid.getByTestId('table-row').first()).toBeVisible();
  const firstDescription = (await grid.getByTestId('table-row').first().locator('td').nth(1).textContent())!;
  const word = firstDescription.split(' ')[0]!;
  await page.getByRole('searchbox', { name: 'Search descriptions' }).fill(word.toLowerCase());
  await expect(page.getByTestId('records-range')).toContainText(/^\d+ records? match these filters/);
  const matching = Number((await page.getByTestId('records-range').textContent())!.split(' ')[0]);
  expect(matching).toBeGreaterThan(0);
  await expect(page.getByTestId('table-row')).toHaveCount(matching);
  const descriptions = await page.getByTestId('table-row').locator('td:nth-child(2)').allTextContents();
  for (const d of descriptions) expect(d.toUpperCase()).toContain(word.toUpperCase());

  // Every active consent's data (and the product catalogue) from the navigator.
  await syncAllData(page);
  await go(page, '/data');
  await expect(page.getByTestId('data-range')).toContainText(/\d+ consents with cached data/);

  // Scheduled payments: the recurrence in words.
  await go(page, `/data?consent=${payments}&view=scheduledPayments`);
  await expect(page.getByTestId('recurrence').first()).toHaveText(/^every (week|2 weeks|month); next on \d+ \w+ \d{4}$/);

  // A legacy (1.x) data holder's product: its badge and the normaliser's notes.
  const legacyHolder = sandbox.world.gen.holders[0]!;
  await go(page, `/products?holder=${encodeURIComponent(legacyHolder.dataHolderBrandId)}`);
  await page.getByRole('row', { name: /Everyday Account/ }).click();
  // The list stays while the detail's code loads (a navigation keeps the screen until the next is ready).
  await expect(page.getByRole('heading', { name: 'Everyday Account' })).toBeVisible();
  await expect(page.getByTestId('shape-badge')).toHaveText('Normalised from 1.x');
  await expect(page.getByTestId('normalizer-notes').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Normalised and as sent' }).click();
  await expect(page.getByRole('region', { name: 'Normaliser’s notes' })).toBeVisible();

  // Compare two products.
  await go(page, '/products?q=everyday');
  const rows = page.getByTestId('table-row');
  await expect(rows).toHaveCount(sandbox.world.gen.holders.filter((h) => h.industry === 'banking').length);
  await rows.nth(0).getByRole('checkbox').click();
  await rows.nth(1).getByRole('checkbox').click();
  await page.getByRole('button', { name: 'Compare 2' }).click();
  await expect(page.getByRole('heading', { name: 'Compare products' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Products side by side' });
  await expect(table.getByRole('row').filter({ hasText: /^Data holder differs/ })).toHaveAttribute('data-differs', 'true');
  await expect(table.getByRole('row').filter({ hasText: /^Category/ })).not.toHaveAttribute('data-differs');
  await expect(page.getByText(/\d+ of \d+ terms differ/)).toBeVisible();

  // A product's change between two syncs.
  const holder = sandbox.world.gen.holders.find((h, i) => i > 0 && h.industry === 'banking')!;
  await go(page, `/products?holder=${encodeURIComponent(holder.dataHolderBrandId)}&q=everyday`);
  await page.getByTestId('table-row').first().click();
  const productId = decodeURIComponent(page.url().split('/products/')[1]!).split(':').slice(1).join(':');
  const res = await fetch(`${sandbox.url}/__sandbox/products/${encodeURIComponent(productId)}/fee`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Monthly account fee', amount: '11.25' }),
  });
  expect(res.status).toBe(200);
  const productUrl = page.url();
  await syncAllData(page);
  await page.goto(productUrl);
  await page.getByRole('tab', { name: 'Versions (2)' }).click();
  const change = page.getByTestId('version-change').filter({ hasText: 'fees[0].fixedAmount.amount' });
  await expect(change).toContainText('11.25');

  // A purged consent: its data deleted at the next sync after the data holder revoked it.
  await go(page, `/data?consent=${purge}`);
  await expect(page.getByRole('tab', { name: /^Accounts/ })).toBeVisible();
  expect((await fetch(`${sandbox.url}/__sandbox/consents/${purge}/revoke`, { method: 'POST' })).status).toBe(200);
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByText('Sync finished')).toBeVisible({ timeout: 60_000 });
  await page.reload();
  await expect(page.getByTestId('retention-notice')).toContainText(
    /^Deleted on \d+ \w+ \d{4}, \d\d:\d\d because consent revoked; post-usage action DELETION/,
  );
  await expect(page.getByRole('tab', { name: /^Accounts/ })).toHaveCount(0);

  // The intermediary goes away: the cached data is still there.
  await sandbox.close();
  await go(page, `/data?consent=${banking}&view=transactions`);
  await page.getByRole('searchbox', { name: 'Search descriptions' }).fill(word.toLowerCase());
  await expect(page.getByTestId('records-range')).toContainText(`${matching} record`);
  await expect(page.getByTestId('table-row')).toHaveCount(matching);
  await go(page, '/products');
  await expect(page.getByTestId('products-range')).toHaveText(/^\d+ products in this view/);
});
