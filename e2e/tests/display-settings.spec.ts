import { expect, test, type Page } from '@playwright/test';
import { csrfToken, sidebar, signInAs } from './helpers';

/**
 * The display settings take effect where seed 000 section 3 puts them (docs/decisions/0031): header toggles in the
 * sidebar, greeting, tagline and quick actions on the dashboard, compact mode on the whole layout, and the locale
 * settings in every date. Uzima Chemists (the trial pharmacy) is used, so other tests' pharmacy is left alone.
 */
async function changeSettings(page: Page, change: (settings: Record<string, unknown>) => void): Promise<void> {
  const current = (await (await page.request.get('/api/settings')).json()) as { settings: Record<string, unknown> };
  const settings = structuredClone(current.settings);
  change(settings);
  const response = await page.request.put('/api/settings', { data: settings, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), await response.text()).toBe(200);
}

test('display settings change the sidebar and the dashboard, and back', async ({ page }) => {
  await signInAs(page, 'trialOwner');
  const nav = sidebar(page);
  await expect(page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), / })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Quick Actions' })).toBeVisible();
  await expect(page.locator('aside').getByText('Uzima Chemists', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.density)).toBe('comfortable');

  await changeSettings(page, (settings) => {
    settings.pharmacyTagline = 'Care you can count on';
    settings.displaySettings = {
      ...(settings.displaySettings as object),
      showGreeting: false,
      showQuickActions: false,
      showPharmacyName: false,
      showUserName: false,
      showTagline: true,
      compactMode: true,
    };
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Quick Actions' })).toHaveCount(0);
  await expect(page.getByText('Care you can count on').first()).toBeVisible();
  await expect(page.locator('aside').getByText('Uzima Chemists', { exact: true })).toHaveCount(0);
  await expect(nav).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.density)).toBe('compact');
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('14px');

  // The greeting without the name.
  await changeSettings(page, (settings) => {
    settings.displaySettings = { ...(settings.displaySettings as object), showGreeting: true, showUserName: false };
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening)$/ })).toBeVisible();

  await changeSettings(page, (settings) => {
    settings.pharmacyTagline = '';
    settings.displaySettings = {
      ...(settings.displaySettings as object),
      showGreeting: true,
      showQuickActions: true,
      showPharmacyName: true,
      showUserName: true,
      compactMode: false,
    };
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Quick Actions' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.density)).toBe('comfortable');
});

test('dates follow the pharmacy locale settings', async ({ page }) => {
  await signInAs(page, 'trialOwner');
  await changeSettings(page, (settings) => {
    settings.dateFormat = 'en-US';
  });
  await page.reload();
  // The dashboard banner's date and time: en-US puts the month first ('Mar 05, 2026, 10:30 AM').
  await expect(page.locator('time').first()).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4}/);
  await changeSettings(page, (settings) => {
    settings.dateFormat = 'en-GB';
  });
  await page.reload();
  await expect(page.locator('time').first()).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4}/);
});
