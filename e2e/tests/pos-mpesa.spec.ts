import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * M-Pesa at the till (issue 11 item 7): the cashier asks the customer's phone for the sale's total; the local Kopo
 * Kopo simulator's page (/dev/k2) plays the phone. npm start's demo pharmacy has no till credentials of its own, so
 * it uses the simulator's till (decision 0058).
 */

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** A fresh product of the Main Branch with stock, set up by the owner through the API. */
async function product(page: Page, label: string, priceCents: number): Promise<string> {
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const name = unique(label);
  const created = await post(page, '/api/products', { name, category: 'Medicine', sku: unique('MP').toUpperCase().slice(0, 30), sellingPriceCents: priceCents, purchasePriceCents: 1000 });
  await post(page, `/api/products/${created.product.id}/batches`, { branchId: main.id, batchNumber: unique('B').toUpperCase().slice(0, 20), expiryDate: '2030-06-30', quantity: 20, unitCostCents: 1000 });
  return name;
}

/** The cashier's till with one item and MPESA chosen; the request sent to this phone. */
async function askByMpesa(page: Page, name: string, phoneTyped: string, phoneShown: string): Promise<void> {
  await page.goto('/pos');
  const search = page.getByRole('combobox', { name: 'Search products' });
  await expect(search).toBeFocused();
  await expect(page.locator('[data-catalogue="ready"]')).toHaveCount(1);
  await search.fill(name);
  await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
  await search.press('Enter');
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await page.getByLabel('Payment method', { exact: true }).selectOption('MPESA');
  await page.getByRole('button', { name: 'Send payment request' }).click();
  const dialog = page.getByRole('dialog', { name: 'M-Pesa payment request' });
  await expect(dialog).toContainText('KSh 250.00');
  const number = dialog.getByLabel("Customer's M-Pesa number");
  await number.fill(phoneTyped);
  await expect(number).toHaveValue(phoneShown);
  await dialog.getByRole('button', { name: 'Send payment request' }).click();
  await expect(dialog.getByRole('status')).toContainText(`Waiting for the customer to enter their M-Pesa PIN on ${phoneShown}`);
  await expect(dialog.getByRole('progressbar', { name: 'Waiting for the customer' })).toBeVisible();
}

/** The simulator's page, in another tab, answers the prompt for this phone; returns the receipt number when approved. */
async function answerOnPhone(page: Page, phoneShown: string, answer: 'Approve' | 'Decline'): Promise<string | null> {
  const phone = await page.context().newPage();
  await phone.goto('/dev/k2');
  const e164 = `+${phoneShown.replace(/\s/g, '')}`;
  const prompt = phone.locator('li.prompt', { hasText: e164 }).filter({ has: phone.getByRole('button', { name: answer }) });
  await expect(prompt).toHaveCount(1, { timeout: 20_000 });
  await expect(prompt).toContainText('KSh 250');
  await prompt.getByRole('button', { name: answer }).click();
  const answered = phone.locator('li.prompt', { hasText: e164 }).first();
  await expect(answered).toContainText(answer === 'Approve' ? 'Success' : 'Failed');
  const receipt = answer === 'Approve' ? (/receipt (\w+)/.exec((await answered.textContent()) ?? '')?.[1] ?? null) : null;
  await phone.close();
  return receipt;
}

test('the cashier sends an M-Pesa payment request, the customer approves, and the receipt shows the M-Pesa code', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const name = await product(page, 'Zyrtec', 25_000);
  await signInAs(page, 'cashier', { open: false });
  await askByMpesa(page, name, '0712 777 888', '254 712 777 888');
  const code = await answerOnPhone(page, '254 712 777 888', 'Approve');
  expect(code).toMatch(/^S\w+$/);
  const receipt = page.getByRole('dialog', { name: 'Sale Receipt' });
  await expect(receipt).toBeVisible({ timeout: 15_000 });
  await expect(receipt).toContainText(`MPESA (${code})`);
  await expect(receipt).toContainText('KSh 250.00');
  await receipt.getByRole('button', { name: 'New Sale' }).click();
  // A new, empty till.
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
});

test('a declined payment request shows the failure and leaves the cart as it was', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const name = await product(page, 'Piriton', 25_000);
  await signInAs(page, 'cashier', { open: false });
  await askByMpesa(page, name, '0733111222', '254 733 111 222');
  await answerOnPhone(page, '254 733 111 222', 'Decline');
  const dialog = page.getByRole('dialog', { name: 'M-Pesa payment request' });
  await expect(dialog.getByRole('alert')).toHaveText('Payment failed: Request cancelled by user', { timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Sale Receipt' })).toHaveCount(0);
});

test('a sale that can no longer be completed is refused before any prompt, with the reason Complete Sale gives', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const name = await product(page, 'Telfast', 25_000);
  const listed = await (await page.request.get(`/api/products?q=${encodeURIComponent(name)}`)).json();
  const productId = listed.items[0].id as string;
  await signInAs(page, 'cashier', { open: false });
  await page.goto('/pos');
  const search = page.getByRole('combobox', { name: 'Search products' });
  await expect(page.locator('[data-catalogue="ready"]')).toHaveCount(1);
  await search.fill(name);
  await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
  await search.press('Enter');
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await page.getByLabel('Payment method', { exact: true }).selectOption('MPESA');
  await page.getByRole('button', { name: 'Send payment request' }).click();
  const dialog = page.getByRole('dialog', { name: 'M-Pesa payment request' });
  await dialog.getByLabel("Customer's M-Pesa number").fill('0744555919');
  // Meanwhile another till sells every piece.
  const id = randomUUID();
  const sold = await page.request.post('/api/sales', {
    data: { id, lines: [{ productId, quantity: 20, unitMode: 'P' }], payments: [{ method: 'Cash', amountCents: 500_000 }] },
    headers: { 'x-csrf-token': await csrfToken(page), 'Idempotency-Key': id },
  });
  expect(sold.status(), await sold.text()).toBe(201);
  await dialog.getByRole('button', { name: 'Send payment request' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to complete sale: Some items exceed available stock' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  // No prompt reached the phone.
  const phone = await page.context().newPage();
  await phone.goto('/dev/k2');
  await expect(phone.locator('li.prompt', { hasText: '+254744555919' })).toHaveCount(0);
  await phone.close();
});
