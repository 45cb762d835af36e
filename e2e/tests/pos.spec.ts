import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/** Issue 9, the till (/pos): a cashier's day in Chromium against the real server and database. */

interface Branch {
  id: string;
  name: string;
}

async function mainBranch(page: Page): Promise<Branch> {
  const me = await (await page.request.get('/api/me')).json();
  return me.allowedBranches.find((b: Branch) => b.name === 'Main Branch');
}

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

interface Product {
  id: string;
  name: string;
  sku: string;
  barcode: string;
}

/** A fresh product of the Main Branch with stock (set up through the API the product screens use). */
async function product(page: Page, label: string, options: { priceCents?: number; costCents?: number; quantity?: number; packageSize?: number; isDda?: boolean } = {}): Promise<Product> {
  const main = await mainBranch(page);
  const name = unique(label);
  const sku = unique('SKU').toUpperCase().slice(0, 30);
  const barcode = String(Date.now()).slice(-9) + String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
  const created = await post(page, '/api/products', {
    name,
    category: 'Medicine',
    sku,
    barcodes: [barcode],
    sellingPriceCents: options.priceCents ?? 5000,
    purchasePriceCents: options.costCents ?? 3000,
    packageSize: options.packageSize ?? 1,
    ...(options.isDda ? { isDda: true } : {}),
  });
  await post(page, `/api/products/${created.product.id}/batches`, {
    branchId: main.id,
    batchNumber: unique('B').toUpperCase().slice(0, 20),
    expiryDate: '2028-06-30',
    quantity: options.quantity ?? 50,
    unitCostCents: options.costCents ?? 3000,
  });
  return { id: created.product.id, name, sku, barcode };
}

/** Opens the till and waits until it is ready to sell: the cursor in search and the branch's catalogue loaded. */
async function openTill(page: Page): Promise<void> {
  await page.goto('/pos');
  await expect(page.getByRole('combobox', { name: 'Search products' })).toBeFocused();
  await expect(page.locator('[data-catalogue="ready"]')).toHaveCount(1);
}

function search(page: Page) {
  return page.getByRole('combobox', { name: 'Search products' });
}

/** Types a query and picks the product from the results with the keyboard. */
async function searchAndAdd(page: Page, name: string): Promise<void> {
  await search(page).fill(name);
  await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
  await search(page).press('Enter');
}

/** A barcode scanner: the code arrives a few milliseconds a key, then Enter. */
async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

function cartLine(page: Page, name: string) {
  return page.getByRole('row', { name: new RegExp(name) });
}

