import { modulePlugin, type AppDeps, type ModuleRegistrar } from '../platform/module.ts';
import type { FastifyPluginAsync } from 'fastify';
import { registerAdmin } from './admin/admin.routes.ts';
import { registerAuth } from './auth/auth.routes.ts';
import { registerContacts } from './contacts/contacts.routes.ts';
import { registerDashboard } from './dashboard/dashboard.routes.ts';
import { registerDemoModule } from './demo/demo.routes.ts';
import { registerEvents } from './events/events.routes.ts';
import { registerExpenses } from './expenses/expenses.routes.ts';
import { registerHealth } from './health/health.routes.ts';
import { registerInventoryReports } from './inventory-reports/inventory-reports.routes.ts';
import { registerJobs } from './jobs/jobs.routes.ts';
import { registerPayments } from './payments/payments.routes.ts';
import { registerProductImport } from './product-import/import.routes.ts';
import { registerPos } from './pos/pos.routes.ts';
import { registerRefills } from './refills/refills.routes.ts';
import { registerProducts } from './products/products.routes.ts';
import { registerPurchases } from './purchases/purchases.routes.ts';
import { registerSales } from './sales/sales.routes.ts';
import { registerSalesReport } from './dashboard/sales-report.routes.ts';
import { registerSettings } from './settings/settings.routes.ts';
import { registerStock } from './stock/stock.routes.ts';
import { registerSupplierPayments } from './supplier-payments/supplier-payments.routes.ts';
import { registerSuspendedSales } from './suspended-sales/suspended-sales.routes.ts';
import { registerSubscription } from './subscription/subscription.routes.ts';
import { registerTillPayments } from './payments/till-payments.routes.ts';
import { registerTenancy } from './tenancy/tenancy.routes.ts';
import { registerUsers } from './users/users.routes.ts';

export type { ModuleRegistrar };

/** Every module of the server as a Fastify plugin, in registration order (app.register(module, deps)). */
export const modules: FastifyPluginAsync<AppDeps>[] = [
  modulePlugin('health', registerHealth),
  modulePlugin('auth', registerAuth),
  modulePlugin('tenancy', registerTenancy),
  modulePlugin('users', registerUsers),
  modulePlugin('settings', registerSettings),
  modulePlugin('subscription', registerSubscription),
  modulePlugin('admin', registerAdmin),
  modulePlugin('demo', registerDemoModule),
  modulePlugin('jobs', registerJobs),
  modulePlugin('events', registerEvents),
  modulePlugin('product-import', registerProductImport),
  modulePlugin('products', registerProducts),
  modulePlugin('stock', registerStock),
  modulePlugin('contacts', registerContacts),
  modulePlugin('supplier-payments', registerSupplierPayments),
  modulePlugin('sales', registerSales),
  modulePlugin('expenses', registerExpenses),
  modulePlugin('dashboard', registerDashboard),
  modulePlugin('sales-report', registerSalesReport),
  modulePlugin('inventory-reports', registerInventoryReports),
  modulePlugin('refills', registerRefills),
  modulePlugin('purchases', registerPurchases),
  modulePlugin('pos', registerPos),
  modulePlugin('suspended-sales', registerSuspendedSales),
  modulePlugin('payments', registerPayments),
  modulePlugin('till-payments', registerTillPayments),
];
