import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';

/**
 * The kit's charts (uPlot on a canvas, loaded with the first chart shown) and the screens' code
 * (a chunk per screen) in Chromium under the console's CSP: every chunk loads, each chart is drawn
 * with a name and a description, reads out its points from the keyboard, shows a tooltip under the
 * pointer and keeps its numbers one toggle away; in light and dark (screenshots), axe clean.
 */
let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '23', '--sandbox-consents', '400', '--sandbox-clock', pinnedNow()], {
    setup: knownOperator('Cora Charts'),
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const origin = () => new URL(app.launchUrl).origin;

/** What the page refused or failed to load: a CSP report, a failed request, an uncaught error. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  return problems;
}

async function axe(page: Page, name: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(bad, `axe on ${name}`).toEqual([]);
}

test('each screen’s code loads under the CSP, straight from its address and by navigation', async ({ page }) => {
  const problems = watch(page);
  // Straight to a screen: its chunk is preloaded with the app's own.
  await page.goto(`${app.launchUrl}#/consents`);
  await expect(page.getByTestId('table-row').first()).toBeVisible();
  for (const [path, heading] of [
    ['overview', 'Overview'],
    ['events', 'Events'],
    ['webhook-failures', 'Webhook failures'],
    ['use-cases', 'Use cases'],
    ['data', 'Data'],
    ['products', 'Products'],
    ['audit', 'Audit'],
    ['reports', 'Compliance reports'],
    ['settings', 'Settings'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Screens' }).getByText(heading, { exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`#/${path}`));
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  }
  await page.goto(`${origin()}/#/consents`);
  await page.getByTestId('table-row').first().click();
  await expect(page.getByTestId('status-sentence')).toBeVisible();
  expect(problems).toEqual([]);
});

test('the charts: drawn, named, read from the keyboard, a tooltip under the pointer; light and dark', async ({ page }) => {
  const problems = watch(page);
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview', level: 2 })).toBeVisible();
  await page.goto(`${origin()}/#/webhook-failures?range=all`);
  const panel = page.getByRole('region', { name: 'Deliveries and failures per day' });
  const chart = panel.getByRole('img', { name: 'Deliveries and failures per day, chart' });
  await expect(chart).toHaveAttribute('data-chart-drawn', /^[1-9]\d*$/);
  await expect(chart).toHaveAccessibleDescription(
    /^Stacked bars of Delivered, Refused \(client error\), Failed, Retries exhausted, \d+ points from /,
  );
  // The bars are on the canvas, in their series' colours (the legend's swatches): read back from it.
  const swatches = await panel
    .locator('[class*="ColorSwatch-colorOverlay"]')
    .evaluateAll((spans) => spans.map((s) => getComputedStyle(s).backgroundColor));
  const painted = await chart.locator('canvas').evaluate((canvas: HTMLCanvasElement, colours) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const counts = new Map<string, number>();
    for (let i = 0; i < data.length; i += 4) {
      const key = `rgb(${data[i]}, ${data[i + 1]}, ${data[i + 2]})`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return { area: canvas.width * canvas.height, counts: colours.map((c) => counts.get(c) ?? 0) };
  }, swatches);
  expect(swatches).toHaveLength(4);
  // Every series has days with some (the sandbox's deliveries fail in each way), the delivered ones most.
  for (const n of painted.counts) expect(n).toBeGreaterThan(0);
  expect(painted.counts[0]).toBeGreaterThan(painted.area * 0.05);
  // The legend, in the theme's colours.
  for (const name of ['Delivered', 'Refused (client error)', 'Failed', 'Retries exhausted'])
    await expect(panel.getByText(name, { exact: true })).toBeVisible();

  // The keyboard: focus the chart, then End reads the last day (today) and ArrowLeft the one before.
  await chart.focus();
  await page.keyboard.press('End');
  const live = panel.locator('[aria-live="polite"]');
  await expect(live).toHaveText(
    /^\d{1,2} \w{3}( \d{4})?: Delivered \d[\d,]*, Refused \(client error\) \d[\d,]*, Failed \d[\d,]*, Retries exhausted \d[\d,]*$/,
  );
  const last = await live.textContent();
  await page.keyboard.press('ArrowLeft');
  await expect(live).not.toHaveText(last!);
  await expect(panel.locator('[class*="tooltip"]')).toBeVisible();

  // The pointer: a tooltip with the day and each series.
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
  const tip = panel.locator('[class*="tooltip"]');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('Delivered');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5 + 1);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `test-results/screenshots/chart-webhooks-${scheme}.png` });
    await axe(page, `webhook failures (${scheme})`);
  }
  await page.mouse.move(0, 0);

  // The same numbers as a table.
  await panel.getByText('Table', { exact: true }).click();
  await expect(panel.getByRole('table', { name: 'Deliveries and failures per day (numbers)' })).toBeVisible();
  expect(problems).toEqual([]);
});

// A test of its own (it was the end of the one above): four axe runs and screenshots each, which a
// busy machine could not fit with the above in one test's minute.
test('the overview’s and the events’ charts: drawn, in light and dark, axe clean', async ({ page }) => {
  const problems = watch(page);
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview', level: 2 })).toBeVisible();
  for (const [path, title] of [
    ['overview', 'Webhook deliveries per day, last 30 days'],
    ['events', 'Per day'],
  ] as const) {
    await page.goto(`${origin()}/#/${path}`);
    const c = page.getByRole('region', { name: title }).getByRole('img', { name: `${title}, chart` });
    await expect(c).toHaveAttribute('data-chart-drawn', /^[1-9]\d*$/);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await page.waitForTimeout(150);
      await page.screenshot({ path: `test-results/screenshots/chart-${path}-${scheme}.png` });
      await axe(page, `${path} (${scheme})`);
    }
  }
  expect(problems).toEqual([]);
});
