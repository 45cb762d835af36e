import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { countRows, loginAs, tenantSnapshot } from './platform-helpers.ts';

const DEMO_MESSAGE = 'Demo mode: Changes are not saved';

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
    // No integration secrets for the demo visitor.
    expect((await demo.get('/api/settings')).body.secretsHidden).toBe(true);
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
