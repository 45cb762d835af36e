import type { Permission, PermissionSubject } from '@pharmapoint/domain/permissions';
import { canSeeSettings, hasAnyPermission, hasPermission, isAdminSubject } from '@pharmapoint/domain/permissions';

/** The sidebar's groups and links with the visibility rules of seed 000 / seed 002 section 2 (layout). */
export interface NavLinkItem {
  /** Key in the shell namespace: nav.links.<key>. */
  key: string;
  to: string;
  visible: (subject: PermissionSubject) => boolean;
}

export interface NavGroup {
  key: 'products' | 'sales' | 'purchases' | 'stock' | 'reports' | 'settings';
  /** Paths that open this group automatically. */
  matches: readonly string[];
  visible: (subject: PermissionSubject) => boolean;
  links: readonly NavLinkItem[];
}

const isDemo = (s: PermissionSubject) => Boolean(s.isDemoUser) || s.role === 'demo';
const can = (...permissions: Permission[]) => (s: PermissionSubject) => hasAnyPermission(s, permissions);
/** Write links: the permission, and never for demo users. */
const write = (...permissions: Permission[]) => (s: PermissionSubject) => !isDemo(s) && hasAnyPermission(s, permissions);
const always = () => true;

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    key: 'products',
    matches: ['/app/products'],
    visible: can('product:read'),
    links: [
      { key: 'allProducts', to: '/app/products', visible: can('product:read') },
      { key: 'addProduct', to: '/app/products/add', visible: write('product:create') },
      { key: 'bulkImport', to: '/app/products/bulk-import', visible: write('product:create') },
    ],
  },
  {
    key: 'sales',
    matches: ['/app/allsales', '/app/suspended-sales', '/app/sales'],
    visible: can('sales:read'),
    links: [
      { key: 'allSales', to: '/app/allsales', visible: can('sales:read') },
      { key: 'suspendedSales', to: '/app/suspended-sales', visible: can('sales:read') },
      { key: 'salesReturns', to: '/app/sales/returns', visible: can('sales:read') },
      { key: 'salesDocuments', to: '/app/sales/documents', visible: can('sales:read') },
      { key: 'paymentSummary', to: '/app/sales/payment-summary', visible: can('sales:read') },
      // The till's M-Pesa requests and the money to reconcile (decision 0068).
      { key: 'mpesaPayments', to: '/app/sales/mpesa-payments', visible: can('report:financial', 'settings:admin') },
    ],
  },
  {
    key: 'purchases',
    matches: ['/app/purchases', '/app/purchase-returns', '/app/contacts'],
    visible: can('purchase:read', 'contact:read'),
    links: [
      { key: 'viewPurchases', to: '/app/purchases/view', visible: can('purchase:read') },
      { key: 'newPurchase', to: '/app/purchases/new', visible: write('purchase:create') },
      { key: 'purchaseReturns', to: '/app/purchase-returns', visible: (s) => write('purchase:create')(s) && hasPermission(s, 'purchase:return') },
      { key: 'contacts', to: '/app/contacts', visible: can('contact:read') },
    ],
  },
  {
    key: 'stock',
    matches: ['/app/stock-transfers', '/app/stock-adjustments'],
    visible: can('inventory:read'),
    links: [
      { key: 'newTransfer', to: '/app/stock-transfers', visible: write('inventory:transfer', 'inventory:transfer:create') },
      { key: 'stockAdjustments', to: '/app/stock-adjustments', visible: write('inventory:adjust') },
      { key: 'viewAdjustments', to: '/app/reports/view-adjustments', visible: can('report:inventory') },
    ],
  },
  {
    key: 'reports',
    matches: ['/app/reports'],
    visible: (s) => !isDemo(s) && hasPermission(s, 'report:sales'),
    links: [
      { key: 'salesReport', to: '/app/reports/sales', visible: can('report:sales') },
      { key: 'supplierBalances', to: '/app/reports/suppliers', visible: can('report:financial') },
      { key: 'expenses', to: '/app/reports/expenses', visible: can('report:financial') },
      { key: 'expiry', to: '/app/reports/expiry', visible: can('report:inventory') },
      { key: 'lowStock', to: '/app/reports/low-stock', visible: can('report:inventory') },
      { key: 'inventory', to: '/app/reports/inventory', visible: can('report:inventory') },
      { key: 'refillAlerts', to: '/app/reports/refill-alerts', visible: can('report:inventory') },
      { key: 'stockAdjustmentsReport', to: '/app/reports/stock-adjustments', visible: can('report:inventory') },
      { key: 'stockTransfersReport', to: '/app/reports/stock-transfers', visible: can('report:inventory') },
      { key: 'ddaRegister', to: '/app/reports/dda', visible: can('report:advanced') },
    ],
  },
  {
    key: 'settings',
    matches: ['/app/settings', '/app/branches', '/app/users', '/app/subscription', '/app/upgrade'],
    visible: (s) => !isDemo(s) && canSeeSettings(s),
    links: [
      { key: 'settings', to: '/app/settings', visible: can('settings:system', 'settings:business') },
      { key: 'branches', to: '/app/branches', visible: can('settings:system') },
      { key: 'users', to: '/app/users', visible: can('user:read') },
      { key: 'subscription', to: '/app/subscription', visible: (s) => isAdminSubject(s) || hasAnyPermission(s, ['subscription:view', 'subscription:manage']) },
      { key: 'hostingPayment', to: '/app/subscription#hosting-payment', visible: (s) => isAdminSubject(s) || hasPermission(s, 'subscription:manage') },
    ],
  },
];

/** Links outside the groups. */
export const NAV_TOP_LINKS: readonly NavLinkItem[] = [{ key: 'dashboard', to: '/app/dashboard', visible: always }];
export const NAV_BOTTOM_LINKS: readonly NavLinkItem[] = [
  { key: 'profile', to: '/app/profile', visible: always },
  { key: 'manual', to: '/app/manual', visible: always },
];

/** The group the current path belongs to (opened automatically). */
export function groupForPath(pathname: string): NavGroup['key'] | null {
  if (pathname.startsWith('/app/reports/view-adjustments')) return 'stock';
  const group = NAV_GROUPS.find((g) => g.matches.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`)));
  return group?.key ?? null;
}
