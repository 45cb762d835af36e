import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createUser } from './fixtures.ts';
import type { TestClient, TestResponse } from './http.ts';
import { loginAs } from './platform-helpers.ts';
import { apiRoutes, errorBodySchema, fillPath, routeName } from './security-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';
import type { StockPharmacy } from './import-helpers.ts';
import type { RouteInfo } from '../src/app.ts';

/**
 * Hostile input on every route (issue 7 item 6): the route table is walked, so a route added later is covered
 * without anyone remembering. Each write route gets bodies built from its own OpenAPI schema with one class of
 * poison in every field — a NUL character, a lone UTF-16 surrogate, an impossible calendar date, numbers at and past
 * the 32-bit range, text at and past its maximum length — and each list route gets the same in every query
 * parameter. Nothing may answer 5xx, and every refusal is in the app's error format.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  maximum?: number;
  minimum?: number;
  maxLength?: number;
  minLength?: number;
  minItems?: number;
};

type Poison = 'nul' | 'surrogate' | 'date' | 'huge' | 'long';
const POISONS: Poison[] = ['nul', 'surrogate', 'date', 'huge', 'long'];

const IMPOSSIBLE_DATE = '2026-02-30';
const isDateLike = (s: JsonSchema) => s.format === 'date' || Boolean(s.pattern && s.pattern.includes('\\d{4}'));

function poisonString(s: JsonSchema, poison: Poison, uuid: string): unknown {
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (s.format === 'uuid') return uuid;
  if (s.format === 'email') return poison === 'nul' ? 'a\u0000b@example.com' : 'fuzz@example.com';
  if (s.format === 'date-time') return poison === 'date' ? '2026-02-30T10:00:00Z' : new Date().toISOString();
  if (isDateLike(s)) return poison === 'date' ? IMPOSSIBLE_DATE : daysFromToday(100);
  switch (poison) {
    case 'nul':
      return 'Fuzz\u0000name';
    case 'surrogate':
      return 'Fuzz\uD800name';
    case 'long':
      return 'x'.repeat(Math.min((s.maxLength ?? 5000) + 1, 100_000));
    default:
      return 'Fuzz value';
  }
}

function poisonNumber(s: JsonSchema, poison: Poison, integer: boolean): number {
  if (poison === 'huge') return s.maximum !== undefined ? s.maximum : integer ? 2 ** 31 : 1e308;
  if (poison === 'long') return integer ? 2 ** 53 : 1e308;
  return s.minimum !== undefined && s.minimum > 1 ? s.minimum : 1;
}

/** A value for the schema with the poison in every leaf that can carry it. */
function generate(s: JsonSchema | undefined, poison: Poison, uuid: string, depth = 0): unknown {
  if (!s || depth > 6) return null;
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const first = union.find((u) => u.type !== 'null') ?? union[0];
    return generate(first, poison, uuid, depth + 1);
  }
  if (s.allOf?.[0]) return generate(s.allOf[0], poison, uuid, depth + 1);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(s.properties ?? {})) out[key] = generate(child, poison, uuid, depth + 1);
      return out;
    }
    case 'array': {
      const count = poison === 'huge' ? Math.max(s.minItems ?? 1, 3) : Math.max(s.minItems ?? 1, 1);
      return Array.from({ length: count }, () => generate(s.items, poison, uuid, depth + 1));
    }
    case 'string':
      return poisonString(s, poison, uuid);
    case 'integer':
      return poisonNumber(s, poison, true);
    case 'number':
      return poisonNumber(s, poison, false);
    case 'boolean':
      return true;
    default:
      return poisonString(s, poison, uuid);
  }
}

function queryValue(poison: Poison): string {
  switch (poison) {
    case 'nul':
      return 'a%00b';
    case 'surrogate':
      return '%ED%A0%80';
    case 'date':
      return IMPOSSIBLE_DATE;
    case 'huge':
      return '99999999999999999999';
    case 'long':
      return 'x'.repeat(5000);
  }
}

/** Routes that end the session they run in: fuzzed last by a session of their own. */
const SESSION_ENDING = new Set(['POST /api/auth/logout', 'POST /api/auth/lock']);

