import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * Reconciling the till's unmatched M-Pesa money (decision 0068). The money is made as the till makes it: the cashier
 * sends a payment request, cancels it and takes the sale in cash, and the customer approves the prompt anyway on the
 * local Kopo Kopo simulator's page (/dev/k2). The owner sees the notice on the payment summary, opens the M-Pesa
 * payments screen and reconciles the payment: refunded to the customer, or (on a 360 px phone) applied to a sale.
 */

async function post(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page), ...headers } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** A fresh product of the Main Branch with stock (the owner, through the API); its id. */
async function product(page: Page, priceCents: number): Promise<string> {
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const created = await post(page, '/api/products', { name: unique('Cetirizine'), category: 'Medicine', sku: unique('RC').toUpperCase().slice(0, 30), sellingPriceCents: priceCents, purchasePriceCents: 1000 });
  await post(page, `/api/products/${created.product.id}/batches`, { branchId: main.id, batchNumber: unique('B').toUpperCase().slice(0, 20), expiryDate: '2030-06-30', quantity: 20, unitCostCents: 1000 });
  return created.product.id;
}

/**
 * The cashier (signed in on `page`) asks this phone for a sale of one piece, cancels, and takes the sale in cash; the
 * customer then approves on the simulator's page. Returns the M-Pesa receipt and the cash sale's invoice number.
 */
async function paidAfterCancel(page: Page, productId: string, phone: string): Promise<{ receipt: string; invoice: string }> {
  const sale = { id: randomUUID(), lines: [{ productId, quantity: 1 }], payments: [{ method: 'MPESA', amountCents: 30_000 }], expectedTotalCents: 30_000 };
  const { request } = await post(page, '/api/till-payments', { phoneNumber: phone, sale }, { 'Idempotency-Key': randomUUID() });
  // The STK push goes out through the job runner: wait until the simulator has the prompt before cancelling.
  const sim = await page.context().newPage();
  await sim.goto('/dev/k2');
  const e164 = `+254${phone.replace(/\D/g, '').slice(1)}`;
  const prompt = sim.locator('li.prompt', { hasText: e164 }).filter({ has: sim.getByRole('button', { name: 'Approve' }) });
  await expect(async () => {
    await sim.reload();
    await expect(prompt).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await post(page, `/api/till-payments/${request.id}/cancel`, { reason: 'cashier' });
  const cash = await post(page, '/api/sales', { ...sale, payments: [{ method: 'Cash', amountCents: 30_000 }] }, { 'Idempotency-Key': sale.id });
  await prompt.getByRole('button', { name: 'Approve' }).click();
  const answered = sim.locator('li.prompt', { hasText: e164 }).first();
  await expect(answered).toContainText('Success');
  const receipt = /receipt (\w+)/.exec((await answered.textContent()) ?? '')?.[1];
  await sim.close();
  expect(receipt).toMatch(/^S\w+$/);
  const state = await (await page.request.get(`/api/till-payments/${request.id}`)).json();
  expect(state.request.status).toBe('unmatched');
  return { receipt: receipt!, invoice: cash.invoiceNumber ?? (await (await page.request.get(`/api/sales/${sale.id}`)).json()).invoiceNumber };
}

test('the owner sees the notice, refunds one unmatched M-Pesa payment and applies another to a sale on a phone', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, 'owner', { open: false });
  const productId = await product(page, 30_000);
  await signInAs(page, 'cashier', { open: false });
  const first = await paidAfterCancel(page, productId, '0712 555 101');
  const second = await paidAfterCancel(page, productId, '0712 555 102');

  // The owner: the payment summary says money waits, and links to it.
  await signInAs(page, 'owner', { open: '/app/sales/payment-summary' });
  const notice = page.getByRole('status').filter({ hasText: /M-Pesa payments? needs? reconciling/ });
  await expect(notice).toContainText(/\d+ M-Pesa payments need reconciling/);
  await notice.getByRole('link', { name: 'Reconcile now' }).click();
  await expect(page).toHaveURL(/\/app\/sales\/mpesa-payments\?status=unmatched$/);
  await expect(page.getByRole('heading', { name: 'M-Pesa payments at the till' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('unmatched');

  // Refunded to the customer.
  const row = page.locator(`tr[data-receipt="${first.receipt}"]`);
  await expect(row).toContainText('Unmatched');
  await expect(row).toContainText('254 712 555 101');
  await expect(row).toContainText('KSh 300.00');
  await expect(row).toContainText('Main Branch');
  await expect(row.getByRole('button', { name: `Open sale ${first.invoice}` })).toBeVisible();
  await row.getByRole('button', { name: `Reconcile M-Pesa payment ${first.receipt}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Reconcile M-Pesa payment' });
  await expect(dialog).toContainText('The customer paid after the sale had been completed another way.');
  await dialog.getByRole('button', { name: 'Mark as reconciled' }).click();
  await expect(dialog).toContainText('Enter the reference of the reversal or refund.');
  await dialog.getByLabel(/Reference of the reversal or refund/).fill('RVS-E2E-1');
  await dialog.getByLabel(/^Note/).fill('Reversed through Kopo Kopo; customer called.');
  await dialog.getByRole('button', { name: 'Mark as reconciled' }).click();
  await expect(dialog).toBeHidden();
  // Gone from the unmatched list; reconciled, with the reference, in the list of reconciled payments.
  await expect(row).toHaveCount(0);
  await page.getByLabel('Status').selectOption('resolved');
  await expect(row).toContainText('Reconciled');
  await expect(row).toContainText('Refunded to the customer (ref. RVS-E2E-1)');

  // On a phone: applied to a sale, chosen by its invoice number.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByLabel('Status').selectOption('unmatched');
  const other = page.locator(`tr[data-receipt="${second.receipt}"]`);
  await other.getByRole('button', { name: `Reconcile M-Pesa payment ${second.receipt}` }).click();
  await dialog.getByRole('radio', { name: /Applied to a sale/ }).check();
  await expect(dialog.getByLabel(/Invoice number of the sale/)).toHaveValue(second.invoice);
  await dialog.getByLabel(/Invoice number of the sale/).fill(first.invoice);
  const box = await dialog.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(360);
  await dialog.getByRole('button', { name: 'Mark as reconciled' }).click();
  await expect(dialog).toBeHidden();
  await expect(other).toHaveCount(0);
  await page.getByLabel('Status').selectOption('resolved');
  await expect(other).toContainText(`Applied to sale ${first.invoice}`);
  // The page itself never scrolls sideways at 360 px (the table scrolls inside its frame).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
