import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { expect, test, type Download, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * The expenses report (an expense recorded and voided in the browser), the inventory report, the stock adjustments
 * report and the stock transfers summary with data (the demo pharmacy) and empty (Uzima Chemists, which has little);
 * CSV and Excel downloads read back; the sidebar's short links /expenses and /inventory.
 */

/** The text of one file of a zip (an .xlsx), found through the central directory. */
function zipEntry(zip: Buffer, name: string): string | null {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const entry = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (entry === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  return null;
}

/** Every text of an .xlsx's first sheet (inline strings and shared strings alike), as one string. */
function xlsxText(download: Buffer): string {
  const sheet = zipEntry(download, 'xl/worksheets/sheet1.xml');
  if (sheet === null) throw new Error('the workbook has no first sheet');
  const shared = zipEntry(download, 'xl/sharedStrings.xml') ?? '';
  return `${sheet}\n${shared}`;
}

async function downloaded(page: Page, button: string): Promise<{ file: Download; body: Buffer }> {
  const waiting = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const file = await waiting;
  return { file, body: readFileSync((await file.path())!) };
}

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page), 'idempotency-key': unique('key') } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

test('expenses report: /expenses leads to it; an expense recorded and voided in the browser; CSV and Excel read back', async ({ page }) => {
  // accounts@ belongs to auth.spec's password reset: the manager keeps expenses too (report:financial).
  await signInAs(page, 'manager', { open: '/expenses' });
  await expect(page).toHaveURL(/\/app\/reports\/expenses$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Expenses Report' })).toBeVisible();

  const description = unique('Courier to supplier');
  await page.getByRole('button', { name: 'Record Expense' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record Expense' });
  await dialog.getByLabel('Description').fill(description);
  await dialog.getByLabel('Category').selectOption('Transport - Taxi');
  await dialog.getByLabel('Amount (KSh)').fill('500');
  await dialog.getByLabel('Destination').fill('Industrial Area');
  await dialog.getByLabel('Reason').fill('Collect an urgent order');
  await dialog.getByLabel('Parking').fill('50');
  await expect(dialog.getByText('KSh 550.00')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save Expense' }).click();
  await expect(page.getByText('Expense recorded')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row', { name: new RegExp(description) });
  await expect(row).toContainText('KSh 550.00');
  await expect(row).toContainText('Back office');

  // What the screen lists is what the CSV holds.
  const csv = await downloaded(page, 'Export CSV');
  expect(csv.file.suggestedFilename()).toMatch(/^expenses-.*\.csv$/);
  expect([...csv.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = csv.body.toString('utf8');
  expect(text).toContain('Date,Description,Category,Branch,Payment method,Source,Recorded by,Amount,Voided');
  expect(text).toContain(`${description},Transport - Taxi`);
  expect(text).toContain('550');
  const excel = await downloaded(page, 'Export Excel');
  expect(excel.file.suggestedFilename()).toMatch(/^expenses-.*\.xlsx$/);
  expect(xlsxText(excel.body)).toContain(description);

  // Void it: it stays listed, marked, and leaves the totals.
  const api = await (await page.request.get('/api/reports/expenses')).json();
  await row.getByRole('button', { name: `Void ${description}` }).click();
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Void expense' }));
  await confirm.getByLabel('Reason').fill('Recorded twice');
  await confirm.getByRole('button', { name: 'Void Expense' }).click();
  await expect(page.getByText('Expense voided')).toBeVisible();
  await expect(row).toContainText('Voided');
  await expect(row).toContainText('Recorded twice');
  const after = await (await page.request.get('/api/reports/expenses')).json();
  expect(after.summary.totalCents).toBe(api.summary.totalCents - 55_000);
  await expect(page.getByText(new Intl.NumberFormat('en-KE', { minimumFractionDigits: 2 }).format(after.summary.totalCents / 100)).first()).toBeVisible();
});

test('expenses report: an end before the start is a clear message; a cashier is refused', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/reports/expenses?from=2026-03-10&to=2026-03-01' });
  await expect(page.getByRole('group', { name: 'Filters' }).getByRole('alert')).toHaveText('The end date must be on or after the start date.');
  await expect(page.getByRole('status').filter({ hasText: 'The end date must be on or after the start date.' })).toBeVisible();
  await signInAs(page, 'cashier', { open: '/app/reports/expenses' });
  await expect(page.getByText("You don't have permission to access this page.")).toBeVisible();
});

test('inventory report: /inventory leads to it; values against the API; reorder and expiring views; CSV and Excel read back', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/inventory' });
  await expect(page).toHaveURL(/\/app\/reports\/inventory$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Inventory Report' })).toBeVisible();
  const api = await (await page.request.get('/api/reports/inventory')).json();
  expect(api.totals.lines).toBeGreaterThan(0);
  const money = (cents: number) => `KSh ${new Intl.NumberFormat('en-KE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100)}`;
  await expect(page.getByText(money(api.totals.costValueCents)).first()).toBeVisible();
  await expect(page.getByText(money(api.totals.retailValueCents)).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'By branch' })).toContainText('Main Branch');
  await expect(page.locator('main table').last().locator('tbody tr')).toHaveCount(Math.min(25, api.total));

  const csv = await downloaded(page, 'Export CSV');
  expect([...csv.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.body.subarray(3).toString('utf8').trim().split(/\r?\n/);
  expect(lines[0]).toBe('Product,SKU,Category,Branch,On hand,Value at cost,Value at selling price,Sold in 30 days,Days of stock');
  expect(lines).toHaveLength(1 + Math.min(25, api.total));
  expect(lines[1]).toContain(api.items[0].productName);
  const excel = await downloaded(page, 'Export Excel');
  expect(xlsxText(excel.body)).toContain(api.items[0].productName.replace(/&/g, '&amp;'));

  await page.getByRole('tab', { name: 'Reorder suggestions' }).click();
  await expect(page).toHaveURL(/view=reorder/);
  const reorder = await (await page.request.get('/api/reports/inventory?view=reorder')).json();
  if (reorder.total > 0) await expect(page.getByRole('columnheader', { name: 'Suggested order' })).toBeVisible();
  else await expect(page.getByText('No product is at or below its reorder level.')).toBeVisible();
  await page.getByRole('tab', { name: 'Expiring before sold' }).click();
  await expect(page.getByRole('tabpanel')).toBeVisible();
});

test('stock adjustments report and transfers summary with data', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch').id;
  const other = me.allowedBranches.find((b: { id: string }) => b.id !== main).id;
  const name = unique('Report Balm');
  const product = await post(page, '/api/products', { name, sellingPriceCents: 20_000, purchasePriceCents: 10_000 });
  const productId = product.product.id;
  await post(page, `/api/products/${productId}/batches`, { branchId: main, batchNumber: 'RB-1', expiryDate: '2030-01-01', quantity: 20, unitCostCents: 10_000 });
  await post(page, '/api/stock/adjustments', { branchId: main, reason: 'Dropped carton', items: [{ productId, delta: -2, reasonType: 'damage' }] });
  await post(page, '/api/stock/transfers', { fromBranchId: main, toBranchId: other, items: [{ productId, quantity: 3 }] });

  await page.goto('/app/reports/stock-adjustments');
  await expect(page.getByRole('heading', { level: 1, name: 'Stock Adjustments Report' })).toBeVisible();
  const line = page.getByRole('row', { name: new RegExp(name) });
  await expect(line).toContainText('-2');
  await expect(line).toContainText('Damage');
  await expect(line).toContainText('Dropped carton');
  await expect(page.getByRole('link', { name: 'View adjustments' })).toBeVisible();
  const csv = await downloaded(page, 'Export CSV');
  expect(csv.body.toString('utf8')).toContain(`${name},Main Branch,-2,Damage,Dropped carton`);

  await page.goto('/app/reports/stock-transfers');
  await expect(page.getByRole('heading', { level: 1, name: 'Stock Transfers Summary' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Main Branch/ }).filter({ hasText: 'Requested' }).first()).toBeVisible();
  await page.getByLabel('Status').selectOption('cancelled');
  await expect(page).toHaveURL(/status=cancelled/);
});

test('a pharmacy with little data sees empty reports, never an error', async ({ page }) => {
  await signInAs(page, 'trialOwner', { open: '/app/reports/expenses' });
  await expect(page.getByText('No expenses in this period').first()).toBeVisible();
  await page.goto('/app/reports/inventory');
  await expect(page.getByRole('heading', { level: 1, name: 'Inventory Report' })).toBeVisible();
  await expect(page.getByText(/No active product is stocked|Value at cost/).first()).toBeVisible();
  await page.goto('/app/reports/stock-adjustments');
  await expect(page.getByText('No adjustments in this period')).toBeVisible();
  await page.goto('/app/reports/stock-transfers');
  await expect(page.getByText('No transfers in this period')).toBeVisible();
  await expect(page.getByText(/Could not load/)).toHaveCount(0);
});

test('the four reports fit a 360 px phone without scrolling sideways and have no serious accessibility violations', async ({ page }) => {
  test.setTimeout(180_000);
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  await signInAs(page, 'owner', { open: false });
  const screens = [
    ['/app/reports/expenses', 'Expenses Report'],
    ['/app/reports/inventory', 'Inventory Report'],
    ['/app/reports/stock-adjustments', 'Stock Adjustments Report'],
    ['/app/reports/stock-transfers', 'Stock Transfers Summary'],
  ] as const;
  for (const [path, heading] of screens) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText(/^Loading the /)).toHaveCount(0);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect.soft(serious).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { message: `${path} scrolls sideways at 360 px` })
      .toBeLessThanOrEqual(0);
  }
});
