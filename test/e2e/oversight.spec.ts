import type { Page } from '@playwright/test';
import { tz } from '@date-fns/tz';
import { addDays, format, startOfDay } from 'date-fns';
import { CLI } from '../helpers/cli-command.js';
import { expect, test } from './journey.js';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3-multiple-ciphers';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { secretNames, SecretVault } from '../../electron/core/secrets/vault.js';
import { knownOperator, pinnedNow, startConsole, type ConsoleProcess } from './console-host.js';

/**
 * The oversight screens end to end: the overview's numbers against the cache (read by the command
 * line, another process) and the lists they link to; webhook failures grouped by masked message with
 * each message in full; the combined-scopes view; the audit chain green, then red in a copy of the
 * cache whose chain the test breaks; a second intermediary added in Settings, tested and switched
 * to, its secret in no IPC message but the one that stores it; a compliance report checked against
 * counts the test makes itself from the sandbox.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const CLOCK = pinnedNow();
let app: ConsoleProcess;
let second: RunningSandbox;

test.beforeAll(async () => {
  app = await startConsole(['--sandbox-seed', '41', '--sandbox-consents', '600', '--sandbox-clock', CLOCK], {
    setup: knownOperator('Olive Oversight'),
  });
  second = await startSandbox({
    seed: 77,
    consents: 90,
    clockOrigin: CLOCK,
    clientId: 'second-client',
    clientSecret: 'S3cond-Sandbox-Secret-Value',
  });
});
test.afterAll(async () => {
  await app?.stop();
  await second?.close();
});

const origin = () => new URL(app.launchUrl).origin;
async function signIn(page: Page) {
  await page.goto(app.launchUrl);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
}

/** The command line on the same data directory: the cache read by another process. */
function cli(args: string[]): string {
  return execFileSync(process.execPath, [...CLI, '--data-dir', app.dataDir, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' },
  });
}

