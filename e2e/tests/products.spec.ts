import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { signInAs, unique } from './helpers';

/** Issue 3, products: the form with live minimum price, edits, the list, CSV export and bulk import. */

test('the owner creates a product, sees the minimum selling price computed, edits its price and finds it in the list', async ({ page }) => {
  const name = unique('Amoxicillin 500mg Capsules');
  const sku = unique('AMX').toUpperCase();
  await signInAs(page, 'owner', { open: '/app/products/add' });
  await expect(page.getByRole('heading', { level: 1, name: 'Add Product' })).toBeVisible();

  await page.getByLabel('Product name').fill(name);
  await page.getByLabel('SKU', { exact: true }).fill(sku);
  await page.getByLabel('Barcodes').fill('6160000000017');
  await page.getByLabel('Category').selectOption('Medicine');
  await page.getByLabel('Package size').fill('100');
  await page.getByLabel('Package type').selectOption('capsules');
  await page.getByLabel('Controlled medicine (DDA)').check();

  // Purchase price 100.00 with the default margin of 22 %: 100 / 0.78 = 128.205... rounded up to 128.21.
  await page.getByLabel('Purchase price (KSh), Main Branch').fill('100');
  await expect(page.getByLabel('Minimum selling price, Main Branch')).toHaveText('KSh 128.21');
  await page.getByLabel('Selling price (KSh), Main Branch').fill('150');
  await expect(page.getByLabel('Margin, Main Branch')).toHaveText('33.33%');
  await expect(page.getByLabel('Markup, Main Branch')).toHaveText('50.00%');
  // A product margin of 25 %: 100 / 0.75 = 133.333... -> 133.34.
  await page.getByLabel('Minimum margin (%)', { exact: true }).fill('25');
  await expect(page.getByLabel('Minimum selling price, Main Branch')).toHaveText('KSh 133.34');
  // Westlands sells it below the minimum: flagged as it is typed.
  await page.getByLabel('Purchase price (KSh), Westlands Branch').fill('100');
  await page.getByLabel('Selling price (KSh), Westlands Branch').fill('120');
  await expect(page.getByText('Below the minimum selling price')).toBeVisible();
  await page.getByLabel('Selling price (KSh), Westlands Branch').fill('140');
  await expect(page.getByText('Below the minimum selling price')).toHaveCount(0);
  await page.getByLabel('Reason for the price change').fill('New product');
  await page.getByRole('button', { name: 'Save Product' }).click();

  await expect(page.getByText(`Product ${name} created`)).toBeVisible();
  await expect(page).toHaveURL(/\/app\/products\/history\//);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const stock = page.getByRole('table', { name: 'Stock and prices by branch' });
  const main = stock.getByRole('row').filter({ hasText: 'Main Branch' });
  await expect(main).toContainText('KSh 150.00');
  await expect(main).toContainText('KSh 133.34');
  await expect(main).toContainText('Out of stock');

  // Edit the price of the Main Branch with a reason: stamped in the price changes.
  await page.getByRole('link', { name: 'Edit Product' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Product' })).toBeVisible();
  await expect(page.getByLabel('Selling price (KSh), Main Branch')).toHaveValue('150.00');
  await page.getByLabel('Selling price (KSh), Main Branch').fill('165.50');
  await expect(page.getByLabel('Margin, Main Branch')).toHaveText('39.58%');
  await page.getByLabel('Reason for the price change').fill('Supplier price increase');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(`Product ${name} updated`)).toBeVisible();
  const changes = page.getByRole('table', { name: 'Price changes' });
  await expect(changes.getByRole('row').filter({ hasText: 'Supplier price increase' })).toContainText('KSh 150.00 → KSh 165.50');
  await expect(changes).toContainText('Grace Wanjiku');

  // The list finds it by SKU, with its price and stock status in the current branch.
  await page.goto('/app/products');
  await page.getByLabel('Search products').fill(sku);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('KSh 165.50');
  await expect(row).toContainText('Out of stock');
  await expect(row).toContainText('DDA');
  await expect(page).toHaveURL(new RegExp(`q=${sku}`));
});

test('the product form shows the checks of the browser and the messages of the server', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/products/add' });
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/products')) posts += 1;
  });
  await page.getByLabel('Selling price (KSh), Main Branch').fill('-5');
  await page.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByText('Some fields need attention before the product can be saved.')).toBeVisible();
  await expect(page.getByLabel('Product name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Selling price (KSh), Main Branch')).toHaveAttribute('aria-invalid', 'true');
  expect(posts).toBe(0);

  // A SKU of the seeded catalogue: the server refuses it with its message.
  // Products made by other tests may have no SKU: take the first that has one.
  const listed = (await (await page.request.get('/api/products', { params: { limit: 100 } })).json()).items as { sku: string | null }[];
  const taken = listed.find((product) => product.sku)!.sku!;
  await page.getByLabel('Product name').fill(unique('Duplicate SKU'));
  await page.getByLabel('SKU', { exact: true }).fill(taken);
  await page.getByLabel('Selling price (KSh), Main Branch').fill('10');
  await page.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'A product with this SKU already exists.' })).toBeVisible();
  expect(posts).toBe(1);
});

