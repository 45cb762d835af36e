import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, createUser, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs, setSubscription, syncUsageCounters } from './platform-helpers.ts';

interface AdminPharmacyBody {
  id: string;
  name: string;
  isDemo: boolean;
  createdAt: string;
  plan: string | null;
  subscription: { status: string; storedStatus: string | null; statusMessage: string; systemActive: boolean };
  usage: { products: number; transactions: number; users: number; branches: number };
}

describe.each(testDatabaseKinds())("the operator's admin endpoints on %s", (kind) => {
  let t: TestApp;
  let standard: PharmacyFixture;
  let trial: PharmacyFixture;
  let expired: PharmacyFixture;
  let bare: PharmacyFixture;
  let demo: PharmacyFixture;
  let operator: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    standard = await createPharmacyWithStaff(t.db, { id: 'adm_standard', name: 'Afya Njema', plan: 'standard', roles: ['owner', 'cashier', 'manager'] });
    trial = await createPharmacyWithStaff(t.db, { id: 'adm_trial', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    expired = await createPharmacyWithStaff(t.db, { id: 'adm_expired', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    bare = await createPharmacyWithStaff(t.db, { id: 'adm_bare', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    demo = await createPharmacyWithStaff(t.db, { id: 'adm_demo', plan: 'standard', roles: ['owner', 'demo'] });
    await setSubscription(t.db, expired.pharmacyId, { trial_end_date: '-3 days', end_date: '-3 days' });
    await t.db.owner.query(`DELETE FROM subscriptions WHERE pharmacy_id = $1`, [bare.pharmacyId]);
    await t.db.owner.query(`INSERT INTO products (pharmacy_id, name) SELECT $1, 'Product ' || g FROM generate_series(1, 7) g`, [standard.pharmacyId]);
    await syncUsageCounters(t.db, standard.pharmacyId);
    const op = await createUser(t.db, { email: 'operator@platform.test', name: 'Platform Operator', isPlatformOperator: true });
    operator = await loginAs(t, op.email);
  });
  afterAll(async () => t?.close());

  it('lists every pharmacy with its plan, state, usage from the usage counters and creation date', async () => {
    const res = await operator.get('/api/admin/pharmacies');
    expect(res.status).toBe(200);
    const byId = new Map((res.body.pharmacies as AdminPharmacyBody[]).map((p) => [p.id, p]));
    expect([...byId.keys()].sort()).toEqual(['adm_bare', 'adm_demo', 'adm_expired', 'adm_standard', 'adm_trial']);

    const s = byId.get('adm_standard')!;
    expect(s).toMatchObject({ name: 'Afya Njema', isDemo: false, plan: 'standard' });
    expect(s.subscription).toMatchObject({ status: 'active', storedStatus: 'active', systemActive: true });
    expect(s.subscription.statusMessage).toMatch(/^Active - Hosting until \d{2}\/\d{2}\/\d{4}$/);
    expect(s.usage).toEqual({ products: 7, transactions: 0, users: 3, branches: 2 });
    expect(Date.now() - new Date(s.createdAt).getTime()).toBeLessThan(60 * 60_000);

    expect(byId.get('adm_trial')).toMatchObject({
      plan: 'trial',
      subscription: { status: 'trial', statusMessage: 'Trial expires in 7 days' },
      usage: { users: 1, branches: 1, products: 0 },
    });
    expect(byId.get('adm_expired')!.subscription).toMatchObject({ status: 'expired', storedStatus: 'trial', statusMessage: 'Trial expired - upgrade to continue' });
    expect(byId.get('adm_bare')).toMatchObject({ plan: null, subscription: { status: 'none', storedStatus: null, statusMessage: 'No subscription data' } });
    // The demo visitor is not staff: not counted as a user.
    expect(byId.get('adm_demo')).toMatchObject({ isDemo: true, usage: { users: 1 } });
  });

  it('is read-only: the listing creates no subscription and writes nothing', async () => {
    const counts = async () =>
      (
        await t.db.owner.query<{ subscriptions: number; snapshots: number; audit: number; outbox: number }>(
          `SELECT (SELECT count(*)::int FROM subscriptions) AS subscriptions, (SELECT count(*)::int FROM usage_snapshots) AS snapshots,
                  (SELECT count(*)::int FROM audit_log) AS audit, (SELECT count(*)::int FROM outbox) AS outbox`,
        )
      )[0];
    const before = await counts();
    await operator.get('/api/admin/pharmacies');
    await operator.get('/api/admin/pharmacies');
    expect(await counts()).toEqual(before);
    expect(await t.db.owner.query(`SELECT 1 FROM subscriptions WHERE pharmacy_id = $1`, [bare.pharmacyId])).toHaveLength(0);
  });

  it('refuses pharmacy members (403), even owners, and visitors (401)', async () => {
    for (const email of [standard.users.owner!.email, standard.users.manager!.email, trial.users.owner!.email]) {
      const client = await loginAs(t, email);
      const res = await client.get('/api/admin/pharmacies');
      expect(res.status, email).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const demoUser = await loginAs(t, demo.users.demo!.email);
    expect((await demoUser.get('/api/admin/pharmacies')).status).toBe(403);
    expect((await t.client().get('/api/admin/pharmacies')).status).toBe(401);
  });

  it("gives an operator who is a cashier of a pharmacy a cashier's permissions there, and the admin area still (issue 7)", async () => {
    const op = await createUser(t.db, { email: 'cashier-operator@platform.test', isPlatformOperator: true });
    await t.db.owner.query(
      `INSERT INTO memberships (pharmacy_id, user_id, role, has_pos_access, default_branch_id) VALUES ($1, $2, 'cashier', true, $3)`,
      [standard.pharmacyId, op.id, standard.branches[0]!.id],
    );
    const client = await loginAs(t, op.email);
    const me = await client.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.pharmacy?.name).toBe('Afya Njema');
    expect(me.body.user.isPlatformOperator).toBe(true);
    expect([...me.body.permissions].sort()).toEqual(['dashboard:view', 'inventory:read', 'pos:access', 'product:read', 'sales:create', 'sales:read']);
    // What a cashier may not do, the operator-cashier may not do in this pharmacy either.
    expect((await client.get('/api/users')).status).toBe(403);
    const branch = await client.post('/api/branches', { name: 'Operator Branch' });
    expect(branch.status).toBe(403);
    expect(await t.db.owner.query(`SELECT 1 FROM branches WHERE name = 'Operator Branch'`)).toHaveLength(0);
    // What a cashier may do still works, and the operator's own area stays theirs.
    expect((await client.get('/api/products')).status).toBe(200);
    expect((await client.get('/api/admin/pharmacies')).status).toBe(200);
  });

  it('ends an operator session signed in more than 8 hours ago at the admin API, on the server (issue 7)', async () => {
    const op = await createUser(t.db, { email: 'stale-operator@platform.test', isPlatformOperator: true });
    const client = await loginAs(t, op.email);
    expect((await client.get('/api/admin/pharmacies')).status).toBe(200);
    await t.db.owner.query(`UPDATE sessions SET created_at = now() - interval '8 hours 1 minute' WHERE user_id = $1`, [op.id]);
    const stale = await client.get('/api/admin/pharmacies');
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('NOT_AUTHENTICATED');
    // Signed out, as the browser does at the admin session's end: the session is revoked, not only refused here.
    expect((await client.get('/api/me')).status).toBe(401);
    const [session] = await t.db.owner.query<{ revoked: boolean }>(`SELECT revoked_at IS NOT NULL AS revoked FROM sessions WHERE user_id = $1`, [op.id]);
    expect(session!.revoked).toBe(true);
    // Signing in again opens a fresh admin session.
    expect((await (await loginAs(t, op.email)).get('/api/admin/pharmacies')).status).toBe(200);
  });
});
