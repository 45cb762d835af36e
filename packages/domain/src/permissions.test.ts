import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  MANAGER_FALLBACK,
  PERMISSION_CATALOGUE,
  ROLES,
  TENANT_PERMISSIONS,
  canAccessPOS,
  canGiveDiscounts,
  canManageInventory,
  canManagePrices,
  canManageProducts,
  canManageSettings,
  canManageUsers,
  canMakeSales,
  canRefund,
  canSeeSettings,
  canSwitchPosBranch,
  canViewReports,
  effectivePermissions,
  hasAllPermissions,
  hasAnyPermission,
  hasPermission,
  isAdminSubject,
  isBasicUser,
  isCashier,
  isDemoSubject,
  isInventoryStaff,
  isManager,
  isPermission,
  roleDefaultPermissions,
  type PermissionSubject,
} from './permissions.ts';

const sorted = (list: readonly string[]) => [...list].sort();

describe('permission catalogue (seed 000 section 6, "Permission catalogue")', () => {
  it('lists every area and action of the specification', () => {
    expect(PERMISSION_CATALOGUE).toEqual({
      dashboard: ['view', 'analytics', 'admin'],
      product: ['create', 'read', 'update', 'delete', 'manage_price', 'view_history', 'import', 'export'],
      sales: ['create', 'read', 'update', 'delete', 'void', 'discount', 'refund'],
      pos: ['access', 'refund', 'discount', 'suspend_sale', 'price_override', 'admin'],
      purchase: ['create', 'read', 'update', 'delete', 'return', 'approve'],
      supplier: ['create', 'read', 'update', 'delete', 'manage'],
      contact: ['create', 'read', 'update', 'delete', 'manage'],
      inventory: ['read', 'update', 'manage', 'transfer', 'transfer:create', 'transfer:approve', 'adjust', 'alerts', 'settings'],
      report: ['sales', 'inventory', 'financial', 'export', 'advanced', 'admin'],
      settings: ['business', 'invoice', 'inventory', 'system', 'backup', 'store', 'admin'],
      user: ['create', 'read', 'update', 'delete', 'manage_roles', 'admin'],
      branch: ['create', 'read', 'update', 'delete', 'view_all', 'manage'],
      subscription: ['manage', 'view'],
      license: ['manage', 'view'],
      pharmacy: ['manage', 'settings', 'admin'],
      saas: ['admin', 'full_access', 'super_admin'],
    });
  });

  it('writes every permission as area:action', () => {
    expect(ALL_PERMISSIONS).toHaveLength(84);
    expect(ALL_PERMISSIONS).toContain('inventory:transfer:approve');
    for (const permission of ALL_PERMISSIONS) expect(permission).toMatch(/^[a-z]+:[a-z_:]+$/);
  });

  it('gives the owner the full tenant catalogue of seed 002 (everything but saas)', () => {
    expect(TENANT_PERMISSIONS).toHaveLength(81);
    expect(TENANT_PERMISSIONS.some((p) => p.startsWith('saas:'))).toBe(false);
  });

  it('recognises catalogue permissions and rejects others', () => {
    expect(isPermission('pos:access')).toBe(true);
    expect(isPermission('read:all')).toBe(false);
  });

  it('knows the nine roles of seed 000', () => {
    expect(ROLES).toEqual(['owner', 'admin', 'manager', 'cashier', 'inventory', 'accounts', 'staff', 'user', 'demo']);
  });
});