test('the overview counts what the cache holds, and each number opens the list it counts', async ({ page }) => {
  await signIn(page);
  const consents = JSON.parse(cli(['consents', '--all', '--format', 'json'])) as {
    status: string;
    sharingEndDate: string | null;
    firstDataCollection: string | null;
  }[];
  for (const status of ['ACTIVE', 'REQUESTED', 'REVOKED', 'EXPIRED']) {
    await expect(page.getByTestId(`tile-${status}`)).toHaveText(
      String(consents.filter((c) => c.status === status).length).replace(/\B(?=(\d{3})+(?!\d))/g, ','),
    );
  }
  // Expiring within 7 days: active, sharing ending between the start of today and the end of the 7th day (local time).
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const end = new Date(today);
  end.setDate(end.getDate() + 8);
  const expiring = consents.filter(
    (c) =>
      c.status === 'ACTIVE' &&
      c.sharingEndDate &&
      Date.parse(c.sharingEndDate) >= today.getTime() &&
      Date.parse(c.sharingEndDate) < end.getTime(),
  ).length;
  await expect(page.getByTestId('tile-Expiring within 7 days')).toHaveText(String(expiring));
  await expect(page.getByTestId('tile-Active, never collected')).toHaveText(
    String(consents.filter((c) => c.status === 'ACTIVE' && !c.firstDataCollection).length),
  );

  await page.getByTestId('tile-Expiring within 7 days').click();
  await expect(page).toHaveURL(/#\/consents\?status=ACTIVE&sharingEnd=/);
  await expect(page.getByTestId('consent-range')).toHaveText(`${expiring} of 600 cached consents match this view`);

  await page.goBack();
  // Read the number once it is there (the tile shows "…" while it counts).
  await expect(page.getByTestId('tile-Webhook failures, 7 days')).toHaveText(/^\d[\d,]*$/);
  const failures7 = await page.getByTestId('tile-Webhook failures, 7 days').textContent();
  await page.getByTestId('tile-Webhook failures, 7 days').click();
  await expect(page.getByTestId('webhook-range')).toContainText(`${failures7} failed deliver`);
  await expect(page.getByRole('radio', { name: '7 days' })).toBeChecked();
});

test('webhook failures: grouped by the masked response, each message in full, consents linked', async ({ page }) => {
  await signIn(page);
  await page.goto(`${origin()}/#/webhook-failures`);
  const group = page.getByTestId('failure-group').filter({ hasText: '"requestId":"<id>"' });
  await expect(group).toHaveCount(1); // every 400 with its own request id and time, in one group
  const count = Number((await group.getByRole('cell').nth(1).textContent())!.replace(/,/g, ''));
  expect(count).toBeGreaterThan(1);
  await expect(group.getByLabel('Latest message in full')).toHaveText(
    /^400 Bad Request: \{"error":"unknown consentId","requestId":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}","at":"\d{4}-\d\d-\d\dT[^"]+"\}$/,
  );
  await expect(group).toContainText('"at":"<time>"');
  const byConsent = page.getByRole('table', { name: 'Consents with webhook failures' });
  await byConsent.getByRole('link').first().click();
  await expect(page).toHaveURL(/#\/consents\/[0-9a-f-]{36}\?tab=timeline$/);
  await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Webhook failure' }).first()).toBeVisible();
});

test('use cases: the combined-scopes view beside the separate one, with fewer entries', async ({ page }) => {
  await signIn(page);
  await page.goto(`${origin()}/#/use-cases`);
  await page.getByText('Separate and combined').click();
  const merged = page.getByTestId('use-case').filter({ hasText: 'fewer for the consumer to read' }).first();
  await expect(merged).toBeVisible();
  const name = (await merged.getByRole('heading', { level: 3 }).textContent())!;
  const separate = await merged
    .getByRole('table', { name: `Scopes of ${name}, separate` })
    .getByTestId('scope-row')
    .count();
  const combined = await merged
    .getByRole('table', { name: `Scopes of ${name}, combined` })
    .getByTestId('scope-row')
    .count();
  expect(combined).toBeLessThan(separate);
  await expect(merged).toContainText(`Combined: ${combined} entr`);
});

test('the audit chain: verified green; red in a copy of the cache whose chain was edited', async ({ page }) => {
  await signIn(page);
  // Something to audit: an export.
  await page.goto(`${origin()}/#/audit`);
  await expect(page.getByTestId('audit-verification')).toContainText('Audit chain intact');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Export all/ }).click();
  await page.getByRole('menuitem', { name: 'JSON' }).click();
  await download;
  await expect(page.getByTestId('audit-range')).toHaveText(/^(1 entry matches|[1-9]\d+ entries match|[2-9] entries match) this view$/);

  // A copy of the data directory, whose newest audit entry is edited with another SQLite client holding the key.
  const copy = mkdtempSync(join(tmpdir(), 'cdr-e2e-copy-'));
  try {
    cpSync(app.dataDir, copy, { recursive: true });
    const key = new SecretVault(copy, createKeyFileCipher(copy)).get(secretNames.cacheKey('sandbox'))!;
    const db = new Database(join(copy, 'profiles', 'sandbox', 'cache.sqlite'));
    db.pragma("cipher = 'sqlcipher'");
    db.pragma('legacy = 4');
    db.pragma(`key = "x'${key}'"`);
    db.exec('DROP TRIGGER audit_log_no_update');
    db.prepare("UPDATE audit_log SET reason = 'nothing to see here' WHERE seq = (SELECT max(seq) FROM audit_log)").run();
    db.close();
    const tampered = await startConsole([
      '--data-dir',
      copy,
      '--sandbox-seed',
      '41',
      '--sandbox-consents',
      '600',
      '--sandbox-clock',
      CLOCK,
      '--no-sync',
    ]);
    try {
      await page.goto(tampered.launchUrl);
      await page.goto(`${new URL(tampered.launchUrl).origin}/#/audit`);
      await expect(page.getByTestId('audit-verification')).toContainText(/Audit chain broken at entry \d+/);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: 'test-results/screenshots/audit-broken.png' });
    } finally {
      await tampered.stop();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test('a second intermediary added in Settings, tested, switched to — its secret in no IPC message but the one that stores it', async ({
  page,
}) => {
  const secret = 'S3cond-Sandbox-Secret-Value';
  const sent: string[] = [];
  const received: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => sent.push(String(f.payload)));
    ws.on('framereceived', (f) => received.push(String(f.payload)));
  });
  await signIn(page);
  await page.goto(`${origin()}/#/settings`);
  await page.getByRole('button', { name: 'Add profile' }).click();
  const form = page.getByRole('dialog', { name: 'Add a connection profile' });
  // Required fields' labels end with an asterisk.
  await form.getByLabel(/^Name/).fill('Second intermediary');
  await form.getByLabel(/^Client id/).fill('second-client');
  await form.getByLabel(/^Consent API base URL/).fill(second.url);
  await form.getByLabel(/^Token URL/).fill(`${second.url}/oauth2/token`);
  await form.getByLabel(/^Client secret/).fill(secret);
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('profile-second-intermediary');
  await expect(row.getByText('stored')).toBeVisible();

  await row.getByRole('button', { name: 'Test Second intermediary' }).click();
  await expect(row.getByRole('list', { name: 'Test of Second intermediary' })).toContainText('✓ token');
  await expect(row.getByRole('list', { name: 'Test of Second intermediary' })).toContainText('✓ consent-list');

  await row.getByRole('button', { name: 'Switch to Second intermediary' }).click();
  await expect(page.getByTestId('status-profile')).toHaveText('Second intermediary');
  await expect(page.getByTestId('environment-bar')).toContainText('Non-production');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await page.goto(`${origin()}/#/consents`);
  await expect(page.getByTestId('consent-range')).toHaveText('90 consents in the cache');

  // The secret went to main once, inside the request that stored it, and never came back.
  expect(sent.filter((f) => f.includes(secret)).map((f) => JSON.parse(f).channel)).toEqual(['profiles:save']);
  expect(received.some((f) => f.includes(secret))).toBe(false);
  expect(await page.content()).not.toContain(secret);

  // Back to the embedded sandbox for the tests that follow.
  await page.goto(`${origin()}/#/settings`);
  await page.getByRole('button', { name: 'Switch to Embedded sandbox' }).click();
  await expect(page.getByTestId('status-profile')).toHaveText('Embedded sandbox');
});