test('a cash sale: scan, search, P/W, discount, change, complete, receipt and reprint', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const panadol = await product(page, 'Panadol Extra', { priceCents: 1000, costCents: 500, packageSize: 10, quantity: 40 });
  const amox = await product(page, 'Amoxil 250mg', { priceCents: 2550, costCents: 1200 });
  await openTill(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Point of Sale')).toBeVisible();

  // Scan by barcode (fast keystrokes + Enter): added at once; scanning again adds one more.
  await scan(page, panadol.barcode);
  await expect(cartLine(page, panadol.name)).toBeVisible();
  await expect(page.getByLabel(`Quantity of ${panadol.name}`)).toHaveValue('1');
  await scan(page, panadol.barcode);
  await expect(page.getByLabel(`Quantity of ${panadol.name}`)).toHaveValue('2');
  await expect(search(page)).toBeFocused();

  // Search and add with the keyboard.
  await searchAndAdd(page, amox.name);
  await expect(cartLine(page, amox.name)).toBeVisible();
  await expect(page.getByTestId('pos-item-count')).toHaveText('2 items');

  // Quantity edit beyond the stock is refused with the specification's word.
  const qty = page.getByLabel(`Quantity of ${amox.name}`);
  await qty.fill('999');
  await qty.press('Enter');
  await expect(page.getByText('Stock shortage')).toBeVisible();
  await expect(qty).toHaveValue('1');

  // W: the price is per package of 10 (2 packages = 20 pieces at 100.00).
  await page.getByRole('button', { name: /Whole packages/ }).click();
  await expect(cartLine(page, panadol.name)).toContainText('KSh 200.00');

  // Discount as the owner: 10 %. Subtotal 200 + 25.50 = 225.50, less 22.55 = 202.95 -> KES rounds to 203.00.
  await page.getByLabel('Discount', { exact: true }).fill('10');
  await expect(page.getByTestId('pos-total')).toHaveText('KSh 203.00');

  // Quick cash 250 gives 47.00 change.
  await page.getByRole('button', { name: 'KSh 250.00' }).click();
  await expect(page.getByTestId('pos-change')).toHaveText('KSh 47.00');
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();

  const receipt = page.getByRole('dialog', { name: 'Sale Receipt' });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByTestId('receipt')).toContainText(/INV-\d{6}/);
  await expect(receipt.getByTestId('receipt')).toContainText('KSh 47.00');
  const invoice = (await receipt.getByTestId('receipt').textContent())!.match(/INV-\d{6}/)![0];
  // The PDF (jspdf, loaded now) and the WhatsApp link with the receipt's text.
  const download = page.waitForEvent('download');
  await receipt.getByRole('button', { name: 'PDF' }).click();
  expect((await download).suggestedFilename()).toBe(`${invoice}.pdf`);
  await expect(receipt.getByRole('link', { name: 'Send on WhatsApp' })).toHaveAttribute('href', new RegExp(`^https://wa\\.me/\\?text=.*${invoice}`));
  await receipt.getByRole('button', { name: 'New Sale' }).click();
  await expect(search(page)).toBeFocused();
  await expect(page.getByText('The cart is empty.', { exact: false })).toBeVisible();

  // Stock left the branch: 40 - 20 pieces.
  const detail = await (await page.request.get(`/api/products/${panadol.id}`)).json();
  expect(detail.branches.find((b: { branchName: string }) => b.branchName === 'Main Branch').quantity).toBe(20);

  // Reprint later.
  await page.getByRole('button', { name: 'Reprint' }).click();
  await page.getByRole('button', { name: `Show receipt ${invoice}` }).click();
  await expect(page.getByRole('dialog', { name: 'Sale Receipt' }).getByTestId('receipt')).toContainText(invoice);
});

/** The sale as the server recorded it (its id from this till's recent receipts, read as the till reads it). */
async function saleOf(page: Page, invoice: string): Promise<any> {
  const recent: { id: string; invoiceNumber: string }[] = await page.evaluate(() => JSON.parse(localStorage.getItem('pp_pos_recent_receipts') ?? '[]'));
  const found = recent.find((r) => r.invoiceNumber === invoice);
  expect(found, invoice).toBeTruthy();
  const response = await page.request.get(`/api/sales/${found!.id}`);
  expect(response.status()).toBe(200);
  return response.json();
}

async function completeAndReadInvoice(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  const receipt = page.getByRole('dialog', { name: 'Sale Receipt' });
  await expect(receipt.getByTestId('receipt')).toContainText(/INV-\d{6}/);
  const invoice = (await receipt.getByTestId('receipt').textContent())!.match(/INV-\d{6}/)![0];
  await receipt.getByRole('button', { name: 'New Sale' }).click();
  await expect(search(page)).toBeFocused();
  return invoice;
}