describe('role defaults (seed 000 section 6, "Role defaults")', () => {
  it('gives a manager the manager profile', () => {
    // "dashboard view and analytics; product create, read, update, manage_price; sales create, read, void,
    // refund, discount; pos access, refund, discount; inventory read, update, transfer, adjust; purchase create,
    // read; supplier read; report sales, inventory, financial; settings business; user read"
    expect(sorted(roleDefaultPermissions('manager'))).toEqual(
      sorted([
        'dashboard:view', 'dashboard:analytics',
        'product:create', 'product:read', 'product:update', 'product:manage_price',
        'sales:create', 'sales:read', 'sales:void', 'sales:refund', 'sales:discount',
        'pos:access', 'pos:refund', 'pos:discount',
        'inventory:read', 'inventory:update', 'inventory:transfer', 'inventory:adjust',
        'purchase:create', 'purchase:read',
        'supplier:read',
        'report:sales', 'report:inventory', 'report:financial',
        'settings:business',
        'user:read',
      ]),
    );
  });

  it('offers the manager fallback: every permission except those with admin in the name', () => {
    expect(MANAGER_FALLBACK.some((p) => p.includes('admin'))).toBe(false);
    expect(MANAGER_FALLBACK).toContain('user:manage_roles');
    expect(MANAGER_FALLBACK).toContain('settings:system');
    expect(MANAGER_FALLBACK).not.toContain('pos:admin');
  });

  it('gives a cashier dashboard view, product read, sales create and read, pos access, inventory read', () => {
    expect(sorted(roleDefaultPermissions('cashier'))).toEqual(
      sorted(['dashboard:view', 'product:read', 'sales:create', 'sales:read', 'pos:access', 'inventory:read']),
    );
  });

  it('gives inventory staff product read/update, inventory read/update/adjust/transfer, purchase create/read, supplier read, inventory report', () => {
    expect(sorted(roleDefaultPermissions('inventory'))).toEqual(
      sorted([
        'dashboard:view', 'product:read', 'product:update', 'inventory:read', 'inventory:update', 'inventory:adjust',
        'inventory:transfer', 'purchase:create', 'purchase:read', 'supplier:read', 'report:inventory',
      ]),
    );
  });

  it('gives staff dashboard view, product read, sales read, inventory read', () => {
    expect(sorted(roleDefaultPermissions('staff'))).toEqual(
      sorted(['dashboard:view', 'product:read', 'sales:read', 'inventory:read']),
    );
  });

  it('gives any unknown role the staff set', () => {
    expect(roleDefaultPermissions('pharmacist')).toEqual(roleDefaultPermissions('staff'));
  });

  it('gives a user dashboard view, product read, sales read', () => {
    expect(sorted(roleDefaultPermissions('user'))).toEqual(sorted(['dashboard:view', 'product:read', 'sales:read']));
  });

  it('gives demo the read-only list: reads, sales and inventory reports, pos access, branch read', () => {
    expect(sorted(roleDefaultPermissions('demo'))).toEqual(
      sorted([
        'dashboard:view', 'product:read', 'sales:read', 'purchase:read', 'inventory:read', 'contact:read',
        'report:sales', 'report:inventory', 'pos:access', 'branch:read',
      ]),
    );
  });

  it('gives accounts the bookkeeping set of docs/decisions/0003 (no row in the specification)', () => {
    const accounts = roleDefaultPermissions('accounts');
    expect(accounts).toContain('report:financial');
    expect(accounts).toContain('supplier:manage');
    expect(accounts).not.toContain('pos:access');
    expect(accounts).not.toContain('sales:create');
  });

  it('gives owner and admin the whole tenant catalogue', () => {
    expect(roleDefaultPermissions('owner')).toEqual(TENANT_PERMISSIONS);
    expect(roleDefaultPermissions('admin')).toEqual(TENANT_PERMISSIONS);
  });
});

describe('effective permissions (seed 000 section 6)', () => {
  it('uses the role defaults when the user has no explicit list', () => {
    expect(sorted(effectivePermissions({ role: 'user' }))).toEqual(sorted(roleDefaultPermissions('user')));
  });

  it('lets an explicit permission list on a user override the role defaults', () => {
    const subject = { role: 'cashier', permissions: ['report:sales'] };
    expect(effectivePermissions(subject)).toEqual(['report:sales']);
    expect(hasPermission(subject, 'report:sales')).toBe(true);
    expect(hasPermission(subject, 'pos:access')).toBe(false);
  });

  it('treats an empty explicit list as no permissions at all', () => {
    expect(hasPermission({ role: 'manager', permissions: [] }, 'dashboard:view')).toBe(false);
  });

  it("lets '*' grant all", () => {
    const subject = { role: 'staff', permissions: ['*'] };
    expect(hasPermission(subject, 'user:manage_roles')).toBe(true);
    expect(hasAllPermissions(subject, TENANT_PERMISSIONS)).toBe(true);
  });

  it('grants pos:access through the hasPOSAccess flag', () => {
    const subject = { role: 'staff', hasPOSAccess: true };
    expect(hasPermission({ role: 'staff' }, 'pos:access')).toBe(false);
    expect(hasPermission(subject, 'pos:access')).toBe(true);
    expect(effectivePermissions(subject)).toContain('pos:access');
  });
});

