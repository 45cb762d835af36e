import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * The sales report (/app/reports/sales) against the real server and database: a sale made through the API shows in
 * the report; a filter change is kept in the address bar; a table's CSV and the whole report's Excel workbook hold
 * what the screen shows; a pharmacy without sales sees the empty state.
 */

async function post(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page), ...headers } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** The files of a .xlsx (a zip), read with node's zlib: name -> text. */
function unzip(buffer: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  // The end of central directory record: its signature, then the directory's size and offset.
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = buffer.readUInt16LE(at + 10);
    const compressed = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(dataAt, dataAt + compressed);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

test('the report shows a sale made today; filters stay in the address bar; CSV and Excel hold what is shown', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const name = unique('Report Balm');
  const created = await post(page, '/api/products', { name, category: 'Medicine', sellingPriceCents: 5000, purchasePriceCents: 3000 });
  const productId = created.product.id as string;
  await post(page, `/api/products/${productId}/batches`, { branchId: main.id, batchNumber: unique('RB').toUpperCase().slice(0, 20), expiryDate: '2028-06-30', quantity: 10, unitCostCents: 3000 });
  const id = randomUUID();
  await post(page, '/api/sales', { id, branchId: main.id, lines: [{ productId, quantity: 3 }], payments: [{ method: 'Cash', amountCents: 15_000 }] }, { 'Idempotency-Key': id });

  await page.goto('/app/reports/sales?dateFilter=today');
  await expect(page.getByRole('heading', { level: 1, name: 'Sales Report' })).toBeVisible();
  await expect(page.getByText('Net Revenue', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'VAT summary by tax type' })).toBeVisible();

  // The product's row: 3 pieces, KSh 150.00 revenue, KSh 90.00 cost, KSh 60.00 profit, 40.0 % margin.
  await page.getByLabel('Search products').fill(name);
  await expect(page).toHaveURL(/[?&]q=/);
  const products = page.getByRole('table', { name: 'Sales by product' });
  await expect(products.getByRole('row')).toHaveCount(2);
  const row = products.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('KSh 150.00');
  await expect(row).toContainText('KSh 90.00');
  await expect(row).toContainText('KSh 60.00');
  await expect(row).toContainText('40.0%');

  // A filter change is kept in the address bar (and survives a reload).
  await page.getByLabel('Group by').selectOption('week');
  await expect(page).toHaveURL(/[?&]groupBy=week/);
  await page.getByLabel('Date range').selectOption('thisMonth');
  await expect(page).toHaveURL(/[?&]dateFilter=thisMonth/);
  await page.reload();
  await expect(page.getByLabel('Date range')).toHaveValue('thisMonth');
  await expect(page.getByLabel('Group by')).toHaveValue('week');
  await expect(page.getByLabel('Search products')).toHaveValue(name);
  await expect(products.getByRole('row', { name: new RegExp(name) })).toContainText('KSh 150.00');

  // The CSV of the products table: exactly its header and its one row.
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Sales by product as CSV' }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toMatch(/^sales-report-.*-by-product-page-1\.csv$/);
  const csv = readFileSync(await csvFile.path(), 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv.slice(1).trim().split(/\r?\n/);
  expect(lines[0]).toBe('Product,SKU,Category,Qty sold,Net revenue,Cost,Gross profit,Margin,Discounts,Returns,Tax');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(new RegExp(`^${name},.*,Medicine,3,150,90,60,40,0,0,0$`));

  // The Excel workbook: a sheet per table, the product among the cells.
  const xlsxDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Excel' }).click();
  const xlsxFile = await xlsxDownload;
  expect(xlsxFile.suggestedFilename()).toMatch(/^sales-report-.*\.xlsx$/);
  const files = unzip(readFileSync(await xlsxFile.path()));
  const workbook = files.get('xl/workbook.xml') ?? '';
  for (const sheet of ['Sales by period', 'VAT summary by tax type', 'Top sellers', 'Sales by product', 'Sales by category', 'Sales by hour of day', 'Slow movers']) {
    expect(workbook).toContain(`name="${sheet}"`);
  }
  const cells = [...files.entries()].filter(([file]) => file.startsWith('xl/')).map(([, text]) => text).join('\n');
  expect(cells).toContain(name);
  expect(cells).toContain('Net revenue');

  // The PDF, built in the browser.
  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF' }).click();
  const pdfFile = await pdfDownload;
  expect(pdfFile.suggestedFilename()).toMatch(/^sales-report-.*\.pdf$/);
  expect(readFileSync(await pdfFile.path()).subarray(0, 5).toString()).toBe('%PDF-');
});

test('a pharmacy without sales sees the empty state, not an error', async ({ page }) => {
  await signInAs(page, 'trialOwner', { open: '/app/reports/sales?dateFilter=last3Months' });
  await expect(page.getByRole('heading', { level: 1, name: 'Sales Report' })).toBeVisible();
  await expect(page.getByText('No sales in this period')).toBeVisible();
  await expect(page.getByText('Error Loading Sales Data')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Slow movers' })).toBeVisible();
});

test('a custom range ending before it starts is refused with a clear message', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/reports/sales?dateFilter=custom&startDate=2026-03-10&endDate=2026-03-01' });
  await expect(page.getByText('The end date must be on or after the start date.')).toBeVisible();
});

test('the report fits a 360 px phone without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, 'owner', { open: '/app/reports/sales?dateFilter=last30Days' });
  await expect(page.getByRole('heading', { level: 1, name: 'Sales Report' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Slow movers' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});

test('a failed load shows Error Loading Sales Data, and Try Again loads the report', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  // The server fails (the browser retries a 5xx twice by itself) until the error is on screen.
  let failing = true;
  await page.route(/\/api\/reports\/sales\?/, async (route) => {
    if (failing) await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is busy.' } }) });
    else await route.continue();
  });
  await page.goto('/app/reports/sales?dateFilter=last30Days');
  await expect(page.getByRole('alert').filter({ hasText: 'Error Loading Sales Data' })).toBeVisible({ timeout: 20_000 });
  failing = false;
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByText('Net Revenue', { exact: true })).toBeVisible();
  await expect(page.getByText('Error Loading Sales Data')).toHaveCount(0);
});
