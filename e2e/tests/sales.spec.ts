import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * Issue 10 items 7-10, the back office's sales, against the real server and database: refund part of a sale and see
 * the stock and the sale's status change (and the all-sales list filtered by invoice number); record a credit sale's
 * later payment; download invoices as PDF.
 */

async function post(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page), ...headers } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** A fresh product of the Main Branch with 10 pieces at 50.00 (through the API). */
async function product(page: Page, label: string): Promise<{ productId: string; name: string; branchId: string }> {
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const name = unique(label);
  const created = await post(page, '/api/products', { name, category: 'Medicine', sellingPriceCents: 5000, purchasePriceCents: 3000 });
  await post(page, `/api/products/${created.product.id}/batches`, { branchId: main.id, batchNumber: unique('B').toUpperCase().slice(0, 20), expiryDate: '2028-06-30', quantity: 10, unitCostCents: 3000 });
  return { productId: created.product.id, name, branchId: main.id };
}

async function sell(page: Page, body: Record<string, unknown>): Promise<{ id: string; invoiceNumber: string }> {
  const id = randomUUID();
  return post(page, '/api/sales', { id, ...body }, { 'Idempotency-Key': id });
}

async function stockOf(page: Page, productId: string): Promise<number> {
  const detail = await (await page.request.get(`/api/products/${productId}`)).json();
  return detail.branches.find((b: { branchName: string }) => b.branchName === 'Main Branch').quantity;
}

test('refund part of a sale: the pieces go back to stock, the sale becomes partially returned, and All Sales shows it', async ({ page }) => {
  await signInAs(page, 'manager', { open: false });
  const { productId, name, branchId } = await product(page, 'Returned Syrup');
  const sale = await sell(page, { branchId, lines: [{ productId, quantity: 4 }], payments: [{ method: 'Cash', amountCents: 20_000 }] });
  expect(await stockOf(page, productId)).toBe(6);

  await page.goto('/app/sales/returns');
  await expect(page.getByRole('heading', { level: 1, name: 'Sales Returns' })).toBeVisible();
  await page.getByLabel('Invoice number').fill(sale.invoiceNumber);
  await page.getByRole('button', { name: 'Find sale' }).click();
  await page.getByRole('button', { name: `Choose sale ${sale.invoiceNumber}` }).click();
  await expect(page.getByRole('heading', { name: `Sale ${sale.invoiceNumber}` })).toBeVisible();
  await expect(page.getByText('Sold 4, returned 0, can return 4')).toBeVisible();

  // More than was sold is refused beside the field, nothing sent.
  const quantity = page.getByLabel(`Quantity to return of ${name}`);
  await quantity.fill('5');
  await page.getByRole('button', { name: 'Record return' }).click();
  await expect(page.getByText('At most 4 pieces can be returned.')).toBeVisible();

  await quantity.fill('2');
  await page.getByLabel(`Condition of ${name}`).selectOption('restock');
  await page.getByLabel('Refund method').selectOption('Cash');
  await page.getByLabel('Reason').fill('Wrong flavour');
  await expect(page.getByText('Refund: KSh 100.00.')).toBeVisible();
  await page.getByRole('button', { name: 'Record return' }).click();
  await expect(page.getByText(/Return RET-\d{6} saved: refund KSh 100\.00\. The sale is now Partially returned\./)).toBeVisible();
  await expect(page.getByText('Sold 4, returned 2, can return 2')).toBeVisible();
  await expect.poll(() => stockOf(page, productId)).toBe(8);

  // All Sales, filtered by the invoice number: the sale with its new status and refund; its detail lists the return.
  await page.getByRole('link', { name: 'All Sales' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'All Sales' })).toBeVisible();
  await page.getByLabel('Invoice number').fill(sale.invoiceNumber);
  const row = page.locator(`tr[data-invoice="${sale.invoiceNumber}"]`);
  await expect(row).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(row.getByText('Partially returned')).toBeVisible();
  await expect(row.getByText('Refunded KSh 100.00')).toBeVisible();
  // The cashier filter offers the cashiers of the range: the manager who sold it keeps it in the list.
  await page.getByLabel('Cashier', { exact: true }).selectOption({ label: 'Mary Achieng' });
  await expect(row).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('voided');
  await expect(page.getByText('No sale matches these filters.')).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('partially_returned');
  await row.getByRole('button', { name: `Open sale ${sale.invoiceNumber}` }).click();
  const dialog = page.getByRole('dialog', { name: `Sale ${sale.invoiceNumber}` });
  await expect(dialog.getByText(`${name} × 2 (Back to stock)`)).toBeVisible();
  await expect(dialog.getByText('KSh 100.00 paid out by Cash')).toBeVisible();
});

