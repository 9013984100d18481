import type { Locator, Page } from '@playwright/test';
import { look } from './look.js';
import { expect, test } from './journey.js';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';

/**
 * The consent workflows end to end, through the browser host against its embedded sandbox (clock
 * pinned to this minute): find, open, revoke, the 422, extend with simulated approval, update and
 * the version diff, bulk revoke with progress, exports, the evidence pack, the palette.
 */
let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '21', '--sandbox-consents', '400', '--sandbox-clock', pinnedNow()], {
    setup: knownOperator(),
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const rows = (page: Page) => page.getByTestId('table-row');
const range = (page: Page) => page.getByTestId('consent-range');

async function open(page: Page, path = '/consents') {
  await page.goto(app.launchUrl); // signs in (the token becomes a cookie) and opens the overview
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto(`${new URL(app.launchUrl).origin}/#${path}`);
}

async function syncAgain(page: Page) {
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByText('Sync finished')).toBeVisible({ timeout: 30_000 });
  await expect(range(page)).toHaveText('400 consents in the cache');
}

/** The consent id of the first row with this status, in the current sort. */
async function firstWithStatus(page: Page, status: string, skip = 0, more = ''): Promise<{ id: string; email: string }> {
  await page.goto(`${new URL(app.launchUrl).origin}/#/consents?status=${status}&sort=created.asc${more}`);
  // This view's rows, read: not the previous view's, which stay on screen (busy) while they are.
  await expect(range(page)).toHaveText(/ match this view$/);
  await expect(page.locator('table[aria-rowcount]')).not.toHaveAttribute('aria-busy');
  const row = rows(page).nth(skip);
  // The status in words, its API value on hover.
  await expect(row.locator(`[title="${status}"]`)).toHaveCount(1);
  // The id and the e-mail of one row, read at once (two reads could straddle a redraw).
  return row.evaluate((tr) => ({ id: tr.getAttribute('data-row-id')!, email: tr.querySelectorAll('td')[2]!.textContent! }));
}

async function chooseReason(dialog: Locator, reason: string, details: string) {
  await dialog.getByLabel(/^Reason/).click();
  await dialog.page().getByRole('option', { name: reason }).click();
  await dialog.getByLabel('Details (ticket number, who asked)').fill(details);
}

test('search by e-mail, open, revoke with a reason: REVOKED in the timeline', async ({ page }) => {
  await open(page);
  await syncAgain(page);
  const target = await firstWithStatus(page, 'ACTIVE');
  await page.goto(`${new URL(app.launchUrl).origin}/#/consents`);
  const search = page.getByRole('searchbox', { name: 'Search consents' });
  // Any part of the e-mail finds the consent, and its row marks the part that matched.
  const middle = target.email.slice(2, 9);
  await search.fill(middle);
  await expect(page.locator(`[data-row-id="${target.id}"] mark`).filter({ hasText: middle })).toBeVisible();
  // The marks read in light and dark (axe's contrast included).
  await look(page, 'consents-search-marked');
  // The middle of its id, a column not shown: the row says where it matched.
  const idPart = target.id.slice(9, 18);
  await search.fill(idPart);
  const matchedIn = page.locator(`[data-row-id="${target.id}"]`).getByTitle(`Consent id: ${target.id}`);
  await expect(matchedIn).toContainText('Consent id:');
  await expect(matchedIn.locator('mark')).toHaveText(idPart);
  await search.fill(target.email);
  await expect(range(page)).toHaveText(/^\d+ of 400 cached consents match this view$/);
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(target.email).replace(/\./g, '\\.')}`));
  await page.locator(`[data-row-id="${target.id}"]`).click();
  await expect(page).toHaveURL(new RegExp(`#/consents/${target.id}`));
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Active — sharing ends .+, in \d+ days?$/);

  await page.getByRole('button', { name: 'Revoke…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this consent?' });
  await dialog.getByRole('button', { name: 'Revoke consent' }).click();
  await expect(dialog.getByText('Choose a reason.').first()).toBeVisible(); // mandatory
  await chooseReason(dialog, 'Consumer asked to withdraw the consent', 'ticket 4711');
  await page.screenshot({ path: 'test-results/screenshots/revoke-dialog.png' });
  await dialog.getByRole('button', { name: 'Revoke consent' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Consent revoked')).toBeVisible();
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Revoked — withdrawn /);

  await page.getByRole('tab', { name: /Timeline/ }).click();
  const entries = page.getByTestId('timeline-entry');
  // The event in words (its API value on hover), the staff action too.
  await expect(entries.filter({ has: page.getByTitle('REVOKED', { exact: true }) })).toHaveCount(1);
  await expect(entries.filter({ has: page.getByText('Revoked', { exact: true }) })).toHaveCount(1);
  const staff = entries.filter({ hasText: 'Staff: Revoked a consent' });
  await expect(staff).toContainText('Reason: Consumer asked to withdraw the consent: ticket 4711');
  await expect(staff).toContainText('Erin End-to-End');
});

