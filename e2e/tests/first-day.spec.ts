import { expect, test, type Page } from '@playwright/test';
import { linkFromMailbox, passwordField, signIn, signInAs, unique } from './helpers';

const NEW_PASSWORD = 'FirstDay#2026x';

/** A pharmacy set up by the operator, its owner invited by email: nothing in it yet. Ends signed in as the owner. */
async function freshPharmacy(page: Page): Promise<{ name: string; email: string }> {
  const name = `First Day ${unique('ph').slice(3)}`;
  const email = `${unique('firstday')}@example.com`;
  await signInAs(page, 'operator', { open: '/app/admin/customers/new' });
  await page.getByLabel('Pharmacy name').fill(name);
  await page.getByLabel("Owner's full name").fill('Amina First');
  await page.getByLabel("Owner's email").fill(email);
  await page.getByRole('button', { name: 'Set Up Pharmacy' }).click();
  await expect(page.getByText(`${name} is set up. An invitation was sent to`)).toBeVisible();

  const link = await linkFromMailbox(page.request, email, '/accept-invite');
  await page.context().clearCookies();
  await page.goto(link);
  await passwordField(page, 'Password').fill(NEW_PASSWORD);
  await passwordField(page, 'Confirm Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Activate Account' }).click();
  await expect(page).toHaveURL(/\/(app\/|login)/);
  if (page.url().includes('/login')) await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/app\//);
  return { name, email };
}

test("a new pharmacy's first day: the checklist guides, a product comes with its opening stock, the checklist ticks and is dismissed", async ({ page }) => {
  await freshPharmacy(page);
  await page.goto('/app/dashboard');
  const checklist = page.getByRole('region', { name: 'Getting started' });
  await expect(checklist).toBeVisible();
  await expect(checklist).toContainText('0 of 7 steps done');
  await expect(checklist.getByRole('link', { name: 'Add your products' })).toHaveAttribute('href', '/app/products/add');
  await expect(checklist.getByRole('link', { name: 'Or import them from a CSV file.' })).toHaveAttribute('href', '/app/products/bulk-import');

  // Add Product with the pieces already on the shelf.
  await checklist.getByRole('link', { name: 'Add your products' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add Product' })).toBeVisible();
  const name = `Cetirizine 10mg ${unique('t').slice(2)}`;
  await page.getByLabel('Product name', { exact: false }).fill(name);
  await page.getByLabel('Selling price (KSh), Main Branch').fill('10');
  await page.getByLabel('Purchase price (KSh), Main Branch').fill('4');
  const opening = page.getByRole('region', { name: 'Opening stock' });
  await opening.getByLabel('Quantity (pieces)').fill('24');
  await opening.getByLabel('Batch number').fill('CTZ-01');
  await opening.getByLabel('Expiry date').fill('2030-06-30');
  await opening.getByLabel('Unit cost (KSh)').fill('4');
  await page.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByText(`Product ${name} created`)).toBeVisible();
  await expect(page).toHaveURL(/\/app\/products\/history\//);
  const main = page.getByRole('table', { name: 'Stock and prices by branch' }).getByRole('row').filter({ hasText: 'Main Branch' });
  await expect(main).toContainText('24');
  await expect(main).not.toContainText('Out of stock');

  // The checklist ticked products and opening stock by itself.
  await page.goto('/app/dashboard');
  await expect(checklist).toContainText('2 of 7 steps done');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Add your products' })).toContainText('(done)');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Enter your opening stock' })).toContainText('(done)');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Make your first sale' })).toContainText('(to do)');

  // Dismissed for good: gone now and after a reload.
  await checklist.getByRole('button', { name: 'Dismiss' }).click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Getting started' })).toHaveCount(0);
});