test('a compliance report counts what the intermediary says happened in the period', async ({ page, request }) => {
  await signIn(page);
  // The period: the 60 days before the sandbox's clock, in the console's days: the browser's zone,
  // which is not this machine's in the de-DE/Pacific/Auckland run.
  const zone = { in: tz(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)) };
  const last = addDays(startOfDay(new Date(CLOCK), zone), -1, zone);
  const first = addDays(last, -59, zone);
  const day = (d: Date) => format(d, 'yyyy-MM-dd', zone);
  const from = first;
  const to = addDays(last, 1, zone);

  // The truth, from the sandbox's own API.
  const token = await request.post(`${app.sandboxUrl}/oauth2/token`, {
    headers: { authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}` },
    form: { grant_type: 'client_credentials' },
  });
  const bearer = { authorization: `Bearer ${(await token.json()).access_token}` };
  const counts: Record<string, number> = {};
  for (let p = 1; ; p++) {
    const r = await request.get(`${app.sandboxUrl}/consents/events?page=${p}&page-size=1000`, { headers: bearer });
    const body = await r.json();
    for (const e of body.data.events) {
      const t = Date.parse(e.timestamp);
      if (t >= from.getTime() && t < to.getTime()) counts[e.eventType] = (counts[e.eventType] ?? 0) + 1;
    }
    if (!body.links.next) break;
  }
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByText('Sync finished')).toBeVisible({ timeout: 30_000 });

  await page.goto(`${origin()}/#/reports?from=${day(first)}&to=${day(last)}`);
  const cell = (key: string) => page.getByTestId(`report-${key}`).getByRole('link');
  await expect(cell('granted')).toHaveText(String(counts.GRANTED ?? 0));
  await expect(cell('extended')).toHaveText(String(counts.EXTENDED ?? 0));
  await expect(cell('withdrawn')).toHaveText(String(counts.REVOKED ?? 0));
  await expect(cell('expired')).toHaveText(String(counts.EXPIRED ?? 0));
  await expect(cell('collections')).toHaveText(String(counts.DATA_COLLECTION_COMPLETED ?? 0));
  await page.screenshot({ path: 'test-results/screenshots/compliance-report.png' });
  // Each count opens its records.
  await cell('granted').click();
  await expect(page).toHaveURL(/#\/events\?type=GRANTED&from=/);
  await expect(page.getByTestId('events-range')).toHaveText(
    `${counts.GRANTED ?? 0} event${counts.GRANTED === 1 ? ' matches' : 's match'} this view`,
  );
});