test('an M-Pesa sale takes the exact amount and the confirmation code; refused cases say why', async ({ page, browser }) => {
  // The owner stocks the product (a cashier may not create products).
  const owner = await browser.newPage();
  await signInAs(owner, 'owner', { open: false });
  const item = await product(owner, 'Cetirizine 10mg', { priceCents: 15000, costCents: 8000 });
  await owner.close();
  await signInAs(page, 'cashier', { open: false });
  await openTill(page);

  // A cashier holds neither pos:discount nor pos:price_override: no discount box, no price input.
  await searchAndAdd(page, item.name);
  await expect(page.getByLabel('Discount', { exact: true })).toHaveCount(0);
  await expect(page.getByLabel(`Price of ${item.name}`)).toHaveCount(0);

  // Nothing paid; then too little in cash.
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter amount paid' })).toBeVisible();
  await page.getByLabel('Amount paid').fill('100');
  await page.keyboard.press('F9');
  await expect(page.getByRole('alert').filter({ hasText: 'Amount paid is less than total (or use Credit payment method)' })).toBeVisible();

  // M-Pesa needs the exact amount.
  await page.getByLabel('Payment method').selectOption('MPESA');
  await page.getByLabel('Amount paid').fill('200');
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'MPESA requires exact amount: KSh 150.00' })).toBeVisible();
  await page.getByLabel('Amount paid').fill('150');
  await page.getByLabel('M-Pesa code').fill('sgh7ab12cd');
  const invoice = await completeAndReadInvoice(page);

  const sale = await saleOf(page, invoice);
  expect(sale.payments).toEqual([{ method: 'MPESA', amountCents: 15000, reference: 'SGH7AB12CD' }]);
  expect(sale.cashier.name).toBe('John Kamau');
});

test('a split tender: part cash, part M-Pesa, change only out of cash', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const item = await product(page, 'Augmentin 625mg', { priceCents: 120000, costCents: 70000 });
  await openTill(page);
  await searchAndAdd(page, item.name);
  await page.getByLabel('Amount paid').fill('500');
  await page.getByRole('button', { name: 'Split payment' }).click();
  await expect(page.getByLabel('Payment method 2')).toHaveValue('MPESA');
  await expect(page.getByLabel('Amount paid').nth(1)).toHaveValue('700.00');
  await page.getByLabel('M-Pesa code').fill('QAZ123WSX');
  await expect(page.getByText('Paid', { exact: true })).toBeVisible();
  const invoice = await completeAndReadInvoice(page);
  const sale = await saleOf(page, invoice);
  expect(sale.payments.map((p: { method: string; amountCents: number }) => [p.method, p.amountCents])).toEqual([
    ['Cash', 50000],
    ['MPESA', 70000],
  ]);
  expect(sale.changeCents).toBe(0);
});

test('a credit sale needs a registered client and leaves a balance owed', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const item = await product(page, 'Metformin 500mg', { priceCents: 30000, costCents: 15000 });
  const clientName = unique('Wanjiru Otieno');
  await post(page, '/api/contacts', { type: 'customer', name: clientName, phone: '0712345678' });
  await openTill(page);
  await searchAndAdd(page, item.name);
  await page.getByLabel('Payment method').selectOption('Credit');
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Credit sales need a registered customer.' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByLabel('Search clients by name or phone').fill(clientName);
  await page.getByRole('option', { name: new RegExp(clientName) }).click();
  await expect(page.getByRole('combobox', { name: 'Customer' })).toContainText(clientName);
  await page.getByLabel('Amount paid').fill('100');
  const invoice = await completeAndReadInvoice(page);
  const sale = await saleOf(page, invoice);
  expect(sale.clientName).toBe(clientName);
  expect(sale.paymentMethod).toBe('Credit');
  expect(sale.balanceDueCents).toBe(20000);
});

test('a backdated sale shows the notice and is recorded on its date; the date window is kept', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const item = await product(page, 'ORS Sachets', { priceCents: 5000, costCents: 2000 });
  await openTill(page);
  const today = await page.getByLabel('Sale date').inputValue();
  const back = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Sale date').fill(back(31));
  await expect(page.getByText('Sale date cannot be more than 30 days in the past')).toBeVisible();
  await page.getByLabel('Sale date').fill(back(3));
  await expect(page.getByRole('status').filter({ hasText: 'Backdated sale' })).toBeVisible();
  await searchAndAdd(page, item.name);
  await page.getByLabel('Amount paid').fill('50');
  const invoice = await completeAndReadInvoice(page);
  const sale = await saleOf(page, invoice);
  expect(sale.saleDate).toBe(back(3));
  expect(sale.isBackdated).toBe(true);
  // The next sale is today's again.
  await expect(page.getByLabel('Sale date')).toHaveValue(today);
});

