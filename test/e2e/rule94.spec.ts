import { expect, test } from './journey.js';
import { look } from './look.js';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';
import { lastEndedHalfYear } from '../../shared/reports/rule94.js';
import { lastEndedMonth } from '../../shared/reports/month.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The rule 9.4 report as a compliance officer meets it (issue 38): the console made the last ended
 * half-year's report when it started; from the Compliance reports screen the officer opens it,
 * follows a figure to its records, is refused sign-off while a required answer is missing, answers,
 * signs off, and finds the report archived with its hash, in the audit log too — each view readable
 * in light and dark with no accessibility violation.
 */
let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '14', '--sandbox-consents', '60', '--sandbox-clock', pinnedNow()], {
    setup: knownOperator('Rhea Reporter'),
  });
});
test.afterAll(async () => app?.stop());

const origin = () => new URL(app.launchUrl).origin;

test('open the half-year’s report, follow a figure, answer, sign off, and find it archived with its hash', async ({ page }) => {
  test.setTimeout(150_000);
  const h = lastEndedHalfYear(new Date());
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto(`${origin()}/#/reports`);
  await page.getByRole('link', { name: 'Rule 9.4 reports' }).click();
  await expect(page.getByRole('heading', { name: 'Rule 9.4 reports' })).toBeVisible();
  const reports = page.getByRole('table', { name: 'Rule 9.4 reports' });
  await expect(reports.getByRole('row', { name: new RegExp(h.text) })).toContainText('Draft');
  const report = page.getByRole('region', { name: 'The report', exact: true });
  await expect(report.getByRole('heading', { name: `Rule 9.4 report, ${h.text}` })).toBeVisible();
  const [y, m, d] = h.dueOn.split('-').map(Number) as [number, number, number];
  const due = `${d} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]} ${y}`;
  await expect(report).toContainText(`Due on ${due}.`);
  await expect(report).toContainText('by CDR Console (reports)');
  const figures = page.getByRole('table', { name: 'Figures of the rule 9.4 report' });
  await expect(figures.getByRole('row', { name: /CDR consumers served/ })).toContainText(/Distinct consumer ids/);
  await look(page, 'rule94-draft');

  // A figure opens its records for the half-year.
  await figures.getByRole('link', { name: /^Consents given: [\d,]+ — open the records$/ }).click();
  await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeVisible();
  await expect(page).toHaveURL(/type=GRANTED&from=/);
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Rule 9.4 reports' })).toBeVisible();

  // Sign-off waits for the required answers.
  await page.getByRole('button', { name: 'Sign off…' }).click();
  const dialog = page.getByRole('dialog', { name: `Sign off the report for ${h.text}?` });
  await expect(dialog.getByRole('alert')).toContainText('Accreditation number is not answered.');
  await expect(dialog.getByRole('button', { name: 'Sign off and archive' })).toBeDisabled();
  await look(page, 'rule94-signoff-refused');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const answers = page.getByRole('region', { name: 'Answers', exact: true });
  await answers.getByRole('textbox', { name: 'Accredited person’s name' }).fill('Acme Data Pty Ltd');
  await answers.getByRole('textbox', { name: 'Accreditation number' }).fill('ADRBNK000123');
  await answers.getByRole('textbox', { name: 'CDR complaints received outside this register' }).fill('None');
  await answers.getByRole('button', { name: 'Save answers' }).click();
  await expect(page.getByText(`The report for ${h.text} keeps your answers.`)).toBeVisible();

  await page.getByRole('button', { name: 'Sign off…' }).click();
  await expect(dialog.getByRole('alert')).toBeHidden();
  await look(page, 'rule94-signoff');
  await dialog.getByRole('button', { name: 'Sign off and archive' }).click();
  await expect(dialog).toBeHidden();
  const signed = page.getByTestId('rule94-signed');
  await expect(signed).toContainText(/by .*Rhea Reporter/);
  const sha = (await signed.locator('code').textContent())!;
  expect(sha).toMatch(/^[0-9a-f]{64}$/);
  await expect(reports.getByRole('row', { name: new RegExp(h.text) })).toContainText('Signed off');
  await expect(answers.getByRole('textbox', { name: 'Accreditation number' })).toHaveAttribute('readonly', '');
  await expect(page.getByRole('button', { name: 'Sign off…' })).toHaveCount(0);
  // The toast saying so fades out first: caught mid-fade, its half-transparent text fails contrast.
  await expect(page.getByText(/is archived \(SHA-256/)).toBeHidden({ timeout: 15_000 });
  await look(page, 'rule94-signed');

  // A half-year with no report (a link kept from elsewhere) says so, and how one comes to be.
  await page.goto(`${origin()}/#/reports/rule94?period=2019-H1`);
  await expect(page.getByText('No report for 1 Jan 2019 – 30 Jun 2019')).toBeVisible();

  // The audit log holds the same hash.
  await page.goto(`${origin()}/#/audit`);
  await expect(page.getByText(`signed off and archived: sha256 ${sha}`)).toBeVisible();
});

test('schedule the monthly compliance pack: last month’s is made at once (synced since), and exports as made', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto(`${origin()}/#/reports`);
  const panel = page.getByRole('region', { name: 'Monthly compliance pack' });
  await expect(panel.getByText('No pack made yet.')).toBeVisible();
  // The months of the console's own zone (the browser's).
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const m = lastEndedMonth(new Date(), zone);
  await panel.getByRole('switch', { name: 'Make a pack each month' }).check();
  await expect(panel.getByTestId('monthly-schedule')).toContainText(new RegExp(`^Months in ${zone} · turned on by .*\\(Rhea Reporter\\)`));
  const row = panel.getByRole('table', { name: 'Monthly compliance packs' }).getByRole('row', { name: new RegExp(m.text) });
  await expect(row).toContainText('Not sent (no e-mail set up)');
  await expect(row).toContainText('CDR Console (reports)');
  await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await look(page, 'monthly-pack');

  // The HTML as made: the SHA-256 the audit log holds.
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: `The pack for ${m.text} as a printable page (HTML)` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`cdr-compliance-pack-${m.id}.html`);
  const sha = createHash('sha256')
    .update(readFileSync(await file.path()))
    .digest('hex');
  await page.goto(`${origin()}/#/audit`);
  await expect(page.getByText(`monthly compliance pack for ${m.text} (${zone}) made: sha256 ${sha}`)).toBeVisible();
});
