import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Looks at the page as a user would, in light and then dark: a screenshot of each in
 * test-results/screenshots/NAME-SCHEME.png (to look at) and an axe scan of each with no violation
 * of any impact (WCAG 2.1 A and AA). Leaves the page in light.
 */
export async function look(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await page.waitForTimeout(200); // transitions of menus, drawers and dialogs
    await page.screenshot({ path: `test-results/screenshots/${name}-${scheme}.png` });
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(
      result.violations.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} — ${v.nodes
            .slice(0, 3)
            .map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`)
            .join(' | ')}`,
      ),
      `axe on ${name} (${scheme})`,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
