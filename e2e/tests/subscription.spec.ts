import { expect, test } from '@playwright/test';
import { signInAs, unique } from './helpers';

test('the trial owner sees the trial, its limits and the standard plan', async ({ page }) => {
  await signInAs(page, 'trialOwner', { open: '/app/subscription' });
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription' })).toBeVisible();
  await expect(page.getByText(/^Trial expires in \d+ days$/).first()).toBeVisible();
  await expect(page.getByText('Free trial')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Branches' })).toBeVisible();
  await expect(page.getByText('1 / 1').first()).toBeVisible();
  await expect(page.getByText(/^\d+ \/ 50$/).first()).toBeVisible();
  await expect(page.getByText('KSh 30,000', { exact: true })).toBeVisible();
  await expect(page.getByText('KSh 3,500', { exact: true })).toBeVisible();
  await expect(page.getByText('Priority support')).toBeVisible();
  // Paying by M-Pesa from this screen (checkout.spec.ts pays hosting end to end): Pay waits for a valid number.
  await expect(page.getByRole('button', { name: 'Buy the licence: KSh 30,000.00' })).toBeDisabled();
});

test('the trial plan allows one branch: a second one is refused with the limit message', async ({ page }) => {
  await signInAs(page, 'trialOwner', { open: '/app/branches' });
  await page.getByRole('button', { name: 'Add branch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add branch' });
  await dialog.getByLabel('Branch name').fill(unique('Thika'));
  await dialog.getByRole('button', { name: 'Save Branch' }).click();
  await expect(dialog.getByText('Limit exceeded. Plan allows 1, current usage: 1')).toBeVisible();
});

test("tenant isolation: the trial owner sees only Uzima Chemists' branches and staff", async ({ page }) => {
  await signInAs(page, 'trialOwner', { open: '/app/branches' });
  const table = page.getByRole('table', { name: 'Branches of the pharmacy' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).not.toContainText('Westlands Branch');
  await page.goto('/app/users');
  await expect(page.getByRole('row', { name: /owner@uzimachemists\.test/ })).toBeVisible();
  await expect(page.getByRole('table')).not.toContainText('afyabora.test');
});

test('the standard plan owner sees active hosting and unlimited usage; the hosting anchor exists', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/subscription#hosting-payment' });
  await expect(page.getByText(/^Active - Hosting (until \d{2}\/\d{2}\/\d{4}|expires in \d+ days)$/)).toBeVisible();
  await expect(page.getByText('Standard', { exact: true })).toBeVisible();
  await expect(page.getByText('Unlimited').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Hosting payment' })).toBeInViewport();
  await page.goto('/app/upgrade');
  await expect(page.getByRole('heading', { level: 1, name: 'Upgrade' })).toBeVisible();
});

test('the subscription screen shows its fallback text when the request fails', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  await page.route('**/api/subscription', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"INTERNAL","message":"boom","details":null}}' }));
  await page.goto('/app/subscription');
  await expect(page.getByText(/Subscription information is not available right now/)).toBeVisible();
  await expect(page.getByText('KSh 30,000', { exact: true })).toBeVisible();
});