test('revoking a consent the data holder already revoked: the 422, explained', async ({ page, request }) => {
  await open(page);
  const target = await firstWithStatus(page, 'ACTIVE', 3);
  // Revoked at the data holder's side; the cache does not know yet.
  expect((await request.post(`${app.sandboxUrl}/__sandbox/consents/${target.id}/revoke`)).ok()).toBe(true);
  await rows(page).nth(3).click();
  await page.getByRole('button', { name: 'Revoke…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this consent?' });
  await chooseReason(dialog, 'Duplicate consent', 'dup of CRM-1');
  await dialog.getByRole('button', { name: 'Revoke consent' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Already inactive at the data holder');
  await expect(dialog.getByRole('alert')).toContainText('no authorised consent exists at the data holder');
  await expect(dialog.getByRole('alert')).toContainText('The cache was refreshed');
  await page.screenshot({ path: 'test-results/screenshots/revoke-already-inactive.png' });
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Revoked/);
});

test('a click while the next screen opens: the list being left takes none, Revoke clicked the moment the consent appears opens its dialog', async ({
  page,
}) => {
  // The consent page's code held back, as on a slow machine the first time a consent is opened.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/ConsentDetailScreen-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await open(page);
  const target = await firstWithStatus(page, 'ACTIVE', 12);
  await rows(page).nth(12).click();
  // The list stays in view, marked busy and inert, while the consent's page opens.
  await expect(page.getByRole('progressbar', { name: 'Opening the screen…' })).toBeVisible();
  await expect(page.locator('[aria-busy="true"][inert]')).toContainText('Bulk revoke…');
  await page.getByRole('button', { name: 'Bulk revoke…' }).click({ force: true }); // lands on nothing
  release();
  const revoke = page.getByRole('button', { name: 'Revoke…', exact: true });
  await revoke.click({ force: true }); // as soon as it is there, without waiting for anything else
  await expect(page.getByRole('dialog', { name: 'Revoke this consent?' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Revoke consents in bulk' })).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`#/consents/${target.id}$`));
  await expect(page.getByRole('progressbar', { name: 'Opening the screen…' })).toHaveCount(0);
  await expect(page.locator('[inert]')).toHaveCount(0);
});

test('extend: start, simulated consumer approval, the response checked, EXTENDED in the timeline with the new end', async ({ page }) => {
  await open(page);
  await firstWithStatus(page, 'ACTIVE', 6, '&frequency=ONGOING');
  await rows(page).nth(6).click();
  const before = await page.getByTestId('status-sentence').textContent();
  await page.getByRole('button', { name: 'Extend…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Extend this consent' });
  await dialog.getByRole('radio').first().check();
  await dialog.getByRole('button', { name: 'Start extension' }).click();
  await expect(dialog.getByLabel('Authorization URI', { exact: true })).toContainText('/__dataholder/authorize?request_uri=');
  await dialog.getByRole('button', { name: 'Simulate consumer approval' }).click();
  await expect(dialog.getByText('The response looks right')).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Claims of the response' })).toContainText('state');
  await page.screenshot({ path: 'test-results/screenshots/extend-dialog.png' });
  await dialog.getByRole('button', { name: 'Complete extension' }).click();
  await expect(dialog.getByText('Extended', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByTestId('status-sentence')).not.toHaveText(before!);
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Active — sharing ends /);
  await page.getByRole('tab', { name: /Timeline/ }).click();
  await expect(
    page
      .getByTestId('timeline-entry')
      .filter({ has: page.getByTitle('EXTENDED', { exact: true }) })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Staff: Completed an authorisation' })).toHaveCount(1);
});

test('update the external id: a new version whose diff shows it', async ({ page }) => {
  await open(page);
  await firstWithStatus(page, 'ACTIVE', 8);
  await rows(page).nth(8).click();
  await page.getByRole('button', { name: 'Update…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Update consent' });
  await dialog.getByLabel('External id').fill('E2E-CRM-777');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('tab', { name: /Versions/ }).click();
  const change = page.getByRole('table', { name: /^Changes in version/ }).first();
  await expect(change.getByRole('row').filter({ hasText: 'externalId' })).toContainText('E2E-CRM-777');
  await page.screenshot({ path: 'test-results/screenshots/versions.png' });
});

test('bulk revoke of 20 consents: progress pushed as it goes, results, and their export', async ({ page }) => {
  await open(page);
  await firstWithStatus(page, 'ACTIVE', 0);
  await rows(page).nth(0).getByRole('checkbox').click();
  await rows(page)
    .nth(19)
    .getByRole('checkbox')
    .click({ modifiers: ['Shift'] });
  await expect(page.getByText('20 consents selected')).toBeVisible();
  await page.getByRole('button', { name: 'Revoke selected…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke consents in bulk' });
  await dialog.getByRole('button', { name: 'Check 20 ids' }).click();
  await expect(dialog.getByText('20 consents found in the cache.')).toBeVisible();
  await chooseReason(dialog, 'Incident response', 'incident 12');
  await dialog.getByLabel('Revocations per second').fill('8');
  await dialog.getByRole('button', { name: 'Revoke 20 consents' }).click();
  // Progress arrives as events while the job runs (the request returned at once).
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/bulk-revoke-running.png' });
  await expect(dialog.getByText('finished', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText(/^Revoked: \d+$/)).toBeVisible();
  const results = dialog.getByRole('table', { name: 'Results, consent by consent' });
  await expect(results.getByRole('row')).toHaveCount(21);
  await page.screenshot({ path: 'test-results/screenshots/bulk-revoke-done.png' });

  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export the results' }).click();
  await page.getByRole('menuitem', { name: 'CSV (spreadsheets)' }).click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
  expect(lines[0]).toBe('"#","Consent id","Outcome","Detail"');
  expect(lines).toHaveLength(21);
  expect(lines.slice(1).every((l) => /"(revoked|already-inactive)"/.test(l))).toBe(true);
});

test('CSV export holds every row of the filtered view', async ({ page }) => {
  await open(page);
  await page.goto(`${new URL(app.launchUrl).origin}/#/consents?status=EXPIRED`);
  await expect(range(page)).toHaveText(/^\d+ of 400 cached consents match this view$/);
  const count = Number((await range(page).textContent())!.split(' ')[0]);
  expect(count).toBeGreaterThan(100); // more than any one window of rows
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Export all/ }).click();
  await page.getByRole('menuitem', { name: 'CSV (spreadsheets)' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  // The chosen columns, then their times again in the console's zone (the browser's here), named.
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(csv[0]).toBe(
    `"Status","Consumer e-mail","Data holder","Use case","Created","Sharing end date","Created (${zone})","Sharing end date (${zone})"`,
  );
  expect(csv).toHaveLength(count + 1);
  expect(csv.slice(1).every((l) => l.startsWith('"EXPIRED",'))).toBe(true);
  for (const line of csv.slice(1, 20)) {
    const cells = [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => m[1] ?? m[2] ?? '');
    expect(cells[6], line).toBe(format(new TZDate(Date.parse(cells[4]!), zone), 'yyyy-MM-dd HH:mm:ss'));
  }
  await expect(page.getByText(/rows ready/)).toBeVisible();
});

test('the evidence pack holds what its manifest lists, hashes matching', async ({ page }) => {
  await open(page);
  const target = await firstWithStatus(page, 'REVOKED');
  await page.locator(`[data-row-id="${target.id}"]`).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Evidence pack' }).click();
  await page.getByRole('menuitem', { name: 'Export evidence pack (ZIP)' }).click();
  const zip = unzipSync(readFileSync(await (await download).path()));
  const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as {
    consentId: string;
    files: { name: string; sha256: string; bytes: number }[];
  };
  expect(manifest.consentId).toBe(target.id);
  expect(Object.keys(zip).sort()).toEqual([...manifest.files.map((f) => f.name), 'manifest.json'].sort());
  for (const f of manifest.files) {
    expect(createHash('sha256').update(zip[f.name]!).digest('hex'), f.name).toBe(f.sha256);
    expect(zip[f.name]!.length).toBe(f.bytes);
  }
  expect(manifest.files.map((f) => f.name)).toEqual(
    expect.arrayContaining([
      'summary.html',
      'consent.json',
      'events.json',
      'staff-actions.json',
      'audit-verification.json',
      'retention.json',
    ]),
  );
  expect(JSON.parse(strFromU8(zip['audit-verification.json']!))).toMatchObject({ ok: true });
  expect(strFromU8(zip['summary.html']!)).toContain(`Evidence pack — consent <code>${target.id}</code>`);
  // The export itself is on the record.
  await page.getByRole('tab', { name: /Timeline/ }).click();
  await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Staff: Exported an evidence pack' })).toHaveCount(1);
});

test('the palette jumps to a consent by its arrangement id', async ({ page }) => {
  await open(page);
  const target = await firstWithStatus(page, 'EXPIRED', 2);
  await rows(page).nth(2).click();
  const arrangement = (await page
    .getByText('CDR arrangement id', { exact: true })
    .locator('xpath=following-sibling::*[1]')
    .textContent())!.trim();
  expect(arrangement).toMatch(/^[0-9a-f-]{36}$/);
  await page.goto(`${new URL(app.launchUrl).origin}/#/consents`);
  await page.keyboard.press('Control+k');
  const search = page.getByRole('textbox', { name: 'Search consents, screens and commands' });
  await expect(search).toBeFocused();
  await search.fill(arrangement);
  await expect(page.getByRole('button', { name: new RegExp(target.id) })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/palette.png' });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/consents/${target.id}$`));
});
