import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Mailer } from './mailer.ts';

/** What every module is given when it is registered: the database, the configuration and the mailer. */
export interface AppDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
}

export type App = FastifyInstance;

/** A feature module's registration: its routes (each with config.access), hooks and workers. */
export type ModuleRegistrar = (app: App, deps: AppDeps) => Promise<void> | void;

/**
 * A module as a Fastify plugin registered with its dependencies (app.register(plugin, deps)): its hooks are its own
 * (encapsulated), while the platform's decorators (inTenant, inUser) and hooks (auth, errors) reach it.
 */
export function modulePlugin(name: string, register: ModuleRegistrar): FastifyPluginAsync<AppDeps> {
  const plugin: FastifyPluginAsync<AppDeps> = async (app, deps) => {
    await register(app, { db: deps.db, config: deps.config, mailer: deps.mailer });
  };
  Object.defineProperty(plugin, 'name', { value: `module:${name}` });
  return plugin;
}
