import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPermission, type Permission, type PermissionSubject } from '@pharmapoint/domain/permissions';
import type { RouteAccess } from '../src/platform/access.ts';
import { authPlugin } from '../src/platform/auth-plugin.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs } from './platform-helpers.ts';
import { apiRoutes, expectError, fillPath, routeName } from './security-helpers.ts';

/**
 * The route table (issue 2 item 6, ARCHITECTURE section 6): every route declares its access, the server refuses
 * callers who are not signed in before it reads their body, and a signed-in member of role 'user' (who holds
 * almost nothing) is refused every route that needs a permission.
 */

/** Routes a 'user' member may call although they declare a permission, and why. Kept in step with the role table below. */
const USER_ROLE_MAY_CALL: Record<string, string> = {
  'GET /api/products': "product:read is a default of role 'user' (seed 000 section 6, role defaults)",
  'GET /api/products/:id': "product:read is a default of role 'user'",
  'GET /api/products/:id/movements': "product:read is a default of role 'user'",
  'GET /api/products/export': "anyOf product:read / product:export: role 'user' holds product:read",
  'GET /api/stock/branch-summary': "anyOf report:inventory / product:read (the dashboard's stock health): role 'user' holds product:read",
  'GET /api/sales': "sales:read is a default of role 'user' (seed 000 section 6, role defaults)",
  'GET /api/sales/:id': "sales:read is a default of role 'user'",
  'GET /api/sales/last-prescription': "sales:read is a default of role 'user'",
  'GET /api/sales/payment-summary': "sales:read is a default of role 'user'",
  'GET /api/sales/filter-options': "sales:read is a default of role 'user'",
  'GET /api/sales/credit-outstanding': "sales:read is a default of role 'user'",
  'GET /api/sales/:id/returns': "anyOf sales:read / pos:access: role 'user' holds sales:read",
  'GET /api/customer-payments': "sales:read is a default of role 'user'",
  'GET /api/suspended-sales': "anyOf sales:read / pos:access: role 'user' holds sales:read",
  'GET /api/suspended-sales/:id': "anyOf sales:read / pos:access: role 'user' holds sales:read",
};

const isPermissionAccess = (access: RouteAccess | undefined): access is Exclude<RouteAccess, string> =>
  typeof access === 'object' && access !== null;

function userRolePermits(access: Exclude<RouteAccess, string>): boolean {
  const subject: PermissionSubject = { role: 'user' };
  const holds = (p: Permission) => hasPermission(subject, p);
  if ('permission' in access) return holds(access.permission);
  if ('anyOf' in access) return access.anyOf.some(holds);
  return access.allOf.every(holds);
}