test("record a credit sale's later payment: allocated to the oldest invoice, the customer owes less", async ({ page }) => {
  await signInAs(page, 'manager', { open: false });
  const { productId, branchId } = await product(page, 'Credit Tablets');
  const client = unique('Wanjiru Kamau');
  const contact = await post(page, '/api/contacts', { type: 'customer', name: client, phone: '0712345678' });
  await sell(page, { branchId, clientId: contact.id, lines: [{ productId, quantity: 1 }], payments: [{ method: 'Credit', amountCents: 0 }] });

  await page.goto('/app/sales/payment-summary');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Summary' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(client) });
  await expect(row).toContainText('KSh 50.00');
  await row.getByRole('button', { name: `Record a payment from ${client}` }).click();
  const dialog = page.getByRole('dialog', { name: `Payment from ${client}` });
  await dialog.getByLabel('Amount (KSh)').fill('80');
  await dialog.getByRole('button', { name: 'Save payment' }).click();
  await expect(dialog.getByText('The amount cannot be more than what is owed (KSh 50.00).')).toBeVisible();
  await dialog.getByLabel('Amount (KSh)').fill('30');
  await dialog.getByLabel('Payment method').selectOption('MPESA');
  await dialog.getByLabel('Reference').fill('QK7H2ABC9');
  await dialog.getByRole('button', { name: 'Save payment' }).click();
  await expect(page.getByText(`Payment of KSh 30.00 from ${client} saved (allocated to 1 invoice). Still owed: KSh 20.00.`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(client) })).toContainText('KSh 20.00');
});

test('download invoices as PDF: one sale, then two at once', async ({ page }) => {
  await signInAs(page, 'manager', { open: false });
  const { productId, branchId } = await product(page, 'Invoice Cream');
  const first = await sell(page, { branchId, lines: [{ productId, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 5000 }] });
  const second = await sell(page, { branchId, lines: [{ productId, quantity: 2 }], payments: [{ method: 'MPESA', amountCents: 10_000, reference: 'QWE' }] });

  await page.goto('/app/sales/documents');
  await expect(page.getByRole('heading', { level: 1, name: 'Sales Documents' })).toBeVisible();
  await page.getByLabel('Invoice number').fill(first.invoiceNumber);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  const one = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download Invoice ${first.invoiceNumber} as PDF` }).click();
  const download = await one;
  expect(download.suggestedFilename()).toBe(`Invoice-${first.invoiceNumber}.pdf`);
  expect(readFileSync(await download.path()).subarray(0, 5).toString()).toBe('%PDF-');

  await page.getByLabel('Invoice number').fill('');
  await page.getByLabel(`Select ${first.invoiceNumber}`).check();
  await page.getByLabel(`Select ${second.invoiceNumber}`).check();
  await expect(page.getByText('2 sales selected')).toBeVisible();
  await page.getByLabel('Document').selectOption('receipt');
  const many = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const both = await many;
  expect(both.suggestedFilename()).toBe('Receipts-2-sales.pdf');
  const pdf = readFileSync(await both.path()).toString('latin1');
  expect(pdf.startsWith('%PDF-')).toBe(true);
  expect((pdf.match(/\/Type \/Page\b/g) ?? []).length).toBe(2);
});

test('the four sales screens fit a 360 px phone without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, 'manager', { open: false });
  const failures: string[] = [];
  for (const [path, heading] of [
    ['/app/allsales', 'All Sales'],
    ['/app/sales/returns', 'Sales Returns'],
    ['/app/sales/payment-summary', 'Payment Summary'],
    ['/app/sales/documents', 'Sales Documents'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    if (scrollWidth > innerWidth) failures.push(`${path}: ${scrollWidth} > ${innerWidth}`);
  }
  expect(failures).toEqual([]);
});