test('the list filters by stock status and category, sorts, pages and exports to CSV', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/products' });
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  const table = page.getByRole('table', { name: /Products in Main Branch/ });
  await expect(table).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText(/Showing 1–50 of \d+/);

  await page.getByLabel('Stock status').selectOption('low');
  await expect(page).toHaveURL(/status=low/);
  const statuses = table.getByRole('row').locator('td:nth-child(7)');
  // Every row shown is low (the previous page stays on screen until the filtered one arrives).
  await expect.poll(async () => [...new Set(await statuses.allTextContents())]).toEqual(['Low stock']);

  await page.getByLabel('Stock status').selectOption('');
  await page.getByLabel('Category').selectOption('Equipment');
  await expect(page).toHaveURL(/category=Equipment/);
  await expect(table.getByRole('row').nth(1).locator('td').nth(1)).toHaveText('Equipment');

  // Sort by stock, highest first, from the column header.
  await page.getByRole('button', { name: 'Sort by Stock' }).click();
  await page.getByRole('button', { name: 'Sort by Stock' }).click();
  await expect(page).toHaveURL(/sort=quantity&order=desc|order=desc.*sort=quantity/);
  const quantities = async () => (await table.getByTestId('stock-quantity').allTextContents()).map((q) => Number(q.replace(/,/g, '')));
  await expect.poll(async () => {
    const shown = await quantities();
    return shown.length > 1 && shown.every((q, i) => i === 0 || shown[i - 1]! >= q);
  }).toBe(true);

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^products-.*\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toContain('Name,SKU,Barcodes,Category');
  expect(lines.length).toBeGreaterThan(1);
  // The export keeps the list's filter: every line is Equipment.
  for (const line of lines.slice(1)) expect(line).toContain('Equipment');
});

