import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addUser, knownOperator, pinnedNow, signInAs, startConsole, type ConsoleProcess } from './console-host.js';

/**
 * The team server end to end (`npm run team`: an embedded PostgreSQL in the data directory, the
 * embedded sandbox as the intermediary): two servers on one data directory and one database, and
 * people signed in, each with their role, in browser contexts of their own. A support agent's revoke
 * on one server shows REVOKED in a viewer's console on the other without a reload (LISTEN/NOTIFY
 * between the servers), where no Revoke is enabled; a compliance officer's audit screen shows the
 * agent's display name, and the compliance report counts the revocation under the agent.
 */
let app: ConsoleProcess;
let second: ConsoleProcess;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  const sandbox = ['--sandbox-seed', '23', '--sandbox-consents', '300', '--sandbox-clock', pinnedNow()];
  app = await startConsole(sandbox, { setup: knownOperator('Tess Team'), team: true });
  second = await startConsole([...sandbox, '--no-sync'], { team: true, dataDir: app.dataDir });
  await addUser(app.dataDir, 'tess', 'Tess Team', 'support');
  await addUser(app.dataDir, 'sam', 'Sam Support', 'support');
  await addUser(app.dataDir, 'vera', 'Vera Viewer', 'viewer');
  await addUser(app.dataDir, 'cleo', 'Cleo Compliance', 'compliance');
});
test.afterAll(async () => {
  await second?.stop();
  await app?.stop();
});

async function signIn(page: Page, name = 'tess') {
  await signInAs(page, origin(), name);
  await expect(page.getByTestId('status-user')).toContainText('Signed in as');
}

const origin = () => new URL(app.launchUrl).origin;

/** Revokes a consent on the first server, as a person does: the consent's screen, Revoke…, a reason, its details. */
async function revoke(page: Page, id: string, details: string) {
  await page.goto(`${origin()}/#/consents/${id}`);
  await page.getByRole('button', { name: 'Revoke…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this consent?' });
  await dialog.getByLabel(/^Reason/).click();
  await page.getByRole('option', { name: 'Consumer asked to withdraw the consent' }).click();
  await dialog.getByLabel('Details (ticket number, who asked)').fill(details);
  await dialog.getByRole('button', { name: 'Revoke consent' }).click();
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Revoked/);
}

test('each server says where the team store is; the second shares the first one’s embedded PostgreSQL', async () => {
  expect(app.output()).toMatch(/Team store: an embedded PostgreSQL in .+team-postgres/);
  expect(app.output()).toMatch(/Synced 300 consents/);
  expect(second.output()).toMatch(/Team store: the embedded PostgreSQL another server runs in .+team-postgres/);
});

test('two consoles on two team servers of one store: a revoke in one is REVOKED in the other without a reload; the overviews agree', async ({
  browser,
}) => {
  const [one, two] = [await browser.newContext(), await browser.newContext()];
  try {
    const a = await one.newPage();
    const b = await two.newPage();
    await signIn(a);
    await signInAs(b, new URL(second.launchUrl).origin, 'vera');
    await expect(b.getByTestId('status-user')).toHaveText('Signed in as Vera Viewer · Viewer');
    await expect(b.getByText(/team server$/)).toBeVisible();
    for (const page of [a, b]) {
      await expect(page.getByTestId('status-team')).toHaveText('Team: 2 servers');
      // The second server did not sync (the first did): it still reaches the intermediary, so its actions are on.
      await expect(page.getByTestId('status-online')).toHaveText('● Online');
    }
    for (const status of ['ACTIVE', 'REVOKED', 'EXPIRED'])
      await expect(b.getByTestId(`tile-${status}`)).toHaveText((await a.getByTestId(`tile-${status}`).textContent())!);
    const activeBefore = Number((await a.getByTestId('tile-ACTIVE').textContent())!.replace(/,/g, ''));

    await a.goto(`${origin()}/#/consents?status=ACTIVE&sort=created.asc`);
    const row = a.getByTestId('table-row').first();
    await expect(row).toBeVisible();
    const id = (await row.getAttribute('data-row-id'))!;
    const secondOrigin = new URL(second.launchUrl).origin;
    await b.goto(`${secondOrigin}/#/consents/${id}`);
    await expect(b.getByTestId('status-sentence')).toHaveText(/^Active/);
    // The viewer finds Revoke where it always is, disabled, saying why.
    await expect(b.getByRole('button', { name: 'Revoke…', exact: true })).toBeDisabled();
    await expect(b.getByLabel('Revoke… — unavailable: Revoking needs the support role; you are a viewer.')).toBeVisible();

    await revoke(a, id, 'team ticket 77');

    // The other console, untouched: REVOKED within seconds, with the staff action in its timeline.
    await expect(b.getByTestId('status-sentence')).toHaveText(/^Revoked/, { timeout: 5_000 });
    await b.getByRole('tab', { name: /Timeline/ }).click();
    await expect(b.getByTestId('timeline-entry').filter({ hasText: 'Staff: Revoked a consent' })).toContainText('Tess Team');
    await b.screenshot({ path: 'test-results/screenshots/team-other-console.png' });
    await b.emulateMedia({ colorScheme: 'dark' });
    await b.screenshot({ path: 'test-results/screenshots/team-other-console-dark.png' });

    await a.goto(`${origin()}/#/`);
    await b.goto(`${secondOrigin}/#/`);
    await expect(a.getByTestId('tile-ACTIVE')).toHaveText(String(activeBefore - 1));
    for (const status of ['ACTIVE', 'REVOKED', 'EXPIRED'])
      await expect(b.getByTestId(`tile-${status}`)).toHaveText((await a.getByTestId(`tile-${status}`).textContent())!);
  } finally {
    await one.close();
    await two.close();
  }
});

