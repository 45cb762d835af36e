import type { App, AppDeps } from '../app.ts';
import { registerEvents } from './events/events.routes.ts';
import { registerProductImport } from './product-import/import.routes.ts';
import { registerProducts } from './products/products.routes.ts';
import { registerStock } from './stock/stock.routes.ts';

/** A feature module: registers its routes (each with config.access) on the app. */
export type ModuleRegistrar = (app: App, deps: AppDeps) => Promise<void> | void;

/** Every module of the server, in registration order. */
export const modules: ModuleRegistrar[] = [registerEvents, registerProductImport, registerProducts, registerStock];
