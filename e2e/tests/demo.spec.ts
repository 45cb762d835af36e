import { expect, test } from '@playwright/test';
import { linkFromMailbox, unique } from './helpers';

test('a visitor registers for the demo, follows the emailed link and enters the read-only demo dashboard', async ({ page }) => {
  const email = `${unique('visitor')}@example.com`;
  await page.goto('/demo-register');
  await expect(page.getByRole('heading', { level: 1, name: 'Try PharmaPoint Free' })).toBeVisible();

  // The specification's messages, one at a time, cleared by editing.
  await page.getByRole('button', { name: 'Get Demo Access' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
  await page.getByLabel('Full name').fill('Wanjiru Demo');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByLabel('Email address').fill('wanjiru@');
  await page.getByLabel('Phone number').fill('0712 345 678');
  await page.getByRole('button', { name: 'Get Demo Access' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Phone number').fill('0712');
  await page.getByRole('button', { name: 'Get Demo Access' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid phone number');
  await page.getByLabel('Phone number').fill('0712 345 678');
  await page.getByLabel('Pharmacy name').fill('Wanjiru Chemists');
  await page.getByRole('button', { name: 'Get Demo Access' }).click();

  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(`We sent a verification link to ${email}.`)).toBeVisible();

  // The emailed link verifies the address and signs the visitor in; /demo-access follows after 2 s.
  const link = await linkFromMailbox(page.request, email, '/verify-email');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Welcome, Wanjiru Demo!' })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/demo-access$/);
  await expect(page.getByRole('link', { name: 'View Plans & Upgrade' })).toBeVisible();

  await page.getByRole('button', { name: 'Enter Demo' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByText('Demo Mode — you are viewing sample data. Changes are not saved.')).toBeVisible();

  // Registering the same address again points to the demo access page.
  await page.goto('/demo-register');
  await page.getByLabel('Full name').fill('Wanjiru Again');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Phone number').fill('0712 345 678');
  await page.getByRole('button', { name: 'Get Demo Access' }).click();
  await expect(page.getByRole('alert')).toContainText('This email is already registered. Click Already Registered? below to access the demo.');
});

test('a registered visitor signs in on /demo-access with a single-use emailed link', async ({ page }) => {
  const email = `${unique('returning')}@example.com`;
  await page.goto('/demo-register');
  await page.getByLabel('Full name').fill('Otieno Returning');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Phone number').fill('+254 712 345 678');
  await page.getByRole('button', { name: 'Get Demo Access' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();

  await page.goto('/demo-access');
  await expect(page.getByRole('heading', { level: 1, name: 'Access the Demo' })).toBeVisible();
  await page.getByRole('button', { name: 'Send Login Link' }).click();
  await expect(page.getByText('Please enter your email')).toBeVisible();
  await page.getByLabel('Email address').fill('nobody-registered@example.com');
  await page.getByRole('button', { name: 'Send Login Link' }).click();
  await expect(page.getByText('No demo account found with this email. Please register first.')).toBeVisible();

  await page.getByLabel('Email address').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Send Login Link' }).click();
  await expect(page.getByText(`We sent a sign-in link to ${email}.`)).toBeVisible();
  await page.getByRole('button', { name: 'Use Different Email' }).click();
  await expect(page.getByRole('button', { name: 'Send Login Link' })).toBeVisible();

  // The link completes with the email this browser stored, or asks for it (here: storage cleared by Use Different Email).
  const link = await linkFromMailbox(page.request, email, '/demo-access');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Confirm Your Email' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Otieno Returning!' })).toBeVisible();

  // Single use: the same link again fails with the specification's sentence.
  await page.context().clearCookies();
  await page.goto(link);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Failed to sign in. Please try requesting a new link.')).toBeVisible();
});
