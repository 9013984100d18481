import { expect, test } from './journey.js';
import { look } from './look.js';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';

/**
 * Alerts as a compliance officer meets them (issue 38): a rule added in Settings, checked at once,
 * the bell counting what fires, the notification centre saying what and since when, an
 * acknowledgement, and a silence with its reason — each view readable in light and dark, axe-clean.
 */
let app: ConsoleProcess;
test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '23', '--sandbox-consents', '80', '--sandbox-clock', pinnedNow()], {
    setup: knownOperator('Alma Alerts'),
  });
});
test.afterAll(async () => app?.stop());

test('add a rule in Settings, see it fire under the bell, acknowledge it, silence the rule with a reason', async ({ page }) => {
  test.setTimeout(120_000);
  // The desktop's notifications allowed, and each one the page makes noted (the real API underneath).
  await page.context().grantPermissions(['notifications'], { origin: new URL(app.launchUrl).origin });
  await page.addInitScript(() => {
    const Real = window.Notification;
    const noted: string[] = [];
    (window as unknown as { noted: string[] }).noted = noted;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        noted.push(`${title}: ${options?.body ?? ''}`);
      }
    } as typeof Notification;
  });
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Alerts: none needs attention' })).toBeVisible();

  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Alerts' });
  // Every console starts with one rule, the rule 9.4 report's reminder; removed here, so what fires
  // below is this test's own rule whatever the day (the reminder fires in a report's 30 days).
  const reminder = 'Rule 9.4 report waiting for sign-off (once a day, until its due day)';
  await panel.getByRole('button', { name: `Remove the rule: ${reminder}` }).click();
  await expect(panel.getByText('No alert rule yet.')).toBeVisible();
  await panel.getByRole('combobox', { name: 'Alert when' }).click();
  await page.getByRole('option', { name: 'Consents expiring soon (daily digest)' }).click();
  await panel.getByRole('textbox', { name: 'Sharing ends within (days)' }).fill('90');
  await panel.getByRole('button', { name: 'Add rule' }).click();
  const rules = panel.getByRole('table', { name: 'Alert rules' });
  await expect(rules).toContainText('Consents whose sharing ends within 90 days (once a day)');
  await panel.getByRole('button', { name: 'Check the rules now' }).click();
  await expect(panel.getByRole('status')).toHaveText('Checked 1 rule: 1 started firing, 0 resolved.');
  await look(page, 'settings-alerts');

  // New to this person, and firing with nobody on it.
  const bell = page.getByRole('button', { name: 'Alerts: 1 new, 1 firing and not acknowledged' });
  await expect(bell).toBeVisible();
  await bell.click();
  const centre = page.getByRole('dialog', { name: 'Alerts' });
  // Opened, it is read: marked new in the panel while it stays open; the bell says it is no longer new.
  const item = centre.getByRole('listitem', { name: 'Consents expiring soon (daily digest): firing, new' });
  await expect(item).toContainText(/\d+ active consents? ends? sharing within 90 days/);
  await expect(item.getByText('New', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Alerts: 1 firing, not acknowledged' })).toBeAttached();
  await look(page, 'alerts-centre');
  await item.getByRole('button', { name: 'Acknowledge: Consents expiring soon (daily digest)' }).click();
  await expect(item).toContainText('Acknowledged by');
  await centre.getByRole('switch', { name: 'Also tell me on this computer’s desktop' }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Alerts: none needs attention' })).toBeVisible();

  // Silenced for a day, with why.
  await rules.getByRole('combobox', { name: /^Silence / }).click();
  await page.getByRole('option', { name: 'for 1 day' }).click();
  await rules.getByRole('textbox', { name: 'Why it is silenced' }).fill('renewal campaign running');
  await rules.getByRole('button', { name: 'Silence', exact: true }).click();
  await expect(rules).toContainText(/Until .*: renewal campaign running/);

  // A second rule starts firing while the console is open: the desktop is told, once.
  await panel.getByRole('combobox', { name: 'Alert when' }).click();
  await page.getByRole('option', { name: 'Consents expiring soon (daily digest)' }).click();
  await panel.getByRole('textbox', { name: 'Sharing ends within (days)' }).fill('89');
  await panel.getByRole('button', { name: 'Add rule' }).click();
  await panel.getByRole('button', { name: 'Check the rules now' }).click();
  await expect(page.getByRole('button', { name: 'Alerts: 1 new, 1 firing and not acknowledged' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { noted: string[] }).noted))
    .toEqual([
      expect.stringMatching(/^CDR Console: Consents expiring soon \(daily digest\): \d+ active consents? ends? sharing within 89 days$/),
    ]);
  // A rule that watches one data holder's consents names it.
  await panel.getByRole('combobox', { name: 'Alert when' }).click();
  await page.getByRole('option', { name: 'Webhook deliveries failing', exact: true }).click();
  await panel.getByRole('combobox', { name: 'Of the consents at' }).click();
  await page.getByRole('option', { name: 'ANZ', exact: true }).click();
  await panel.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules).toContainText('Webhook deliveries failing at ANZ: 5 or more in 1 hour, or 20% of deliveries');
  await page.goto(`${new URL(app.launchUrl).origin}/#/audit`);
  const log = page.getByTestId('table-scroll');
  for (const words of ['Removed an alert rule', 'Added an alert rule', 'An alert fired', 'Acknowledged an alert', 'Silenced an alert rule'])
    await expect(log.getByText(words).first()).toBeVisible();
});
