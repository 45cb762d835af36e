import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { countRows, loginAs, setSubscription, syncUsageCounters, tenantSnapshot, usageCountersAndRows } from './platform-helpers.ts';

const limitExceeded = (limit: number, usage: number) => `Limit exceeded. Plan allows ${limit}, current usage: ${usage}`;

/** 'Active - Hosting until {date}': the date as en-GB shows it in Nairobi. */
function nairobiDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Nairobi', day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);
}

describe.each(testDatabaseKinds())('subscription and plan limits on %s', (kind) => {
  let t: TestApp;
  let trial: PharmacyFixture;
  let standard: PharmacyFixture;
  let trialOwner: TestClient;
  let standardOwner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // A new pharmacy on its trial: one user (the owner) and one branch, as the trial allows.
    trial = await createPharmacyWithStaff(t.db, { id: 'sub_trial', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    standard = await createPharmacyWithStaff(t.db, { id: 'sub_standard', plan: 'standard', roles: ['owner', 'cashier'] });
    trialOwner = await loginAs(t, trial.users.owner!.email);
    standardOwner = await loginAs(t, standard.users.owner!.email);
  });
  afterAll(async () => t?.close());

  const invite = (client: TestClient, email: string) =>
    client.post('/api/users/invite', { email, name: 'New Person', role: 'cashier', hasPosAccess: true });
  const createBranch = (client: TestClient, name: string) => client.post('/api/branches', { name });

  it('shows a new trial: 7 days, the trial limits, usage counted from real rows and no prompt yet', async () => {
    const res = await trialOwner.get('/api/subscription');
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({
      planId: 'trial',
      status: 'trial',
      maxProducts: 50,
      maxTransactions: 50,
      maxUsers: 1,
      maxBranches: 1,
    });
    const start = new Date(res.body.subscription.startDate).getTime();
    expect(new Date(res.body.subscription.trialEndDate).getTime() - start).toBe(7 * 86_400_000);
    expect(res.body.summary).toMatchObject({
      isTrial: true,
      trialExpired: false,
      trialDaysLeft: 7,
      licenseActive: true,
      hostingActive: true,
      systemActive: true,
      hostingDueSoon: false,
      statusMessage: 'Trial expires in 7 days',
      nextAction: null,
      banner: null,
    });
    // The reminder is set 3 days before the trial ends.
    expect(new Date(res.body.subscription.trialEndDate).getTime() - new Date(res.body.summary.reminderDate).getTime()).toBe(3 * 86_400_000);
    expect(res.body.usage).toEqual({ products: 0, transactions: 0, users: 1, branches: 1 });
  });

  it('records a usage snapshot when the counts change, not on every read', async () => {
    await t.db.owner.query(`DELETE FROM usage_snapshots WHERE pharmacy_id = $1`, [standard.pharmacyId]);
    await standardOwner.get('/api/subscription');
    await standardOwner.get('/api/subscription');
    expect(await countRows(t.db, 'usage_snapshots', standard.pharmacyId)).toBe(1);
    const [first] = await t.db.owner.query(
      `SELECT current_products, current_transactions, current_users, current_branches FROM usage_snapshots WHERE pharmacy_id = $1`,
      [standard.pharmacyId],
    );
    expect(first).toEqual({ current_products: 0, current_transactions: 0, current_users: 2, current_branches: 2 });

    expect((await createBranch(standardOwner, 'Snapshot Branch')).status).toBe(201);
    const res = await standardOwner.get('/api/subscription');
    expect(res.body.usage.branches).toBe(3);
    const rows = await t.db.owner.query<{ current_branches: number }>(
      `SELECT current_branches FROM usage_snapshots WHERE pharmacy_id = $1 ORDER BY taken_at`,
      [standard.pharmacyId],
    );
    expect(rows.map((r) => r.current_branches)).toEqual([2, 3]);
  });

  it('refuses a second user on a trial with the limit message, and writes nothing', async () => {
    const before = await tenantSnapshot(t.db, trial.pharmacyId);
    const res = await invite(trialOwner, 'second.user@sub-trial.test');
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'LIMIT_EXCEEDED', message: limitExceeded(1, 1) });
    expect(await tenantSnapshot(t.db, trial.pharmacyId)).toEqual(before);
    const users = await t.db.owner.query(`SELECT 1 FROM users WHERE email = 'second.user@sub-trial.test'`);
    expect(users).toHaveLength(0);
  });

  it('refuses a second branch on a trial with the limit message, and writes nothing', async () => {
    const before = await tenantSnapshot(t.db, trial.pharmacyId);
    const res = await createBranch(trialOwner, 'Westlands Branch');
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'LIMIT_EXCEEDED', message: limitExceeded(1, 1) });
    expect(await tenantSnapshot(t.db, trial.pharmacyId)).toEqual(before);
  });

  it('refuses the 51st product on a trial', async () => {
    await t.db.owner.query(`INSERT INTO products (pharmacy_id, name) SELECT $1, 'Trial product ' || g FROM generate_series(1, 50) g`, [
      trial.pharmacyId,
    ]);
    await syncUsageCounters(t.db, trial.pharmacyId);
    const usage = await trialOwner.get('/api/subscription');
    expect(usage.body.usage.products).toBe(50);
    const res = await trialOwner.post('/api/products', { name: 'One Too Many' });
    expect(res.status).toBe(402);
    expect(res.body.error.message).toBe(limitExceeded(50, 50));
    expect(await countRows(t.db, 'products', trial.pharmacyId)).toBe(50);
    const { counters, rows } = await usageCountersAndRows(t.db, trial.pharmacyId);
    expect(counters).toEqual(rows);
  });

  it('counts only active members and branches: a deactivated member frees the place', async () => {
    const [extra] = await t.db.owner.query<{ id: string }>(
      `INSERT INTO users (email, name) VALUES ('former@sub-trial.test', 'Former') RETURNING id`,
    );
    await t.db.owner.query(`INSERT INTO memberships (pharmacy_id, user_id, role, is_active) VALUES ($1, $2, 'cashier', false)`, [
      trial.pharmacyId,
      extra!.id,
    ]);
    const res = await trialOwner.get('/api/subscription');
    expect(res.body.usage.users).toBe(1);
    // Reactivating them would be a second active user: the trial refuses it.
    const reactivate = await trialOwner.patch(`/api/users/${extra!.id}`, { isActive: true });
    expect(reactivate.status).toBe(402);
    expect(reactivate.body.error.message).toBe(limitExceeded(1, 1));
    const [row] = await t.db.owner.query<{ is_active: boolean }>(`SELECT is_active FROM memberships WHERE pharmacy_id = $1 AND user_id = $2`, [
      trial.pharmacyId,
      extra!.id,
    ]);
    expect(row?.is_active).toBe(false);
  });

  it('prompts to purchase when 2 days or fewer of the trial remain', async () => {
    await setSubscription(t.db, trial.pharmacyId, { trial_end_date: '36 hours', end_date: '36 hours' });
    const res = await trialOwner.get('/api/subscription');
    expect(res.body.summary).toMatchObject({
      trialDaysLeft: 2,
      statusMessage: 'Trial expires in 2 days',
      nextAction: 'Trial expires in 2 days - purchase now to avoid interruption',
      banner: 'upgrade_soon',
      systemActive: true,
    });
    await setSubscription(t.db, trial.pharmacyId, { trial_end_date: '3 days 1 hour', end_date: '3 days 1 hour' });
    const later = await trialOwner.get('/api/subscription');
    expect(later.body.summary).toMatchObject({ statusMessage: 'Trial expires in 4 days', nextAction: null, banner: null });
  });

  it("after the trial's end: 'Subscription not active' on every limited write, and the upgrade prompt", async () => {
    await setSubscription(t.db, trial.pharmacyId, { trial_end_date: '-1 day', end_date: '-1 day' });
    const res = await trialOwner.get('/api/subscription');
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({
      isTrial: true,
      trialExpired: true,
      trialDaysLeft: 0,
      licenseActive: false,
      hostingActive: false,
      systemActive: false,
      statusMessage: 'Trial expired - upgrade to continue',
      nextAction: 'Purchase the POS (KSh 30,000) to continue',
      nextActionUrgent: true,
      banner: 'upgrade',
    });
    await t.db.owner.query(`DELETE FROM products WHERE pharmacy_id = $1`, [trial.pharmacyId]);
    const before = await tenantSnapshot(t.db, trial.pharmacyId);
    for (const attempt of [
      () => invite(trialOwner, 'late@sub-trial.test'),
      () => createBranch(trialOwner, 'Late Branch'),
      () => trialOwner.post('/api/products', { name: 'Late Product' }),
    ]) {
      const refused = await attempt();
      expect(refused.status).toBe(402);
      expect(refused.body.error).toEqual({ code: 'SUBSCRIPTION_NOT_ACTIVE', message: 'Subscription not active' });
    }
    expect(await tenantSnapshot(t.db, trial.pharmacyId)).toEqual(before);
    expect(await countRows(t.db, 'products', trial.pharmacyId)).toBe(0);
  });

  it('the standard plan is unlimited: more users and branches than a trial allows', async () => {
    const res = await standardOwner.get('/api/subscription');
    expect(res.body.subscription).toMatchObject({ planId: 'standard', status: 'active', maxProducts: -1, maxTransactions: -1, maxUsers: -1, maxBranches: -1 });
    for (const n of [1, 2, 3]) {
      expect((await invite(standardOwner, `staff${n}@sub-standard.test`)).status).toBe(201);
      expect((await createBranch(standardOwner, `Extra Branch ${n}`)).status).toBe(201);
    }
    const after = await standardOwner.get('/api/subscription');
    expect(after.body.usage.users).toBe(res.body.usage.users + 3);
    expect(after.body.usage.branches).toBe(res.body.usage.branches + 3);
  });

  it("shows 'Active - Hosting until {date}' while hosting has more than 30 days", async () => {
    const res = await standardOwner.get('/api/subscription');
    const paidUntil = new Date(res.body.subscription.hostingPaidUntil);
    expect(paidUntil.getTime()).toBeGreaterThan(Date.now() + 360 * 86_400_000);
    expect(res.body.summary).toMatchObject({
      isTrial: false,
      licenseActive: true,
      hostingActive: true,
      systemActive: true,
      hostingDueSoon: false,
      statusMessage: `Active - Hosting until ${nairobiDate(paidUntil)}`,
      nextAction: null,
      banner: null,
    });
  });

  it('flags hosting due soon at 30 days and urgent at 7', async () => {
    await setSubscription(t.db, standard.pharmacyId, { hosting_paid_until: '20 days' });
    const soon = await standardOwner.get('/api/subscription');
    expect(soon.body.summary).toMatchObject({
      hostingDaysLeft: 20,
      hostingDueSoon: true,
      hostingUrgent: false,
      statusMessage: 'Active - Hosting expires in 20 days',
      nextAction: 'Hosting expires in 20 days - renew now',
      nextActionUrgent: false,
      banner: 'renew_hosting',
    });
    await setSubscription(t.db, standard.pharmacyId, { hosting_paid_until: '5 days' });
    const urgent = await standardOwner.get('/api/subscription');
    expect(urgent.body.summary).toMatchObject({
      hostingDaysLeft: 5,
      hostingUrgent: true,
      statusMessage: 'Active - Hosting expires in 5 days',
      nextAction: 'Hosting expires in 5 days - renew now',
      nextActionUrgent: true,
      banner: 'renew_hosting',
    });
    // Still active: writes go through.
    expect((await createBranch(standardOwner, 'Before Hosting Ends')).status).toBe(201);
  });

  it("'License active - Hosting expired' asks for the hosting fee and stops limited writes", async () => {
    await setSubscription(t.db, standard.pharmacyId, { hosting_paid_until: '-2 days' });
    const res = await standardOwner.get('/api/subscription');
    expect(res.body.summary).toMatchObject({
      licenseActive: true,
      hostingActive: false,
      systemActive: false,
      licenseActiveHostingExpired: true,
      statusMessage: 'License active - Hosting expired',
      nextAction: 'Pay yearly hosting fee (KSh 3,500) to reactivate your system',
      nextActionUrgent: true,
      banner: 'pay_hosting',
    });
    const refused = await createBranch(standardOwner, 'After Hosting Ended');
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe('Subscription not active');
    await setSubscription(t.db, standard.pharmacyId, { hosting_paid_until: '1 year' });
  });

  it("shows 'Inactive' for an inactive licence", async () => {
    await setSubscription(t.db, standard.pharmacyId, { status: 'inactive', hosting_paid_until: '-1 day' });
    const res = await standardOwner.get('/api/subscription');
    expect(res.body.summary).toMatchObject({ statusMessage: 'Inactive', licenseActive: false, systemActive: false });
    await setSubscription(t.db, standard.pharmacyId, { status: 'active', hosting_paid_until: '1 year' });
  });

  it('creates a trial automatically when a pharmacy has no subscription', async () => {
    const fresh = await createPharmacyWithStaff(t.db, { id: 'sub_fresh', plan: 'standard', roles: ['owner'], branchNames: ['Main Branch'] });
    await t.db.owner.query(`DELETE FROM subscriptions WHERE pharmacy_id = $1`, [fresh.pharmacyId]);
    const owner = await loginAs(t, fresh.users.owner!.email);
    const res = await owner.get('/api/subscription');
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ planId: 'trial', status: 'trial', maxUsers: 1 });
    expect(res.body.summary.statusMessage).toBe('Trial expires in 7 days');
    const [row] = await t.db.owner.query<{ plan_id: string; initialization_method: string }>(
      `SELECT plan_id, initialization_method FROM subscriptions WHERE pharmacy_id = $1`,
      [fresh.pharmacyId],
    );
    expect(row).toEqual({ plan_id: 'trial', initialization_method: 'auto_on_read' });
  });

  it('every member reads it (the banner shows on every screen); a visitor gets 401', async () => {
    const cashier = await loginAs(t, standard.users.cashier!.email);
    const res = await cashier.get('/api/subscription');
    expect(res.status).toBe(200);
    expect(res.body.subscription.planId).toBe('standard');
    const anonymous = await t.client().get('/api/subscription');
    expect(anonymous.status).toBe(401);
  });

  it('lets only one of two simultaneous requests take the last free place', async () => {
    const race = await createPharmacyWithStaff(t.db, { id: 'sub_race', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    await t.db.owner.query(`UPDATE subscriptions SET max_branches = 2 WHERE pharmacy_id = $1`, [race.pharmacyId]);
    const owner = await loginAs(t, race.users.owner!.email);
    const results = await Promise.all([createBranch(owner, 'Race Branch A'), createBranch(owner, 'Race Branch B')]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 402]);
    expect(results.find((r) => r.status === 402)!.body.error.message).toBe(limitExceeded(2, 2));
    expect(await countRows(t.db, 'branches', race.pharmacyId)).toBe(2);
  });

  it('shows each pharmacy only its own subscription and usage', async () => {
    const trialView = await trialOwner.get('/api/subscription');
    const standardView = await standardOwner.get('/api/subscription');
    expect(trialView.body.subscription.planId).toBe('trial');
    expect(standardView.body.subscription.planId).toBe('standard');
    expect(trialView.body.usage.branches).toBe(1);
    expect(standardView.body.usage.branches).toBeGreaterThan(1);
  });
});
