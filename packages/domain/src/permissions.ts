/**
 * The permission catalogue, role defaults and helper checks of seed 000 section 6.
 * Written once here; the server enforces them on every route and the browser hides what a user cannot do.
 */

/** Every permission of the catalogue, grouped by area (seed 000 section 6, "Permission catalogue"). */
export const PERMISSION_CATALOGUE = {
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
} as const;

export type PermissionArea = keyof typeof PERMISSION_CATALOGUE;
/** A permission string of the form area:action. */
export type Permission = {
  [A in PermissionArea]: `${A}:${(typeof PERMISSION_CATALOGUE)[A][number]}`;
}[PermissionArea];

/** The flat list of every permission in the catalogue. */
export const ALL_PERMISSIONS: readonly Permission[] = (Object.keys(PERMISSION_CATALOGUE) as PermissionArea[]).flatMap(
  (area) => PERMISSION_CATALOGUE[area].map((action) => `${area}:${action}` as Permission),
);

/** The tenant catalogue the owner receives at paid registration (everything but the platform's saas area). */
export const TENANT_PERMISSIONS: readonly Permission[] = ALL_PERMISSIONS.filter((p) => !p.startsWith('saas:'));

/** Every role of seed 000 section 6. */
export const ROLES = ['owner', 'admin', 'manager', 'cashier', 'inventory', 'accounts', 'staff', 'user', 'demo'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a pharmacy can give its staff (demo is the platform's, owner comes with the pharmacy). */
export const STAFF_ROLES = ['admin', 'manager', 'cashier', 'inventory', 'accounts', 'staff', 'user'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Is this string a permission of the catalogue? */
export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

const MANAGER_PROFILE: Permission[] = [
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
];

/**
 * The manager fallback of seed 000: every permission except those with admin in the name.
 * The profile above is what a manager gets; the fallback is documented in docs/decisions/0003.
 */
export const MANAGER_FALLBACK: readonly Permission[] = TENANT_PERMISSIONS.filter((p) => !p.includes('admin'));

/**
 * Accounts staff have no row in the role table of seed 000; they keep the books.
 * Decision (docs/decisions/0003): dashboard, sales and purchase reads, supplier payments, financial reports.
 */
const ACCOUNTS_DEFAULTS: Permission[] = [
  'dashboard:view', 'dashboard:analytics', 'product:read', 'sales:read', 'purchase:read',
  'supplier:read', 'supplier:update', 'supplier:manage', 'contact:read', 'inventory:read',
  'report:sales', 'report:financial', 'report:export',
];

const CASHIER_DEFAULTS: Permission[] = ['dashboard:view', 'product:read', 'sales:create', 'sales:read', 'pos:access', 'inventory:read'];
const INVENTORY_DEFAULTS: Permission[] = [
  'dashboard:view', 'product:read', 'product:update', 'inventory:read', 'inventory:update', 'inventory:adjust',
  'inventory:transfer', 'purchase:create', 'purchase:read', 'supplier:read', 'report:inventory',
];
const STAFF_DEFAULTS: Permission[] = ['dashboard:view', 'product:read', 'sales:read', 'inventory:read'];
const USER_DEFAULTS: Permission[] = ['dashboard:view', 'product:read', 'sales:read'];
/** Demo: read-only views plus pos:access and branch read (seed 000 section 6). */
const DEMO_DEFAULTS: Permission[] = [
  'dashboard:view', 'product:read', 'sales:read', 'purchase:read', 'inventory:read', 'contact:read',
  'report:sales', 'report:inventory', 'pos:access', 'branch:read',
];

/** The default permissions of a role (seed 000 section 6, "Role defaults"); unknown roles get the staff set. */
export function roleDefaultPermissions(role: string): readonly Permission[] {
  switch (role) {
    case 'owner':
    case 'admin':
      return TENANT_PERMISSIONS;
    case 'manager':
      return MANAGER_PROFILE;
    case 'cashier':
      return CASHIER_DEFAULTS;
    case 'inventory':
      return INVENTORY_DEFAULTS;
    case 'accounts':
      return ACCOUNTS_DEFAULTS;
    case 'user':
      return USER_DEFAULTS;
    case 'demo':
      return DEMO_DEFAULTS;
    default:
      return STAFF_DEFAULTS;
  }
}

/** What a user is, for the permission rules. Mirrors the membership row plus platform flags. */
export interface PermissionSubject {
  role: string;
  roles?: readonly string[] | null;
  /** An explicit list overrides the role defaults; null or undefined means "use the role defaults". */
  permissions?: readonly string[] | null;
  isAdmin?: boolean;
  isOwner?: boolean;
  hasPOSAccess?: boolean;
  isDemoUser?: boolean;
  /** Platform operator (saas admin): gets everything. */
  isPlatformOperator?: boolean;
}

/** Demo users are denied any create, update, delete, manage, void, refund or admin permission (seed 000 section 6). */
const DENIED_FOR_DEMO = /create|update|delete|manage|void|refund|admin/;

/** Demo users: the isDemoUser flag or the demo role. */
export function isDemoSubject(subject: PermissionSubject): boolean {
  return Boolean(subject.isDemoUser) || subject.role === 'demo' || Boolean(subject.roles?.includes('demo'));
}

/** The single role plus the roles list, as the route guard reads them (seed 002 section 6). */
function rolesOf(subject: PermissionSubject): string[] {
  return [subject.role, ...(subject.roles ?? [])];
}

/**
 * Admin status: role admin or owner, a roles list containing them, or the isAdmin/isOwner flags.
 * A demo user is never an admin, whatever the flags say: the demo is view-only (seed 000 section 4).
 */
export function isAdminSubject(subject: PermissionSubject): boolean {
  if (isDemoSubject(subject)) return false;
  const roles = rolesOf(subject);
  return roles.includes('admin') || roles.includes('owner') || Boolean(subject.isAdmin) || Boolean(subject.isOwner);
}

/**
 * The effective permission list of a subject: '*' for admins, owners and operators; the explicit list when
 * there is one; otherwise the role defaults. Demo users never hold a write permission, whatever is stored.
 */
export function effectivePermissions(subject: PermissionSubject): readonly string[] {
  if (subject.isPlatformOperator) return ['*'];
  if (isAdminSubject(subject)) return ['*'];
  const base = subject.permissions ?? roleDefaultPermissions(subject.role);
  const list = new Set<string>(base);
  if (subject.hasPOSAccess) list.add('pos:access');
  if (isDemoSubject(subject)) {
    for (const permission of [...list]) if (permission === '*' || DENIED_FOR_DEMO.test(permission)) list.delete(permission);
  }
  return [...list];
}

/**
 * Does the subject hold this permission? '*' grants all; admin and owner bypass. The platform's own saas:*
 * permissions are the operator's alone (docs/decisions/0003): a tenant's '*' does not reach them.
 */
export function hasPermission(subject: PermissionSubject, permission: Permission): boolean {
  if (subject.isPlatformOperator) return true;
  const list: readonly string[] = effectivePermissions(subject);
  if (list.includes(permission)) return true;
  return list.includes('*') && !permission.startsWith('saas:');
}

/** Does the subject hold at least one of these permissions? */
export function hasAnyPermission(subject: PermissionSubject, permissions: readonly Permission[]): boolean {
  return permissions.some((p) => hasPermission(subject, p));
}

/** Does the subject hold every one of these permissions? */
export function hasAllPermissions(subject: PermissionSubject, permissions: readonly Permission[]): boolean {
  return permissions.every((p) => hasPermission(subject, p));
}

/** Manager: role manager (single or in the roles list); admins count. */
export const isManager = (s: PermissionSubject) => isAdminSubject(s) || rolesOf(s).includes('manager');
/** Cashier: role cashier (single or in the roles list). */
export const isCashier = (s: PermissionSubject) => rolesOf(s).includes('cashier');
/** Inventory staff: role inventory; admin counts (seed 000 section 6). */
export const isInventoryStaff = (s: PermissionSubject) => isAdminSubject(s) || rolesOf(s).includes('inventory');
/** Basic user: role user (not an admin), who sees only the welcome dashboard (seed 002 section 6). */
export const isBasicUser = (s: PermissionSubject) => s.role === 'user' && !isAdminSubject(s);
/** Reports: any report permission. */
export const canViewReports = (s: PermissionSubject) =>
  hasAnyPermission(s, PERMISSION_CATALOGUE.report.map((a): Permission => `report:${a}`));
/** POS access: pos:access, also granted by the hasPOSAccess flag. */
export const canAccessPOS = (s: PermissionSubject) => Boolean(s.hasPOSAccess) || hasPermission(s, 'pos:access');
/** Managing users needs user:manage_roles. */
export const canManageUsers = (s: PermissionSubject) => hasPermission(s, 'user:manage_roles');
/** Managing settings needs settings:system. */
export const canManageSettings = (s: PermissionSubject) => hasPermission(s, 'settings:system');
/** Managing inventory needs any of inventory update, adjust or transfer. */
export const canManageInventory = (s: PermissionSubject) =>
  hasAnyPermission(s, ['inventory:update', 'inventory:adjust', 'inventory:transfer']);
/**
 * Making sales: sales:create or POS access. A demo user may open the till (pos:access) but never completes a
 * sale: the demo is view-only.
 */
export const canMakeSales = (s: PermissionSubject) =>
  !isDemoSubject(s) && (canAccessPOS(s) || hasPermission(s, 'sales:create'));
/** Refunds need a POS refund permission (seed 000 section 6): pos:refund. */
export const canRefund = (s: PermissionSubject) => hasPermission(s, 'pos:refund');
/** Discounts: pos:discount or sales:discount. */
export const canGiveDiscounts = (s: PermissionSubject) => hasAnyPermission(s, ['pos:discount', 'sales:discount']);
/** Managing products: product create, update or delete. */
export const canManageProducts = (s: PermissionSubject) =>
  hasAnyPermission(s, ['product:create', 'product:update', 'product:delete']);
/** Managing prices needs product:manage_price. */
export const canManagePrices = (s: PermissionSubject) => hasPermission(s, 'product:manage_price');
/** Switching branch in the sale screen: admin role, branch:manage or user:manage_roles (seed 001 section 6). */
export const canSwitchPosBranch = (s: PermissionSubject) =>
  isAdminSubject(s) || hasAnyPermission(s, ['branch:manage', 'user:manage_roles']);
/** Settings group in the sidebar: admin/owner, settings:business or settings:system, never demo. */
export const canSeeSettings = (s: PermissionSubject) =>
  !isDemoSubject(s) && (isAdminSubject(s) || hasAnyPermission(s, ['settings:business', 'settings:system']));
