import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCESS_DENIED, signInAs } from './helpers';

/**
 * Issue 3, "expiry alerts across branches" and "stock status per product and branch": the dashboard's stock
 * health per branch, the expiry report and the low stock report, on the seeded demo catalogue (near-expiry,
 * expired and low-stock items in both demo branches). The numbers on screen are checked against the API.
 */

interface SummaryBranch {
  branchId: string;
  branchName: string;
  out: number;
  low: number;
  good: number;
  expiredBatches: number;
  expiredQuantity: number;
  nearExpiryBatches: number;
  nearExpiryQuantity: number;
}

const n = (value: number) => new Intl.NumberFormat('en-GB').format(value);

async function branchSummary(page: Page): Promise<{ expiryAlertDays: number; branches: SummaryBranch[] }> {
  const res = await page.request.get('/api/stock/branch-summary');
  expect(res.status()).toBe(200);
  return res.json();
}

function branchCard(page: Page, branchName: string): Locator {
  return page.locator('section[data-branch-id]').filter({ has: page.getByRole('heading', { level: 3, name: branchName, exact: true }) });
}

/** The body rows of the report table, and the cell texts of one column (1-based). */
function rows(page: Page): Locator {
  return page.locator('main table tbody tr');
}
async function column(page: Page, index: number): Promise<string[]> {
  return rows(page).locator(`td:nth-child(${index})`).allInnerTexts();
}

