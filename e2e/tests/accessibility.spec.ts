import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInAs } from './helpers';

/**
 * Automated accessibility checks (axe-core, WCAG 2 A and AA rules) on the main screens, signed in as the owner.
 * A serious or critical violation fails the test; the message lists each rule with the elements it found.
 */

const SCREENS: { path: string; heading: string | RegExp }[] = [
  { path: '/app/dashboard', heading: /Good (morning|afternoon|evening)/ },
  { path: '/app/products', heading: 'Products' },
  { path: '/app/products/add', heading: /Add Product/i },
  { path: '/app/settings', heading: /Settings/ },
  { path: '/app/users', heading: /Users/ },
  { path: '/app/subscription', heading: /Subscription/ },
  { path: '/app/reports/expiry', heading: 'Expiry Report' },
  { path: '/app/reports/low-stock', heading: 'Low Stock Report' },
  { path: '/app/stock-transfers', heading: /Transfer/ },
];

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').join(' ')}`).join('\n')}`);
}

test('the login page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

// One test walks the screens in one signed-in page (one sign-in, the app's files loaded once) instead of a sign-in and a
// cold page per screen; each screen is its own step and a soft assertion, so every screen is checked and reported.
test('the main screens have no serious accessibility violations (signed in as the owner)', async ({ page }) => {
  test.setTimeout(60_000 + SCREENS.length * 30_000);
  await signInAs(page, 'owner', { open: false });
  for (const screen of SCREENS) {
    await test.step(screen.path, async () => {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
      // Wait for the screen's data: no loading indicator left.
      await expect(page.locator('main [role="status"]').filter({ hasText: /Loading/i })).toHaveCount(0);
      expect.soft(await seriousViolations(page), `${screen.path} has no serious accessibility violations`).toEqual([]);
    });
  }
});