describe('admin and owner bypass (seed 000 section 6)', () => {
  const everything = (subject: PermissionSubject) => hasAllPermissions(subject, TENANT_PERMISSIONS);

  it('gives role admin every permission', () => {
    expect(isAdminSubject({ role: 'admin' })).toBe(true);
    expect(everything({ role: 'admin', permissions: [] })).toBe(true);
  });

  it('gives role owner every permission', () => {
    expect(everything({ role: 'owner', permissions: [] })).toBe(true);
  });

  it('gives admin status through a roles list containing owner or admin', () => {
    expect(isAdminSubject({ role: 'cashier', roles: ['owner'] })).toBe(true);
    expect(everything({ role: 'cashier', roles: ['admin'], permissions: [] })).toBe(true);
  });

  it('gives admin status through the isAdmin flag', () => {
    expect(everything({ role: 'staff', isAdmin: true })).toBe(true);
  });

  it('gives admin status through the isOwner flag', () => {
    expect(everything({ role: 'staff', isOwner: true })).toBe(true);
  });

  it("answers '*' as the effective list of an admin", () => {
    expect(effectivePermissions({ role: 'owner' })).toEqual(['*']);
  });

  it('does not make an ordinary role an admin', () => {
    expect(isAdminSubject({ role: 'manager', roles: ['manager'] })).toBe(false);
  });

  it('keeps the platform saas permissions for the operator (docs/decisions/0003)', () => {
    expect(hasPermission({ role: 'owner' }, 'saas:admin')).toBe(false);
    expect(hasPermission({ role: 'staff', isPlatformOperator: true }, 'saas:admin')).toBe(true);
    expect(hasPermission({ role: 'staff', isPlatformOperator: true }, 'settings:system')).toBe(true);
  });
});

describe('demo users (seed 000 section 6: "Any create, update, delete, manage, void, refund or admin permission is denied")', () => {
  const writes = ALL_PERMISSIONS.filter((p) => /create|update|delete|manage|void|refund|admin/.test(p));

  it('never holds a write permission even when the stored list grants it', () => {
    const subject = { role: 'demo', isDemoUser: true, permissions: [...ALL_PERMISSIONS, '*'] };
    expect(writes.length).toBeGreaterThan(30);
    for (const permission of writes) expect(hasPermission(subject, permission)).toBe(false);
  });

  it('keeps read permissions from the stored list', () => {
    expect(hasPermission({ role: 'demo', permissions: ['report:financial', 'sales:refund'] }, 'report:financial')).toBe(true);
  });

  it('is never an admin, even with the admin flags', () => {
    const subject = { role: 'demo', isDemoUser: true, isAdmin: true, isOwner: true };
    expect(isAdminSubject(subject)).toBe(false);
    expect(hasPermission(subject, 'product:create')).toBe(false);
  });

  it('counts the demo flag on another role as demo', () => {
    expect(isDemoSubject({ role: 'admin', isDemoUser: true })).toBe(true);
    expect(hasPermission({ role: 'admin', isDemoUser: true }, 'product:delete')).toBe(false);
  });

  it('may open the till but not sell', () => {
    expect(canAccessPOS({ role: 'demo' })).toBe(true);
    expect(canMakeSales({ role: 'demo' })).toBe(false);
  });
});

describe('any and all checks', () => {
  it('passes "any" when one permission is held', () => {
    expect(hasAnyPermission({ role: 'cashier' }, ['report:sales', 'pos:access'])).toBe(true);
  });

  it('fails "all" when one permission is missing', () => {
    expect(hasAllPermissions({ role: 'cashier' }, ['report:sales', 'pos:access'])).toBe(false);
  });
});

