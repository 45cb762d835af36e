import { describe, expect, it } from 'vitest';
import type { PermissionSubject } from '@pharmapoint/domain/permissions';
import { NAV_GROUPS, groupForPath } from './navigation.ts';

function visible(subject: PermissionSubject) {
  return Object.fromEntries(
    NAV_GROUPS.filter((group) => group.visible(subject)).map((group) => [group.key, group.links.filter((link) => link.visible(subject)).map((link) => link.key)]),
  );
}

describe('sidebar visibility (seed 000 section 2, layout)', () => {
  it('shows every group and link to an owner', () => {
    const groups = visible({ role: 'owner', isOwner: true });
    expect(Object.keys(groups)).toEqual(['products', 'sales', 'purchases', 'stock', 'reports', 'settings']);
    expect(groups.products).toContain('addProduct');
    expect(groups.purchases).toEqual(['viewPurchases', 'newPurchase', 'purchaseReturns', 'contacts']);
    expect(groups.stock).toContain('newTransfer');
  });

  it('hides Add Product, New Purchase, Purchase Returns, New Transfer, Reports and Settings from demo users', () => {
    const groups = visible({ role: 'demo', isDemoUser: true });
    expect(groups.products).toEqual(['allProducts']);
    expect(groups.purchases).toEqual(['viewPurchases', 'contacts']);
    expect(groups.stock ?? []).not.toContain('newTransfer');
    expect(groups.reports).toBeUndefined();
    expect(groups.settings).toBeUndefined();
  });

  it('gives a basic user only the groups of their read permissions', () => {
    expect(Object.keys(visible({ role: 'user' }))).toEqual(['products', 'sales']);
  });

  it('needs report:sales for the Reports group', () => {
    expect(visible({ role: 'inventory' }).reports).toBeUndefined();
    expect(visible({ role: 'manager' }).reports).toContain('salesReport');
  });

  it('shows Settings for settings:business without settings:system, but not Branches', () => {
    const groups = visible({ role: 'staff', permissions: ['dashboard:view', 'settings:business'] });
    expect(groups.settings).toEqual(['settings']);
  });
});

describe('the group of the current path opens automatically', () => {
  it.each([
    ['/app/products/add', 'products'],
    ['/app/products/history/42', 'products'],
    ['/app/sales/returns', 'sales'],
    ['/app/allsales', 'sales'],
    ['/app/purchases/view', 'purchases'],
    ['/app/contacts/7', 'purchases'],
    ['/app/reports/view-adjustments', 'stock'],
    ['/app/reports/expiry', 'reports'],
    ['/app/users', 'settings'],
    ['/app/dashboard', null],
  ])('%s opens %s', (path, group) => {
    expect(groupForPath(path)).toBe(group);
  });
});
