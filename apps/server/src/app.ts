import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
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
import { authPlugin } from './platform/auth-plugin.ts';
import { registerErrorHandler, registerNotFound } from './platform/errors.ts';
import { createMailer, type Mailer } from './platform/mailer.ts';
import { modules } from './modules/index.ts';

export interface AppDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
}

export type App = FastifyInstance;

/** Builds the whole application without listening, so tests can inject requests or listen on a port of their own. */
export async function buildApp(options: { db: Database; config: Config; mailer?: Mailer; logger?: boolean }): Promise<App> {
  const { db, config } = options;
  const mailer = options.mailer ?? createMailer({ db, config });
  const app = Fastify({
    logger: options.logger ? { level: config.logLevel } : false,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

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
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  await app.register(authPlugin, { db, config });

  const deps: AppDeps = { db, config, mailer };
  for (const register of modules) await register(app, deps);

  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  const serveSpa = existsSync(path.join(config.webDist, 'index.html'));
  if (serveSpa) await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false });
  registerNotFound(app, serveSpa);
  return app;
}