describe.each(testDatabaseKinds())('the route table on %s', (kind) => {
  let t: TestApp;
  let ph: PharmacyFixture;
  let anonymous: TestClient;
  let basicUser: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await createPharmacyWithStaff(t.db, { id: 'routes_ph', roles: ['owner', 'user'] });
    basicUser = await loginAs(t, ph.users.user!.email);
    anonymous = t.client();
    // A CSRF token of its own (GET hands one out), so a refusal is about the session, never about CSRF.
    await anonymous.get('/api/auth/providers');
    expect(anonymous.cookies.get('pp_csrf')).toBeTruthy();
  });
  afterAll(async () => t?.close());

  it('lists the routes of every module', () => {
    const names = apiRoutes(t.app).map(routeName);
    expect(names.length).toBeGreaterThan(50);
    for (const expected of [
      'POST /api/auth/login',
      'GET /api/me',
      'PATCH /api/branches/:id',
      'POST /api/users/invite',
      'PUT /api/settings',
      'GET /api/subscription',
      'GET /api/admin/pharmacies',
      'GET /api/events',
      'POST /api/products/import',
      'DELETE /api/products/:id',
      'POST /api/stock/transfers/:id/receive',
      'GET /api/pos/catalogue',
      'POST /api/expenses',
      'GET /api/expenses',
      'GET /api/refill-reminders',
      'GET /api/reports/dda',
      'GET /api/openapi.json',
      'GET /api/docs',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('every /api route declares config.access', () => {
    const missing = apiRoutes(t.app).filter((r) => !r.config.access).map(routeName);
    expect(missing).toEqual([]);
  });

  it('the app refuses to start with a route that declares no access', async () => {
    const bare = Fastify();
    await bare.register(authPlugin, { db: t.db, config: t.config });
    expect(() => bare.get('/api/undeclared', async () => ({ ok: true }))).toThrow(/declares no access/);
    // Outside /api (the web app's files) nothing is required.
    expect(() => bare.get('/static-file', async () => 'ok')).not.toThrow();
    await bare.close();
  });

  it('every route that is not public answers 401 without a session, before reading the body', async () => {
    const guarded = apiRoutes(t.app).filter((r) => r.config.access !== 'public');
    expect(guarded.length).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const route of guarded) {
      const url = fillPath(route.url, randomUUID());
      const attempts: [string, unknown][] = route.method === 'GET' || route.method === 'DELETE'
        ? [['no body', undefined]]
        : [
            ['an empty object', {}],
            // A 400 about the body would tell an anonymous caller what the route expects: the 401 comes first.
            ['malformed JSON', '{"name": '],
          ];
      for (const [label, body] of attempts) {
        const headers: Record<string, string> = typeof body === 'string' ? { 'content-type': 'application/json' } : {};
        const res = await anonymous.request(route.method, url, body, headers);
        try {
          expectError(res, 401, 'NOT_AUTHENTICATED', `${routeName(route)} with ${label}`);
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
      // A bad path parameter does not come first either.
      if (route.url.includes(':id')) {
        const res = await anonymous.request(route.method, fillPath(route.url, 'not-a-uuid'), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
        if (res.status !== 401) problems.push(`${routeName(route)} with a malformed id: ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('public routes are only the sign-in, password, invitation, documentation and provider routes', () => {
    const publicRoutes = apiRoutes(t.app)
      .filter((r) => r.config.access === 'public')
      .map(routeName)
      .filter((name) => !name.includes(' /api/docs'))
      .sort();
    expect(publicRoutes).toEqual(
      [
        'GET /api/auth/providers',
        'POST /api/auth/login',
        'POST /api/auth/logout',
        'POST /api/auth/forgot-password',
        'POST /api/auth/reset-password',
        'POST /api/auth/verify-email',
        'POST /api/auth/resend-verification',
        'GET /api/auth/invite/:token',
        'POST /api/auth/accept-invite',
        // Demo registration and access by emailed link (issue 11 item 5; rate-limited per address and email).
        'POST /api/demo/register',
        'GET /api/demo/access',
        'POST /api/demo/sign-in-link',
        'POST /api/demo/sign-in',
        // Buying the licence by M-Pesa (issue 11 items 2-4; rate-limited per address, phone and email; the owner's
        // password only with the paying browser's secret).
        'POST /api/payments/email-check',
        'POST /api/payments/kopokopo/stk-push',
        'GET /api/payments/kopokopo/status/:id',
        'POST /api/tenants/create-owner',
        'POST /api/emails/payment-confirmation',
        'GET /api/auth/google/start',
        'GET /api/auth/google/callback',
        'GET /api/openapi.json',
        'GET /health',
        'GET /health/ready',
      ].sort(),
    );
  });

  it('refuses a write without the CSRF header with 403 even when signed in', async () => {
    const res = await basicUser.request('POST', '/api/auth/lock', {}, { 'x-csrf-token': 'wrong' });
    expectError(res, 403, 'CSRF_FAILED', 'POST /api/auth/lock without a matching CSRF header');
  });

  it("the exceptions for role 'user' are exactly the routes its role defaults open", () => {
    const opened = apiRoutes(t.app)
      .filter((r) => isPermissionAccess(r.config.access) && userRolePermits(r.config.access as Exclude<RouteAccess, string>))
      .map(routeName)
      .sort();
    expect(opened).toEqual(Object.keys(USER_ROLE_MAY_CALL).sort());
  });

  it("every route with a permission, and the operator's, answers 403 to a signed-in member of role 'user'", async () => {
    const me = await basicUser.get('/api/me');
    expect(me.status).toBe(200);
    const routes = apiRoutes(t.app).filter(
      (r) => (isPermissionAccess(r.config.access) || r.config.access === 'operator') && !USER_ROLE_MAY_CALL[routeName(r)],
    );
    expect(routes.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const route of routes) {
      const url = fillPath(route.url, randomUUID());
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const res = await basicUser.request(route.method, url, body);
      try {
        expectError(res, 403, 'FORBIDDEN', routeName(route));
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    expect(problems).toEqual([]);
    // The exceptions are reachable (not refused) for the same member.
    for (const name of Object.keys(USER_ROLE_MAY_CALL)) {
      const [method, path] = name.split(' ') as [string, string];
      // A read that needs a query is asked with an unknown id (404: reachable, and nothing found).
      const query = path === '/api/sales/last-prescription' ? `?clientId=${randomUUID()}` : '';
      const res = await basicUser.request(method, fillPath(path, randomUUID()) + query);
      expect([200, 404], name).toContain(res.status);
    }
  });
});
