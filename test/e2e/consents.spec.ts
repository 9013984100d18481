import type { Page } from '@playwright/test';
import { expect, test } from './journey.js';
import { pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';

let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '11', '--sandbox-consents', '250', '--sandbox-clock', pinnedNow()]);
});
test.afterAll(async () => {
  await app?.stop();
});

const rows = (page: Page) => page.getByTestId('table-row');
const emailColumn = (page: Page) => rows(page).locator('td:nth-child(3)').allTextContents();

test('the console shows the sandbox consents from the cache, sorts and scrolls them', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });

  expect(app.output()).toContain('Synced 250 consents (250 new, 0 changed)');
  await page.goto(app.launchUrl);
  // The token is traded for a cookie and leaves the address bar.
  await expect(page).toHaveURL(/\/#\/overview$/); // the home screen
  expect(page.url()).not.toContain('token');

  // First run: the console asks who is using it (for the audit log), and cannot be used before.
  const prompt = page.getByRole('dialog', { name: 'Who is using the console?' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toHaveCSS('opacity', '1'); // after its fade-in
  await page.screenshot({ path: 'test-results/screenshots/first-run.png' });
  await prompt.getByLabel('Your name as colleagues know it').fill('Erin End-to-End');
  await prompt.getByRole('button', { name: 'Save' }).click();
  await expect(prompt).toBeHidden();

  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Consents' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Consents' })).toBeVisible();
  await expect(page.getByTestId('consent-range')).toHaveText('250 consents in the cache');
  await expect(rows(page).first()).toBeVisible();
  const headers = await page.getByRole('columnheader').allTextContents();
  expect(headers.map((h) => h.replace(/[▲▼↕]/g, '').trim())).toEqual([
    '',
    'Status',
    'Consumer e-mail',
    'Data holder',
    'Use case',
    'Created',
    'Sharing end date',
  ]);
  // The status in words, the API's value on hover.
  await expect(rows(page).first().locator('td').nth(1)).toHaveText(/^(Active|Revoked|Expired|Requested)$/);
  await expect(rows(page).first().locator('td').nth(1).locator('span')).toHaveAttribute('title', /^(ACTIVE|REVOKED|EXPIRED|REQUESTED)$/);
  // Virtualised: all 250 are one list, but only what fits (plus overscan) is in the page.
  await expect(page.getByRole('grid', { name: 'Consents' })).toHaveAttribute('aria-rowcount', '251');
  expect(await rows(page).count()).toBeLessThan(100);

  // The status bar says where the data comes from.
  await expect(page.getByTestId('status-profile')).toHaveText('Embedded sandbox');
  await expect(page.getByTestId('status-environment')).toHaveText('Sandbox');
  await expect(page.getByTestId('status-online')).toHaveText('● Online');
  await expect(page.getByTestId('status-last-sync')).toHaveText(/just now|minute/);
  // The browser host says its secrets are protected by a key file, not the OS keychain.
  await expect(page.getByTestId('status-key-storage')).toHaveText('Secrets: key file (owner only)');
  await expect(page).toHaveTitle('Embedded sandbox (Sandbox) — CDR Console');

  // Sort by e-mail, ascending then descending; the view is in the URL.
  await page.getByRole('button', { name: /Consumer e-mail/ }).click();
  await expect(page.getByRole('columnheader', { name: /Consumer e-mail/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=consumerEmail\.asc/);
  await expect
    .poll(async () => {
      const emails = await emailColumn(page);
      return emails.length > 5 && emails.every((e, i) => i === 0 || emails[i - 1]!.localeCompare(e, 'en', { sensitivity: 'base' }) <= 0);
    })
    .toBe(true);
  const firstAscending = (await emailColumn(page))[0];
  await page.getByRole('button', { name: /Consumer e-mail/ }).click();
  await expect(page.getByRole('columnheader', { name: /Consumer e-mail/ })).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => (await emailColumn(page))[0]).not.toBe(firstAscending);
  // Back brings the previous sort back.
  await page.goBack();
  await expect(page.getByRole('columnheader', { name: /Consumer e-mail/ })).toHaveAttribute('aria-sort', 'ascending');

  // Scrolling to the end reads the last window from main.
  await page.getByTestId('table-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.locator('[data-testid="table-row"][aria-rowindex="251"]')).toBeVisible();

  await page.getByRole('button', { name: /Created/ }).click();
  await page.getByTestId('table-scroll').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/screenshots/consents.png' });
  expect(errors).toEqual([]);
});

