import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * The dashboard (decision 0094) against the real server and database: the owner's Sales overview with money figures
 * after a sale, a filter change reflected in the cards, the chart and the address bar; the cashier's welcome page;
 * the demo user's read-only dashboard.
 */

async function post(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page), ...headers } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** 1234.5 shillings as the cards show it: 1,234.50 (the currency symbol before it). */
function amount(cents: number): string {
  return (Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

const card = (page: Page, label: string) => page.getByRole('main').locator('div.rounded-lg', { has: page.getByText(label, { exact: true }) }).last();

test('the owner sees the sales figures after a sale; a filter change moves the cards, the chart and the address bar', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const created = await post(page, '/api/products', { name: unique('Dashboard Tonic'), category: 'Medicine', sellingPriceCents: 25_000, purchasePriceCents: 15_000 });
  await post(page, `/api/products/${created.product.id}/batches`, { branchId: main.id, batchNumber: unique('DB').toUpperCase().slice(0, 20), expiryDate: '2028-06-30', quantity: 10, unitCostCents: 15_000 });
  const id = randomUUID();
  await post(page, '/api/sales', { id, branchId: main.id, lines: [{ productId: created.product.id, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 50_000 }] }, { 'Idempotency-Key': id });
  const today = await (await page.request.get('/api/dashboard/sales?dateFilter=today')).json();
  expect(today.totals.totalRevenue).toBeGreaterThanOrEqual(50_000);

  await page.goto('/app/dashboard');
  await expect(page.getByRole('heading', { name: 'Sales Filters' })).toBeVisible();
  await expect(card(page, 'Total Sales')).toContainText(amount(today.totals.totalRevenue));
  await expect(card(page, 'Purchase Cost')).toContainText(amount(today.totals.totalCost));
  await expect(card(page, 'Total Profit')).toContainText(amount(today.totals.totalProfit));
  await expect(card(page, 'Total Profit')).toContainText(today.totals.status);
  await expect(card(page, 'Profit Margin')).toContainText(`${today.totals.profitMargin.toFixed(1)}%`);
  await expect(page.getByRole('heading', { name: 'Sales: Today' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Sales: Today: KSh/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Profit Analysis' })).toBeVisible();

  // Last 30 Days: the address bar keeps it, the cards and the chart follow the server's figures for it.
  await page.getByLabel('Date Range').selectOption({ label: 'Last 30 Days' });
  await expect(page).toHaveURL(/[?&]dateFilter=last30Days/);
  const month = await (await page.request.get('/api/dashboard/sales?dateFilter=last30Days')).json();
  await expect(card(page, 'Total Sales')).toContainText(amount(month.totals.totalRevenue));
  await expect(page.getByRole('heading', { name: `Sales: ${month.range.label}` })).toBeVisible();
  await expect(page.getByRole('img', { name: new RegExp(`over ${month.series.length} periods`) })).toBeVisible();

  // The view is shareable: a fresh load of the address shows the same filter.
  await page.reload();
  await expect(page.getByLabel('Date Range')).toHaveValue('last30Days');
  await expect(card(page, 'Total Sales')).toContainText(amount(month.totals.totalRevenue));

  // A payment method no sale used: zeros, Break Even in grey.
  await page.getByLabel('Payment Method').selectOption('Insurance');
  await expect(page).toHaveURL(/paymentMethod=Insurance/);
  await expect(card(page, 'Total Profit')).toContainText('Break Even');

  await page.getByRole('button', { name: 'Reset Filters' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByLabel('Date Range')).toHaveValue('today');
});

test('a cashier gets the welcome page, not the sales figures', async ({ page }) => {
  await signInAs(page, 'cashier');
  await expect(page).toHaveURL(/\/app\/dashboard/);
  await expect(page.getByRole('heading', { name: 'Daily Tips' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'System Status' })).toBeVisible();
  await expect(page.getByText('Point of Sale').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sales Filters' })).toHaveCount(0);
  await expect(page.getByText('Total Sales')).toHaveCount(0);
});

test('the demo user sees the read-only dashboard with its figures', async ({ page }) => {
  await signInAs(page, 'demo', { open: '/app/dashboard' });
  await expect(page.getByRole('heading', { name: 'Sales Filters' })).toBeVisible();
  const figures = await (await page.request.get('/api/dashboard/sales?dateFilter=last30Days')).json();
  await page.getByLabel('Date Range').selectOption('last30Days');
  await expect(card(page, 'Total Sales')).toContainText(amount(figures.totals.totalRevenue));
});