test('a manager may not switch the till to another branch', async ({ page }) => {
  await signInAs(page, 'manager', { open: '/pos' });
  await expect(page.getByLabel('Branch')).toHaveValue(/.+/);
  const before = await page.getByLabel('Branch').inputValue();
  await page.getByLabel('Branch').selectOption({ label: 'Westlands Branch' });
  await expect(page.getByText('Only administrators can change branches in POS.')).toBeVisible();
  await expect(page.getByLabel('Branch')).toHaveValue(before);
});

test('the owner switches branch with a cart after confirming, and the till resets', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const item = await product(page, 'Vitamin C 1000mg', { priceCents: 8000, costCents: 4000 });
  await openTill(page);
  await searchAndAdd(page, item.name);
  await page.getByLabel('Branch').selectOption({ label: 'Westlands Branch' });
  const confirm = page.getByRole('dialog', { name: 'Switch branch?' });
  await confirm.getByRole('button', { name: 'Switch and clear' }).click();
  await expect(page.getByText('The cart is empty.', { exact: false })).toBeVisible();
  await expect(page.getByLabel('Branch')).toHaveValue((await (await page.request.get('/api/me')).json()).branch.id);
  // Back to the Main Branch for the other tests of this user.
  await page.getByLabel('Branch').selectOption({ label: 'Main Branch' });
  await expect(page.getByText('Switched to Main Branch', { exact: false })).toBeVisible();
});

test('keyboard only: scan, F8 pay, F9 complete; Ctrl+Delete clears after asking; the help lists the keys', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const item = await product(page, 'Zinc Tablets', { priceCents: 5000, costCents: 2000 });
  await openTill(page);
  await scan(page, item.sku);
  await expect(page.getByLabel(`Quantity of ${item.name}`)).toHaveValue('1');
  // Ctrl+Delete asks, Cancel keeps the cart.
  await page.keyboard.press('Control+Delete');
  await page.getByRole('dialog', { name: 'Clear the cart?' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByLabel(`Quantity of ${item.name}`)).toHaveValue('1');
  await page.keyboard.press('F8');
  await expect(page.getByLabel('Amount paid')).toBeFocused();
  await page.keyboard.type('100');
  await page.keyboard.press('F9');
  const receipt = page.getByRole('dialog', { name: 'Sale Receipt' });
  await expect(receipt.getByTestId('receipt')).toContainText('KSh 50.00');
  // The receipt (a Radix dialog) takes Escape only once it knows it is the top layer: its first render moves the focus
  // in, but it learns its place among the layers in a second render, and an Escape between the two is ignored (the
  // flaky runs: the focus was already inside, the receipt stayed open). That second render is the one that gives the
  // dialog pointer-events: auto over the body's none, so the test waits for it, as a person sees the receipt first.
  await expect(receipt.locator(':focus')).toHaveCount(1);
  await expect(receipt).toHaveCSS('pointer-events', 'auto');
  await page.keyboard.press('Escape');
  await expect(receipt).toBeHidden();
  await expect(search(page)).toBeFocused();
  await page.getByRole('button', { name: 'Shortcuts' }).click();
  await expect(page.getByRole('region', { name: 'Shortcuts' })).toContainText('Complete sale');
});

test('a price changed on the server meanwhile is refused by name, then the till takes the new price', async ({ page, browser }) => {
  const owner = await browser.newPage();
  await signInAs(owner, 'owner', { open: false });
  const item = await product(owner, 'Omeprazole 20mg', { priceCents: 10000, costCents: 5000 });
  await signInAs(page, 'cashier', { open: false });
  await openTill(page);
  await searchAndAdd(page, item.name);
  await expect(page.getByTestId('pos-total')).toHaveText('KSh 100.00');
  const response = await owner.request.patch(`/api/products/${item.id}`, {
    data: { sellingPriceCents: 12000, priceChangeReason: 'Supplier price rise' },
    headers: { 'x-csrf-token': await csrfToken(owner) },
  });
  expect(response.status(), await response.text()).toBe(200);
  await owner.close();
  await page.getByLabel('Amount paid').fill('200');
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `The price of ${item.name} is now KSh 120.00` })).toBeVisible();
  // The catalogue is read again: the line takes the new price, and the sale goes through.
  await expect(page.getByTestId('pos-total')).toHaveText('KSh 120.00');
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  await expect(page.getByRole('dialog', { name: 'Sale Receipt' }).getByTestId('receipt')).toContainText('KSh 80.00');
});

