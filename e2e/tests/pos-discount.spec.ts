import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * The till says no to a discount above settings.maxDiscount as the cashier types it: the refusal at the discount
 * field, the total shown without the discount, and Complete refusing the same way (nothing sent, no sale).
 */

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

test('a discount above the maximum is refused where it is typed, never applied, and Complete says the same', async ({ page }) => {
  // A manager gives discounts (pos:discount) but may not go above the maximum (no pos:admin).
  await signInAs(page, 'manager', { open: false });
  const { settings } = await (await page.request.get('/api/settings')).json();
  const max = Number(settings.maxDiscount);
  expect(max).toBeLessThan(15);
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const name = unique('Zinc Tablets');
  const created = await post(page, '/api/products', { name, category: 'Medicine', sellingPriceCents: 10_000, purchasePriceCents: 4000 });
  await post(page, `/api/products/${created.product.id}/batches`, {
    branchId: main.id,
    batchNumber: unique('B').toUpperCase().slice(0, 20),
    expiryDate: '2028-06-30',
    quantity: 20,
    unitCostCents: 4000,
  });

  await page.goto('/pos');
  const search = page.getByRole('combobox', { name: 'Search products' });
  await expect(search).toBeFocused();
  await expect(page.locator('[data-catalogue="ready"]')).toHaveCount(1);
  await search.fill(name);
  await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
  await search.press('Enter');
  await expect(page.getByTestId('pos-total')).toHaveText('KSh 100.00');

  const discount = page.getByLabel('Discount', { exact: true });
  const refusal = `The discount cannot be more than ${max} % of the subtotal.`;
  for (const percent of ['15', '50']) {
    await discount.fill(percent);
    await expect(discount).toHaveAttribute('aria-invalid', 'true');
    await expect(discount).toHaveAccessibleDescription(refusal);
    // The total shown stays the one the server would accept.
    await expect(page.getByTestId('pos-total')).toHaveText('KSh 100.00');
  }

  // Complete says the same and sends nothing.
  let posted = false;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sales') posted = true;
  });
  await page.getByRole('button', { name: 'KSh 100.00' }).click();
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  await expect(page.getByRole('region', { name: 'Payment' }).getByRole('alert').filter({ hasText: refusal })).toHaveCount(2);
  await expect(page.getByRole('dialog', { name: 'Sale Receipt' })).toHaveCount(0);
  expect(posted).toBe(false);

  // Within the maximum the discount applies at once and the sale completes with it.
  await discount.fill(String(max));
  await expect(discount).not.toHaveAttribute('aria-invalid', 'true');
  const discounted = 10_000 - Math.round(100 * max);
  const total = `KSh ${(discounted / 100).toFixed(2)}`;
  await expect(page.getByTestId('pos-total')).toHaveText(total);
  await page.getByLabel('Amount paid').fill((discounted / 100).toFixed(2));
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  const receipt = page.getByRole('dialog', { name: 'Sale Receipt' });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByTestId('receipt')).toContainText(total);
});