test('Revoke clicked the moment a consent appears, before the role rules are in: its dialog opens once they say yes', async ({ page }) => {
  // The role rules' code held back (a slow network), so the page shows before they are known.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/contract-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await signIn(page);
  await page.goto(`${origin()}/#/consents?status=ACTIVE&sort=created.asc`);
  const row = page.getByTestId('table-row').nth(5);
  await expect(row.locator('[title="ACTIVE"]')).toHaveText('Active');
  const id = (await row.getAttribute('data-row-id'))!;
  await page.goto(`${origin()}/#/consents/${id}`);
  await expect(page.getByLabel('Revoke… — unavailable: Checking what your role may do…')).toBeVisible();
  await page.getByRole('button', { name: 'Revoke…', exact: true }).click({ force: true });
  release();
  const dialog = page.getByRole('dialog', { name: 'Revoke this consent?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('status-sentence')).toHaveText(/^Active/);
});

test('a compliance officer’s audit screen names the agent and their client; the compliance report counts the revocation under them', async ({
  page,
}) => {
  const secondOrigin = new URL(second.launchUrl).origin;
  await signInAs(page, secondOrigin, 'cleo');
  await page.goto(`${secondOrigin}/#/audit?action=revoke`);
  await expect(page.getByRole('columnheader', { name: 'Client' })).toBeVisible();
  // The revocation of the test before, made in another browser on the other server: its address and browser.
  const row = page.getByTestId('table-row').first();
  await expect(row).toContainText('Tess Team');
  // In words (the raw agent on hover).
  await expect(row).toContainText(/Chrome \d+ on Linux · 127\.0\.0\.1/);
  await expect(row.getByTitle(/^127\.0\.0\.1 Mozilla\/5\.0 .*Chrome/)).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/team-audit.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screenshots/team-audit-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  await page.goto(`${secondOrigin}/#/reports`);
  await page.getByText('This month', { exact: true }).click();
  await expect(page.getByTestId('report-withdrawn-staff')).toContainText(/[1-9]/);
  const staff = page.getByRole('table', { name: 'Withdrawn and amended per member of staff' });
  await expect(staff.getByRole('row', { name: /Tess Team/ })).toContainText(/tess \(Tess Team\)\s*1\s*0/);
  await page.screenshot({ path: 'test-results/screenshots/team-report-staff.png', fullPage: true });
});

test('a revoke on one server: another console’s Events screen and overview, open on the other server, show it without a reload', async ({
  browser,
}) => {
  // Issue 37: the change notices start at the store, so a revoke announces the events it stored too
  // (it once said "consents" only: the other console's Events screen and the overview's event counts stayed as they were).
  const [one, two] = [await browser.newContext(), await browser.newContext()];
  try {
    const a = await one.newPage();
    await signIn(a, 'sam'); // not Tess: the tests above count her one revocation
    const secondOrigin = new URL(second.launchUrl).origin;
    const events = await two.newPage();
    await signInAs(events, secondOrigin, 'vera');
    await a.goto(`${origin()}/#/consents?status=ACTIVE&sort=created.desc`);
    const row = a.getByTestId('table-row').first();
    await expect(row).toBeVisible();
    const id = (await row.getAttribute('data-row-id'))!;

    // The other console, on the other server: the consent's events, and (another tab) the overview.
    await events.goto(`${secondOrigin}/#/events?consent=${encodeURIComponent(id)}`);
    const range = events.getByTestId('events-range');
    await expect(range).toHaveText(/\d+ events? match/);
    const eventsBefore = Number(/(\d+) event/.exec((await range.textContent())!)![1]);
    const overview = await two.newPage();
    await overview.goto(`${secondOrigin}/#/`);
    const weekly = overview.getByRole('region', { name: 'Consents granted and withdrawn per week' });
    await weekly.getByText('Table', { exact: true }).click();
    const withdrawn = weekly
      .getByRole('table', { name: 'Consents granted and withdrawn per week (numbers)' })
      .locator('tbody tr td:nth-child(3)');
    await expect(withdrawn.first()).toBeVisible();
    const sum = async () => (await withdrawn.allTextContents()).reduce((n, t) => n + Number(t.replace(/\D/g, '')), 0);
    const withdrawnBefore = await sum();
    const revokedTile = overview.getByTestId('tile-REVOKED');
    const revokedBefore = Number((await revokedTile.textContent())!.replace(/\D/g, ''));

    await revoke(a, id, 'team ticket 78');

    // Neither tab reloaded nor navigated: the revocation's event is in the list, the week's withdrawals and the tile count it.
    await expect(range).toHaveText(new RegExp(`^${eventsBefore + 1} events match`), { timeout: 5_000 });
    await expect(events.getByTestId('table-row').first()).toContainText('Revoked');
    await expect.poll(sum, { timeout: 5_000 }).toBe(withdrawnBefore + 1);
    await expect(revokedTile).toHaveText(String(revokedBefore + 1));
    expect(new URL(events.url()).hash).toBe(`#/events?consent=${encodeURIComponent(id)}`);
  } finally {
    await one.close();
    await two.close();
  }
});

test('the sign-in page: a wrong password says so without saying which half; an admin’s Settings offers no profile switch or cache reset, saying why', async ({
  page,
}) => {
  const secondOrigin = new URL(second.launchUrl).origin;
  await page.goto(`${secondOrigin}/`);
  await expect(page.getByRole('heading', { name: 'CDR Console' })).toBeVisible();
  await page.getByLabel('User name').fill('vera');
  await page.getByLabel('Password').fill('not her password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('The user name or password is wrong.');
  await expect(page.getByLabel('User name')).toHaveValue('vera');
  await page.screenshot({ path: 'test-results/screenshots/team-sign-in.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screenshots/team-sign-in-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await addUser(app.dataDir, 'ada', 'Ada Admin', 'admin');
  await signInAs(page, secondOrigin, 'ada');
  // An admin's Users screen lists the team's people, with their roles.
  await page.goto(`${secondOrigin}/#/users`);
  for (const name of ['tess', 'vera', 'cleo', 'ada'])
    await expect(page.getByRole('row', { name: new RegExp(`^${name}\\b`) })).toBeVisible();
  // The status bar is one line: each of its items is as tall as one line of its text, none wraps.
  const bar = page.getByRole('status', { name: 'Status bar' });
  await expect(bar.getByTestId('status-user')).toContainText('Signed in as Ada Admin');
  for (const item of await bar.locator(':scope > *').all()) {
    const box = (await item.boundingBox())!;
    expect(box.height, `${await item.textContent()}`).toBeLessThan(24);
  }
  // What gives way when they do not all fit is the profile, environment, secrets and version, not the
  // sync, the team or who is signed in (cut, "Last sync: just n…").
  for (const id of ['status-sync', 'status-team', 'status-user'])
    expect(await bar.getByTestId(id).evaluate((e) => e.scrollWidth - e.clientWidth), id).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/screenshots/team-users.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screenshots/team-users-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${secondOrigin}/#/settings`);
  await expect(page.getByRole('button', { name: 'Reset the cache…' })).toBeDisabled();
  await expect(page.getByText(/shared by every server and every console of the team: it is not reset from a console/)).toBeVisible();

  // Signing out ends the session: the sign-in page says so, and the console is not served any more.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You are signed out.' })).toBeVisible();
  await page.goto(`${secondOrigin}/#/overview`);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
});

test('every screen of a team server, as an admin: no axe violation in light or dark; at 1024, 1440 and 1920 px the status bar keeps the sync, the team and the person', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const secondOrigin = new URL(second.launchUrl).origin;
  await addUser(app.dataDir, 'ana', 'Ana Admin', 'admin');
  await signInAs(page, secondOrigin, 'ana');
  const screens = [
    'overview',
    'consents',
    'events',
    'webhook-failures',
    'use-cases',
    'data',
    'products',
    'audit',
    'reports',
    'users',
    'settings',
  ];
  for (const [width, height] of [
    [1024, 700],
    [1440, 900],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const name of [...screens, 'consent']) {
      if (name === 'consent') {
        await page.goto(`${secondOrigin}/#/consents`);
        await page.getByTestId('table-row').first().click();
        await expect(page.getByTestId('status-sentence')).toBeVisible();
      } else {
        await page.goto(`${secondOrigin}/#/${name}`);
        await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
      }
      const bar = page.getByRole('status', { name: 'Status bar' });
      await expect(bar.getByTestId('status-user')).toContainText('Signed in as Ana Admin');
      for (const id of ['status-sync', 'status-team', 'status-user'])
        expect(
          await bar.getByTestId(id).evaluate((e) => e.scrollWidth - e.clientWidth),
          `${id} at ${width} on ${name}`,
        ).toBeLessThanOrEqual(0);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await page.screenshot({ path: `test-results/screenshots/team-${name}-${width}-${scheme}.png` });
        if (width !== 1440) continue;
        const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        // Every violation, whatever its impact (issue 34: 0 violations on every screen).
        const bad = axe.violations;
        expect(
          bad.map(
            (v) =>
              `${v.id}: ${v.nodes
                .slice(0, 2)
                .map((n) => n.target.join(' '))
                .join(' | ')}`,
          ),
          `axe on ${name} (${scheme})`,
        ).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
});
