import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { countRows, loginAs, tenantSnapshot } from './platform-helpers.ts';
import { apiRoutes, expectError, fillPath, routeName } from './security-helpers.ts';

const DEMO_MESSAGE = 'Demo mode: Changes are not saved';

/** Writes a demo user may make, and why (each route says so with allowForDemo). */
const DEMO_ALLOWED_WRITES: Record<string, string> = {
  'POST /api/auth/logout': 'signing out changes only their own session',
  'POST /api/auth/lock': 'locking changes only their own session',
  'POST /api/auth/unlock': 'unlocking changes only their own session',
  'POST /api/auth/verify-email': 'applies an emailed link; no pharmacy data',
  'POST /api/auth/resend-verification': 'mails their own address; no pharmacy data',
  'POST /api/me/branch': 'switching branch changes only their own session',
  'POST /api/pharmacies': "reaches the handler to answer the specification's own 'Demo users cannot create pharmacies'",
  'POST /api/demo/enter': 'Enter Demo counts the visit on their own demo record; no pharmacy data',
};
/** Public writes: they act without a session (a signed-out visitor may call them), so a demo session changes nothing. */
const PUBLIC_WRITES: Record<string, string> = {
  'POST /api/auth/login': 'signs in whoever holds the credentials',
  'POST /api/auth/forgot-password': 'mails a reset link to the address given',
  'POST /api/auth/reset-password': 'needs the emailed token',
  'POST /api/auth/accept-invite': 'needs the emailed invitation token',
  'POST /api/demo/register': 'registers a new visitor for the demo (rate-limited)',
  'POST /api/demo/sign-in-link': 'mails a sign-in link to a registered demo visitor (rate-limited)',
  'POST /api/demo/sign-in': 'needs the emailed sign-in token',
  // Buying the licence (issue 11 items 2-4): a visitor without a session pays and sets up their own pharmacy.
  'POST /api/payments/email-check': 'tells whether an email is free for a new purchase (rate-limited)',
  'POST /api/payments/kopokopo/stk-push': 'asks the buyer’s phone for the licence payment (rate-limited)',
  'POST /api/tenants/create-owner': 'needs the paying browser’s setup secret',
  'POST /api/emails/payment-confirmation': 'mails the confirmation of a completed payment to its buyer',
};

describe.each(testDatabaseKinds())('the read-only demo on %s', (kind) => {
  let t: TestApp;
  let ph: PharmacyFixture;
  let demo: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // A demo pharmacy (is_demo) with its demo visitor, as demo_pharmacy_shared and demo@pharmapoint.test.
    ph = await createPharmacyWithStaff(t.db, { id: 'demo_ph', name: 'Demo Pharmacy', plan: 'standard', roles: ['owner', 'cashier', 'demo'] });
    demo = await loginAs(t, ph.users.demo!.email);
  });
  afterAll(async () => t?.close());

  it('lets the demo user read the screens', async () => {
    const me = await demo.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.isDemo).toBe(true);
    expect(me.body.pharmacy).toMatchObject({ id: ph.pharmacyId, isDemo: true });
    for (const url of ['/api/settings', '/api/subscription', '/api/branches', '/api/pharmacy/theme']) {
      expect((await demo.get(url)).status, url).toBe(200);
    }
    // No integration secrets for the demo visitor (nor anyone: only whether each is set), and nothing to edit.
    await t.db.owner.query(
      `UPDATE settings SET document = jsonb_set(document, '{integrations,mobileMoney,passkey}', '"demo-passkey"') WHERE pharmacy_id = $1`,
      [ph.pharmacyId],
    );
    const settings = await demo.get('/api/settings');
    expect(settings.body.secretsSet['integrations.mobileMoney.passkey']).toBe(true);
    expect(JSON.stringify(settings.body)).not.toContain('demo-passkey');
    expect(settings.body.editableSections).toEqual([]);
  });

  it(`refuses every write with 403 '${DEMO_MESSAGE}' and writes nothing`, async () => {
    const settings = (await demo.get('/api/settings')).body.settings;
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    const productsBefore = await countRows(t.db, 'products', ph.pharmacyId);
    const writes: [string, string, unknown][] = [
      ['PUT', '/api/settings', { ...settings, pharmacyName: 'Hacked Demo' }],
      ['POST', '/api/branches', { name: 'Demo Branch' }],
      ['PATCH', `/api/branches/${ph.branches[0]!.id}`, { name: 'Renamed Demo Branch' }],
      ['POST', '/api/users/invite', { email: 'friend@example.test', name: 'Friend', role: 'admin', hasPosAccess: true }],
      ['PATCH', `/api/users/${ph.users.cashier!.id}`, { isActive: false }],
      ['POST', `/api/users/${ph.users.cashier!.id}/resend-invite`, {}],
      ['PUT', '/api/pharmacy/theme', { primaryColor: '#000000', secondaryColor: '#ffffff' }],
      ['POST', '/api/products', { name: 'Demo Product' }],
    ];
    for (const [method, url, body] of writes) {
      const res = await demo.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error, `${method} ${url}`).toEqual({ code: 'DEMO_READ_ONLY', message: DEMO_MESSAGE });
    }
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
    expect(await countRows(t.db, 'products', ph.pharmacyId)).toBe(productsBefore);
    expect(await t.db.owner.query(`SELECT 1 FROM users WHERE email = 'friend@example.test'`)).toHaveLength(0);
  });

  it('the route table: every other write answers 403 DEMO_READ_ONLY to a demo user, whatever the body, and writes nothing', async () => {
    const writes = apiRoutes(t.app).filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    expect(writes.filter((r) => r.config.allowForDemo).map(routeName).sort()).toEqual(Object.keys(DEMO_ALLOWED_WRITES).sort());
    expect(writes.filter((r) => r.config.access === 'public' && !r.config.allowForDemo).map(routeName).sort()).toEqual(Object.keys(PUBLIC_WRITES).sort());
    const refused = writes.filter((r) => !r.config.allowForDemo && r.config.access !== 'public');
    expect(refused.length).toBeGreaterThanOrEqual(20);
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    const rowsBefore = await countRows(t.db, 'products', ph.pharmacyId);
    const problems: string[] = [];
    for (const route of refused) {
      // Real ids of the demo pharmacy where there are any (a member, a branch), else an id that exists nowhere.
      const url = fillPath(route.url, ph.branches[0]!.id, { id: route.url.startsWith('/api/users') ? ph.users.cashier!.id : ph.branches[0]!.id });
      for (const body of route.method === 'DELETE' ? [undefined] : [{}, { name: 'Demo write' }]) {
        const res = await demo.request(route.method, url, body);
        try {
          expect(expectError(res, 403, 'DEMO_READ_ONLY', routeName(route))).toBe(DEMO_MESSAGE);
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
    expect(await countRows(t.db, 'products', ph.pharmacyId)).toBe(rowsBefore);
  });

  it("refuses a new pharmacy with 'Demo users cannot create pharmacies'", async () => {
    const pharmaciesBefore = (await t.db.owner.query(`SELECT id FROM pharmacies`)).length;
    const res = await demo.post('/api/pharmacies', { name: 'My Own Pharmacy' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('Demo users cannot create pharmacies');
    expect(await t.db.owner.query(`SELECT id FROM pharmacies`)).toHaveLength(pharmaciesBefore);
  });

  it('the same writes by the pharmacy owner go through (the refusal is about the demo user)', async () => {
    const owner = await loginAs(t, ph.users.owner!.email);
    const res = await owner.post('/api/branches', { name: 'Owner Branch' });
    expect(res.status).toBe(201);
  });
});
