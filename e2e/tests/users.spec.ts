import { expect, test, type Page } from '@playwright/test';
import { ACCESS_DENIED, linkFromMailbox, passwordField, signIn, signInAs, unique } from './helpers';

const NEW_PASSWORD = 'Welcome#2026x';

async function openInvite(page: Page, email: string, name: string, role: string) {
  await page.goto('/app/users');
  await page.getByRole('button', { name: 'Invite staff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite staff' });
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('combobox', { name: 'Role', exact: true }).selectOption(role);
  return dialog;
}

/** Follows the emailed invitation, sets the password and ends signed in as the new member. */
async function acceptInvite(page: Page, email: string) {
  const link = await linkFromMailbox(page.request, email, '/accept-invite');
  await page.context().clearCookies();
  await page.goto(link);
  await passwordField(page, 'Password').fill(NEW_PASSWORD);
  await passwordField(page, 'Confirm Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Activate Account' }).click();
  await expect(page).toHaveURL(/\/(app\/|login)/);
  if (page.url().includes('/login')) await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/app\//);
}

test('the owner invites a cashier who accepts by email and gets what the role allows', async ({ page }) => {
  const email = `${unique('cashier')}@afyabora.test`;
  await signInAs(page, 'owner', { open: false });
  const dialog = await openInvite(page, email, 'Wanjiru Test', 'cashier');
  // A cashier gets POS access by default; the branch is chosen explicitly.
  await expect(dialog.getByRole('switch', { name: 'POS access' })).toHaveAttribute('aria-checked', 'true');
  await dialog.getByLabel('Only these branches').check();
  await dialog.getByLabel('Main Branch').check();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(email) });
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Cashier');
  await expect(row).toContainText('Main Branch');

  await acceptInvite(page, email);
  await expect(page.getByRole('link', { name: 'Open POS' })).toBeVisible();
  await page.goto('/app/settings');
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  await page.goto('/pos');
  await expect(page.getByText(ACCESS_DENIED)).toHaveCount(0);
});

test('explicit permissions replace the role defaults', async ({ page }) => {
  const email = `${unique('reports')}@afyabora.test`;
  await signInAs(page, 'owner', { open: false });
  const dialog = await openInvite(page, email, 'Otieno Reports', 'user');
  await dialog.getByRole('switch', { name: 'Use role defaults' }).click();
  // The role's defaults are the starting point.
  await expect(dialog.getByLabel('product:read')).toBeChecked();
  await dialog.getByLabel('report:sales').check();
  await dialog.getByLabel('sales:read').uncheck();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Custom permissions');

  await acceptInvite(page, email);
  await page.goto('/app/reports/sales');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByText(ACCESS_DENIED)).toHaveCount(0);
  await page.goto('/app/allsales');
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
});

test('the owner edits, resends, deactivates and reactivates an invited member', async ({ page }) => {
  const email = `${unique('staff')}@afyabora.test`;
  await signInAs(page, 'owner', { open: false });
  const dialog = await openInvite(page, email, 'Kamau Staff', 'staff');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  const row = page.getByRole('row', { name: new RegExp(email) });
  await expect(row).toContainText('Invited');

  await row.getByRole('button', { name: 'Edit Kamau Staff' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Kamau Staff' });
  // The pharmacy edits the membership, never the person: no name or email to change.
  await expect(edit.getByRole('textbox', { name: 'Email', exact: true })).toHaveCount(0);
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(0);
  await edit.getByRole('combobox', { name: 'Role', exact: true }).selectOption('inventory');
  await edit.getByLabel('Only these branches').check();
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  // The domain's rule, in the browser: at least one branch.
  await expect(edit.getByText('Choose at least one branch')).toBeVisible();
  await edit.getByLabel('Main Branch').check();
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Kamau Staff');
  await expect(row).toContainText('Inventory');
  await expect(row).toContainText('Main Branch');

  await row.getByRole('button', { name: 'Resend invite to Kamau Staff' }).click();
  await expect(page.getByText(`Invitation sent to ${email}`).last()).toBeVisible();

  await row.getByRole('button', { name: 'Deactivate Kamau Staff' }).click();
  await page.getByRole('dialog', { name: 'Deactivate Kamau Staff?' }).getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Deactivated');
  await row.getByRole('button', { name: 'Reactivate Kamau Staff' }).click();
  await expect(row).toContainText('Invited');
});

test('a manager sees the staff but cannot invite or change them', async ({ page }) => {
  await signInAs(page, 'manager', { open: '/app/users' });
  await expect(page.getByRole('row', { name: /owner@afyabora\.test/ })).toContainText('Owner');
  await expect(page.getByRole('row', { name: /cashier@afyabora\.test/ })).toContainText('Active');
  await expect(page.getByRole('button', { name: 'Invite staff' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Deactivate / })).toHaveCount(0);
});
