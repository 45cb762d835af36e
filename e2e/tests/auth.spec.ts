import { expect, test } from '@playwright/test';
import { csrfToken, linkFromMailbox, passwordField, signIn, signInAs, SEEDED_PASSWORD, USERS } from './helpers';

test('the Sign In button stays disabled until both email and password are filled', async ({ page }) => {
  await page.goto('/login');
  const button = page.getByRole('button', { name: 'Sign In', exact: true });
  await expect(button).toBeDisabled();
  await page.getByLabel('Email').fill(USERS.owner);
  await expect(button).toBeDisabled();
  await passwordField(page).fill('x');
  await expect(button).toBeEnabled();
  await page.getByLabel('Email').fill('');
  await expect(button).toBeDisabled();
});

test('a wrong password is refused with the specification message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(USERS.manager);
  await passwordField(page).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Invalid email or password. Please check your credentials.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('signing in greets the user and signing out says goodbye', async ({ page }) => {
  await signIn(page, USERS.owner);
  await expect(page.getByText('Welcome back!')).toBeVisible();
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await page.goto('/app/dashboard');
  await expect(page).toHaveURL(/\/login/);
});

test('the original location is remembered and restored after sign-in', async ({ page }) => {
  await page.goto('/app/branches');
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, USERS.owner, SEEDED_PASSWORD, { expectUrl: /\/app\/branches$/ });
  await expect(page.getByRole('heading', { level: 1, name: 'Branches' })).toBeVisible();
});

test('forgot password: the emailed link resets the password and the new one signs in', async ({ page }) => {
  // accounts@ is used by this test only, so changing its password cannot break another test.
  const email = USERS.accounts;
  const newPassword = 'Renewed#2026x';
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password/);
  // The URL changes before the lazy screen replaces the sign-in form (which has an Email field too): wait for the
  // forgot-password form itself, or the address can go into the sign-in form on its way out.
  const send = page.getByRole('button', { name: 'Send Reset Link' });
  await expect(send).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await send.click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();

  const link = await linkFromMailbox(page.request, email, '/reset-password');
  await page.goto(link);
  await passwordField(page, 'Password').fill(newPassword);
  await passwordField(page, 'Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password Updated' })).toBeVisible();

  // The old password no longer works; the new one does.
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await passwordField(page).fill(SEEDED_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Invalid email or password. Please check your credentials.').first()).toBeVisible();
  await signIn(page, email, newPassword);
  await expect(page.getByText('Welcome back!')).toBeVisible();
});

test('a locked session asks for the password and unlocks with it', async ({ page }) => {
  await signInAs(page, 'admin');
  // Test-only shortcut: lock now instead of waiting for 15 minutes of inactivity.
  const response = await page.request.post('/api/auth/lock', { headers: { 'x-csrf-token': await csrfToken(page) }, data: {} });
  expect(response.ok(), await response.text()).toBeTruthy();
  await page.reload();

  const overlay = page.getByRole('dialog', { name: 'Session Locked' });
  await expect(overlay).toBeVisible();
  // Users with a PIN choose the method; the seeded admin has none, so the password is asked for.
  await overlay.getByRole('button', { name: 'Unlock' }).click();
  await expect(overlay.getByText('Please enter your password')).toBeVisible();
  await overlay.getByLabel('Password', { exact: true }).fill(SEEDED_PASSWORD);
  await overlay.getByRole('button', { name: 'Unlock' }).click();
  await expect(overlay).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
});

test('the offline banner shows while the browser is offline', async ({ page, context }) => {
  await signInAs(page, 'staff');
  await expect(page.getByText('You are currently offline')).toHaveCount(0);
  await context.setOffline(true);
  await expect(page.getByText('You are currently offline')).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByText('You are currently offline')).toBeHidden();
});

test('email verification links: a malformed link, a used or unknown code, and no resend while signed out', async ({ page }) => {
  await page.goto('/verify-email?mode=resetPassword&oobCode=abc');
  await expect(page.getByText('Invalid verification link. Please request a new verification email.')).toBeVisible();
  await page.goto('/verify-email?mode=verifyEmail&oobCode=not-a-real-code');
  await expect(page.getByText('This link has expired or already been used.').first()).toBeVisible();
  // Resending is for the signed-in user only (seed 002): a visitor is asked to sign in, and offered no button.
  await expect(page.getByText('Please sign in first to resend verification email.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend Verification Email' })).toHaveCount(0);
  await signInAs(page, 'owner', { open: '/verify-email?mode=verifyEmail&oobCode=not-a-real-code' });
  await expect(page.getByRole('button', { name: 'Resend Verification Email' })).toBeVisible();
});

test('forgot password: an unknown email is told so, and a known one that the link was sent', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill('nobody-here@afyabora.test');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('No account found with this email address.')).toBeVisible();
  await page.getByLabel('Email').fill(USERS.staff);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(`A password reset link has been sent to ${USERS.staff}.`)).toBeVisible();
  await expect(page.getByText(/if an account exists/i)).toHaveCount(0);
});