describe('helper checks (seed 000 section 6, "Helper checks")', () => {
  it('isManager: role manager, admins count', () => {
    expect(isManager({ role: 'manager' })).toBe(true);
    expect(isManager({ role: 'owner' })).toBe(true);
    expect(isManager({ role: 'cashier' })).toBe(false);
  });

  it('isCashier: role cashier', () => {
    expect(isCashier({ role: 'cashier' })).toBe(true);
    expect(isCashier({ role: 'staff', roles: ['cashier'] })).toBe(true);
    expect(isCashier({ role: 'manager' })).toBe(false);
  });

  it('isInventoryStaff: role inventory, admin counts', () => {
    expect(isInventoryStaff({ role: 'inventory' })).toBe(true);
    expect(isInventoryStaff({ role: 'admin' })).toBe(true);
    expect(isInventoryStaff({ role: 'staff', isAdmin: true })).toBe(true);
    expect(isInventoryStaff({ role: 'cashier' })).toBe(false);
  });

  it('isBasicUser: role user', () => {
    expect(isBasicUser({ role: 'user' })).toBe(true);
    expect(isBasicUser({ role: 'staff' })).toBe(false);
    expect(isBasicUser({ role: 'user', isOwner: true })).toBe(false);
  });

  it('canViewReports needs any report permission', () => {
    expect(canViewReports({ role: 'staff', permissions: ['report:export'] })).toBe(true);
    expect(canViewReports({ role: 'inventory' })).toBe(true);
    expect(canViewReports({ role: 'cashier' })).toBe(false);
  });

  it('canAccessPOS: pos:access or the hasPOSAccess flag', () => {
    expect(canAccessPOS({ role: 'cashier' })).toBe(true);
    expect(canAccessPOS({ role: 'staff', hasPOSAccess: true })).toBe(true);
    expect(canAccessPOS({ role: 'staff' })).toBe(false);
  });

  it('canManageUsers needs user:manage_roles', () => {
    expect(canManageUsers({ role: 'staff', permissions: ['user:manage_roles'] })).toBe(true);
    expect(canManageUsers({ role: 'manager' })).toBe(false);
    expect(canManageUsers({ role: 'owner' })).toBe(true);
  });

  it('canManageSettings needs settings:system', () => {
    expect(canManageSettings({ role: 'staff', permissions: ['settings:system'] })).toBe(true);
    expect(canManageSettings({ role: 'manager' })).toBe(false);
  });

  it('canManageInventory needs any of inventory update, adjust or transfer', () => {
    expect(canManageInventory({ role: 'staff', permissions: ['inventory:update'] })).toBe(true);
    expect(canManageInventory({ role: 'staff', permissions: ['inventory:adjust'] })).toBe(true);
    expect(canManageInventory({ role: 'staff', permissions: ['inventory:transfer'] })).toBe(true);
    expect(canManageInventory({ role: 'staff', permissions: ['inventory:read', 'inventory:manage'] })).toBe(false);
  });

  it('canMakeSales: sales:create or POS access', () => {
    expect(canMakeSales({ role: 'cashier' })).toBe(true);
    expect(canMakeSales({ role: 'staff', permissions: ['sales:create'] })).toBe(true);
    expect(canMakeSales({ role: 'staff', hasPOSAccess: true })).toBe(true);
    expect(canMakeSales({ role: 'staff' })).toBe(false);
  });

  it('canRefund needs a POS refund permission', () => {
    expect(canRefund({ role: 'manager' })).toBe(true);
    expect(canRefund({ role: 'staff', permissions: ['pos:refund'] })).toBe(true);
    expect(canRefund({ role: 'staff', permissions: ['sales:refund'] })).toBe(false);
    expect(canRefund({ role: 'cashier' })).toBe(false);
  });

  it('canGiveDiscounts: pos:discount or sales:discount', () => {
    expect(canGiveDiscounts({ role: 'staff', permissions: ['pos:discount'] })).toBe(true);
    expect(canGiveDiscounts({ role: 'staff', permissions: ['sales:discount'] })).toBe(true);
    expect(canGiveDiscounts({ role: 'cashier' })).toBe(false);
  });

  it('canManageProducts: product create, update or delete', () => {
    expect(canManageProducts({ role: 'inventory' })).toBe(true);
    expect(canManageProducts({ role: 'staff', permissions: ['product:delete'] })).toBe(true);
    expect(canManageProducts({ role: 'cashier' })).toBe(false);
  });

  it('canManagePrices needs product:manage_price', () => {
    expect(canManagePrices({ role: 'manager' })).toBe(true);
    expect(canManagePrices({ role: 'inventory' })).toBe(false);
  });

  it('canSwitchPosBranch: admin role, branch:manage or user:manage_roles (seed 001 section 6)', () => {
    expect(canSwitchPosBranch({ role: 'admin' })).toBe(true);
    expect(canSwitchPosBranch({ role: 'staff', permissions: ['branch:manage'] })).toBe(true);
    expect(canSwitchPosBranch({ role: 'staff', permissions: ['user:manage_roles'] })).toBe(true);
    expect(canSwitchPosBranch({ role: 'manager' })).toBe(false);
    expect(canSwitchPosBranch({ role: 'cashier' })).toBe(false);
  });

  it('canSeeSettings: admins and holders of settings:business or settings:system, never demo', () => {
    expect(canSeeSettings({ role: 'owner' })).toBe(true);
    expect(canSeeSettings({ role: 'manager' })).toBe(true);
    expect(canSeeSettings({ role: 'staff', permissions: ['settings:system'] })).toBe(true);
    expect(canSeeSettings({ role: 'cashier' })).toBe(false);
    expect(canSeeSettings({ role: 'demo', permissions: ['settings:business'] })).toBe(false);
  });
});
