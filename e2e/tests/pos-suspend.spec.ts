import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * Issue 9 item 7, suspending with reserved stock (decision 0028): suspend at the till, resume from the suspended-sales
 * screen on another page and complete it; suspend and cancel (stock released). Against the real server and database.
 */

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** A fresh product of the Main Branch with 10 pieces, and a fresh registered customer (through the API). */
async function setUp(page: Page, label: string): Promise<{ productId: string; name: string; client: string; branchId: string }> {
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const name = unique(label);
  const created = await post(page, '/api/products', { name, category: 'Medicine', sellingPriceCents: 5000, purchasePriceCents: 3000 });
  await post(page, `/api/products/${created.product.id}/batches`, {
    branchId: main.id,
    batchNumber: unique('B').toUpperCase().slice(0, 20),
    expiryDate: '2028-06-30',
    quantity: 10,
    unitCostCents: 3000,
  });
  const client = unique('Akinyi Odhiambo');
  await post(page, '/api/contacts', { type: 'customer', name: client, phone: '0712345678' });
  return { productId: created.product.id, name, client, branchId: main.id };
}

async function stockOf(page: Page, productId: string): Promise<{ quantity: number; reservedQuantity: number }> {
  const detail = await (await page.request.get(`/api/products/${productId}`)).json();
  const row = detail.branches.find((b: { branchName: string }) => b.branchName === 'Main Branch');
  return { quantity: row.quantity, reservedQuantity: row.reservedQuantity };
}

/** At the till: 3 pieces of the product for the customer, then the Suspend dialog filled and sent. */
async function suspendAtTill(page: Page, name: string, client: string, reason: string): Promise<void> {
  await page.goto('/pos');
  const search = page.getByRole('combobox', { name: 'Search products' });
  await expect(search).toBeFocused();
  await expect(page.getByText('Loading products...')).toHaveCount(0);
  await search.fill(name);
  await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
  await search.press('Enter');
  const qty = page.getByLabel(`Quantity of ${name}`);
  await qty.fill('3');
  await qty.press('Enter');
  await expect(qty).toHaveValue('3');

  // Without a registered customer the till refuses with the specification's sentence.
  await page.getByRole('button', { name: 'Suspend (F10)' }).click();
  await expect(page.getByText('Please select a registered customer before suspending the sale.').first()).toBeVisible();

  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByLabel('Search clients by name or phone').fill(client);
  await page.getByRole('option', { name: new RegExp(client) }).click();
  await expect(page.getByRole('combobox', { name: 'Customer' })).toContainText(client);

  await page.getByRole('button', { name: 'Suspend (F10)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Suspend and reserve stock' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`3 × ${name}`);
  await expect(dialog).toContainText('KSh 150.00');
  await expect(dialog.getByLabel('Payment method')).toHaveValue('Cash');
  await expect(dialog.getByLabel('Payment method').locator('option')).toHaveText(['Cash', 'MPESA', 'Card', 'Bank Transfer', 'Credit']);
  // Not above the total.
  await dialog.getByLabel('Amount paid').fill('200');
  await dialog.getByRole('button', { name: 'Suspend Sale' }).click();
  await expect(dialog.getByText('Amount paid cannot exceed total')).toBeVisible();
  await dialog.getByLabel('Amount paid').fill('50');
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Suspend Sale' }).click();
  await expect(page.getByText('Sale suspended and stock reserved')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByLabel(`Quantity of ${name}`)).toHaveCount(0);
}

function suspendedRow(page: Page, client: string) {
  return page.getByRole('table', { name: 'Suspended sales' }).getByRole('row').filter({ hasText: client });
}

test('suspend at the till with stock reserved, resume on another page, complete: the reserved pieces are sold', async ({ page, context }) => {
  await signInAs(page, 'owner', { open: false });
  const { productId, name, client } = await setUp(page, 'Ventolin Inhaler');
  await suspendAtTill(page, name, client, 'Back after the clinic');
  expect(await stockOf(page, productId)).toEqual({ quantity: 7, reservedQuantity: 3 });

  // Another page (another screen of the pharmacy): the suspended-sales list, filtered by the customer.
  const other = await context.newPage();
  await other.goto('/app/suspended-sales');
  await expect(other.getByRole('heading', { level: 1, name: 'Suspended Sales' })).toBeVisible();
  await other.getByLabel('Customer').selectOption({ label: `${client} (254712345678)` });
  const row = suspendedRow(other, client);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/RES-\d+-[A-Z0-9]+/);
  await expect(row).toContainText('KSh 150.00');
  await expect(row).toContainText('Partial');
  await expect(row).toContainText('Back after the clinic');
  await row.getByRole('button', { name: /^Resume the sale of/ }).click();

  // The till opens with the cart, client, payment method and amount restored.
  await expect(other).toHaveURL(/\/pos$/);
  await expect(other.getByLabel(`Quantity of ${name}`)).toHaveValue('3');
  await expect(other.getByRole('combobox', { name: 'Customer' })).toContainText(client);
  await expect(other.getByLabel('Payment method')).toHaveValue('Cash');
  await other.getByLabel('Amount paid').fill('150');
  await other.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  const receipt = other.getByRole('dialog', { name: 'Sale Receipt' });
  await expect(receipt.getByTestId('receipt')).toContainText(/INV-\d{6}/);
  await receipt.getByRole('button', { name: 'New Sale' }).click();

  // Reserved converted to sold; the suspended sale is gone from the list.
  expect(await stockOf(page, productId)).toEqual({ quantity: 7, reservedQuantity: 0 });
  await page.goto('/app/suspended-sales');
  await expect(page.getByRole('heading', { level: 1, name: 'Suspended Sales' })).toBeVisible();
  await expect(page.getByText('Loading suspended sales...')).toHaveCount(0);
  await expect(suspendedRow(page, client)).toHaveCount(0);
  await other.close();
});

test('suspend, then cancel from the suspended-sales screen: the reserved stock goes back; the screen fits a phone', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const { productId, name, client } = await setUp(page, 'Salbutamol Syrup');
  await suspendAtTill(page, name, client, 'Customer will confirm the dose');
  expect(await stockOf(page, productId)).toEqual({ quantity: 7, reservedQuantity: 3 });

  await page.goto('/app/suspended-sales');
  const row = suspendedRow(page, client);
  await expect(row).toHaveCount(1);
  // The products list shows the reserved pieces.
  await page.goto(`/app/products?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('+3 reserved');

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/app/suspended-sales');
  await expect(row).toHaveCount(1);
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);

  await row.getByRole('button', { name: /^Cancel the sale of/ }).click();
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Cancel this suspended sale?' }));
  await expect(confirm).toContainText('go back to stock');
  await confirm.getByRole('button', { name: 'Cancel sale and release stock' }).click();
  await expect(page.getByText('Suspended sale cancelled and stock released')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(await stockOf(page, productId)).toEqual({ quantity: 10, reservedQuantity: 0 });
});
