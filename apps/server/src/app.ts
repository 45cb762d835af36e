import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { RouteAccessConfig } from './platform/access.ts';
import { authPlugin } from './platform/auth-plugin.ts';
import { ERRORS } from '@pharmapoint/domain/errors';
import { errorBody, registerErrorHandler, registerNotFound } from './platform/errors.ts';
import { createMailer, type Mailer } from './platform/mailer.ts';
import { modules } from './modules/index.ts';
import type { App, AppDeps } from './platform/module.ts';
import { transactionPlugin } from './platform/transaction.ts';
import { registerInputGuard } from './platform/input-guard.ts';

export type { App, AppDeps };

/** One route of the app as registered: what the route-table tests walk. */
export interface RouteInfo {
  method: string;
  url: string;
  config: Partial<RouteAccessConfig>;
  /** Left out of the OpenAPI document (schema.hide). */
  hidden: boolean;
  /** The route has a body schema. */
  hasBody: boolean;
  /** The names of its query-string parameters (from its querystring schema). */
  queryKeys: string[];
}

const routeTables = new WeakMap<FastifyInstance, RouteInfo[]>();

/** Every route of an app built by buildApp (HEAD routes Fastify adds for GET routes left out). */
export function routeTable(app: FastifyInstance): readonly RouteInfo[] {
  const routes = routeTables.get(app);
  if (!routes) throw new Error('routeTable: not an app built by buildApp');
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  return routes.filter((r) => !(r.method === 'HEAD' && gets.has(r.url)));
}

/** Builds the whole application without listening, so tests can inject requests or listen on a port of their own. */
export async function buildApp(options: { db: Database; config: Config; mailer?: Mailer; logger?: boolean }): Promise<App> {
  const { db, config } = options;
  const mailer = options.mailer ?? createMailer({ db, config });
  const app = Fastify({
    logger: options.logger ? { level: config.logLevel } : false,
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    ajv: { customOptions: { removeAdditional: false } },
    // Errors the router raises before any route runs (a path parameter over maxParamLength, a malformed URL):
    // answered in the app's error format. A parameter too long to be any id names nothing: 404.
    frameworkErrors: (error, _request, raw) => {
      const reply = raw as unknown as FastifyReply;
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply.status(tooLong ? 404 : 400).send(errorBody(tooLong ? 'NOT_FOUND' : 'VALIDATION_FAILED', tooLong ? ERRORS.NOT_FOUND.message : ERRORS.VALIDATION_FAILED.message));
    },
  }).withTypeProvider<ZodTypeProvider>();
  // The API documentation pages (Swagger UI, registered by its plugin) are public, as the document they show.
  app.addHook('onRoute', (route) => {
    if (route.url === '/api/docs' || route.url.startsWith('/api/docs/')) route.config = { ...route.config, access: 'public' };
  });
  const routes: RouteInfo[] = [];
  routeTables.set(app, routes);
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { hide?: boolean; body?: unknown; querystring?: { shape?: Record<string, unknown> } } | undefined;
    const queryKeys = Object.keys(schema?.querystring?.shape ?? {});
    for (const method of [route.method].flat()) {
      const config = { ...(route.config as Partial<RouteAccessConfig>) };
      routes.push({ method, url: route.url, config, hidden: Boolean(schema?.hide), hasBody: Boolean(schema?.body), queryKeys });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerInputGuard(app);

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'PharmaPoint API', version: '0.1.0', description: 'Point of sale and inventory for Kenyan pharmacies.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'pp_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(authPlugin, { db, config });
  await app.register(transactionPlugin, { db });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  const deps: AppDeps = { db, config, mailer };
  for (const plugin of modules) await app.register(plugin, deps);

  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  const serveSpa = existsSync(path.join(config.webDist, 'index.html'));
  if (serveSpa) await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false });
  registerNotFound(app, serveSpa);
  return app;
}
