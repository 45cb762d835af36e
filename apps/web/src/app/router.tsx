import { Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import type { Permission } from '@pharmapoint/domain/permissions';
import { LoadingState } from '@/components/ui/loading-state';
import { RequireOperator, RequirePermission, RequireUser, AccessDenied } from '@/app/guards';
import { RootErrorBoundary, ScreenErrorBoundary } from '@/app/error-boundaries';
import { RootLayout } from '@/app/layout/root-layout';
import { UnknownPathRedirect } from '@/app/layout/unknown-path-redirect';
import { lazyScreen } from '@/app/lazy-screen';
import { isWellFormedId, NotFoundScreen } from '@/app/not-found-screen';
import type { RouteHandle } from '@/app/document-title';

/**
 * Every screen is its own chunk: the entry carries only the shell (seed 000 section 2, lazy screens). A chunk that
 * cannot be fetched (offline) shows 'You are offline' with a retry instead of an error (app/lazy-screen.tsx).
 */
type Screen = LazyExoticComponent<ComponentType>;
const screen = (load: () => Promise<{ default: ComponentType }>): Screen => lazyScreen(load);

// The signed-in and admin shells are chunks of their own too: the landing page does not carry them.
const AppLayout = lazyScreen(() => import('@/app/layout/app-layout').then((module) => ({ default: module.AppLayout })));
const PosLayout = lazyScreen(() => import('@/features/pos/routes/pos-layout'));
const AdminLayout = lazyScreen(() => import('@/app/layout/admin-layout').then((module) => ({ default: module.AdminLayout })));

const Landing = screen(() => import('@/features/public/routes/landing-page'));
const Demo = screen(() => import('@/features/public/routes/demo-page'));
const DemoRegister = screen(() => import('@/features/public/routes/demo-register-page'));
const DemoAccess = screen(() => import('@/features/public/routes/demo-access-page'));
const Purchase = screen(() => import('@/features/public/routes/purchase-page'));
const PaymentConfirmation = screen(() => import('@/features/public/routes/payment-confirmation-page'));
const PasswordSetup = screen(() => import('@/features/public/routes/password-setup-page'));
const AdminRecovery = screen(() => import('@/features/public/routes/admin-recovery-page'));
const Login = screen(() => import('@/features/auth/routes/login-page'));
const ForgotPassword = screen(() => import('@/features/auth/routes/forgot-password-page'));
const ResetPassword = screen(() => import('@/features/auth/routes/reset-password-page'));
const VerifyEmail = screen(() => import('@/features/auth/routes/verify-email-page'));
const AcceptInvite = screen(() => import('@/features/auth/routes/accept-invite-page'));
const ChoosePharmacy = screen(() => import('@/features/auth/routes/choose-pharmacy-page'));
const Profile = screen(() => import('@/features/auth/routes/profile-page'));
const Pos = screen(() => import('@/features/pos/routes/pos-page'));
const Dashboard = screen(() => import('@/features/dashboard/routes/dashboard-page'));
const Manual = screen(() => import('@/features/manual/routes/manual-page'));
const Subscription = screen(() => import('@/features/subscription/routes/subscription-page'));
const PermissionDebugger = screen(() => import('@/features/debug/routes/permission-debugger-page'));
const Products = screen(() => import('@/features/products/routes/products-page'));
const ProductHistory = screen(() => import('@/features/products/routes/product-history-page'));
const ProductForm = screen(() => import('@/features/products/routes/product-form-page'));
const BulkImport = screen(() => import('@/features/products/routes/bulk-import-page'));
const Branches = screen(() => import('@/features/branches/routes/branches-page'));
const Settings = screen(() => import('@/features/settings/routes/settings-page'));
const Users = screen(() => import('@/features/users/routes/users-page'));
const AllSales = screen(() => import('@/features/sales/routes/all-sales-page'));
const SuspendedSales = screen(() => import('@/features/sales/routes/suspended-sales-page'));
const SalesReturns = screen(() => import('@/features/sales/routes/sales-returns-page'));
const SalesDocuments = screen(() => import('@/features/sales/routes/sales-documents-page'));
const PaymentSummary = screen(() => import('@/features/sales/routes/payment-summary-page'));
const MpesaPayments = screen(() => import('@/features/sales/routes/mpesa-payments-page'));
const PurchaseForm = screen(() => import('@/features/purchases/routes/purchase-form-page'));
const PurchasesView = screen(() => import('@/features/purchases/routes/purchases-view-page'));
const PurchaseReturns = screen(() => import('@/features/purchases/routes/purchase-returns-page'));
const PurchaseReturnCreate = screen(() => import('@/features/purchases/routes/purchase-return-create-page'));
const Contacts = screen(() => import('@/features/contacts/routes/contacts-page'));
const ContactDetail = screen(() => import('@/features/contacts/routes/contact-detail-page'));
const SalesReport = screen(() => import('@/features/reports/routes/sales-report-page'));
const ExpensesReport = screen(() => import('@/features/reports/routes/expenses-report-page'));
const SuppliersReport = screen(() => import('@/features/reports/routes/suppliers-report-page'));
const ExpiryReport = screen(() => import('@/features/reports/routes/expiry-report-page'));
const LowStockReport = screen(() => import('@/features/reports/routes/low-stock-report-page'));
const InventoryReport = screen(() => import('@/features/reports/routes/inventory-report-page'));
const RefillAlerts = screen(() => import('@/features/reports/routes/refill-alerts-page'));
const StockAdjustmentsReport = screen(() => import('@/features/reports/routes/stock-adjustments-report-page'));
const StockTransfersReport = screen(() => import('@/features/reports/routes/stock-transfers-report-page'));
const DdaReport = screen(() => import('@/features/reports/routes/dda-report-page'));
const StockTransfers = screen(() => import('@/features/stock/routes/stock-transfers-page'));
const StockAdjustments = screen(() => import('@/features/stock/routes/stock-adjustments-page'));
const ViewAdjustments = screen(() => import('@/features/stock/routes/view-adjustments-page'));
const SaasDashboard = screen(() => import('@/features/admin/routes/saas-dashboard-page'));
const AdminDemos = screen(() => import('@/features/admin/routes/demos-page'));
const AdminAnalytics = screen(() => import('@/features/admin/routes/analytics-page'));
const AdminReports = screen(() => import('@/features/admin/routes/reports-page'));
const CustomerSetup = screen(() => import('@/features/admin/routes/customer-setup-page'));
const Customers = screen(() => import('@/features/admin/routes/customers-page'));
const ThemeCustomizer = screen(() => import('@/features/admin/routes/theme-customizer-page'));
const Hosting = screen(() => import('@/features/admin/routes/hosting-page'));
const Database = screen(() => import('@/features/admin/routes/database-page'));

interface Guard {
  any?: readonly Permission[];
  all?: readonly Permission[];
}

/** A route whose :id is not a well-formed id shows the not-found state (nothing can be there; no retry helps). */
function WithWellFormedId({ children }: { children: ReactNode }) {
  const { id } = useParams();
  return isWellFormedId(id) ? children : <NotFoundScreen />;
}

function render(Component: Screen, guard?: Guard, fullScreen = false, checkId = false): ReactNode {
  const loaded = (
    <Suspense fallback={<LoadingState fullScreen={fullScreen} />}>
      <Component />
    </Suspense>
  );
  const content = checkId ? <WithWellFormedId>{loaded}</WithWellFormedId> : loaded;
  return guard ? (
    <RequirePermission any={guard.any} all={guard.all}>
      {content}
    </RequirePermission>
  ) : (
    content
  );
}

const titled = (title: string): RouteHandle => ({ title: `shell:titles.${title}` });

/** A route whose render errors stay inside it (Something went wrong), under the layout; its title names it. */
/** Short paths the specification's sidebar links to, and the report each reaches under /app/reports. */
const SHORT_REPORT_LINKS: Record<string, string> = {
  '/suppliers': 'suppliers',
  '/expenses': 'expenses',
  '/expiry': 'expiry',
  '/low-stock': 'low-stock',
  '/inventory': 'inventory',
  '/refill-alerts': 'refill-alerts',
  '/dda': 'dda',
};

function page(path: string, Component: Screen, title: string, guard?: Guard): RouteObject {
  const checkId = /(^|\/):id$/.test(path);
  return { path, element: render(Component, guard, false, checkId), errorElement: <ScreenErrorBoundary />, handle: titled(title) };
}

/** A full-page public route. */
function publicPage(path: string, Component: Screen, title: string): RouteObject {
  return { path, element: render(Component, undefined, true), errorElement: <ScreenErrorBoundary />, handle: titled(title) };
}

/** The signed-in layout (sidebar, banners, session lock) around its children. */
const signedInShell = (
  <RequireUser>
    <Suspense fallback={<LoadingState fullScreen />}>
      <AppLayout />
    </Suspense>
  </RequireUser>
);

const any = (...permissions: Permission[]): Guard => ({ any: permissions });

/** The route table of seed 000 section 2 and seed 002 section 2, with the guards of the specification. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RootErrorBoundary />,
    children: [
      publicPage('/', Landing, 'landing'),
      publicPage('/landing', Landing, 'landing'),
      publicPage('/demo', Demo, 'demo'),
      publicPage('/demo-register', DemoRegister, 'demoRegister'),
      publicPage('/demo-access', DemoAccess, 'demoAccess'),
      publicPage('/purchase', Purchase, 'purchase'),
      publicPage('/payment-confirmation', PaymentConfirmation, 'paymentConfirmation'),
      publicPage('/password-setup', PasswordSetup, 'passwordSetup'),
      publicPage('/admin-recovery', AdminRecovery, 'adminRecovery'),
      publicPage('/login', Login, 'login'),
      publicPage('/forgot-password', ForgotPassword, 'forgotPassword'),
      publicPage('/reset-password', ResetPassword, 'resetPassword'),
      publicPage('/verify-email', VerifyEmail, 'verifyEmail'),
      publicPage('/accept-invite', AcceptInvite, 'acceptInvite'),
      { path: '/choose-pharmacy', element: <RequireUser>{render(ChoosePharmacy, undefined, true)}</RequireUser>, errorElement: <ScreenErrorBoundary />, handle: titled('choosePharmacy') },
      { path: '/unauthorized', element: <AccessDenied />, handle: titled('unauthorized') },
      { path: '/dashboard', element: <Navigate to="/app/dashboard" replace /> },
      { path: '/products', element: <Navigate to="/app/products" replace /> },
      // The sidebar's short report links reach their reports (the reports' own guards then apply).
      ...Object.entries(SHORT_REPORT_LINKS).map(([path, report]) => ({ path, element: <Navigate to={`/app/reports/${report}`} replace /> })),
      { path: '/trial', element: <Navigate to="/demo-register" replace /> },
      { path: '/register', element: <Navigate to="/demo-register" replace /> },
      {
        path: '/app/admin',
        element: (
          <RequireOperator>
            <Suspense fallback={<LoadingState fullScreen />}>
              <AdminLayout />
            </Suspense>
          </RequireOperator>
        ),
        children: [
          { index: true, element: <Navigate to="saas-dashboard" replace /> },
          page('saas-dashboard', SaasDashboard, 'saasDashboard'),
          page('dashboard', SaasDashboard, 'saasDashboard'),
          page('demos', AdminDemos, 'adminDemos'),
          page('analytics', AdminAnalytics, 'adminAnalytics'),
          page('reports', AdminReports, 'adminReports'),
          page('customers/new', CustomerSetup, 'customerSetup'),
          page('customers', Customers, 'customers'),
          page('theme-customizer', ThemeCustomizer, 'themeCustomizer'),
          page('hosting', Hosting, 'hosting'),
          page('database', Database, 'database'),
        ],
      },
      // The till takes the whole screen with its own header (decision 0025); its frame keeps the session lock and
      // the demo guard of the signed-in shell.
      {
        element: (
          <RequireUser>
            <Suspense fallback={<LoadingState fullScreen />}>
              <PosLayout />
            </Suspense>
          </RequireUser>
        ),
        children: [page('/pos', Pos, 'pos', any('pos:access'))],
      },
      {
        path: '/app',
        element: signedInShell,
        children: [
          { index: true, element: <Navigate to="/app/dashboard" replace /> },
          page('dashboard', Dashboard, 'dashboard'),
          page('manual', Manual, 'manual'),
          page('subscription', Subscription, 'subscription'),
          page('upgrade', Subscription, 'subscription'),
          page('debug-permissions', PermissionDebugger, 'debugPermissions'),
          page('profile', Profile, 'profile'),
          page('products', Products, 'products', any('product:read')),
          page('products/history/:id', ProductHistory, 'productHistory', any('product:read')),
          page('products/add', ProductForm, 'addProduct', any('product:create')),
          page('products/edit/:id', ProductForm, 'editProduct', any('product:update')),
          page('products/bulk-import', BulkImport, 'bulkImport', any('product:create')),
          page('branches', Branches, 'branches', any('settings:system')),
          page('settings', Settings, 'settings', any('settings:system', 'settings:business')),
          page('users', Users, 'users', any('user:read')),
          page('allsales', AllSales, 'allSales', any('sales:read')),
          page('suspended-sales', SuspendedSales, 'suspendedSales', any('sales:read', 'pos:access')),
          page('sales/returns', SalesReturns, 'salesReturns', any('sales:read')),
          page('sales/documents', SalesDocuments, 'salesDocuments', any('sales:read')),
          page('sales/payment-summary', PaymentSummary, 'paymentSummary', any('sales:read')),
          page('sales/mpesa-payments', MpesaPayments, 'mpesaPayments', any('report:financial', 'settings:admin')),
          { path: 'purchases', element: <Navigate to="/app/purchases/new" replace /> },
          page('purchases/new', PurchaseForm, 'newPurchase', any('purchase:create')),
          page('purchases/edit/:id', PurchaseForm, 'editPurchase', any('purchase:create')),
          page('purchases/view', PurchasesView, 'purchases', any('purchase:read')),
          page('purchase-returns', PurchaseReturns, 'purchaseReturns', any('purchase:return')),
          page('purchase-returns/create', PurchaseReturnCreate, 'newPurchaseReturn', any('purchase:return')),
          page('contacts', Contacts, 'contacts', any('contact:read')),
          page('contacts/:id', ContactDetail, 'contact', any('contact:read')),
          page('reports/sales', SalesReport, 'salesReport', any('report:sales')),
          page('reports/expenses', ExpensesReport, 'expensesReport', any('report:financial')),
          page('reports/suppliers', SuppliersReport, 'suppliersReport', any('report:financial')),
          page('reports/expiry', ExpiryReport, 'expiryReport', any('report:inventory')),
          page('reports/low-stock', LowStockReport, 'lowStockReport', any('report:inventory')),
          page('reports/inventory', InventoryReport, 'inventoryReport', any('report:inventory')),
          page('reports/refill-alerts', RefillAlerts, 'refillAlerts', any('report:inventory')),
          page('reports/stock-adjustments', StockAdjustmentsReport, 'stockAdjustmentsReport', any('report:inventory')),
          page('reports/stock-transfers', StockTransfersReport, 'stockTransfersReport', any('report:inventory')),
          page('reports/view-adjustments', ViewAdjustments, 'viewAdjustments', any('report:inventory')),
          page('reports/dda', DdaReport, 'ddaReport', any('report:advanced')),
          page('stock-transfers', StockTransfers, 'stockTransfers', any('inventory:transfer:create', 'inventory:transfer', 'inventory:transfer:approve')),
          page('stock-adjustments', StockAdjustments, 'stockAdjustments', any('inventory:adjust')),
          { path: 'view-adjustments', element: <Navigate to="/app/reports/view-adjustments" replace /> },
        ],
      },
      { path: '*', element: <UnknownPathRedirect /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
