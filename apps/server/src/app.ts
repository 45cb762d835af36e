import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
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
import { registerInputGuard, registerJsonParser } from './platform/input-guard.ts';
import { loggerOptions, RequestLogController } from './platform/request-log.ts';

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

/** Cache-Control of the built web app's files: hashed files under /assets never change; everything else is checked each time. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';

/** API answers of this many bytes or more are compressed (brotli or gzip, as the client accepts). */
export const COMPRESS_THRESHOLD = 1024;

/** The options of @fastify/helmet for every answer of the app. */
export const HELMET_OPTIONS = {
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
} as const;

/**
 * The security headers @fastify/helmet sends with HELMET_OPTIONS, as [lower-case name, value] pairs. The plugin
 * builds them again for every request (it parses the CSP directives and runs a dozen middleware functions each
 * time: about a sixth of the CPU of a cached GET /api/me); they never change, so the app asks the plugin once, on
 * a throwaway instance, and sets the same headers in one hook (decision 0073). Whatever a future helmet version
 * sends, the app sends: the headers are helmet's, not a copy of them.
 */
export function securityHeaders(): Promise<readonly (readonly [string, string])[]> {
  // The same for every app of the process (the options are constant): asked once.
  securityHeadersOnce ??= askHelmet().catch((error: unknown) => {
    securityHeadersOnce = undefined;
    throw error;
  });
  return securityHeadersOnce;
}
let securityHeadersOnce: Promise<readonly (readonly [string, string])[]> | undefined;

async function askHelmet(): Promise<readonly (readonly [string, string])[]> {
  const answer = async (withHelmet: boolean) => {
    const probe = Fastify();
    if (withHelmet) await probe.register(helmet, HELMET_OPTIONS);
    probe.get('/', async () => 'probe');
    const response = await probe.inject({ method: 'GET', url: '/' });
    await probe.close();
    return response.headers;
  };
  const bare = await answer(false);
  const headers = await answer(true);
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || (name in bare && bare[name] === value)) continue;
    pairs.push([name.toLowerCase(), String(value)]);
  }
  if (!pairs.some(([name]) => name === 'content-security-policy')) throw new Error('securityHeaders: helmet sent no Content-Security-Policy');
  return Object.freeze(pairs.map((pair) => Object.freeze(pair)));
}

export interface BuildAppOptions {
  db: Database;
  config: Config;
  mailer?: Mailer;
  /** Log requests (one line each, see platform/request-log.ts); off in tests unless they pass logStream. */
  logger?: boolean;
  /** Where the log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
}

/** Builds the whole application without listening, so tests can inject requests or listen on a port of their own. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { db, config } = options;
  const mailer = options.mailer ?? createMailer({ db, config });
  const logging = options.logger || options.logStream;
  const app = Fastify({
    logger: logging ? await loggerOptions(config, { stream: options.logStream }) : false,
    // One line per answered request instead of Fastify's two ('incoming request', 'request completed').
    logController: new RequestLogController(),
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
  registerJsonParser(app);
  registerInputGuard(app);

  // Answers of 1 KiB or more in brotli (quality 4) or gzip, as Accept-Encoding allows; files the build compressed
  // already (Content-Encoding set by @fastify/static) pass as they are; the live-events stream is hijacked and never
  // passes here.
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD, encodings: ['br', 'gzip'] });
  await app.register(cookie);
  // helmet's headers on every answer (API, web app, 404, errors), worked out once at start (see securityHeaders).
  const security = await securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of security) reply.header(name, value);
    done();
  });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'PharmaPoint API', version: '0.1.0', description: 'Point of sale and inventory for Kenyan pharmacies.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'pp_session' } } },
    },
    transform: documentRedirects,
  });
  await app.register(authPlugin, { db, config });
  // The request transactions tell this instance's session cache what they changed, before the request answers
  // (decision 0073): a sale drops no session, a role change is seen by the next request.
  await app.register(transactionPlugin, { db: app.sessionCache.watch(db) });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  const deps: AppDeps = { db, config, mailer };
  for (const plugin of modules) await app.register(plugin, deps);

  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  const serveSpa = existsSync(path.join(config.webDist, 'index.html'));
  if (serveSpa) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      // The build writes file.br and file.gz beside each file (apps/web/vite.config.ts): sent as the client accepts.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? IMMUTABLE_CACHE : NO_CACHE);
      },
    });
  }
  registerNotFound(app, serveSpa);
  return app;
}

/**
 * The OpenAPI transform: the routes' zod schemas as JSON Schema, and every 3xx answer documented as what it is, a
 * redirect with no body and its target in the Location header (the zod schema of a redirect is z.null(), which
 * would otherwise read as a JSON body).
 */
const documentRedirects: typeof jsonSchemaTransform = (route) => {
  const transformed = jsonSchemaTransform(route);
  const response = (transformed.schema as { response?: Record<string, { description?: string }> } | undefined)?.response;
  for (const [status, answer] of Object.entries(response ?? {})) {
    if (!/^3\d\d$/.test(status)) continue;
    response![status] = {
      type: 'null',
      description: answer.description ?? 'A redirect',
      headers: { Location: { type: 'string', description: 'Where the browser goes next' } },
    } as { description: string };
  }
  return transformed;
};
