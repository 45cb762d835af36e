import { expect, test } from '@playwright/test';
import { signInAs, unique } from './helpers';

test('the owner edits the settings, saves them and finds them saved after a reload', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/settings' });
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Settings sections' });
  for (const tab of ['Business', 'Invoicing', 'Tax & money', 'Stock', 'Pricing', 'Branches', 'Payment', 'Sales switches', 'Display', 'Integrations', 'Theme & branding']) {
    await expect(tabs.getByRole('tab', { name: tab, exact: true })).toBeVisible();
  }

  const tagline = unique('Your health, our care');
  await page.getByLabel('Tagline').fill(tagline);
  await tabs.getByRole('tab', { name: 'Pricing' }).click();
  await expect(page.getByLabel('Default minimum margin (%)')).toHaveValue('22');
  await page.getByLabel('Maximum discount (%)').fill('12.5');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Settings saved successfully')).toBeVisible();

  // Saving keeps the user on the tab they were on, and the tab is in the address.
  await expect(tabs.getByRole('tab', { name: 'Pricing' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]tab=pricing/);

  await page.reload();
  await expect(page.getByLabel('Maximum discount (%)')).toHaveValue('12.5');
  await page.getByRole('tab', { name: 'Business' }).click();
  await expect(page.getByLabel('Tagline')).toHaveValue(tagline);
  // Lists are edited one item per line; the defaults of seed 000 section 9 are there.
  await page.getByRole('tab', { name: 'Payment' }).click();
  await expect(page.getByLabel('Payment methods')).toHaveValue(/Cash\nM-Pesa\nInsurance\nBank Transfer\nCredit Card/);
});

test('invalid settings are caught in the browser with the shared schema and nothing is sent', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/settings' });
  await page.getByRole('tab', { name: 'Pricing' }).click();
  await page.getByLabel('Maximum discount (%)').fill('150');
  await page.getByRole('tab', { name: 'Business' }).click();
  await page.getByLabel('Email', { exact: true }).fill('not-an-email');

  let puts = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith('/api/settings')) puts += 1;
  });
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Some fields need attention before the settings can be saved.')).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('tab', { name: /Pricing \(1\)/ })).toBeVisible();
  await page.getByRole('tab', { name: /Pricing/ }).click();
  await expect(page.getByLabel('Maximum discount (%)')).toHaveAttribute('aria-invalid', 'true');
  expect(puts).toBe(0);
});

test('the theme is saved and applied to the app at once', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/settings' });
  await page.getByRole('tab', { name: 'Theme & branding' }).click();
  const primary = page.getByRole('textbox', { name: 'Primary colour', exact: true });
  await expect(primary).toHaveValue(/^#[0-9a-fA-F]{6}$/);

  await primary.fill('#0f766e');
  await page.getByLabel('App title').fill('Afya Bora POS');
  await page.getByRole('button', { name: 'Save Theme' }).click();
  await expect(page.getByText('Theme saved')).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.style.getPropertyValue('--pp-primary'))).toBe('#0f766e');
  // Each screen titles the page with the app's title after its own name.
  await expect(page).toHaveTitle('Settings · Afya Bora POS');

  // A bad colour is refused in the browser.
  await primary.fill('teal');
  await page.getByRole('button', { name: 'Save Theme' }).click();
  await expect(page.getByText('Use a hex colour like #2563eb')).toBeVisible();

  // Put the default theme back for everyone else.
  await primary.fill('#2563eb');
  await page.getByLabel('App title').fill('');
  await page.getByRole('button', { name: 'Save Theme' }).click();
  await expect(page.getByText('Theme saved')).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.style.getPropertyValue('--pp-primary'))).toBe('#2563eb');
});

test('a manager may edit business settings but not the theme', async ({ page }) => {
  await signInAs(page, 'manager', { open: '/app/settings' });
  await expect(page.getByLabel('Pharmacy name')).toBeVisible();
  await page.getByRole('tab', { name: 'Theme & branding' }).click();
  await expect(page.getByText('Only the owner, an admin or a user with system settings permission can change the theme.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Theme' })).toHaveCount(0);
});

test('at 1366 px every settings tab is on screen, the time zone is chosen from a list and a phone must be Kenyan', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInAs(page, 'owner', { open: '/app/settings' });
  const tabs = page.getByRole('tablist', { name: 'Settings sections' });
  await expect(tabs.getByRole('tab', { name: 'Theme & branding' })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await page.getByLabel('Phone', { exact: true }).fill('12345');
  await tabs.getByRole('tab', { name: 'Tax & money' }).click();
  await expect(page.getByLabel('Time zone')).toHaveValue('Africa/Nairobi');
  await page.getByLabel('Time zone').selectOption('Africa/Kampala');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('tab', { name: 'Business (1)' })).toBeVisible();
  await page.getByRole('tab', { name: 'Business (1)' }).click();
  await expect(page.getByText('Phone must be a Kenyan number: +254 or 0, then 7 or 1, then 8 digits (e.g. 0712 345 678).')).toBeVisible();
});
