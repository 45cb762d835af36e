import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/** Issue 3, stock: adjustments, transfers and live updates across browsers. */

interface Branch {
  id: string;
  name: string;
}

async function branches(page: Page): Promise<{ main: Branch; westlands: Branch }> {
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: Branch) => b.name === 'Main Branch');
  const westlands = me.allowedBranches.find((b: Branch) => b.name === 'Westlands Branch');
  return { main, westlands };
}

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** A fresh product with 20 pieces in one batch of the Main Branch (set up through the API the screens use). */
async function productWithStock(page: Page, label: string): Promise<{ id: string; name: string; batch: string }> {
  const { main } = await branches(page);
  const name = unique(label);
  const created = await post(page, '/api/products', { name, category: 'Medicine', sellingPriceCents: 5000, purchasePriceCents: 3000 });
  const batch = unique('B').toUpperCase().slice(0, 20);
  await post(page, `/api/products/${created.product.id}/batches`, { branchId: main.id, batchNumber: batch, expiryDate: '2028-06-30', quantity: 20, unitCostCents: 3000 });
  return { id: created.product.id, name, batch };
}

async function branchQuantity(page: Page, productId: string, branchName: string): Promise<number> {
  const detail = await (await page.request.get(`/api/products/${productId}`)).json();
  return detail.branches.find((b: { branchName: string }) => b.branchName === branchName).quantity;
}

async function chooseProduct(page: Page, name: string): Promise<void> {
  await page.getByLabel('Find product').fill(name);
  const select = page.getByRole('combobox', { name: 'Product', exact: true });
  await expect(select.locator('option', { hasText: name })).toHaveCount(1);
  const value = await select.locator('option', { hasText: name }).getAttribute('value');
  await select.selectOption(value!);
}

