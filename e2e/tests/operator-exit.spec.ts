import { expect, test, type Page } from '@playwright/test';
import { ACCESS_DENIED, csrfToken, linkFromMailbox, sidebar, signInAs, USERS } from './helpers';

/**
 * Issue 8 item 5: a platform operator who also works in a pharmacy leaves admin mode into that pharmacy: its
 * dashboard, with the menus of their membership there (a cashier's), not every menu and not 'No pharmacy context
 * available'. The seeded operator belongs to no pharmacy, so Afya Bora's owner invites them as a cashier here, and
 * deactivates that membership again at the end (shell.spec checks the operator without a pharmacy). The operator must
 * still be able to sign in with only a deactivated membership (a pharmacy cannot lock the platform's operator out):
 * the sign-in's LOGIN_DEACTIVATED rule exempts platform operators.
 */

async function operatorMembership(page: Page, active: boolean): Promise<void> {
  await page.context().clearCookies();
  await signInAs(page, 'owner', { open: false });
  const headers = { 'x-csrf-token': await csrfToken(page) };
  const list = await page.request.get('/api/users');
  expect(list.status()).toBe(200);
  const member = ((await list.json()) as { users: { id: string; email: string }[] }).users.find((u) => u.email === USERS.operator);
  if (!member) {
    if (!active) return;
    const invited = await page.request.post('/api/users/invite', { headers, data: { email: USERS.operator, name: 'Platform Operator', role: 'cashier', hasPosAccess: true } });
    expect(invited.status(), await invited.text()).toBe(201);
    return;
  }
  const patched = await page.request.patch(`/api/users/${member.id}`, { headers, data: { isActive: active } });
  expect(patched.status(), await patched.text()).toBe(200);
}

test('an operator who is also a cashier of a pharmacy exits admin mode into its dashboard with the cashier menus', async ({ page }) => {
  await operatorMembership(page, true);
  try {
    // The operator accepts the emailed invitation in their own session (decision 0015).
    const link = await linkFromMailbox(page.request, USERS.operator, '/accept-invite');
    await page.context().clearCookies();
    await signInAs(page, 'operator', { open: link, expectUrl: /\/accept-invite/ });
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(page).toHaveURL(/\/app\/dashboard$/);

    // Signed in again, they work in admin mode ...
    await page.context().clearCookies();
    await signInAs(page, 'operator', { open: '/app/admin/saas-dashboard' });
    await expect(page.getByText('Admin Mode — you are managing the PharmaPoint platform')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'SaaS Dashboard' })).toBeVisible();

    // ... and leave it into Afya Bora Pharmacy, as its cashier.
    await page.getByRole('button', { name: 'Exit Admin Mode' }).click();
    await expect(page).toHaveURL(/\/app\/dashboard$/);
    // The pharmacy's dashboard greets them as its cashier.
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Platform Operator');
    await expect(page.getByRole('main')).toContainText('Cashier');
    await expect(page.getByText('Afya Bora Pharmacy').first()).toBeVisible();
    await expect(page.getByText('Admin Mode — you are managing the PharmaPoint platform')).toHaveCount(0);
    await expect(page.getByText('No pharmacy context available')).toHaveCount(0);
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    // A cashier's menus (as roles.spec has them for the seeded cashier): Products and Sales, nothing else.
    const menu = sidebar(page);
    for (const group of ['Products', 'Sales']) await expect(menu.getByRole('button', { name: group, exact: true })).toBeVisible();
    for (const group of ['Purchases', 'Transfers & Stock', 'Reports', 'Settings']) await expect(menu.getByRole('button', { name: group, exact: true })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Admin Area' })).toBeVisible();

    // The pharmacy's screens work for them as for any cashier, and the others are refused.
    await page.goto('/app/products');
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await page.goto('/app/settings');
    await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  } finally {
    if (!page.isClosed()) await operatorMembership(page, false);
  }
});
