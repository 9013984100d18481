import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, resolveChromium } from './test/e2e/chromium.js';

// End-to-end tests in Chromium (CHROMIUM_PATH, Debian's, or the one in @sparticuz/chromium; no Playwright browser download) against the browser
// host, started by each test file as a real process on a free port with its own data directory.

export default defineConfig({
  testDir: './test/e2e',
  outputDir: './test-results/e2e',
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  workers: 1,
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
});