test('refused cart changes say why: whole packages short, a DDA product for a walk-in customer', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const few = await product(page, 'Amoxil Caps', { priceCents: 1000, costCents: 500, packageSize: 10, quantity: 5 });
  const some = await product(page, 'Flagyl 400mg', { priceCents: 1000, costCents: 500, packageSize: 10, quantity: 25 });
  const dda = await product(page, 'Morphine Sulphate 10mg', { priceCents: 5000, costCents: 2500, isDda: true });
  await openTill(page);

  await searchAndAdd(page, few.name);
  await cartLine(page, few.name).getByRole('button', { name: /Whole packages/ }).click();
  await expect(page.getByText('Cannot switch to whole packages. Not enough stock.')).toBeVisible();

  // 3 pieces asked as 3 packages: only 2 whole packages exist; the till offers to reduce.
  await searchAndAdd(page, some.name);
  const qty = page.getByLabel(`Quantity of ${some.name}`);
  await qty.fill('3');
  await qty.press('Enter');
  await cartLine(page, some.name).getByRole('button', { name: /Whole packages/ }).click();
  const offer = page.getByRole('dialog', { name: 'Not enough whole packages' });
  await expect(offer).toContainText(`Only 2 whole packages of ${some.name} are in stock.`);
  await offer.getByRole('button', { name: 'Reduce to 2 packages' }).click();
  await expect(qty).toHaveValue('2');
  await expect(cartLine(page, some.name)).toContainText('KSh 200.00');

  await search(page).fill(dda.name);
  await expect(page.getByRole('option', { name: new RegExp(dda.name) })).toBeVisible();
  await search(page).press('Enter');
  await expect(page.getByText('DDA products require a registered customer to be selected')).toBeVisible();
  await expect(cartLine(page, dda.name)).toHaveCount(0);
});

test('a line another till just sold out is flagged before payment', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const item = await product(page, 'Loratadine 10mg', { priceCents: 1000, costCents: 500, quantity: 3 });
  await openTill(page);
  await searchAndAdd(page, item.name);
  await page.getByLabel(`One more ${item.name}`).click();
  await expect(page.getByLabel(`Quantity of ${item.name}`)).toHaveValue('2');
  // Another till sells all 3 pieces.
  const id = randomUUID();
  const response = await page.request.post('/api/sales', {
    data: { id, lines: [{ productId: item.id, quantity: 3, unitMode: 'P' }], payments: [{ method: 'Cash', amountCents: 3000 }] },
    headers: { 'x-csrf-token': await csrfToken(page), 'Idempotency-Key': id },
  });
  expect(response.status(), await response.text()).toBe(201);
  await expect(page.getByText('Warning: Some items may have stock issues. Check quantities before completing.').first()).toBeVisible();
  await page.getByLabel('Amount paid').fill('20');
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Some items exceed available stock' })).toBeVisible();
});

test.describe('on a 360 x 740 phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the cash sale works without sideways scrolling', async ({ page }) => {
    await signInAs(page, 'owner', { open: false });
    const item = await product(page, 'Ibuprofen 400mg', { priceCents: 2000, costCents: 1000 });
    await openTill(page);
    await searchAndAdd(page, item.name);
    await expect(page.getByRole('list', { name: 'Cart' })).toContainText(item.name);
    await page.getByLabel(`One more ${item.name}`).click();
    await expect(page.getByTestId('pos-total-mobile')).toHaveText('KSh 40.00');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByLabel('Amount paid').fill('50');
    await expect(page.getByTestId('pos-change')).toHaveText('KSh 10.00');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await completeAndReadInvoice(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
