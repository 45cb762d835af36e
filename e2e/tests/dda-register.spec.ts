import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, sidebar, signInAs, unique } from './helpers';

/**
 * The DDA register against the real server and database: a controlled medicine received and dispensed on a
 * prescription (through the API), then read in the browser from the sidebar's short link — the sale with its patient,
 * prescriber and the balance after it — printed in the register layout, and downloaded as CSV (read back) and PDF.
 */

async function post(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page), ...headers } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

test('a DDA sale shows in the register with its prescriber and balance; it prints as a register and downloads as CSV and PDF', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  // 'A0 …' sorts the drug first among the seeded controlled medicines.
  const name = unique('A0 Pethidine 50mg');
  const created = await post(page, '/api/products', { name, category: 'Medicine', isDda: true, sellingPriceCents: 20_000, purchasePriceCents: 10_000 });
  const productId = created.product.id as string;
  await post(page, `/api/products/${productId}/batches`, { branchId: main.id, batchNumber: 'PET-E2E', expiryDate: '2029-06-30', quantity: 10, unitCostCents: 10_000 });
  const patient = unique('Achieng Otieno');
  const client = await post(page, '/api/contacts', { type: 'customer', name: patient, phone: '0712345678', location: 'Kisumu', address: 'Oginga Odinga St 4' });
  const saleId = randomUUID();
  const sale = await post(
    page,
    '/api/sales',
    {
      id: saleId,
      branchId: main.id,
      clientId: client.id,
      lines: [{ productId, quantity: 3, prescription: { doctorName: 'Dr. Wambui Njoroge', hospitalName: 'Nairobi Hospital', prescriptionNumber: 'RX-E2E-7' } }],
      payments: [{ method: 'Cash', amountCents: 60_000 }],
    },
    { 'Idempotency-Key': saleId },
  );

  // The sidebar's short link /dda reaches the register.
  await page.goto('/dda');
  await expect(page).toHaveURL(/\/app\/reports\/dda/);
  await expect(page.getByRole('heading', { level: 1, name: 'DDA Register' })).toBeVisible();
  await expect(page.getByText('Coming soon')).toHaveCount(0);
  await expect(sidebar(page).getByRole('link', { name: 'DDA Register' })).toBeVisible();

  const filters = page.getByRole('group', { name: 'Register filters' });
  const drug = filters.getByLabel('Drug', { exact: true });
  await expect(drug.locator('option', { hasText: name })).toHaveCount(1);
  await drug.selectOption({ label: name });
  await filters.getByLabel('Branch', { exact: true }).selectOption({ label: 'Main Branch' });
  const register = page.locator(`[data-register="${productId}:${main.id}"]`);
  await expect(register.getByRole('heading', { name: `${name} — Main Branch` })).toBeVisible();
  const dispensing = register.locator('tr[data-kind="dispensing"]');
  await expect(dispensing).toHaveCount(1);
  await expect(dispensing).toContainText(`Issued to ${patient}, Kisumu, Oginga Odinga St 4 (prescribed by Dr. Wambui Njoroge, Nairobi Hospital)`);
  await expect(dispensing).toContainText(`${sale.invoiceNumber} / Rx RX-E2E-7`);
  await expect(dispensing.getByRole('cell').nth(6)).toHaveText('7');
  await expect(register.locator('tr[data-kind="opening"]').getByRole('cell').nth(6)).toHaveText('10');
  await expect(register.getByText('Closing balance', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText('7');
  await expect(register.locator('tfoot')).toContainText('Totals received and issued; closing balance');

  // Printing shows only the bound-register layout: a page per drug, headed with the pharmacy, branch and period.
  await page.emulateMedia({ media: 'print' });
  const printed = page.getByTestId('dda-print');
  await expect(printed).toBeVisible();
  await expect(printed.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(printed.locator('section').first()).toHaveCSS('break-after', 'page');
  await expect(printed).toContainText('Branch: Main Branch');
  await expect(printed.getByRole('row', { name: new RegExp(`Issued to ${patient}`) })).toContainText('7');
  await expect(sidebar(page)).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect(printed).toBeHidden();

  // CSV: the register's lines with the prescription, read back.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^dda-register-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync(await csv.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows = text.slice(1).trim().split(/\r?\n/);
  expect(rows[0]).toContain('Prescriber');
  const saleRow = rows.find((row) => row.includes(sale.invoiceNumber));
  expect(saleRow).toBeTruthy();
  expect(saleRow).toContain('Dr. Wambui Njoroge');
  expect(saleRow).toContain('Nairobi Hospital');
  expect(saleRow).toContain('RX-E2E-7');
  expect(saleRow).toContain(patient);
  expect(saleRow!.split(',').slice(-4, -1)).toEqual(['3', '7', '7']);
  expect(rows.some((row) => row.startsWith(`Main Branch,${name},`) && row.includes('Totals'))).toBe(true);

  // PDF.
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/^dda-register-.*\.pdf$/);
  expect(readFileSync(await pdf.path()).subarray(0, 5).toString()).toBe('%PDF-');

  // On a phone the register's table scrolls inside its card; the page never scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(register.locator('tr[data-kind="dispensing"]')).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('bad ranges are explained beside the dates, and a period without DDA movements shows an empty register', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  await page.goto('/app/reports/dda?from=2026-03-10&to=2026-03-01');
  await expect(page.getByRole('heading', { level: 1, name: 'DDA Register' })).toBeVisible();
  await expect(page.getByText('The start date must be on or before the end date.')).toBeVisible();
  await page.goto('/app/reports/dda?from=2015-01-01&to=2026-03-01');
  await expect(page.getByText('The date range cannot be longer than 5 years. Choose a shorter range.')).toBeVisible();
  await page.goto('/app/reports/dda?from=2001-01-01&to=2001-01-31');
  await expect(page.getByText('No DDA movements')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
});
