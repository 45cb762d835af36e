import { expect, test } from '@playwright/test';
import { signInAs, unique } from './helpers';

test('the operator extends a trial on Customers and sees the pharmacy on the SaaS dashboard', async ({ page }) => {
  await signInAs(page, 'operator', { open: '/app/admin/customers' });
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await expect(page.getByText('Admin Mode — you are managing the PharmaPoint platform')).toBeVisible();

  await page.getByLabel('Search pharmacies').fill('Uzima');
  const row = page.getByRole('row', { name: /Uzima Chemists/ });
  await expect(row).toBeVisible();
  await expect(page.getByRole('row', { name: /Afya Bora/ })).toHaveCount(0);

  await row.getByRole('button', { name: 'Extend the trial of Uzima Chemists' }).click();
  const dialog = page.getByRole('dialog', { name: 'Extend the trial of Uzima Chemists' });
  await dialog.getByLabel('Days to add').fill('0');
  await dialog.getByRole('button', { name: 'Extend Trial' }).click();
  await expect(dialog.getByText('Days must be between 1 and 90.')).toBeVisible();
  await dialog.getByLabel('Days to add').fill('14');
  await dialog.getByRole('button', { name: 'Extend Trial' }).click();
  await expect(page.getByText('Trial extended by 14 days for Uzima Chemists')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Deactivate and reactivate: the row follows.
  await row.getByRole('button', { name: 'Deactivate Uzima Chemists' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('Uzima Chemists has been deactivated')).toBeVisible();
  await expect(row.getByText('Inactive')).toBeVisible();
  await row.getByRole('button', { name: 'Reactivate Uzima Chemists' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByText('Uzima Chemists has been reactivated')).toBeVisible();
  await expect(row.getByText('Trial', { exact: true })).toBeVisible();

  // A customer who paid outside M-Pesa: set up by hand, the owner invited by email.
  const pharmacyName = `Hand Set ${unique('ph').slice(3)}`;
  await page.getByRole('link', { name: 'New Customer' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'New Customer' })).toBeVisible();
  await page.getByRole('button', { name: 'Set Up Pharmacy' }).click();
  await expect(page.getByText('Pharmacy name is required.')).toBeVisible();
  await page.getByLabel('Pharmacy name').fill(pharmacyName);
  await page.getByLabel("Owner's full name").fill('Hand Owner');
  await page.getByLabel("Owner's email").fill(`${unique('owner')}@example.com`);
  await page.getByRole('button', { name: 'Set Up Pharmacy' }).click();
  await expect(page.getByText(`${pharmacyName} is set up. An invitation was sent to`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Admin navigation' }).getByRole('link', { name: 'SaaS Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'SaaS Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pharmacies by status' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Uzima Chemists/ })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(pharmacyName) })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Demo conversions' })).toBeVisible();

  // Analytics and the monthly report (printable, and a PDF).
  const adminNav = page.getByRole('navigation', { name: 'Admin navigation' });
  await adminNav.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Afya Bora Pharmacy/ })).toBeVisible();
  await adminNav.getByRole('link', { name: 'Monthly Reports' }).click();
  await expect(page.getByRole('heading', { name: /^PharmaPoint monthly report — / })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  expect((await download).suggestedFilename()).toMatch(/^pharmapoint-report-\d{4}-\d{2}\.pdf$/);

  // The theme customizer: the preview follows the typed title; saving applies it. The pharmacy set up above, not a
  // seeded one: other tests (display-settings) read the seeded pharmacies' names in their sidebars.
  await adminNav.getByRole('link', { name: 'Theme Customizer' }).click();
  await page.getByLabel('Pharmacy').selectOption({ label: pharmacyName });
  await page.getByLabel('App title').fill('Hand Set POS');
  await expect(page.getByRole('img', { name: 'Live preview' })).toContainText('Hand Set POS');
  await page.getByRole('button', { name: 'Save Theme' }).click();
  await expect(page.getByText('Theme saved')).toBeVisible();
});

test('the operator records an offline hosting payment and sees the paid-until date move a year', async ({ page }) => {
  // A customer of its own (a licence set up by hand), so no other test's pharmacy changes.
  const pharmacyName = `Paid Offline ${unique('ph').slice(3)}`;
  await signInAs(page, 'operator', { open: '/app/admin/customers/new' });
  await page.getByLabel('Pharmacy name').fill(pharmacyName);
  await page.getByLabel("Owner's full name").fill('Offline Owner');
  await page.getByLabel("Owner's email").fill(`${unique('offline')}@example.com`);
  await page.getByRole('button', { name: 'Set Up Pharmacy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();

  await page.getByLabel('Search pharmacies').fill(pharmacyName);
  const row = page.getByRole('row', { name: new RegExp(pharmacyName) });
  // The cells after the pharmacy (its row header): status, then 'Trial ends / hosting paid until'.
  const until = row.getByRole('cell').nth(1);
  await expect(until).toHaveText(/^\d{2} \w{3} \d{4}$/);
  const before = (await until.textContent())!;
  const year = Number(before.slice(-4));

  await row.getByRole('button', { name: `Record a payment from ${pharmacyName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Record a payment from ${pharmacyName}` });
  // A licensed pharmacy pays hosting; the amount starts at the price list's.
  await expect(dialog.getByLabel('Payment for')).toHaveValue('hosting');
  await expect(dialog.getByLabel('Amount (KSh)')).toHaveValue('3500.00');
  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(dialog.getByText('Enter the reference: the bank or cheque number, or the M-Pesa code.')).toBeVisible();
  await dialog.getByLabel('Method').selectOption({ label: 'M-Pesa to the paybill' });
  await dialog.getByLabel('Reference').fill('QK7HX2M9PL');
  await dialog.getByLabel('Note').fill('Paid to the paybill from the owner’s phone');
  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(page.getByText(`KSh 3,500.00 hosting payment by M-Pesa paybill recorded for ${pharmacyName}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(until).toHaveText(`${before.slice(0, -4)}${year + 1}`);

  // The dashboard's revenue of this month counts it.
  await page.getByRole('navigation', { name: 'Admin navigation' }).getByRole('link', { name: 'SaaS Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'SaaS Dashboard' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(pharmacyName) })).toBeVisible();
});

test('the operator, who belongs to no pharmacy, opens My Profile (where invitations are answered) from the No pharmacy yet page', async ({ page }) => {
  await signInAs(page, 'operator', { open: '/app/dashboard' });
  await expect(page.getByRole('heading', { level: 1, name: 'No pharmacy yet' })).toBeVisible();
  await page.getByRole('link', { name: 'My Profile' }).click();
  await expect(page).toHaveURL(/\/app\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Profile' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'My Profile' }).getByRole('link', { name: 'Go to Admin Area' })).toBeVisible();
  await expect(page.getByText('No pharmacy context available')).toHaveCount(0);
});
