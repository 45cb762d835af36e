import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/** Issue 10 items 1-3: purchases, receiving into batches, purchase returns, in the browser against the real server. */

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

async function productByName(page: Page, name: string): Promise<any> {
  const list = await (await page.request.get(`/api/products?q=${encodeURIComponent(name)}&limit=5`)).json();
  const found = list.items.find((p: { name: string }) => p.name === name);
  expect(found, name).toBeTruthy();
  return (await (await page.request.get(`/api/products/${found.id}`)).json()) as any;
}

/** Opens a combobox (by its label), types in its search box and picks the option with this text. */
async function choose(page: Page, label: string, searchLabel: string, text: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('combobox', { name: searchLabel }).fill(text);
  await page.getByRole('option', { name: new RegExp(text) }).first().click();
}

test('a purchase with two items, one a product created from its line, is received into batches; one item goes back to the supplier', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const supplierName = unique('Supplier');
  await post(page, '/api/contacts', { type: 'supplier', name: supplierName, phone: `07${String(Date.now()).slice(-8)}` });
  const existing = unique('Amoxil');
  await post(page, '/api/products', { name: existing, sellingPriceCents: 9000, purchasePriceCents: 6000 });
  const created = unique('Zyrtec');

  await page.goto('/app/purchases/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New Purchase' })).toBeVisible();
  // Nothing chosen: the specification's sentences beside the fields.
  await page.getByRole('button', { name: 'Create Purchase' }).click();
  await expect(page.getByText('Supplier is required')).toBeVisible();

  await choose(page, 'Supplier', 'Search suppliers', supplierName);
  const first = page.getByRole('listitem', { name: 'Item 1' });
  await first.getByRole('combobox', { name: 'Product' }).click();
  await page.getByRole('combobox', { name: 'Search products' }).fill(existing);
  await page.getByRole('option', { name: new RegExp(existing) }).click();
  await first.getByLabel('Quantity').fill('10');
  await first.getByLabel('Purchase price (KSh)').fill('78');
  await first.getByLabel('Selling price (KSh)').fill('120');
  await first.getByLabel('Expiry date').fill('2028-06-30');
  await first.getByLabel('Batch number').fill('AMX-1');
  await first.getByRole('checkbox', { name: 'Apply tax' }).click();

  await page.getByRole('button', { name: 'Add item' }).click();
  const second = page.getByRole('listitem', { name: 'Item 2' });
  await second.getByLabel('Quantity').fill('5');
  await second.getByLabel('Purchase price (KSh)').fill('40');
  await second.getByLabel('Selling price (KSh)').fill('65');
  await second.getByLabel('Expiry date').fill('2037-12-31');
  await second.getByLabel('Batch number').fill('ZYR-1');
  // The product does not exist yet: it is created from the line, without leaving the form.
  await second.getByRole('button', { name: 'New product' }).click();
  const dialog = page.getByRole('dialog', { name: 'New product' });
  await dialog.getByLabel('Product name').fill(created);
  await dialog.getByRole('button', { name: 'Create product' }).click();
  await expect(dialog).toBeHidden();
  await expect(second.getByRole('combobox', { name: 'Product' })).toContainText(created);

  // Totals as typed: 10 x 78.00 + 5 x 40.00 = 980.00; tax 16 % of 780.00 = 124.80.
  await expect(page.getByTestId('purchase-subtotal')).toHaveText('KSh 980.00');
  await expect(page.getByTestId('purchase-tax')).toHaveText('KSh 124.80');
  await expect(page.getByTestId('purchase-total')).toHaveText('KSh 1,104.80');
  await page.getByLabel('Status').selectOption('ordered');
  await page.getByRole('button', { name: 'Create Purchase' }).click();
  await expect(page.getByText('Purchase created successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/purchases\/view/);

  // The list, searched by an item name: Ordered, then received from its detail.
  await page.getByLabel('Search').fill(created);
  const row = page.getByRole('row', { name: new RegExp(supplierName) });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Ordered')).toBeVisible();
  await row.getByRole('button', { name: /^View PO-/ }).click();
  const detail = page.getByRole('dialog', { name: /^Purchase PO-/ });
  await detail.getByRole('button', { name: 'Receive' }).click();
  await detail.getByRole('button', { name: 'Receive into stock' }).click();
  await expect(page.getByText('Items received into stock')).toBeVisible();
  await expect(detail.getByText('Received 15 of 15 pieces')).toBeVisible();
  await detail.getByRole('button', { name: 'Close' }).first().click();
  await expect(row.getByText('Received')).toBeVisible();

  // The product's page: the new batch, the stock and the minimum selling price (78.00 / (1 - 22 %) = 100.00).
  const product = await productByName(page, existing);
  await page.goto(`/app/products/history/${product.product.id}`);
  const branchRow = page.getByRole('table', { name: 'Stock and prices by branch' }).getByRole('row', { name: /Main Branch/ });
  await expect(branchRow.getByRole('cell').first()).toHaveText('10');
  await expect(branchRow).toContainText('KSh 100.00');
  await expect(branchRow).toContainText('KSh 120.00');
  await expect(page.getByRole('table', { name: 'Batches' }).getByRole('row', { name: /AMX-1/ })).toContainText('30 Jun 2028');
  await expect(page.getByRole('table', { name: 'Batches' }).getByRole('row', { name: /AMX-1/ }).getByRole('cell').nth(2)).toHaveText('10');
  const fresh = await productByName(page, created);
  expect(fresh.branches.find((b: { branchName: string }) => b.branchName === 'Main Branch').quantity).toBe(5);

  // Return 2 pieces of the first item to the supplier.
  await page.goto('/app/purchase-returns/create');
  await expect(page.getByRole('heading', { level: 1, name: 'New Purchase Return' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Purchase', exact: true }).click();
  await page.getByRole('combobox', { name: 'Search purchases' }).fill(created);
  await page.getByRole('option', { name: new RegExp(supplierName) }).click();
  await page.getByLabel(existing).fill('2');
  await expect(page.getByText('Value of the return: KSh 180.96')).toBeVisible();
  await page.getByRole('button', { name: 'Record return' }).click();
  await expect(page.getByText('Reason is required')).toBeVisible();
  await page.getByLabel('Reason').fill('Damaged packaging');
  await page.getByRole('button', { name: 'Record return' }).click();
  await expect(page.getByText('Purchase return recorded successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/purchase-returns$/);
  await expect(page.getByRole('row', { name: new RegExp(supplierName) })).toContainText('Damaged packaging');
  const after = await productByName(page, existing);
  expect(after.branches.find((b: { branchName: string }) => b.branchName === 'Main Branch').quantity).toBe(8);

  // Editing the received purchase corrects stock by the difference (5 -> 4 pieces of the new product).
  await page.goto(`/app/purchases/view?q=${encodeURIComponent(created)}`);
  await page.getByRole('row', { name: new RegExp(supplierName) }).getByRole('link', { name: /^Edit PO-/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Edit Purchase PO-/ })).toBeVisible();
  const edited = page.getByRole('listitem', { name: 'Item 2' });
  await expect(edited.getByLabel('Purchase price (KSh)')).toHaveValue('40.00');
  await edited.getByLabel('Quantity').fill('4');
  await page.getByRole('button', { name: 'Update Purchase' }).click();
  await expect(page.getByText('Purchase updated successfully')).toBeVisible();
  await expect.poll(async () => (await productByName(page, created)).branches.find((b: { branchName: string }) => b.branchName === 'Main Branch').quantity).toBe(4);

  // Every purchase screen fits a 360 px phone without sideways scrolling.
  await page.setViewportSize({ width: 360, height: 740 });
  for (const [path, heading] of [
    ['/app/purchases/new', 'New Purchase'],
    ['/app/purchases/view', 'Purchases'],
    ['/app/purchase-returns', 'Purchase Returns'],
    ['/app/purchase-returns/create', 'New Purchase Return'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});
