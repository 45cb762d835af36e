// Seeded users mutated here: a PIN for user@ (harmless to other specs). accounts@ belongs to auth.spec's password reset.
import { expect, test } from '@playwright/test';
import { passwordField, SEEDED_PASSWORD, signInAs } from './helpers';

test('a PIN set in the profile unlocks the session that locked itself after 15 minutes without activity', async ({ page }) => {
  await page.clock.install();
  await signInAs(page, 'user');

  await page.goto('/app/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await page.getByLabel('New PIN').fill('12a');
  await expect(page.getByLabel('New PIN')).toHaveValue('12');
  await page.getByLabel('Current password').fill(SEEDED_PASSWORD);
  await page.getByRole('button', { name: 'Save PIN' }).click();
  await expect(page.getByText('PIN must be at least 4 digits').first()).toBeVisible();
  await page.getByLabel('New PIN').fill('4826');
  await page.getByRole('button', { name: 'Save PIN' }).click();
  await expect(page.getByText('PIN saved')).toBeVisible();

  // Fifteen minutes without a key, mouse or touch: the Session Locked overlay, and the server agrees.
  const locked = page.waitForResponse((r) => r.url().endsWith('/api/auth/lock') && r.ok());
  await page.clock.fastForward('15:01');
  const overlay = page.getByRole('dialog', { name: 'Session Locked' });
  await expect(overlay).toBeVisible();
  await locked;
  expect((await page.request.get('/api/branches')).status()).toBe(423);

  // The auto-logout countdown, as m:ss.
  await expect(overlay.getByText(/Automatic logout in\s*[0-5]:[0-5]\d/)).toBeVisible();

  await overlay.getByRole('button', { name: 'Unlock' }).click();
  await expect(overlay.getByText('Please enter your PIN')).toBeVisible();
  await overlay.getByLabel('PIN', { exact: true }).fill('1111');
  await overlay.getByRole('button', { name: 'Unlock' }).click();
  await expect(overlay.getByText('Incorrect PIN')).toBeVisible();
  await overlay.getByLabel('PIN', { exact: true }).fill('4826');
  await overlay.getByRole('button', { name: 'Unlock' }).click();
  await expect(overlay).toBeHidden();
  expect((await page.request.get('/api/branches')).status()).toBe(200);
});

test('when the countdown reaches 0:00 the locked session signs out', async ({ page }) => {
  await page.clock.install();
  await signInAs(page, 'staff');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.clock.fastForward('15:01');
  const overlay = page.getByRole('dialog', { name: 'Session Locked' });
  await expect(overlay).toBeVisible();
  await page.clock.fastForward('05:01');
  await expect(page).toHaveURL(/\/login/);
  await expect(passwordField(page)).toBeVisible();
});
