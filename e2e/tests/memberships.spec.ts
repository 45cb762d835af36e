import { expect, test, type Page } from '@playwright/test';
import { csrfToken, linkFromMailbox, passwordField, signIn, signInAs, unique, USERS } from './helpers';

/**
 * People and memberships (issue 7 item 2, decision 0015): an invitation of someone who already has an account shows
 * the pharmacy nothing of that account and waits for the person to accept in their own session; a person who works
 * in two pharmacies switches between them.
 */

const NEW_PASSWORD = 'Welcome#2026x';

async function invite(page: Page, email: string, name: string, role: string) {
  await page.goto('/app/users');
  await page.getByRole('button', { name: 'Invite staff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite staff' });
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('combobox', { name: 'Role', exact: true }).selectOption(role);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
}

test('an invitation of an existing account reveals nothing, and the person accepts it in their own session', async ({ page }) => {
  // Joseph Mwangi owns Uzima Chemists. Afya Bora invites his email under a name of its own.
  await signInAs(page, 'owner', { open: false });
  await invite(page, USERS.trialOwner, 'Joseph Afya', 'staff');
  const row = page.getByRole('row', { name: new RegExp(USERS.trialOwner) });
  await expect(row).toContainText('Joseph Afya');
  await expect(row).toContainText('Invited');
  await expect(row).not.toContainText('Joseph Mwangi');

  // The link does not join the account by itself: it asks him to sign in as that email.
  const link = await linkFromMailbox(page.request, USERS.trialOwner, '/accept-invite');
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.getByText(`You already have a PharmaPoint account. Sign in as ${USERS.trialOwner} to accept or decline this invitation.`)).toBeVisible();
  await page.getByRole('link', { name: 'Sign in to answer' }).click();
  await signIn(page, USERS.trialOwner, undefined, { expectUrl: /\/accept-invite/ });
  await expect(page.getByRole('button', { name: 'Accept invitation' })).toBeVisible();

  // Signed in, the invitation also waits on his profile until he answers.
  await page.goto('/app/profile');
  const invitations = page.getByRole('list', { name: 'Invitations' });
  await expect(invitations).toContainText('Afya Bora Pharmacy');
  await page.getByRole('button', { name: 'Accept the invitation to Afya Bora Pharmacy' }).click();
  await expect(page.getByText('You joined Afya Bora Pharmacy')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Invitations' })).toHaveCount(0);
  // He now works in two pharmacies: the switcher offers both (he stays where he is).
  const switcher = page.getByRole('main').getByRole('combobox', { name: 'Pharmacy' });
  await expect(switcher).toHaveValue('uzima_chemists');
  await expect(switcher.getByRole('option')).toHaveText(['Afya Bora Pharmacy', 'Uzima Chemists']);

  // Afya Bora now sees the person as he is.
  await page.context().clearCookies();
  await signInAs(page, 'owner', { open: '/app/users' });
  await expect(page.getByRole('row', { name: new RegExp(USERS.trialOwner) })).toContainText('Joseph Mwangi');
  await expect(page.getByRole('row', { name: new RegExp(USERS.trialOwner) })).toContainText('Active');
});

test('a new person accepts by the emailed link, and switches between the two pharmacies they work in', async ({ page }) => {
  const email = `${unique('two-places')}@afyabora.test`;
  await signInAs(page, 'owner', { open: false });
  await invite(page, email, 'Amina Two', 'cashier');

  const link = await linkFromMailbox(page.request, email, '/accept-invite');
  await page.context().clearCookies();
  await page.goto(link);
  await page.getByRole('textbox', { name: 'Your name' }).fill('Amina Hassan');
  await passwordField(page, 'Password').fill(NEW_PASSWORD);
  await passwordField(page, 'Confirm Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Activate Account' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard/);

  // She opens a pharmacy of her own; she keeps her place at Afya Bora.
  const created = await page.request.post('/api/pharmacies', { data: { name: 'Amina Chemist' }, headers: { 'x-csrf-token': await csrfToken(page) } });
  expect(created.status()).toBe(201);

  await page.goto('/app/profile');
  await expect(page.getByRole('main')).toContainText('Amina Chemist');
  const switcher = page.getByRole('main').getByRole('combobox', { name: 'Pharmacy' });
  await switcher.selectOption({ label: 'Afya Bora Pharmacy' });
  await expect(page.getByText('You are now working in Afya Bora Pharmacy')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/dashboard/);
  await page.goto('/app/profile');
  await expect(page.getByRole('main')).toContainText('Afya Bora Pharmacy');
  await expect(page.getByRole('main')).toContainText('Cashier');
  await expect(page.getByRole('main').getByRole('textbox', { name: 'Name' })).toHaveValue('Amina Hassan');

  // And back.
  await page.getByRole('main').getByRole('combobox', { name: 'Pharmacy' }).selectOption({ label: 'Amina Chemist' });
  await expect(page.getByText('You are now working in Amina Chemist')).toBeVisible();
});
