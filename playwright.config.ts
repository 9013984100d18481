import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, resolveChromium } from './test/e2e/chromium.js';

// End-to-end tests in Chromium (CHROMIUM_PATH, Debian's, or the one in @sparticuz/chromium; no Playwright browser download) against the browser
// host, started by each test file as a real process on a free port with its own data directory.

/** The journeys: what a person does with the console (search, revoke, extend, bulk, export, data, oversight). */
const JOURNEYS = /(consents|consent-workflows|oversight|data-products)\.spec\.ts$/;

export default defineConfig({
  testDir: './test/e2e',
  outputDir: './test-results/e2e',
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  // Two test files at a time: each starts its own console on free ports with its own data
  // directory, so they share nothing. On the 2-core CI machine the suite (80 tests, the journeys in
  // three languages) took 656 s one file at a time and 478 s two at a time.
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1400, height: 850 },
    launchOptions: { executablePath: await resolveChromium(), args: CHROMIUM_FLAGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'en-US' },
    // Every journey a second and a third time (issue 34): in a browser whose language is
    // en-US@posix (Chromium under a C locale: Intl refuses the tag, and it once crashed every
    // screen), and in de-DE on Pacific/Auckland time (another language's conventions, and days
    // that start 13 hours before UTC's). A journey fails on any error its page throws (journey.ts).
    { name: 'en-US@posix', testMatch: JOURNEYS, use: { locale: 'en-US@posix' } },
    { name: 'de-DE, Pacific/Auckland', testMatch: JOURNEYS, use: { locale: 'de-DE', timezoneId: 'Pacific/Auckland' } },
  ],
});