test('the owner sees stock health per branch on the dashboard, with numbers that lead to the reports', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/dashboard' });
  await expect(page.getByRole('heading', { level: 2, name: 'Stock health' })).toBeVisible();
  const summary = await branchSummary(page);
  // Other specs may add branches to the shared demo pharmacy; the two seeded ones are always there.
  expect(summary.branches.map((b) => b.branchName)).toEqual(expect.arrayContaining(['Main Branch', 'Westlands Branch']));
  const seeded = summary.branches.filter((b) => b.branchName === 'Main Branch' || b.branchName === 'Westlands Branch');
  for (const branch of seeded) {
    // The seeded catalogue has expired, near-expiry and low-stock items in both branches.
    expect(branch.expiredBatches).toBeGreaterThan(0);
    expect(branch.nearExpiryBatches).toBeGreaterThan(0);
    expect(branch.low + branch.out).toBeGreaterThan(0);
    const card = branchCard(page, branch.branchName);
    const chart = card.getByRole('img');
    await expect(chart).toHaveAttribute(
      'aria-label',
      `${branch.branchName}: ${n(branch.out)} products out of stock, ${n(branch.low)} low on stock, ${n(branch.good)} in good stock (of ${n(branch.out + branch.low + branch.good)} active products)`,
    );
    await expect(card.getByText(`${n(branch.expiredBatches)} expired batch${branch.expiredBatches === 1 ? '' : 'es'} (${n(branch.expiredQuantity)} pieces).`)).toBeVisible();
    await expect(
      card.getByText(`${n(branch.nearExpiryBatches)} batch${branch.nearExpiryBatches === 1 ? '' : 'es'} expiring within ${summary.expiryAlertDays} days (${n(branch.nearExpiryQuantity)} pieces).`),
    ).toBeVisible();
  }
  // The sales overview is there too.
  await expect(page.getByRole('heading', { name: 'Sales Filters' })).toBeVisible();

  // Main Branch's expired batches open the expiry report for that branch, expired only.
  const main = seeded.find((b) => b.branchName === 'Main Branch')!;
  await branchCard(page, 'Main Branch').getByRole('link', { name: 'View expired batches' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/reports/expiry\\?branchId=${main.branchId}&days=0`));
  await expect(page.getByRole('heading', { level: 1, name: 'Expiry Report' })).toBeVisible();
  await expect(page.getByRole('main').getByLabel('Branch')).toHaveValue(main.branchId);
  await expect(page.getByLabel('Window')).toHaveValue('0');
  await expect(rows(page)).toHaveCount(Math.min(25, main.expiredBatches));
  expect(new Set(await column(page, 2))).toEqual(new Set(['Main Branch']));
  for (const text of await column(page, 5)) expect(text).toMatch(/^Expired \d+ days? ago$/);
  await expect(page.getByText(`of ${n(main.expiredBatches)}`)).toBeVisible();

  // Westlands' low and out counts open the low stock report.
  await page.goto('/app/dashboard');
  const west = seeded.find((b) => b.branchName === 'Westlands Branch')!;
  const status = west.out > 0 ? 'out' : 'low';
  const count = west.out > 0 ? west.out : west.low;
  await branchCard(page, 'Westlands Branch')
    .getByRole('link', { name: new RegExp(`^${n(count)} products? ${status === 'out' ? 'out of stock' : 'low on stock'} in Westlands Branch`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/app/reports/low-stock\\?branchId=${west.branchId}&status=${status}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Low Stock Report' })).toBeVisible();
  await expect(rows(page)).toHaveCount(Math.min(25, count));
  expect(new Set(await column(page, 2))).toEqual(new Set(['Westlands Branch']));
  expect(new Set(await column(page, 3))).toEqual(new Set([status === 'out' ? 'Out of stock' : 'Low stock']));
});

test('the expiry report lists expired and expiring batches across branches, sorted by expiry, filtered by branch and window', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const summary = await branchSummary(page);
  await page.goto('/app/reports/expiry');
  await expect(page.getByRole('heading', { level: 1, name: 'Expiry Report' })).toBeVisible();
  await expect(page.getByLabel('Window')).toHaveValue(String(summary.expiryAlertDays));
  await expect(page.getByLabel('Window').locator('option:checked')).toHaveText(`Expired or within ${summary.expiryAlertDays} days (default)`);
  const expired = summary.branches.reduce((s, b) => s + b.expiredBatches, 0);
  const near = summary.branches.reduce((s, b) => s + b.nearExpiryBatches, 0);
  await expect(page.getByText(`of ${n(expired + near)}`)).toBeVisible();
  await expect(page.getByText('Expired batches', { exact: true }).locator('..').locator('..')).toContainText(n(expired));

  const table = page.getByRole('table', { name: /Batches that are expired or expire within/ });
  await expect(table.getByRole('columnheader')).toHaveText(['Product', 'Branch', 'Batch', 'Expiry date', 'Days left', 'Quantity', 'Value at cost']);
  await expect(rows(page)).toHaveCount(Math.min(25, expired + near));
  const dates = await rows(page).locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
  expect(dates).toEqual([...dates].sort());
  // Both branches appear across the report's pages; the first page starts with the expired ones.
  expect(await rows(page).first().locator('td:nth-child(5)').innerText()).toMatch(/^Expired/);
  for (const value of await column(page, 7)) expect(value).toMatch(/^KSh [\d,]+\.\d{2}$/);

  // Only Westlands, expiring within 7 days or expired.
  const west = summary.branches.find((b) => b.branchName === 'Westlands Branch')!;
  await page.getByRole('main').getByLabel('Branch').selectOption({ label: 'Westlands Branch' });
  await expect(page).toHaveURL(new RegExp(`branchId=${west.branchId}`));
  await page.getByLabel('Window').selectOption('7');
  await expect(page).toHaveURL(/days=7/);
  await expect(page.getByLabel('Window').locator('option:checked')).toHaveText('Expired or within 7 days');
  await expect(page.getByRole('table', { name: 'Batches that are expired or expire within 7 days' })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  expect(new Set(await column(page, 2))).toEqual(new Set(['Westlands Branch']));
  for (const text of await column(page, 5)) expect(text).toMatch(/^(Expired \d+ days? ago|Expires today|[1-7] days?)$/);

  // Paging: the next page continues the order.
  await page.getByRole('main').getByLabel('Branch').selectOption('');
  await page.getByLabel('Window').selectOption('365');
  await expect(page).toHaveURL(/days=365/);
  await expect(page.getByRole('table', { name: 'Batches that are expired or expire within 365 days' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('Page 1 of');
  const lastOnFirstPage = await rows(page).last().locator('time').getAttribute('datetime');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('Page 2 of');
  const firstOnSecondPage = await rows(page).first().locator('time').getAttribute('datetime');
  expect(firstOnSecondPage! >= lastOnFirstPage!).toBe(true);
});

test('the low stock report lists out and low products per branch with threshold and reorder level', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const summary = await branchSummary(page);
  await page.goto('/app/reports/low-stock');
  await expect(page.getByRole('heading', { level: 1, name: 'Low Stock Report' })).toBeVisible();
  await expect(page.getByRole('table', { name: /at or below their low-stock threshold/ }).getByRole('columnheader')).toHaveText([
    'Product',
    'Branch',
    'Status',
    'Quantity',
    'Threshold',
    'Reorder level',
  ]);

  // Low only, in Main Branch: every row is at or below its threshold and above 0.
  // Other specs add branches to the shared demo pharmacy meanwhile: count within Main Branch only.
  const main = summary.branches.find((b) => b.branchName === 'Main Branch')!;
  await page.getByRole('main').getByLabel('Branch').selectOption({ label: 'Main Branch' });
  await expect(page.getByText(`of ${n(main.out + main.low)}`)).toBeVisible();
  await page.getByLabel('Status').selectOption({ label: 'Low stock' });
  await expect(page).toHaveURL(/status=low/);
  await expect(page.getByText(`of ${n(main.low)}`)).toBeVisible();
  await expect(rows(page)).toHaveCount(Math.min(25, main.low));
  const quantities = (await column(page, 4)).map((t) => Number(t.replace(/,/g, '')));
  const thresholds = (await column(page, 5)).map((t) => Number(t.replace(/,/g, '')));
  quantities.forEach((q, i) => {
    expect(q).toBeGreaterThan(0);
    expect(q).toBeLessThanOrEqual(thresholds[i]!);
  });
  expect(new Set(await column(page, 2))).toEqual(new Set(['Main Branch']));
  expect(new Set(await column(page, 3))).toEqual(new Set(['Low stock']));
});

test('a cashier sees the stock health of Main Branch only, without report links, and no reports', async ({ page }) => {
  await signInAs(page, 'cashier', { open: '/app/dashboard' });
  await expect(page.getByRole('heading', { level: 2, name: 'Stock health' })).toBeVisible();
  await expect(branchCard(page, 'Main Branch').getByRole('img')).toHaveAttribute('aria-label', /^Main Branch: \d+ products out of stock/);
  await expect(page.getByRole('heading', { level: 3, name: 'Westlands Branch' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Expiry report|View expired batches|View expiring batches/ })).toHaveCount(0);
  const summary = await branchSummary(page);
  expect(summary.branches.map((b) => b.branchName)).toEqual(['Main Branch']);
  expect((await page.request.get('/api/stock/expiring')).status()).toBe(403);
  expect((await page.request.get('/api/stock/low-stock')).status()).toBe(403);
  await page.goto('/app/reports/expiry');
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  await page.goto('/app/reports/low-stock');
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
});

test.describe('the product list on small and mid-size screens', () => {
  test('on a phone the secondary filters sit behind a Filters button and the actions column is reachable', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(page, 'owner', { open: '/app/products' });
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await expect(page.getByLabel('Search products')).toBeVisible();
    await expect(page.getByLabel('Sort by')).toBeHidden();
    await expect(page.getByLabel('Rows per page')).toBeHidden();
    // The table scrolls inside its card: the page itself does not scroll sideways, the Edit link scrolls into view.
    await expect(page.locator('main table tbody tr').first()).toBeVisible();
    const edit = page.getByRole('link', { name: /^Edit / }).first();
    await edit.scrollIntoViewIfNeeded();
    await expect(edit).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const toggle = page.getByRole('button', { name: 'Filters' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByLabel('Sort by')).toBeVisible();
    await page.getByLabel('Order').selectOption('desc');
    await expect(page.getByRole('button', { name: /^Filters \(1 changed\)$/ })).toBeVisible();
  });

  test('at 1280 px every filter shows and the History and Edit actions are visible', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAs(page, 'owner', { open: '/app/products' });
    await expect(page.getByLabel('Sort by')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Filters' })).toBeHidden();
    // Without any sideways scrolling, the first row's actions are on screen (the column stays in view).
    const edit = page.getByRole('link', { name: /^Edit / }).first();
    const history = page.getByRole('link', { name: /^History of / }).first();
    await expect(edit).toBeInViewport();
    await expect(history).toBeInViewport();
    // When long names make the table wider than its card, it scrolls inside the card and the actions stay in view.
    await page.locator('main table').evaluate((table) => table.parentElement!.scrollBy({ left: 10_000 }));
    await expect(edit).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  });
});
