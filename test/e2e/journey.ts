import { expect, test as base } from '@playwright/test';

/**
 * The journeys' `test`: Playwright's, with every page watched for errors it throws (uncaught, or an
 * unhandled rejection). A journey fails when its page threw, even if every step it checks passed.
 * The journeys run in three browsers (playwright.config.ts): the suite's, one whose language is
 * en-US@posix (Chromium under a C locale) and one in de-DE on Pacific/Auckland time (issue 34).
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on('weberror', (e) => errors.push(`${e.error().name}: ${e.error().message}`));
      await use(errors);
      expect(errors, 'errors the page threw').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
