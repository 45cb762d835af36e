// Seeded users mutated here: a PIN for user@ (harmless to other specs). accounts@ belongs to auth.spec's password reset.
import { expect, test } from '@playwright/test';
import { passwordField, SEEDED_PASSWORD, signInAs } from './helpers';

test('a PIN set in the profile unlocks the session that locked itself after 15 minutes without activity', async ({ page }) => {
  await page.clock.install();
  await signInAs(page, 'user', { open: '/app/profile' });
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

test('when the countdown reaches 0:00 the locked session signs out, and stays signed out', async ({ page }) => {
  await page.clock.install();
  await signInAs(page, 'staff');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  // The jump makes the 30-second poll of /api/me due too. Its answer must be in before the routes below are set:
  // while that request is still in flight, the poll that falls due at 0:00 joins it (the query client asks no
  // second time), no /api/me reaches the route below, and the sign-out waited for it until the test timed out
  // (the test failed now and then on a loaded machine, where the server answers slowly).
  const lockPoll = page.waitForResponse((response) => response.url().endsWith('/api/me'));
  await page.clock.fastForward('15:01');
  const overlay = page.getByRole('dialog', { name: 'Session Locked' });
  await expect(overlay).toBeVisible();
  await (await lockPoll).finished();

  // Jumping five minutes also makes the 30-second poll of /api/me due, so at 0:00 a poll races the sign-out. When
  // the poll was answered while the session still lived and its answer arrived after the sign-out, the browser put
  // the user back (the sign-in page sent them to the dashboard, under a new Session Locked) until a 401 signed them
  // out again: the test failed now and then. Here that order is made certain: the poll is answered by the server
  // first and handed to the page only after the sign-out's answer.
  let polled!: () => void;
  const pollAnswered = new Promise<void>((resolve) => (polled = resolve));
  let delivered!: () => void;
  const pollDelivered = new Promise<void>((resolve) => (delivered = resolve));
  const signedOut = page.waitForResponse((response) => response.url().endsWith('/api/auth/logout'));
  await page.route('**/api/me', async (route) => {
    const response = await route.fetch();
    polled();
    await signedOut;
    await route.fulfill({ response });
    delivered();
  });
  await page.route('**/api/auth/logout', async (route) => {
    await pollAnswered;
    await route.continue();
  });
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });

  await page.clock.fastForward('05:01');
  await expect(page).toHaveURL(/\/login/);
  await pollDelivered;
  // Time for a late answer to take effect (it navigated within a few frames before the fix); nothing is timed.
  await page.waitForTimeout(1000);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await expect(passwordField(page)).toBeVisible();
  expect(visited.filter((path) => path.startsWith('/app'))).toEqual([]);
});