test('every screen of the navigation opens', async ({ page }) => {
  await page.goto(app.launchUrl);
  for (const name of [
    'Overview',
    'Events',
    'Webhook failures',
    'Use cases',
    'Data',
    'Products',
    'Audit',
    'Compliance reports',
    'Users',
    'Settings',
  ]) {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
    // A first run on the embedded sandbox: its first sync brought the Data API records, so the
    // data browser and the products have content without the user asking.
    if (name === 'Data') await expect(page.getByTestId('data-range')).toContainText(/[1-9]\d* consents? with cached data in this view/);
    if (name === 'Products') await expect(page.getByTestId('products-range')).toHaveText(/^[1-9]\d* products in this view/);
  }
  await page.getByRole('link', { name: 'Consents', exact: true }).click();
  await expect(page.getByTestId('consent-range')).toContainText('250 consents');
});

test('opened at the consent list, the console asks once for its count and first rows, sent while its code loads', async ({ page }) => {
  const asked: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (frame) => {
      const request = JSON.parse(String(frame.payload)) as { channel?: unknown };
      if (typeof request.channel === 'string') asked.push(request.channel);
    }),
  );
  await page.goto(`${app.launchUrl}#/consents?status=ACTIVE`);
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByTestId('consent-range')).toHaveText(/^[\d,]+ of 250 cached consents match this view$/);
  await expect(page.getByRole('group', { name: 'Status' }).getByRole('checkbox', { name: /^Active:/ })).toBeChecked();
  // The first reads (app/first-reads.ts) went into the query cache under the screen's own keys.
  expect(asked.filter((c) => c === 'consents:count')).toHaveLength(1);
  expect(asked.filter((c) => c === 'consents:list')).toHaveLength(1);
  expect(asked.filter((c) => c === 'settings:get')).toHaveLength(1);
  expect(asked.indexOf('consents:list')).toBeLessThan(asked.indexOf('app:status'));
});

test('without the token the console refuses to open', async ({ page }) => {
  const response = await page.goto(app.launchUrl.replace(/\?token=.*/, ''));
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('Not signed in');
  const wrong = await page.goto(app.launchUrl.replace(/token=.*/, 'token=guess'));
  expect(wrong?.status()).toBe(401);
});

test('at 1024 × 700: the list of screens folds away and stays folded, a table shows it has more columns and keeps its first, the actions stay on the page', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(
    `${app.launchUrl}#/consents?cols=status,consumerEmail,dataHolderName,useCaseName,created,sharingEndDate,consentId,externalId`,
  );
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByText('More columns →')).toBeVisible();
  const status = rows(page).first().locator('td:nth-child(2)');
  const email = rows(page).first().locator('td:nth-child(3)');
  const before = { status: (await status.boundingBox())!.x, email: (await email.boundingBox())!.x };
  await page.getByTestId('table-scroll').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(page.getByText('More columns →')).toBeHidden();
  await expect.poll(async () => (await email.boundingBox())!.x).toBeLessThan(before.email - 100);
  expect((await status.boundingBox())!.x).toBe(before.status); // the first columns stay

  const heading = page.getByRole('heading', { level: 2, name: 'Consents' });
  const indented = (await heading.boundingBox())!.x;
  await page.getByRole('button', { name: 'Hide the list of screens' }).click();
  await expect.poll(async () => (await heading.boundingBox())!.x).toBeLessThan(indented - 150);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show the list of screens' })).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(async () => (await heading.boundingBox())!.x).toBeLessThan(indented - 150);
  await page.getByRole('button', { name: 'Show the list of screens' }).click();
  await expect(page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Overview' })).toBeInViewport();

  await rows(page).first().click();
  await expect(page.getByTestId('status-sentence')).toBeVisible();
  for (const name of [/^Revoke…$/, /^Update…$/, /^(Extend|Authorise)…$/, /^Evidence pack$/]) {
    const box = (await page.getByRole('button', { name }).boundingBox())!;
    expect(box.x + box.width, String(name)).toBeLessThanOrEqual(1024);
  }
  await page.screenshot({ path: 'test-results/screenshots/consent-1024.png' });
});
