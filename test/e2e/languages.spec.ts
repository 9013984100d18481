import { expect, test, type Page } from '@playwright/test';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';
import { browserIn, LANGUAGES } from './languages.js';

/**
 * Any browser, any language (issue 34): Chromium under a C locale reports its language as
 * "en-US@posix", which Intl refuses; the chart library's module threw on it as it loaded and every
 * screen fell to react-router's developer page. Every screen is walked here in the machine's own
 * language, in en-US@posix and in de-DE on Pacific/Auckland time, with no page error; and a screen
 * that fails shows its own error panel while the rest of the console works.
 */
let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '34', '--sandbox-consents', '120', '--sandbox-clock', pinnedNow()], {
    setup: knownOperator('Lina Language'),
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const origin = () => new URL(app.launchUrl).origin;
const ERROR_PAGE = /Unexpected Application Error|Hey developer|could not be shown/;

/** Errors the page throws or logs, gathered for the test's end. */
function watch(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`${e.name}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

async function screenShows(page: Page, path: string) {
  await page.goto(`${origin()}/#${path}`);
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"][inert]')).toHaveCount(0);
  await expect(page.locator('main')).not.toHaveText(ERROR_PAGE);
}

for (const { id, title } of LANGUAGES) {
  test(`every screen in ${title}: no page error, no error page`, async ({ browser }) => {
    test.setTimeout(120_000);
    const lang = await browserIn(id, browser);
    try {
      const page = await lang.context.newPage();
      const errors = watch(page);
      await page.goto(app.launchUrl);
      await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
      // What the browser said, and what the console made of it (ui/locale.ts guards navigator.language).
      const [said, now] = await page.evaluate(() => [
        Object.getOwnPropertyDescriptor(Navigator.prototype, 'language')!.get!.call(navigator) as string,
        navigator.language,
      ]);
      test.info().annotations.push({ type: 'language', description: `the browser says ${said}; the console uses ${now}` });
      if (id === 'posix') expect([said, now]).toEqual(['en-US@posix', 'en-US']);
      // The overview's charts (uPlot: its module made a number formatter of navigator.language).
      await expect(page.getByRole('img').first()).toBeVisible();
      for (const path of [
        '/consents',
        '/events',
        '/webhook-failures',
        '/use-cases',
        '/data',
        '/products',
        '/audit',
        '/complaints',
        '/reports',
        '/reports/rule94',
        '/settings',
      ])
        await screenShows(page, path);
      await page.goto(`${origin()}/#/consents?status=ACTIVE`);
      await page.getByTestId('table-row').first().click();
      await expect(page.getByTestId('status-sentence')).toBeVisible();
      for (const tab of [/Timeline/, /Versions/, /Cached data/]) await page.getByRole('tab', { name: tab }).click();
      await expect(page.locator('main')).not.toHaveText(ERROR_PAGE);
      await page.screenshot({ path: `test-results/screenshots/language-${id}-consent.png` });
      expect(errors).toEqual([]);
    } finally {
      await lang.close();
    }
  });
}

test('a screen that throws shows its error panel; the navigation, the status bar and the other screens keep working', async ({ page }) => {
  const errors = watch(page);
  // The consent's detail arrives malformed (as from a host of another version): the screen throws drawing it.
  let corrupt = true;
  await page.routeWebSocket(/\/ipc$/, (ws) => {
    const server = ws.connectToServer();
    const detailIds = new Set<number>();
    ws.onMessage((message) => {
      const data = JSON.parse(String(message)) as { id?: number; channel?: string };
      if (data.channel === 'consents:get' && typeof data.id === 'number') detailIds.add(data.id);
      server.send(message);
    });
    server.onMessage((message) => {
      const data = JSON.parse(String(message)) as { id?: number; result?: { ok: boolean; value?: Record<string, unknown> } };
      if (corrupt && typeof data.id === 'number' && detailIds.has(data.id) && data.result?.ok) {
        data.result.value = { ...data.result.value, consent: null };
        ws.send(JSON.stringify(data));
      } else ws.send(message);
    });
  });
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto(`${origin()}/#/consents?status=ACTIVE`);
  const row = page.getByTestId('table-row').first();
  const id = (await row.getAttribute('data-row-id'))!;
  await row.click();

  const panel = page.getByRole('alert').filter({ hasText: 'The consent’s page could not be shown' });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('TypeError');
  await expect(panel.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Copy details' })).toBeVisible();
  await expect(page.getByText('Hey developer')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/screen-error-panel.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screenshots/screen-error-panel-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  // Copy details: what a person sends to whoever looks into it.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: origin() });
  await panel.getByRole('button', { name: 'Copy details' }).click();
  await expect(panel.getByText('Copied.')).toBeVisible();
  const details = await page.evaluate(() => navigator.clipboard.readText());
  expect(details).toContain('CDR Console: /consents/:consentId failed');
  expect(details).toContain(`#/consents/${id}`);
  // The host's log has it.
  await expect
    .poll(() => readFileSync(join(app.dataDir, 'logs', 'console.log'), 'utf8'))
    .toMatch(/ERROR Renderer: \/consents\/:consentId failed at #\/consents\/[0-9a-f-]+: TypeError/);

  // The rest of the console works: the status bar, the navigation, another screen.
  await expect(page.getByRole('status', { name: 'Status bar' })).toBeVisible();
  await page.getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeVisible();
  await page.goBack();
  await expect(panel).toBeVisible();

  // Try again, once the answer is right, shows the consent.
  corrupt = false;
  await panel.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('status-sentence')).toBeVisible();
  await expect(panel).toHaveCount(0);
  // The errors the page logged are the screen's own failure, reported by React: nothing else.
  expect(errors.filter((e) => !/Cannot read properties of null/.test(e))).toEqual([]);
});

test('a time zone pinned in Settings: every time, day and period in it, in a browser on another zone, and kept after a reload', async ({
  browser,
}) => {
  // The browser's zone is UTC; the person works to Sydney's calendar.
  const context = await browser.newContext({ locale: 'en-AU', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors = watch(page);
  const shown = async (zone: string) => {
    // The consents' times, as the list shows them, against the same instants formatted in `zone` here.
    await page.goto(`${origin()}/#/consents`);
    const times = page.getByTestId('table-row').locator('time[datetime]');
    await expect(times.first()).toBeVisible();
    const pairs = await times.evaluateAll((els) => els.map((e) => [e.getAttribute('datetime')!, e.textContent!] as const));
    expect(pairs.length).toBeGreaterThan(5);
    // Created shows the time, the sharing end its day.
    for (const [iso, text] of pairs)
      expect(text, iso).toBe(format(new TZDate(Date.parse(iso), zone), text.includes(',') ? 'd MMM yyyy, HH:mm' : 'd MMM yyyy'));
  };
  try {
    await page.goto(app.launchUrl);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await shown('UTC');
    await page.goto(`${origin()}/#/settings`);
    const select = page.getByRole('combobox', { name: 'Time zone' });
    await expect(select).toHaveValue('This computer’s (UTC)');
    await select.click();
    await select.fill('Sydney');
    await page.getByRole('option', { name: 'Australia/Sydney' }).click();
    await expect(select).toHaveValue('Australia/Sydney');
    await shown('Australia/Sydney');

    // After a reload, still Sydney's: "Last month" on Reports is Sydney's calendar month.
    await page.reload();
    await page.goto(`${origin()}/#/reports`);
    const now = new TZDate(Date.now(), 'Australia/Sydney');
    const lastMonth = new TZDate(now.getFullYear(), now.getMonth() - 1, 1, 'Australia/Sydney');
    const lastDay = new TZDate(now.getFullYear(), now.getMonth(), 0, 'Australia/Sydney');
    await expect(
      page.getByRole('heading', { name: `Consents, ${format(lastMonth, 'd MMM yyyy')} – ${format(lastDay, 'd MMM yyyy')}` }),
    ).toBeVisible();
    await shown('Australia/Sydney');

    // Back to the machine's.
    await page.goto(`${origin()}/#/settings`);
    await select.click();
    await select.fill('This computer');
    await page.getByRole('option', { name: /This computer’s/ }).click();
    await shown('UTC');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
