import { expect, test } from '@playwright/test';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';

/**
 * What an intermediary sends is shown inert and readable: markup stays text (nothing runs, nothing
 * is injected), a bidi override or a zero-width character is shown as a marker naming it instead of
 * reversing or hiding the text around it, and a very long line wraps inside its field instead of
 * pushing the page sideways. The hostile value reaches the cache through the real API (PATCH) and a
 * sync, as it would from a real intermediary.
 */
let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '61', '--sandbox-consents', '60', '--sandbox-clock', pinnedNow()], {
    setup: knownOperator(),
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const LONG = 'A'.repeat(4000);
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> invoice\u202Egnp.exe zero\u200Bwidth ${LONG}`;

test('markup, bidi controls, invisible characters and a 4,000-character line from the API: inert and readable', async ({
  page,
  request,
}) => {
  const basic = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`;
  const token = (await (
    await request.post(`${app.sandboxUrl}/oauth2/token`, { headers: { authorization: basic }, form: { grant_type: 'client_credentials' } })
  ).json()) as { access_token: string };
  const bearer = { authorization: `Bearer ${token.access_token}` };
  const list = (await (await request.get(`${app.sandboxUrl}/consents/v2?pageSize=5`, { headers: bearer })).json()) as {
    consents: { consentId: string }[];
  };
  const consentId = list.consents[0]!.consentId;
  const patched = await request.patch(`${app.sandboxUrl}/consents/${consentId}`, { headers: bearer, data: { externalId: HOSTILE } });
  expect(patched.ok()).toBe(true);

  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
  // A PATCH makes no event: a full sync (from the palette) reads every consent again.
  await page.keyboard.press('Control+k');
  await page.getByRole('textbox', { name: 'Search consents, screens and commands' }).fill('full sync');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Full sync: done.')).toBeVisible({ timeout: 30_000 });
  await page.goto(`${new URL(app.launchUrl).origin}/#/consents/${encodeURIComponent(consentId)}`);

  const field = page.getByRole('definition').filter({ has: page.getByRole('button', { name: 'Copy external id' }) });
  await expect(field).toBeVisible();
  // Markup is text: shown as typed, nothing ran, no element was made from it.
  await expect(field).toContainText('<script>window.__pwned=2</script>');
  await expect(field).toContainText('<img src=x onerror="window.__pwned=1">');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('script', { hasText: '__pwned' })).toHaveCount(0);
  // The override and the zero-width space are named where they are, so the text reads in order.
  await expect(field).toContainText('invoice⟦U+202E⟧gnp.exe');
  await expect(field).toContainText('zero⟦U+200B⟧width');
  // The long line wraps inside the field: the page does not scroll sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = (await field.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  // …and folds after a few lines, the whole value one click away.
  expect(box.height).toBeLessThan(200);
  await page.screenshot({ path: 'test-results/screenshots/hostile-strings.png' });
  await field.getByRole('button', { name: 'Show all of the external id' }).click();
  // (it unfolds with a short transition)
  await expect.poll(async () => (await field.boundingBox())!.height).toBeGreaterThan(400);
  await field.getByRole('button', { name: 'Show less' }).click();

  // The list's search finds it by the visible words, and the row shows the same inert text.
  await page.goto(`${new URL(app.launchUrl).origin}/#/consents?q=invoice&cols=status,consumerEmail,externalId`);
  const row = page.getByTestId('table-row').first();
  await expect(row).toContainText('<script>');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
