import { expect, test } from '@playwright/test';
import { signInAs, unique } from './helpers';

test('the owner adds, edits, deactivates and reactivates a branch', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/branches' });
  const table = page.getByRole('table', { name: 'Branches of the pharmacy' });
  await expect(table.getByRole('row', { name: /Main Branch/ })).toContainText('Default');
  await expect(table.getByRole('row', { name: /Westlands Branch/ })).toBeVisible();

  // A name is required.
  await page.getByRole('button', { name: 'Add branch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add branch' });
  await dialog.getByRole('button', { name: 'Save Branch' }).click();
  await expect(dialog.getByText('Enter a branch name')).toBeVisible();

  const name = unique('Kisumu');
  await dialog.getByLabel('Branch name').fill(name);
  await dialog.getByLabel('Address').fill('Oginga Odinga Street, Kisumu');
  await dialog.getByLabel('Phone').fill('0712345678');
  await dialog.getByRole('button', { name: 'Save Branch' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Branch ${name} added`)).toBeVisible();
  const row = table.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Oginga Odinga Street, Kisumu');
  await expect(row).toContainText('Active');

  // The same name twice is refused by the server and the message is shown.
  await page.getByRole('button', { name: 'Add branch' }).click();
  await page.getByRole('dialog', { name: 'Add branch' }).getByLabel('Branch name').fill(name);
  await page.getByRole('dialog', { name: 'Add branch' }).getByRole('button', { name: 'Save Branch' }).click();
  await expect(page.getByRole('dialog', { name: 'Add branch' }).getByRole('alert')).toBeVisible();
  await page.getByRole('dialog', { name: 'Add branch' }).getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit branch' });
  await expect(edit.getByLabel('Branch name')).toHaveValue(name);
  await edit.getByLabel('Phone').fill('0722000111');
  await edit.getByRole('button', { name: 'Save Branch' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('0722000111');

  await row.getByRole('button', { name: `Deactivate ${name}` }).click();
  await page.getByRole('dialog', { name: `Deactivate ${name}?` }).getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Inactive');
  await row.getByRole('button', { name: `Reactivate ${name}` }).click();
  await expect(row).toContainText('Active');
  await expect(row).not.toContainText('Inactive');

  // The sanitised settings list the branches from the branches table.
  await page.goto('/app/settings');
  await page.getByRole('tab', { name: 'Branches' }).click();
  await expect(page.getByRole('textbox', { name: 'Branches', exact: true })).toHaveValue(new RegExp(name));
});

test('the owner moves the default flag to another branch and back', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/app/branches' });
  const table = page.getByRole('table', { name: 'Branches of the pharmacy' });
  const name = unique('Nakuru');
  await page.getByRole('button', { name: 'Add branch' }).click();
  await page.getByRole('dialog', { name: 'Add branch' }).getByLabel('Branch name').fill(name);
  await page.getByRole('dialog', { name: 'Add branch' }).getByRole('button', { name: 'Save Branch' }).click();
  const row = table.getByRole('row', { name: new RegExp(name) });
  await row.getByRole('button', { name: `Make ${name} the default branch` }).click();
  await expect(page.getByText(`${name} is now the default branch`)).toBeVisible();
  await expect(row).toContainText('Default');
  await expect(table.getByRole('row', { name: /Main Branch/ })).not.toContainText('Default');
  await table.getByRole('button', { name: 'Make Main Branch the default branch' }).click();
  await expect(table.getByRole('row', { name: /Main Branch/ })).toContainText('Default');
  await expect(row).not.toContainText('Default');
  // Tidy up: deactivate the extra branch so the pharmacy looks as seeded.
  await row.getByRole('button', { name: `Deactivate ${name}` }).click();
  await page.getByRole('dialog', { name: `Deactivate ${name}?` }).getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Inactive');
});
