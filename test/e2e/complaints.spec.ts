import { expect, test } from './journey.js';
import { look } from './look.js';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';

/**
 * The complaints register as support and compliance staff use it (issue 38): a complaint recorded
 * from the consent it concerns, the form's rules said before anything is sent, the complaint then
 * resolved and referred, found on the register's screen by its filters, in the consent's audit
 * trail, and each view readable in light and dark with no accessibility violation.
 */
let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '12', '--sandbox-consents', '60', '--sandbox-clock', pinnedNow()], {
    setup: knownOperator('Cora Complaints'),
  });
});
test.afterAll(async () => app?.stop());

const origin = () => new URL(app.launchUrl).origin;

test('record a complaint from its consent, resolve and refer it, find it in the register and the audit trail', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto(`${origin()}/#/consents`);
  await page.getByTestId('table-row').first().click();
  await expect(page.getByTestId('status-sentence')).toBeVisible();
  const consentId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!.split('?')[0]!);
  await page.getByRole('tab', { name: 'Complaints' }).click();
  await expect(page.getByText('No complaint matches this view')).toBeVisible();

  await page.getByRole('button', { name: 'Record a complaint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record a complaint' });
  // The consent is filled in; sending an empty description is refused by the form, in words.
  await expect(dialog.getByRole('textbox', { name: 'Consent id' })).toHaveValue(consentId);
  await dialog.getByRole('button', { name: 'Record complaint' }).click();
  await expect(dialog.getByText('Say what the complaint is about.')).toBeVisible();
  await dialog
    .getByRole('textbox', { name: 'What the consumer complained about' })
    .fill('Says they withdrew consent in the app last week; the data holder still lists it.');
  await dialog.getByRole('combobox', { name: 'Category' }).click();
  await page.getByRole('option', { name: 'Withdrawing consent' }).click();
  await look(page, 'complaint-dialog');
  await dialog.getByRole('button', { name: 'Record complaint' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('CMP-0001 is in the register, open.')).toBeVisible();
  const row = page.getByTestId('table-row').filter({ hasText: 'CMP-0001' });
  await expect(row).toContainText('Withdrawing consent');
  await expect(row).toContainText('Open');
  await look(page, 'consent-complaints');

  // Resolved a few days later, and referred to AFCA: an outcome without its day is refused first.
  await row.click();
  const edit = page.getByRole('dialog', { name: 'Complaint CMP-0001' });
  await edit.getByRole('combobox', { name: 'Outcome' }).click();
  await page.getByRole('option', { name: 'Partly upheld' }).click();
  await edit.getByRole('button', { name: 'Save complaint' }).click();
  await expect(edit.getByText('A complaint with an outcome needs the day it was resolved.')).toBeVisible();
  const received = await edit.getByRole('textbox', { name: 'Received on' }).inputValue();
  await edit.getByRole('textbox', { name: 'Resolved on' }).fill(received);
  await page.keyboard.press('Tab'); // on to the next field: the calendar closes
  await edit.getByRole('combobox', { name: 'Referred to an external dispute resolution body' }).fill('AFCA');
  await page.keyboard.press('Tab');
  await edit.getByRole('button', { name: 'Save complaint' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Resolved · Partly upheld');
  await expect(row).toContainText('AFCA');

  // The register: filtered to resolved complaints about withdrawals, the view in the URL.
  await page.getByRole('link', { name: 'Complaints', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Complaints', level: 2 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Resolved' }).click();
  await expect(page).toHaveURL(/status=resolved/);
  await expect(page.getByTestId('complaints-range')).toHaveText('1 complaint matches this view');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Open' }).click();
  await expect(page.getByTestId('complaints-range')).toHaveText('0 complaints match this view');
  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByTestId('complaints-range')).toHaveText('1 complaint matches this view');
  await look(page, 'complaints');

  // Both steps are on the consent's audit trail, in words.
  await page.goto(`${origin()}/#/audit?target=${encodeURIComponent(consentId)}`);
  const log = page.getByTestId('table-scroll');
  await expect(log.getByText('Recorded a complaint')).toBeVisible();
  await expect(log.getByText('Changed a complaint')).toBeVisible();
  await expect(
    log.getByText(/CMP-0001 .*changed: outcome: – → Partly upheld; resolved on: – → \d{4}-\d\d-\d\d; referred to: – → AFCA/),
  ).toBeVisible();
});
