import type { App, AppDeps } from '../app.ts';
import { registerAdmin } from './admin/admin.routes.ts';
import { registerAuth } from './auth/auth.routes.ts';
import { registerEvents } from './events/events.routes.ts';
import { registerProductImport } from './product-import/import.routes.ts';
import { registerProducts } from './products/products.routes.ts';
import { registerSettings } from './settings/settings.routes.ts';
import { registerStock } from './stock/stock.routes.ts';
import { registerSubscription } from './subscription/subscription.routes.ts';
import { registerTenancy } from './tenancy/tenancy.routes.ts';
import { registerUsers } from './users/users.routes.ts';

/** A feature module: registers its routes (each with config.access) on the app. */
export type ModuleRegistrar = (app: App, deps: AppDeps) => Promise<void> | void;

/** Every module of the server, in registration order. */
export const modules: ModuleRegistrar[] = [
  registerAuth,
  registerTenancy,
  registerUsers,
  registerSettings,
  registerSubscription,
  registerAdmin,
  registerEvents,
  registerProductImport,
  registerProducts,
  registerStock,
];