test('the owner adjusts stock (change and counted quantity) and sees it in the history and the adjustments list', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const product = await productWithStock(page, 'Paracetamol Syrup 100ml');

  await page.goto(`/app/stock-adjustments?productId=${product.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Stock Adjustments' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Product', exact: true })).toHaveValue(product.id);
  await expect(page.getByTestId('current-stock')).toHaveText('20');

  // Nothing below zero: caught before sending.
  await page.getByLabel('Change (pieces)').fill('-25');
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Test');
  await page.getByRole('button', { name: 'Save Adjustment' }).click();
  await expect(page.getByText('The adjustment would make stock negative. Available: 20.')).toBeVisible();

  await page.getByLabel('Adjustment type').selectOption('damage');
  await page.getByLabel('Batch', { exact: true }).selectOption({ label: `${product.batch} · expires 30 Jun 2028 · 20 pieces` });
  await page.getByLabel('Change (pieces)').fill('-3');
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Broken bottles');
  await expect(page.getByText('Stock after: 17')).toBeVisible();
  await page.getByRole('button', { name: 'Save Adjustment' }).click();
  await expect(page.getByText(`Stock of ${product.name} adjusted by -3`)).toBeVisible();
  await expect(page.getByTestId('current-stock')).toHaveText('17');

  // A stock count: 15 counted on the shelf, the system holds 17, the change is -2.
  await page.getByLabel('Adjustment type').selectOption('count_correction');
  await page.getByLabel('Enter', { exact: true }).selectOption('counted');
  await page.getByLabel('Counted quantity (pieces)').fill('15');
  await expect(page.getByText('Change: -2')).toBeVisible();
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Monthly stock take');
  await page.getByRole('button', { name: 'Save Adjustment' }).click();
  await expect(page.getByText(`Stock of ${product.name} adjusted by -2`)).toBeVisible();
  await expect(page.getByTestId('current-stock')).toHaveText('15');
  expect(await branchQuantity(page, product.id, 'Main Branch')).toBe(15);

  const recent = page.getByRole('table', { name: 'Stock adjustments' });
  await expect(recent.getByRole('row').filter({ hasText: 'Broken bottles' })).toContainText('Damage');
  await expect(recent.getByRole('row').filter({ hasText: 'Monthly stock take' })).toContainText('-2');

  // The history shows both movements, and its filters work.
  await page.goto(`/app/products/history/${product.id}`);
  await expect(page.getByRole('table', { name: 'Stock and prices by branch' }).getByRole('row').filter({ hasText: 'Main Branch' })).toContainText('15');
  const batches = page.getByRole('table', { name: 'Batches' });
  await expect(batches.getByRole('row').filter({ hasText: product.batch })).toContainText('15');
  const movements = page.getByRole('table', { name: 'Stock movements' });
  await expect(movements.getByRole('row').filter({ hasText: 'Adjustment: damage' })).toContainText('-3');
  await expect(movements.getByRole('row').filter({ hasText: 'Adjustment: count correction' })).toContainText('-2');
  await expect(movements.getByRole('row').filter({ hasText: 'Opening stock' })).toContainText('+20');
  await page.getByLabel('Movement type').selectOption('opening');
  await expect(movements.getByRole('row')).toHaveCount(2);
  await expect(movements).toContainText('Opening stock');
  await page.getByLabel('Movement type').selectOption('');
  await page.getByRole('group', { name: 'Movement filters' }).getByLabel('Branch').selectOption({ label: 'Westlands Branch' });
  await expect(page.getByText('No stock movements match these filters')).toBeVisible();

  // The view-adjustments list.
  await page.goto('/app/view-adjustments');
  await expect(page).toHaveURL(/\/app\/reports\/view-adjustments$/);
  await expect(page.getByRole('heading', { level: 1, name: 'View Adjustments' })).toBeVisible();
  await page.getByLabel('Type').selectOption('damage');
  const listed = page.getByRole('table', { name: 'Stock adjustments' }).getByRole('row').filter({ hasText: product.name });
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('Broken bottles');
});

test('a transfer is requested, approved, dispatched, received in two parts; another is cancelled after dispatch', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const product = await productWithStock(page, 'Metformin 500mg Tablets');

  await page.goto('/app/stock-transfers');
  await expect(page.getByRole('heading', { level: 1, name: 'Stock Transfers' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New transfer' });
  await form.getByLabel('From branch').selectOption({ label: 'Main Branch' });
  // The same branch on both sides is refused with the specification's message.
  await form.getByLabel('To branch').selectOption({ label: 'Main Branch' });
  await chooseProduct(page, product.name);
  await form.getByLabel('Batch', { exact: true }).selectOption({ label: `${product.batch} · expires 30 Jun 2028 · 20 pieces` });
  await form.getByRole('textbox', { name: 'Quantity', exact: true }).fill('8');
  await form.getByRole('button', { name: 'Add Item' }).click();
  await expect(form.getByRole('table', { name: 'Products to transfer' })).toContainText(product.name);
  await form.getByRole('button', { name: 'Create Transfer' }).click();
  await expect(form.getByText('Choose a different destination branch.')).toBeVisible();
  await form.getByLabel('To branch').selectOption({ label: 'Westlands Branch' });
  await form.getByRole('button', { name: 'Create Transfer' }).click();
  await expect(page.getByText('Transfer requested')).toBeVisible();

  const row = page.getByRole('table', { name: 'Stock transfers' }).getByRole('row').filter({ hasText: product.name });
  await expect(row).toContainText('Requested');
  await expect(row).toContainText('Main Branch → Westlands Branch');
  await row.getByRole('button', { name: /^Approve / }).click();
  await expect(row).toContainText('Approved');
  await row.getByRole('button', { name: /^Dispatch / }).click();
  await expect(row).toContainText('Dispatched');
  expect(await branchQuantity(page, product.id, 'Main Branch')).toBe(12);

  // Part of it arrives.
  await row.getByRole('button', { name: /^Receive / }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('8 in transit');
  await dialog.getByLabel(`${product.name}, batch ${product.batch}`).fill('5');
  await dialog.getByRole('button', { name: 'Confirm Receipt' }).click();
  await expect(row).toContainText('Partially received');
  expect(await branchQuantity(page, product.id, 'Westlands Branch')).toBe(5);

  // The rest arrives.
  await row.getByRole('button', { name: /^Receive / }).click();
  await expect(dialog.getByLabel(`${product.name}, batch ${product.batch}`)).toHaveValue('3');
  await dialog.getByRole('button', { name: 'Confirm Receipt' }).click();
  await expect(row).toContainText('Received');
  await expect(row.getByRole('button', { name: /^Receive / })).toHaveCount(0);
  expect(await branchQuantity(page, product.id, 'Westlands Branch')).toBe(8);

  // The batch and its expiry travelled with the stock.
  await row.getByRole('button', { name: /^View / }).click();
  await expect(page.getByRole('dialog').getByRole('table', { name: 'Transfer lines' })).toContainText(product.batch);
  await expect(page.getByRole('dialog').getByRole('table', { name: 'Transfer lines' })).toContainText('30 Jun 2028');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await page.goto(`/app/products/history/${product.id}`);
  const westlandsBatch = page.getByRole('table', { name: 'Batches' }).getByRole('row').filter({ hasText: 'Westlands Branch' });
  await expect(westlandsBatch).toContainText(product.batch);
  await expect(westlandsBatch).toContainText('30 Jun 2028');
  await expect(page.getByRole('table', { name: 'Stock movements' }).getByRole('row').filter({ hasText: 'Transfer in' }).first()).toBeVisible();

  // A second transfer, cancelled after dispatch: the stock returns to Main.
  const { main, westlands } = await branches(page);
  await post(page, '/api/stock/transfers', { fromBranchId: main.id, toBranchId: westlands.id, items: [{ productId: product.id, quantity: 4 }] });
  await page.goto('/app/stock-transfers');
  await page.getByLabel('Status').selectOption('requested');
  const second = page.getByRole('table', { name: 'Stock transfers' }).getByRole('row').filter({ hasText: product.name });
  await second.getByRole('button', { name: /^Approve / }).click();
  // The approval answered before the filter changes (a run at load ~4 once showed the transfer still 'Requested' a
  // minute later, its Approve button focused: the click or its answer was lost while the list was being replaced).
  await expect(page.getByText('Transfer approved')).toBeVisible();
  await page.getByLabel('Status').selectOption('');
  const dispatched = page.getByRole('table', { name: 'Stock transfers' }).getByRole('row').filter({ hasText: product.name }).filter({ hasText: 'Approved' });
  await dispatched.getByRole('button', { name: /^Dispatch / }).click();
  const inTransit = page.getByRole('table', { name: 'Stock transfers' }).getByRole('row').filter({ hasText: product.name }).filter({ hasText: 'Dispatched' });
  await expect(inTransit).toBeVisible();
  expect(await branchQuantity(page, product.id, 'Main Branch')).toBe(8);
  await inTransit.getByRole('button', { name: /^Cancel / }).click();
  await expect(page.getByRole('alertdialog').or(page.getByRole('dialog'))).toContainText('return to the source branch');
  await page.getByRole('button', { name: 'Cancel Transfer', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Stock transfers' }).getByRole('row').filter({ hasText: product.name }).filter({ hasText: 'Cancelled' })).toBeVisible();
  expect(await branchQuantity(page, product.id, 'Main Branch')).toBe(12);
});

test('an inventory clerk may create and dispatch transfers but sees no Approve button', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const product = await productWithStock(page, 'Omeprazole 20mg Capsules');
  const { main, westlands } = await branches(page);
  await post(page, '/api/stock/transfers', { fromBranchId: main.id, toBranchId: westlands.id, items: [{ productId: product.id, quantity: 2 }] });
  await page.context().clearCookies();

  await signInAs(page, 'inventory', { open: '/app/stock-transfers' });
  await expect(page.getByRole('form', { name: 'New transfer' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Stock transfers' }).getByRole('row').filter({ hasText: product.name });
  await expect(row).toContainText('Requested');
  await expect(row.getByRole('button', { name: /^Cancel / })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Approve / })).toHaveCount(0);
});

test('a stock change shows at once here and live in another browser, and a failed write is rolled back', async ({ page, browser }) => {
  await signInAs(page, 'owner', { open: false });
  const product = await productWithStock(page, 'Ibuprofen 400mg Tablets');

  // A second browser (its own cookies, its own server-sent events stream) watching the product list.
  const other = await browser.newContext();
  const watcher = await other.newPage();
  await signInAs(watcher, 'owner', { open: `/app/products?q=${encodeURIComponent(product.name)}` });
  const watched = watcher.getByRole('row').filter({ hasText: product.name }).getByTestId('stock-quantity');
  await expect(watched).toHaveText('20');

  await page.goto(`/app/stock-adjustments?productId=${product.id}`);
  await expect(page.getByTestId('current-stock')).toHaveText('20');
  await page.getByLabel('Change (pieces)').fill('-4');
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Sold off the books');
  await page.getByRole('button', { name: 'Save Adjustment' }).click();
  await expect(page.getByTestId('current-stock')).toHaveText('16');
  // The other browser hears it without a reload, well within the 10 seconds.
  await expect(watched).toHaveText('16', { timeout: 5_000 });

  // Another tab of this browser sees the optimistic value at once (BroadcastChannel 'STOCK_UPDATE'); the
  // write fails, so it is rolled back in both tabs.
  const tab = await page.context().newPage();
  await tab.goto(`/app/products?q=${encodeURIComponent(product.name)}`);
  const inTab = tab.getByRole('row').filter({ hasText: product.name }).getByTestId('stock-quantity');
  await expect(inTab).toHaveText('16');
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/stock/adjustments', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await held;
    await route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'CONFLICT', message: 'The stock changed meanwhile.' } }) });
  });
  await page.getByLabel('Change (pieces)').fill('-6');
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Will fail');
  await page.getByRole('button', { name: 'Save Adjustment' }).click();
  await expect(page.getByTestId('current-stock')).toHaveText('10');
  await expect(inTab).toHaveText('10');
  release();
  await expect(page.getByRole('alert').filter({ hasText: 'The stock changed meanwhile.' })).toBeVisible();
  await expect(page.getByTestId('current-stock')).toHaveText('16');
  await expect(inTab).toHaveText('16');
  expect(await branchQuantity(page, product.id, 'Main Branch')).toBe(16);
  await other.close();
});