describe.each(testDatabaseKinds())('hostile input on every route on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let owner: TestClient;
  /** The operator's routes ('operator' access) are walked as a platform operator: as the owner they answer 403 before the body is read. */
  let operator: TestClient;
  let doc: { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>> };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'fuzz_ph', ['owner']);
    owner = (await clientsOf(t, ph)).owner!;
    operator = await loginAs(t, (await createUser(t.db, { email: 'operator@fuzz.test', isPlatformOperator: true })).email);
    const product = await owner.post('/api/products', { name: 'Fuzz Paracetamol', sellingPriceCents: 1_000, purchasePriceCents: 500 });
    expect(product.status).toBe(201);
    ids.product = product.body.product.id;
    ids.branch = ph.branches[0]!.id;
    ids.user = ph.users.owner!;
    doc = (await t.client().get('/api/openapi.json')).body;
  });
  afterAll(async () => t?.close());

  /** The best id to put in a path parameter of this route: a real row where we have one. */
  function idFor(url: string, param: string): string {
    if (param === 'branchId') return ids.branch!;
    if (url.startsWith('/api/products')) return ids.product!;
    if (url.startsWith('/api/branches')) return ids.branch!;
    if (url.startsWith('/api/users')) return ids.user!;
    return '00000000-0000-4000-8000-000000000000';
  }

  /** Who sends a route's requests: the operator for the operator's own routes, the owner for everything else. */
  const clientFor = (route: RouteInfo): TestClient => (route.config.access === 'operator' ? operator : owner);

  const problems: string[] = [];
  beforeEach(() => {
    problems.length = 0;
  });
  /** Sends the request; a connection dropped mid-answer is a problem like a 5xx. */
  async function send(label: string, request: () => Promise<TestResponse>, route?: RouteInfo): Promise<void> {
    try {
      check(label, await request(), route);
    } catch (error) {
      problems.push(`${label}: the answer broke off (${(error as Error).message})`);
    }
  }
  /** Statuses the operator's routes answered: they must read the bodies (never 401/403 before them). */
  const operatorStatuses: number[] = [];
  function check(label: string, res: TestResponse, route?: RouteInfo): void {
    if (route?.config.access === 'operator') operatorStatuses.push(res.status);
    if (res.status >= 500) problems.push(`${label}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
    else if (res.status >= 400 && typeof res.body === 'object' && !errorBodySchema.safeParse(res.body).success) {
      problems.push(`${label}: ${res.status} not in the error format: ${JSON.stringify(res.body)?.slice(0, 200)}`);
    }
  }

  it('no write route answers 5xx to poisoned bodies', async () => {
    const writes = apiRoutes(t.app).filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.hasBody && !SESSION_ENDING.has(routeName(r)));
    expect(writes.length).toBeGreaterThan(20);
    expect(writes.filter((r) => r.config.access === 'operator').length).toBeGreaterThan(3);
    for (const route of writes) {
      const openApiPath = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const schema = doc.paths[openApiPath]?.[route.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
      const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => idFor(route.url, name));
      for (const poison of POISONS) {
        const body = generate(schema, poison, ids.product!);
        await send(`${routeName(route)} [${poison}]`, () => clientFor(route).request(route.method, url, body ?? {}), route);
      }
    }
    expect(problems).toEqual([]);
    expect(operatorStatuses).toContain(400);
    expect(operatorStatuses.filter((status) => status === 401 || status === 403)).toEqual([]);
  });

  it('no list route answers 5xx to poisoned query strings', async () => {
    const reads = apiRoutes(t.app).filter((r) => r.method === 'GET' && r.queryKeys.length > 0);
    expect(reads.length).toBeGreaterThan(3);
    for (const route of reads) {
      const base = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => idFor(route.url, name));
      for (const poison of POISONS) {
        for (const key of route.queryKeys) {
          await send(`${routeName(route)} ?${key} [${poison}]`, () => clientFor(route).get(`${base}?${key}=${queryValue(poison)}`));
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('malformed and over-long paths answer in the error format', async () => {
    for (const route of apiRoutes(t.app).filter((r) => r.url.includes(':'))) {
      for (const value of ['not-a-uuid', '%00', 'x'.repeat(2000)]) {
        const body = ['GET', 'DELETE'].includes(route.method) ? undefined : {};
        await send(`${routeName(route)} with '${value.slice(0, 10)}'`, () => clientFor(route).request(route.method, fillPath(route.url, value), body));
      }
    }
    await send('a 10,000-character path', () => owner.get(`/api/${'a'.repeat(10_000)}`));
    expect(problems).toEqual([]);
  });
});