test('bulk import: template, mapping, preview, a bad row reported with its number, all-or-nothing then valid rows only', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/products/bulk-import' });
  await expect(page.getByRole('heading', { level: 1, name: 'Bulk Import' })).toBeVisible();

  const templatePromise = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download Template' }).click();
  const template = await readFile((await (await templatePromise).path())!, 'utf8');
  expect(template).toMatch(/^Name,SKU,Barcodes,Category/);

  const tag = unique('IMP');
  const good1 = `${tag} Cetirizine 10mg`;
  const good2 = `${tag} Vitamin C 1000mg`;
  const csv = [
    'Product,Code,Group,Price,Cost,Qty,Batch,Expiry',
    `${good1},${tag}-1,Medicine,15.00,8.50,40,CT${tag.slice(-5)},2028-03-31`,
    `${tag} Broken Row,${tag}-2,Medicine,abc,5,10,,`,
    `${good2},${tag}-3,Supplements,25,12,12,VC1,31/12/2027`,
  ].join('\n');
  await page.getByLabel('CSV file').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByText('products.csv: 3 rows')).toBeVisible();

  // Automatic mapping of the file's own headers.
  await expect(page.getByRole('combobox', { name: 'Name', exact: true })).toHaveValue('Product');
  await expect(page.getByLabel('Selling Price (KSh)')).toHaveValue('Price');
  await expect(page.getByLabel('Opening Quantity')).toHaveValue('Qty');
  await expect(page.getByLabel('Category', { exact: true })).toHaveValue('Group');

  const preview = page.getByRole('table', { name: 'Preview of the file' });
  await expect(preview.getByRole('row')).toHaveCount(4);
  await expect(preview.getByRole('row').filter({ hasText: 'Broken Row' })).toContainText('Error');
  const browserErrors = page.getByRole('table', { name: 'Problems found in the file' });
  await expect(browserErrors.getByRole('row').filter({ hasText: 'Row 3' })).toContainText('Selling Price (KSh) must be an amount in KSh');

  // All or nothing: the bad row stops the whole file.
  await page.getByRole('button', { name: 'Import Products' }).click();
  await expect(page.getByText('Nothing was imported: 1 error.')).toBeVisible();
  const rowErrors = page.getByRole('table', { name: 'Row errors' });
  await expect(rowErrors.getByRole('row').filter({ hasText: 'Row 3' })).toContainText('Selling Price (KSh)');
  expect((await (await page.request.get('/api/products', { params: { q: tag } })).json()).total).toBe(0);

  // Valid rows only: the two good rows go in, the bad one is skipped and reported.
  await page.getByLabel('Import mode').selectOption('valid-only');
  await page.getByRole('button', { name: 'Import Products' }).click();
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await expect(page.getByText('2 of 3 rows imported, 1 skipped.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Row errors' }).getByRole('row').filter({ hasText: 'Row 3' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '100');

  await page.goto(`/app/products?q=${encodeURIComponent(tag)}`);
  await expect(page.getByRole('row').filter({ hasText: good1 })).toContainText('40');
  await expect(page.getByRole('row').filter({ hasText: good2 })).toContainText('12');
  await expect(page.getByRole('row').filter({ hasText: 'Broken Row' })).toHaveCount(0);
});

test('a malformed CSV is refused before anything is sent', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/products/bulk-import' });
  await page.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,SKU\n"Unclosed,1\n') });
  await expect(page.getByText(/^The CSV file is malformed: a quoted cell is never closed \(row \d+\)\.$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import Products' })).toHaveCount(0);
});

test('a cashier sees products but no add, edit or import controls', async ({ page }) => {
  await signInAs(page, 'cashier', { open: '/app/products' });
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Products in/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Product' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Bulk Import' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Edit / })).toHaveCount(0);
  // Their history screen has no edit or stock buttons either.
  await page.getByRole('link', { name: /^History of / }).first().click();
  await expect(page.getByRole('table', { name: 'Stock movements' }).or(page.getByText('No stock movements match these filters'))).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit Product' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Receive Stock' })).toHaveCount(0);
});

test('the read-only demo sees the catalogue and its history but no saving controls', async ({ page }) => {
  await signInAs(page, 'demo', { open: '/app/products' });
  await expect(page.getByRole('table', { name: /Products in/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Product' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Edit / })).toHaveCount(0);
  await page.getByRole('link', { name: /^History of / }).first().click();
  await expect(page.getByRole('table', { name: 'Stock and prices by branch' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Adjust Stock' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Receive Stock' })).toHaveCount(0);
  await page.goto('/app/products/add');
  await expect(page.getByText("You don't have permission to access this page.")).toBeVisible();
});

test('at 360 px the product form fits the screen: the per-branch prices wrap instead of scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, 'owner', { open: '/app/products/add' });
  await expect(page.getByRole('heading', { level: 1, name: 'Add Product' })).toBeVisible();
  const price = page.getByLabel('Selling price (KSh), Main Branch');
  await price.scrollIntoViewIfNeeded();
  await expect(price).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expect(page.getByText('Up to 120 characters: 0 / 120')).toBeVisible();
});
