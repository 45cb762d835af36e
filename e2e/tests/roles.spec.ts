import { expect, test, type Page } from '@playwright/test';
import { ACCESS_DENIED, sidebar, signInAs, type SeededUserKey } from './helpers';

const GROUPS = ['Products', 'Sales', 'Purchases', 'Transfers & Stock', 'Reports', 'Settings'] as const;
type Group = (typeof GROUPS)[number];

interface RoleCase {
  who: SeededUserKey;
  groups: readonly Group[];
  /** Paths that give the screen, with the screen's h1 when it is known. */
  reaches: readonly [path: string, heading?: string][];
  denied: readonly string[];
}

const CASES: readonly RoleCase[] = [
  {
    who: 'owner',
    groups: GROUPS,
    reaches: [['/app/settings', 'Settings'], ['/app/branches', 'Branches'], ['/app/users', 'Users & staff'], ['/app/reports/dda'], ['/app/subscription', 'Subscription'], ['/pos']],
    denied: [],
  },
  {
    who: 'manager',
    groups: ['Products', 'Sales', 'Purchases', 'Transfers & Stock', 'Reports', 'Settings'],
    reaches: [['/app/settings', 'Settings'], ['/app/users', 'Users & staff'], ['/app/reports/sales'], ['/app/stock-adjustments'], ['/pos']],
    denied: ['/app/branches', '/app/reports/dda', '/app/purchase-returns'],
  },
  {
    who: 'cashier',
    groups: ['Products', 'Sales'],
    reaches: [['/pos'], ['/app/products'], ['/app/allsales']],
    denied: ['/app/settings', '/app/branches', '/app/users', '/app/reports/sales', '/app/purchases/new', '/app/stock-adjustments'],
  },
  {
    who: 'inventory',
    groups: ['Products', 'Purchases', 'Transfers & Stock'],
    reaches: [['/app/products'], ['/app/stock-adjustments'], ['/app/stock-transfers'], ['/app/purchases/new'], ['/app/reports/low-stock']],
    denied: ['/pos', '/app/allsales', '/app/settings', '/app/reports/sales', '/app/users'],
  },
  {
    who: 'user',
    groups: ['Products', 'Sales'],
    reaches: [['/app/products'], ['/app/allsales']],
    denied: ['/pos', '/app/settings', '/app/branches', '/app/users', '/app/reports/sales', '/app/products/add', '/app/stock-adjustments'],
  },
  {
    who: 'demo',
    groups: ['Products', 'Sales', 'Purchases', 'Transfers & Stock'],
    reaches: [['/app/products'], ['/app/allsales'], ['/pos']],
    denied: ['/app/settings', '/app/branches', '/app/users', '/app/products/add', '/app/stock-adjustments'],
  },
];

/** The screen at `path` renders (its h1 is not Access Denied). */
async function expectReaches(page: Page, path: string, heading?: string) {
  await page.goto(path);
  const h1 = page.getByRole('heading', { level: 1 }).first();
  await expect(h1).toBeVisible();
  if (heading) await expect(h1).toHaveText(heading);
  await expect(h1).not.toHaveText('Access Denied');
  await expect(page.getByText(ACCESS_DENIED)).toHaveCount(0);
}

async function expectDenied(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Dashboard' }).last()).toBeVisible();
}

for (const role of CASES) {
  test(`${role.who}: sidebar groups and the routes the role can and cannot reach`, async ({ page }) => {
    await signInAs(page, role.who);
    await expect(page).toHaveURL(/\/app\/dashboard/);
    const nav = sidebar(page);
    for (const group of GROUPS) {
      const button = nav.getByRole('button', { name: group, exact: true });
      if (role.groups.includes(group)) await expect(button, `${group} group for ${role.who}`).toBeVisible();
      else await expect(button, `no ${group} group for ${role.who}`).toHaveCount(0);
    }
    for (const [path, heading] of role.reaches) await expectReaches(page, path, heading);
    for (const path of role.denied) await expectDenied(page, path);
  });
}

test('owner: the Settings group lists Settings, Branches, Users & staff and Subscription', async ({ page }) => {
  await signInAs(page, 'owner');
  const nav = sidebar(page);
  await nav.getByRole('button', { name: 'Settings', exact: true }).click();
  for (const link of ['Settings', 'Branches', 'Users & staff', 'Subscription']) {
    await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  await nav.getByRole('link', { name: 'Users & staff', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users & staff' })).toBeVisible();
});

test('manager: the Settings group has Settings and Users & staff but not Branches', async ({ page }) => {
  await signInAs(page, 'manager');
  const nav = sidebar(page);
  await nav.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(nav.getByRole('link', { name: 'Settings', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users & staff', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Branches', exact: true })).toHaveCount(0);
});

test('cashier: Open POS is offered and leads to the till, full screen, with a way back', async ({ page }) => {
  await signInAs(page, 'cashier');
  await page.getByRole('link', { name: 'Open POS' }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByText(ACCESS_DENIED)).toHaveCount(0);
  // The till has its own header (decision 0025): the breadcrumb names it, and Dashboard leads back.
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Point of Sale')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Search products' })).toBeFocused();
  await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
});

test('user: the basic welcome page instead of the dashboard figures', async ({ page }) => {
  await signInAs(page, 'user');
  await expect(page.getByRole('heading', { name: 'Daily Tips' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'System Status' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open POS' })).toHaveCount(0);
});

test('demo: the Demo Mode bar, View POS (Demo), and saving is disabled', async ({ page }) => {
  await signInAs(page, 'demo');
  await expect(page.getByText('Demo Mode — you are viewing sample data. Changes are not saved.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'View POS (Demo)' })).toBeVisible();
  await page.goto('/app/profile');
  await page.getByLabel('New PIN').fill('1234');
  await page.getByLabel('Current password').fill('Pharma#2026');
  const pinWrites: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && request.url().includes('/api/me/pin')) pinWrites.push(request.url());
  });
  await page.getByRole('button', { name: 'Save PIN' }).click();
  // Refused in the browser before anything is sent, with the specification's words (seed 000 section 4).
  await expect(page.getByText('Demo mode: Changes are not saved').first()).toBeVisible();
  expect(pinWrites).toEqual([]);
});
