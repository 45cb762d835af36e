import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signInAs, unique } from './helpers';

/**
 * Issue 9 items 8-11 (decision 0027): at the till, add a new client and see it selected; a DDA sale whose prescription
 * modal is prefilled the second time; a refill reminder; an expense with transport. Against the real server and
 * database in Chromium.
 */

async function post(page: Page, path: string, body: unknown): Promise<any> {
  const response = await page.request.post(path, { data: body, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** A fresh product of the Main Branch with 50 pieces (through the API the product screens use). */
async function product(page: Page, label: string, options: { isDda?: boolean } = {}): Promise<{ id: string; name: string }> {
  const me = await (await page.request.get('/api/me')).json();
  const main = me.allowedBranches.find((b: { name: string }) => b.name === 'Main Branch');
  const name = unique(label);
  const created = await post(page, '/api/products', {
    name,
    category: 'Medicine',
    sellingPriceCents: 5000,
    purchasePriceCents: 3000,
    ...(options.isDda ? { isDda: true } : {}),
  });
  await post(page, `/api/products/${created.product.id}/batches`, {
    branchId: main.id,
    batchNumber: unique('B').toUpperCase().slice(0, 20),
    expiryDate: '2028-06-30',
    quantity: 50,
    unitCostCents: 3000,
  });
  return { id: created.product.id, name };
}

async function openTill(page: Page): Promise<void> {
  await page.goto('/pos');
  await expect(page.getByRole('combobox', { name: 'Search products' })).toBeFocused();
  await expect(page.getByText('Loading products...')).toHaveCount(0);
}

async function searchAndAdd(page: Page, name: string): Promise<void> {
  const search = page.getByRole('combobox', { name: 'Search products' });
  await search.fill(name);
  await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
  await search.press('Enter');
}

async function chooseClient(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByLabel('Search clients by name or phone').fill(name);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await expect(page.getByRole('combobox', { name: 'Customer' })).toContainText(name);
}

/** Pays the total in cash (quick: 100 over) and completes; the sale read back through the API. */
async function completeInCash(page: Page): Promise<any> {
  await page.getByLabel('Amount paid').fill('1000');
  await page.getByRole('button', { name: 'Complete Sale (F9)' }).click();
  const receipt = page.getByRole('dialog', { name: 'Sale Receipt' });
  await expect(receipt.getByTestId('receipt')).toContainText(/INV-\d{6}/);
  const invoice = (await receipt.getByTestId('receipt').textContent())!.match(/INV-\d{6}/)![0];
  await receipt.getByRole('button', { name: 'New Sale' }).click();
  const list = await (await page.request.get(`/api/sales?invoiceNumber=${invoice}`)).json();
  expect(list.items).toHaveLength(1);
  return (await page.request.get(`/api/sales/${list.items[0].id}`)).json();
}

test('add a new client at the till: the rules, the phone normalised, the client selected at once', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  await openTill(page);
  await expect(page.getByRole('combobox', { name: 'Customer' })).toContainText('Walk-in Customer');
  await page.getByRole('button', { name: 'Add New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Client' });
  await dialog.getByRole('button', { name: 'Save Client' }).click();
  await expect(dialog.getByText('Client name is required')).toBeVisible();
  await expect(dialog.getByText('Phone number is required')).toBeVisible();
  const name = unique('Grace Chebet');
  await dialog.getByLabel('Client name').fill(name);
  await dialog.getByLabel('Phone number').fill('0722 111 333');
  await expect(dialog).toContainText('254722111333');
  await dialog.getByLabel('Location').fill('Eldoret');
  await dialog.getByRole('button', { name: 'Save Client' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`Client ${name} added and selected`)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Customer' })).toContainText(name);

  const found = await (await page.request.get(`/api/contacts?search=${encodeURIComponent(name)}`)).json();
  expect(found.items).toHaveLength(1);
  expect(found.items[0]).toMatchObject({ name, phone: '254722111333', location: 'Eldoret', type: 'customer' });

  // Found again by the phone as people say it; the × goes back to Walk-in Customer.
  await page.getByRole('button', { name: 'Back to Walk-in Customer' }).click();
  await expect(page.getByRole('combobox', { name: 'Customer' })).toContainText('Walk-in Customer');
  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByLabel('Search clients by name or phone').fill('0722111333');
  await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
  await page.keyboard.press('Escape');

  // At most 5 suggestions, even when more clients match.
  const family = unique('Mutua');
  for (let i = 1; i <= 7; i++) await post(page, '/api/contacts', { type: 'customer', name: `${family} ${i}`, phone: `07330000${i}0` });
  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByLabel('Search clients by name or phone').fill(family);
  await expect(page.getByRole('option', { name: new RegExp(`${family} 1`) })).toBeVisible();
  await expect(page.locator('[cmdk-item]')).toHaveCount(5);
});

test('a DDA sale: a registered client, the prescription asked, and prefilled from the last one the second time', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const morphine = await product(page, 'Morphine Sulphate 10mg', { isDda: true });
  const client = unique('Otieno Wafula');
  await post(page, '/api/contacts', { type: 'customer', name: client, phone: '0733444555', location: 'Kisumu', address: 'Oginga Odinga St' });
  await openTill(page);

  // Without a registered client the till refuses the DDA product.
  await searchAndAdd(page, morphine.name);
  await expect(page.getByText('DDA products require a registered customer to be selected').first()).toBeVisible();
  await expect(page.getByLabel(`Quantity of ${morphine.name}`)).toHaveCount(0);

  await chooseClient(page, client);
  await searchAndAdd(page, morphine.name);
  let dda = page.getByRole('dialog', { name: 'DDA prescription details' });
  await expect(dda).toContainText(morphine.name);
  await expect(dda.getByLabel('Doctor name')).toHaveValue('');
  await dda.getByRole('button', { name: 'Confirm and add' }).click();
  await expect(dda.getByText('Doctor name and Hospital/Clinic name are required for DDA products.')).toBeVisible();
  await dda.getByLabel('Doctor name').fill('Dr. Achieng Odhiambo');
  await dda.getByLabel('Hospital/Clinic name').fill('Jaramogi Oginga Odinga Hospital');
  await dda.getByLabel('Prescription number').fill('RX-7781');
  await dda.getByLabel('Doctor licence').fill('KMPDC-2231');
  await dda.getByRole('button', { name: 'Confirm and add' }).click();
  await expect(dda).toHaveCount(0);
  await expect(page.getByLabel(`Quantity of ${morphine.name}`)).toHaveValue('1');
  const first = await completeInCash(page);
  expect(first.lines[0]).toMatchObject({
    isDda: true,
    prescription: { doctorName: 'Dr. Achieng Odhiambo', hospitalName: 'Jaramogi Oginga Odinga Hospital', prescriptionNumber: 'RX-7781', doctorLicense: 'KMPDC-2231' },
  });
  expect(first.lines[0].batches.length).toBeGreaterThan(0);

  // The second time the modal is prefilled from that prescription.
  await chooseClient(page, client);
  await searchAndAdd(page, morphine.name);
  dda = page.getByRole('dialog', { name: 'DDA prescription details' });
  await expect(dda.getByLabel('Doctor name')).toHaveValue('Dr. Achieng Odhiambo');
  await expect(dda.getByLabel('Hospital/Clinic name')).toHaveValue('Jaramogi Oginga Odinga Hospital');
  await expect(dda.getByLabel('Doctor licence')).toHaveValue('KMPDC-2231');
  await expect(dda).toContainText(first.invoiceNumber);
  await dda.getByLabel('Prescription number').fill('RX-7790');
  await dda.getByRole('button', { name: 'Confirm and add' }).click();
  const second = await completeInCash(page);
  expect(second.lines[0].prescription).toMatchObject({ doctorName: 'Dr. Achieng Odhiambo', prescriptionNumber: 'RX-7790' });
});

test('a refill reminder: a real client needed, 1-365 days, the due date, stored on the sale line', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  const metformin = await product(page, 'Metformin 850mg');
  const client = unique('Njeri Kamau');
  await post(page, '/api/contacts', { type: 'customer', name: client, phone: '0711222333' });
  await openTill(page);
  await searchAndAdd(page, metformin.name);

  // Walk-in Customer: the reminder cannot be set.
  await page.getByRole('button', { name: `Refill reminder for ${metformin.name}` }).click();
  let refill = page.getByRole('dialog', { name: 'Set Refill Reminder' });
  await expect(refill.getByText('Please select a client for refill reminders')).toBeVisible();
  await expect(refill.getByRole('button', { name: 'Set Reminder' })).toBeDisabled();
  await refill.getByRole('button', { name: 'Cancel' }).click();

  await chooseClient(page, client);
  await page.getByRole('button', { name: `Refill reminder for ${metformin.name}` }).click();
  refill = page.getByRole('dialog', { name: 'Set Refill Reminder' });
  await expect(refill.getByLabel('Days until refill')).toHaveValue('30');
  await expect(refill).toContainText('Refill due on');
  await refill.getByLabel('Days until refill').fill('400');
  await refill.getByRole('button', { name: 'Set Reminder' }).click();
  await expect(refill.getByText('Please enter a valid number of days (1-365).')).toBeVisible();
  await refill.getByLabel('Days until refill').fill('14');
  await refill.getByRole('button', { name: 'Set Reminder' }).click();
  await expect(refill).toHaveCount(0);
  await expect(page.getByText('Refill in 14 days')).toBeVisible();

  const sale = await completeInCash(page);
  const due = new Date(Date.parse(`${sale.saleDate}T00:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10);
  expect(sale.lines[0]).toMatchObject({ needsRefill: true, refillDays: 14, refillDueDate: due });
  const reminders = await (await page.request.get('/api/refill-reminders?due=all')).json();
  expect(reminders.items.filter((r: { invoiceNumber: string }) => r.invoiceNumber === sale.invoiceNumber)).toEqual([
    expect.objectContaining({ productName: metformin.name, refillDays: 14, refillDate: due, daysLeft: 14, status: 'later' }),
  ]);
});

test('a till expense with transport: the section, its rules and total, saved approved for the branch', async ({ page }) => {
  await signInAs(page, 'owner', { open: false });
  await openTill(page);
  await page.getByRole('button', { name: 'Record Expense' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record Expense' });
  const save = dialog.getByRole('button', { name: 'Record Expense' });
  await expect(save).toBeDisabled();
  await expect(dialog.getByLabel('Category').locator('option')).toHaveCount(30);
  await expect(dialog.getByLabel('Payment method')).toHaveValue('Cash');
  const description = unique('Boda delivery to Westlands');
  await dialog.getByLabel('Description').fill(description);
  await dialog.getByLabel('Category').selectOption('Transport - Taxi');
  await dialog.getByLabel('Amount (KSh)').fill('1,200');
  await expect(save).toBeEnabled();
  const section = dialog.getByRole('group', { name: 'Transport and travel' });
  await expect(section).toBeVisible();
  await section.getByLabel('Fuel (KSh)').fill('300');
  await section.getByLabel('Tolls (KSh)').fill('50');
  await section.getByLabel('Parking (KSh)').fill('100');
  await section.getByLabel('Meal allowance (KSh)').fill('250');
  await expect(section.getByRole('status')).toHaveText('KSh 1,900.00');
  await section.getByLabel('Contact phone').fill('0812 345 678');
  await save.click();
  await expect(section.getByText('Destination is required for transport and travel expenses')).toBeVisible();
  await expect(section.getByText('Reason is required for transport and travel expenses')).toBeVisible();
  await expect(section.getByText('Please enter a valid phone number')).toBeVisible();
  await section.getByLabel('Destination').fill('Westlands');
  await section.getByLabel('Reason').fill('Urgent delivery to a client');
  await section.getByLabel('Transport type').selectOption('Boda Boda');
  await section.getByLabel('Distance (km)').fill('12.5');
  await section.getByLabel('Contact phone').fill('0712 345 678');
  await dialog.getByLabel('Payment method').selectOption('M-Pesa');
  await save.click();
  await expect(page.getByText('Expense recorded')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const list = await (await page.request.get('/api/expenses?source=POS&limit=200')).json();
  const expense = list.items.find((e: { description: string }) => e.description === description);
  expect(expense).toMatchObject({
    branchName: 'Main Branch',
    category: 'Transport - Taxi',
    amountCents: 120_000,
    totalCents: 190_000,
    paymentMethod: 'M-Pesa',
    status: 'approved',
    source: 'POS',
    contactPhone: '0712 345 678',
    transport: { destination: 'Westlands', reason: 'Urgent delivery to a client', transportType: 'Boda Boda', distanceKm: 12.5, fuelCents: 30_000, totalTransportCostCents: 190_000 },
  });

  // Opened again, the form is empty.
  await page.getByRole('button', { name: 'Record Expense' }).click();
  await expect(page.getByRole('dialog', { name: 'Record Expense' }).getByLabel('Description')).toHaveValue('');
});

test('on a 360 px phone the client and expense dialogs fit without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, 'owner', { open: false });
  await openTill(page);
  const fits = async (dialogName: string) => {
    const dialog = page.getByRole('dialog', { name: dialogName });
    await expect(dialog).toBeVisible();
    const sizes = await dialog.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
    expect(sizes.scroll, dialogName).toBeLessThanOrEqual(sizes.client);
    expect(sizes.right, dialogName).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  };
  await page.getByRole('button', { name: 'Add New Client' }).click();
  await fits('Add New Client');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Record Expense' }).click();
  await page.getByRole('dialog', { name: 'Record Expense' }).getByLabel('Category').selectOption('Travel - Accommodation');
  await expect(page.getByRole('group', { name: 'Transport and travel' })).toBeVisible();
  await fits('Record Expense');
});
