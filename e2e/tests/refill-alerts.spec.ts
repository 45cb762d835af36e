import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * Refill alerts (/app/reports/refill-alerts): a refill set at the till shows with its status, its WhatsApp reminder
 * link names the client's number in 254 form and carries the reminder text, and marking it completed removes it.
 */

async function post(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page), ...headers } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

function daysFromToday(n: number): string {
  const now = new Date(Date.now() + 3 * 3_600_000); // Africa/Nairobi, the seeded pharmacy's zone
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + n * 86_400_000).toISOString().slice(0, 10);
}

/** A client with a refill (the owner, through the API): a sale `ago` days back with refill days `days`. */
async function refillFor(page: Page, phone: string, ago: number, days: number): Promise<{ client: string; invoice: string; saleId: string }> {
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const created = await post(page, '/api/products', { name: unique('Atenolol'), category: 'Medicine', sku: unique('RF').toUpperCase().slice(0, 30), sellingPriceCents: 20_000, purchasePriceCents: 1000 });
  await post(page, `/api/products/${created.product.id}/batches`, { branchId: main.id, batchNumber: unique('B').toUpperCase().slice(0, 20), expiryDate: '2030-06-30', quantity: 20, unitCostCents: 1000 });
  const client = unique('Refill Client');
  const contact = await post(page, '/api/contacts', { type: 'customer', name: client, phone }, { 'Idempotency-Key': randomUUID() });
  const id = randomUUID();
  const sale = await post(
    page,
    '/api/sales',
    { id, clientId: contact.id, saleDate: daysFromToday(-ago), lines: [{ productId: created.product.id, quantity: 1, needsRefill: true, refillDays: days }], payments: [{ method: 'Cash', amountCents: 20_000 }] },
    { 'Idempotency-Key': id },
  );
  return { client, invoice: sale.invoiceNumber, saleId: id };
}

test('a refill alert: overdue with its WhatsApp link (254 number, encoded reminder), then completed and gone', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const refill = await refillFor(page, '0712 345 678', 10, 7);

  // The sidebar's short link reaches the report.
  await page.goto('/refill-alerts');
  await expect(page).toHaveURL(/\/app\/reports\/refill-alerts/);
  await expect(page.getByRole('heading', { level: 1, name: 'Refill Alerts' })).toBeVisible();
  await page.getByLabel('Search').fill(refill.client);
  const row = page.getByRole('row', { name: new RegExp(refill.client) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Overdue by 3 days');
  await expect(row).toContainText(refill.invoice);

  const link = row.getByRole('link', { name: 'Send WhatsApp' });
  const href = await link.getAttribute('href');
  const url = new URL(href!);
  expect(url.origin + url.pathname).toBe('https://wa.me/254712345678');
  const text = url.searchParams.get('text')!;
  expect(href).toContain(`?text=${encodeURIComponent(text)}`);
  const pharmacyName = (await (await page.request.get('/api/refill-reminders?due=all&limit=1')).json()).pharmacyName;
  expect(text).toContain(`Hello ${refill.client}, this is ${pharmacyName}. Your refill is due on`);
  // Health data: the reminder never names the drug.
  expect(text).not.toContain('Atenolol');

  await row.getByRole('button', { name: 'Mark completed' }).click();
  await expect(page.getByText(`Refill of ${refill.client} marked completed`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(refill.client) })).toHaveCount(0);
  await expect(page.getByText('No refill alerts')).toBeVisible();
});

test('an SMS reminder reaching the simulator and its delivery status shown', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const refill = await refillFor(page, '0713 222 444', 0, 3);
  await page.goto('/app/reports/refill-alerts');
  await page.getByLabel('Search').fill(refill.client);
  const row = page.getByRole('row', { name: new RegExp(refill.client) });
  await expect(row).toContainText('Upcoming: in 3 days');
  await row.getByRole('button', { name: 'Send SMS' }).click();
  await expect(page.getByText(`SMS reminder to ${refill.client} queued`)).toBeVisible();

  // The job runner sends it to the local Africa's Talking simulator; its page plays the handset.
  const sim = await page.context().newPage();
  await sim.goto('/dev/sms');
  const message = sim.locator('li.sms', { hasText: '+254713222444' });
  await expect(async () => {
    await sim.reload();
    await expect(message).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(message.locator('.text')).toContainText(`Hello ${refill.client}, this is`);
  await expect(message.locator('.text')).not.toContainText('Atenolol');
  const messageId = /Message (ATXid_\w+)/.exec((await message.locator('.meta').first().textContent()) ?? '')?.[1];
  expect(messageId).toBeTruthy();
  // The alert shows the message sent, with the provider's message id, before any delivery report.
  await expect(row.getByLabel('SMS status: Sent')).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText(`Message ID ${messageId}`);

  await message.getByRole('button', { name: 'Delivered' }).click();
  await expect(sim.locator('li.sms', { hasText: '+254713222444' }).locator('.status')).toHaveText('Success');
  await sim.close();
  // The delivery report posted back updates the alert (the page reads it again while a delivery is awaited).
  await expect(row.getByLabel('SMS status: Delivered')).toBeVisible({ timeout: 15_000 });

  // The opt-in automatic reminder is off until the owner turns it on.
  await expect(page.getByRole('heading', { name: 'Automatic SMS reminders' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Send reminders automatically' })).not.toBeChecked();
  // On a 360 px phone nothing scrolls sideways (the table scrolls in its own frame).
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(row).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
