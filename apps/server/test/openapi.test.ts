import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { apiRoutes, pathParams, routeName } from './security-helpers.ts';

/**
 * The OpenAPI document (issue 2, "Bad input"): generated from the routes' own schemas, served at
 * /api/openapi.json and browsable at /api/docs; every /api route is in it with its method.
 */

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
}

/** Routes left out of the document on purpose, and why. */
const HIDDEN: Record<string, string> = {
  'GET /api/openapi.json': 'the document itself',
};
const isDocsUi = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** '/api/products/:id' -> '/api/products/{id}' */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe.each(testDatabaseKinds())('the OpenAPI document on %s', (kind) => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // Public: no session needed.
    const res = await t.client().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    doc = res.body as OpenApiDocument;
  });
  afterAll(async () => t?.close());

  it('is an OpenAPI 3 document with info and paths', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBe('PharmaPoint API');
    expect(typeof doc.info.version).toBe('string');
    expect(typeof doc.paths).toBe('object');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(30);
  });

  it('documents the success response of every operation: a 2xx from its own schema, or a 3xx redirect with its Location', () => {
    const undocumented: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        const described = Object.entries(op.responses ?? {}).some(([status, response]) => {
          const r = response as { description?: string; content?: Record<string, { schema?: unknown }>; headers?: Record<string, { schema?: { type?: string } }> };
          // fastify-swagger describes every response as 'Default Response'; what matters is the schema it carries.
          if (/^2\d\d$/.test(status)) return Object.values(r.content ?? {}).some((c) => c.schema !== undefined);
          // A redirect has no body: its answer is the Location header.
          if (/^3\d\d$/.test(status)) return r.content === undefined && r.headers?.Location?.schema?.type === 'string' && !!r.description;
          return false;
        });
        if (!described) undocumented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(undocumented).toEqual([]);
    // The two redirects of Google sign-in.
    for (const path of ['/api/auth/google/start', '/api/auth/google/callback']) {
      const found = doc.paths[path]?.get?.responses?.['302'] as { headers?: Record<string, unknown>; content?: unknown } | undefined;
      expect(found?.headers?.Location, path).toBeDefined();
      expect(found?.content, path).toBeUndefined();
    }
  });

  it('is well formed: responses on every operation, every path parameter declared, every $ref resolves', () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith('/')) problems.push(`${path}: does not start with /`);
      for (const [method, op] of Object.entries(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        const name = `${method.toUpperCase()} ${path}`;
        if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${name}: no responses`);
        for (const param of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
          const declared = op.parameters?.find((p) => p.in === 'path' && p.name === param);
          if (!declared || declared.required !== true) problems.push(`${name}: path parameter ${param} not declared as required`);
        }
        const names = (op.parameters ?? []).map((p) => `${p.in}:${p.name}`);
        if (new Set(names).size !== names.length) problems.push(`${name}: a parameter declared twice`);
      }
    }
    const text = JSON.stringify(doc);
    for (const ref of new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!))) {
      const parts = ref.replace(/^#\//, '').split('/');
      let node: unknown = doc;
      for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      if (!ref.startsWith('#/') || node === undefined) problems.push(`unresolved $ref ${ref}`);
    }
    expect(problems).toEqual([]);
  });

  it('has every /api route of the route table with its method, and nothing else', () => {
    const routes = apiRoutes(t.app).filter((r) => !isDocsUi(r.url) && r.method !== 'HEAD');
    const hidden = routes.filter((r) => r.hidden).map(routeName).sort();
    expect(hidden).toEqual(Object.keys(HIDDEN).sort());
    const expected = routes
      .filter((r) => !r.hidden)
      .map((r) => `${r.method} ${openApiPath(r.url)}`)
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).filter((m) => HTTP_METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(expected);
    // Including the stream and the import.
    expect(documented).toContain('GET /api/events');
    expect(documented).toContain('POST /api/products/import');
  });

  it('describes each route from its own schemas: bodies, query strings and path parameters', () => {
    const problems: string[] = [];
    for (const route of apiRoutes(t.app).filter((r) => !r.hidden && !isDocsUi(r.url))) {
      const op = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!op) continue; // reported by the test above
      const name = routeName(route);
      if (route.hasBody && !op.requestBody?.content) problems.push(`${name}: body schema not documented`);
      for (const key of route.queryKeys) {
        if (!op.parameters?.some((p) => p.in === 'query' && p.name === key)) problems.push(`${name}: query parameter ${key} not documented`);
      }
      for (const param of pathParams(route.url)) {
        if (!op.parameters?.some((p) => p.in === 'path' && p.name === param)) problems.push(`${name}: path parameter ${param} not documented`);
      }
    }
    expect(problems).toEqual([]);
    // Every write with input documents it (logout, lock, resend-invite and job retry take none).
    const bodiless = apiRoutes(t.app)
      .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.hasBody)
      .map(routeName)
      .sort();
    expect(bodiless).toEqual(['POST /api/admin/jobs/:id/retry', 'POST /api/auth/lock', 'POST /api/auth/logout', 'POST /api/suspended-sales/:id/cancel', 'POST /api/users/:id/resend-invite'].sort());
    // The import takes the CSV itself or JSON.
    expect(Object.keys(doc.paths['/api/products/import']!.post!.requestBody!.content!).sort()).toEqual(['application/json', 'text/csv']);
  });

  it('is browsable at /api/docs (HTML), without a session', async () => {
    for (const url of ['/api/docs', '/api/docs/']) {
      const res = await t.client().get(url);
      expect(res.status, url).toBe(200);
      expect(String(res.headers['content-type']), url).toMatch(/^text\/html/);
      expect(String(res.body), url).toMatch(/swagger/i);
    }
    // The page loads its script from the same origin (the content security policy allows no other).
    const script = await t.client().get('/api/docs/static/swagger-initializer.js');
    expect(script.status).toBe(200);
    const spec = await t.client().get('/api/docs/json');
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths).sort()).toEqual(Object.keys(doc.paths).sort());
  });
});
