import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, createUser, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs, setSubscription } from './platform-helpers.ts';

const DAY = 86_400_000;

describe.each(testDatabaseKinds())("the operator's actions and dashboard on %s", (kind) => {
  let t: TestApp;
  let trial: PharmacyFixture;
  let expired: PharmacyFixture;
  let licensed: PharmacyFixture;
  let operator: TestClient;
  let operatorId: string;

  const subscription = async (id: string) =>
    (await t.db.owner.query<{ status: string; trial_end_date: string | null }>(`SELECT status, trial_end_date FROM subscriptions WHERE pharmacy_id = $1`, [id]))[0]!;
  const auditRows = async (id: string) =>
    t.db.owner.query<{ action: string; user_id: string; after: Record<string, unknown> }>(
      `SELECT action, user_id, after FROM audit_log WHERE pharmacy_id = $1 AND action LIKE 'admin.%' ORDER BY at, id`,
      [id],
    );

  beforeAll(async () => {
    t = await createTestApp(kind);
    trial = await createPharmacyWithStaff(t.db, { id: 'act_trial', name: 'Trial Chemists', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    expired = await createPharmacyWithStaff(t.db, { id: 'act_expired', name: 'Expired Chemists', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    licensed = await createPharmacyWithStaff(t.db, { id: 'act_licensed', name: 'Licensed Chemists', plan: 'standard', roles: ['owner'], branchNames: ['Main Branch'] });
    await createPharmacyWithStaff(t.db, { id: 'act_demo', plan: 'standard', roles: ['owner', 'demo'], branchNames: ['Main Branch'] });
    await setSubscription(t.db, expired.pharmacyId, { trial_end_date: '-3 days', end_date: '-3 days' });
    const op = await createUser(t.db, { email: 'operator@actions.test', name: 'Platform Operator', isPlatformOperator: true });
    operatorId = op.id;
    operator = await loginAs(t, op.email);
  });
  afterAll(async () => t?.close());

  it('extends a running trial from its end, and an expired one from now; audited under the operator', async () => {
    const before = new Date((await subscription(trial.pharmacyId)).trial_end_date!).getTime();
    const res = await operator.post(`/api/admin/pharmacies/${trial.pharmacyId}/extend-trial`, { days: 7 });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Trial extended by 7 days for Trial Chemists');
    expect(res.body.pharmacy).toMatchObject({ id: trial.pharmacyId, subscription: { status: 'trial' } });
    expect(new Date((await subscription(trial.pharmacyId)).trial_end_date!).getTime()).toBe(before + 7 * DAY);

    const revived = await operator.post(`/api/admin/pharmacies/${expired.pharmacyId}/extend-trial`, { days: 5 });
    expect(revived.status).toBe(200);
    expect(revived.body.pharmacy.subscription.status).toBe('trial');
    const end = new Date((await subscription(expired.pharmacyId)).trial_end_date!).getTime();
    expect(Math.abs(end - (Date.now() + 5 * DAY))).toBeLessThan(60_000);

    const audit = await auditRows(trial.pharmacyId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'admin.trial_extended', user_id: operatorId, after: { days: 7, by: 'platform_operator', operatorEmail: 'operator@actions.test' } });
  });

  it('refuses what does not hold, and writes nothing', async () => {
    const licensedBefore = await subscription(licensed.pharmacyId);
    const notTrial = await operator.post(`/api/admin/pharmacies/${licensed.pharmacyId}/extend-trial`, { days: 7 });
    expect(notTrial.status).toBe(409);
    expect(notTrial.body.error.message).toBe('Not in trial period');
    for (const days of [0, 91, 2.5]) {
      expect((await operator.post(`/api/admin/pharmacies/${trial.pharmacyId}/extend-trial`, { days })).status).toBe(400);
    }
    expect((await operator.post(`/api/admin/pharmacies/no_such_pharmacy/extend-trial`, { days: 7 })).status).toBe(404);
    expect(await subscription(licensed.pharmacyId)).toEqual(licensedBefore);
    expect(await auditRows(licensed.pharmacyId)).toHaveLength(0);
  });

  it('deactivates and reactivates a pharmacy (a licence back to active), audited; a deactivated trial cannot be extended', async () => {
    const off = await operator.post(`/api/admin/pharmacies/${licensed.pharmacyId}/deactivate`, {});
    expect(off.status).toBe(200);
    expect(off.body.message).toBe('Licensed Chemists has been deactivated');
    expect(off.body.pharmacy.subscription.status).toBe('inactive');
    expect((await subscription(licensed.pharmacyId)).status).toBe('inactive');
    // The pharmacy's people see it at once: the system is not active for them.
    const owner = await loginAs(t, licensed.users.owner!.email);
    expect((await owner.get('/api/subscription')).body.summary.systemActive).toBe(false);

    const on = await operator.post(`/api/admin/pharmacies/${licensed.pharmacyId}/reactivate`, {});
    expect(on.body.pharmacy.subscription.status).toBe('active');
    expect((await subscription(licensed.pharmacyId)).status).toBe('active');
    expect((await auditRows(licensed.pharmacyId)).map((r) => r.action)).toEqual(['admin.pharmacy_deactivated', 'admin.pharmacy_reactivated']);

    await operator.post(`/api/admin/pharmacies/${trial.pharmacyId}/deactivate`, {});
    const refused = await operator.post(`/api/admin/pharmacies/${trial.pharmacyId}/extend-trial`, { days: 1 });
    expect(refused.body.error.message).toBe('This pharmacy is deactivated. Reactivate it first.');
    await operator.post(`/api/admin/pharmacies/${trial.pharmacyId}/reactivate`, {});
    expect((await subscription(trial.pharmacyId)).status).toBe('trial');
  });

  it('the dashboard counts pharmacies by status (demo left out), sign-ups by month and the demo funnel', async () => {
    const res = await operator.get('/api/admin/overview');
    expect(res.status).toBe(200);
    expect(res.body.pharmacies).toMatchObject({ total: 3, trial: 2, active: 1, inactive: 0 });
    expect(res.body.months).toHaveLength(12);
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect(res.body.months[11]).toMatchObject({ month: thisMonth, signUps: 3 });
    expect(res.body.demos).toEqual({ registrations: 0, verified: 0, accessed: 0, converted: 0 });
    expect(res.body.months[11]).toMatchObject({ licenceCents: 0, hostingCents: 0 });

    // Revenue: completed platform payments by the month they completed (pending and reversed ones do not count).
    const pay = (purpose: string, cents: number, status: string, completedAt: string | null) =>
      t.db.owner.query(
        `INSERT INTO platform_payments (id, purpose, plan, amount_cents, phone, owner_email, owner_name, pharmacy_name, status, completed_at)
         VALUES (gen_random_uuid(), $1, 'complete', $2, '254712345678', 'buyer@example.com', 'Buyer', 'Buyer Chemists', $3, $4)`,
        [purpose, cents, status, completedAt],
      );
    await pay('licence', 3_000_000, 'completed', new Date().toISOString());
    await pay('hosting', 350_000, 'completed', new Date().toISOString());
    await pay('upgrade', 3_000_000, 'reversed', new Date().toISOString());
    await pay('hosting', 350_000, 'pending', null);
    const withRevenue = (await operator.get('/api/admin/overview')).body;
    expect(withRevenue.months[11]).toMatchObject({ month: thisMonth, licenceCents: 3_000_000, hostingCents: 350_000 });
  });

  it('lists demos and leads and records a follow-up; only operators may', async () => {
    const userId = (await t.db.owner.query<{ id: string }>(`INSERT INTO users (email, name) VALUES ('lead@example.com', 'Lead Person') RETURNING id`))[0]!.id;
    await t.db.owner.query(`INSERT INTO demo_registrations (user_id, name, email, phone) VALUES ($1, 'Lead Person', 'lead@example.com', '0712345678')`, [userId]);
    const [lead] = await t.db.owner.query<{ id: string }>(`INSERT INTO leads (user_id, name, email, phone) VALUES ($1, 'Lead Person', 'lead@example.com', '0712345678') RETURNING id`, [userId]);
    const list = await operator.get('/api/admin/demos');
    expect(list.body.registrations).toHaveLength(1);
    expect(list.body.registrations[0]).toMatchObject({ email: 'lead@example.com', emailVerified: false, accessCount: 0 });
    expect(list.body.leads[0]).toMatchObject({ id: lead!.id, leadStatus: 'new', followUpRequired: true });

    const patched = await operator.patch(`/api/admin/leads/${lead!.id}`, { leadStatus: 'converted', notes: 'Paid by bank transfer' });
    expect(patched.status).toBe(200);
    expect(patched.body.lead).toMatchObject({ leadStatus: 'converted', followUpRequired: false, notes: 'Paid by bank transfer' });
    // Who changed it, and from what: one append-only row per change (migration 0025).
    const changes = await t.db.owner.query(`SELECT changed_by, lead_status, follow_up_required, notes, before FROM lead_changes WHERE lead_id = $1`, [lead!.id]);
    expect(changes).toEqual([
      { changed_by: operatorId, lead_status: 'converted', follow_up_required: false, notes: 'Paid by bank transfer', before: { leadStatus: 'new', followUpRequired: true, notes: null } },
    ]);
    expect((await operator.patch(`/api/admin/leads/${lead!.id}`, { leadStatus: 'won' })).status).toBe(400);
    expect((await operator.patch(`/api/admin/leads/00000000-0000-4000-8000-000000000000`, { leadStatus: 'lost' })).status).toBe(404);
    expect((await operator.get('/api/admin/overview')).body.demos).toMatchObject({ registrations: 1, converted: 1 });

    const owner = await loginAs(t, trial.users.owner!.email);
    for (const [method, url, body] of [
      ['GET', '/api/admin/demos', undefined],
      ['GET', '/api/admin/overview', undefined],
      ['POST', `/api/admin/pharmacies/${trial.pharmacyId}/extend-trial`, { days: 7 }],
      ['POST', `/api/admin/pharmacies/${licensed.pharmacyId}/deactivate`, {}],
      ['PATCH', `/api/admin/leads/${lead!.id}`, { leadStatus: 'lost' }],
    ] as const) {
      expect((await owner.request(method, url, body)).status, url).toBe(403);
      expect((await t.client().request(method, url, body)).status, url).toBe(401);
    }
    expect((await subscription(licensed.pharmacyId)).status).toBe('active');
  });

  it('sets up a pharmacy and its owner by hand; the owner accepts the emailed invitation and signs in as owner', async () => {
    const bad = await operator.post('/api/admin/pharmacies', { pharmacyName: ' ', ownerName: 'Mary', ownerEmail: 'mary@', plan: 'gold' });
    expect(bad.status).toBe(400);
    const duplicate = await operator.post('/api/admin/pharmacies', { pharmacyName: 'Dup', ownerName: 'Dup', ownerEmail: trial.users.owner!.email, plan: 'trial' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.message).toBe('An account with this email already exists.');

    const res = await operator.post('/api/admin/pharmacies', { pharmacyName: 'Mary Chemists', ownerName: 'Mary Akinyi', ownerEmail: ' Mary@Example.com ', plan: 'standard' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Mary Chemists is set up. An invitation was sent to mary@example.com.');
    expect(res.body.pharmacy).toMatchObject({ name: 'Mary Chemists', plan: 'standard', ownerEmail: 'mary@example.com', subscription: { status: 'active' } });
    const pharmacyId = res.body.pharmacy.id as string;
    expect((await auditRows(pharmacyId)).map((r) => r.action)).toEqual(['admin.pharmacy_created']);

    const mails = await t.db.owner.query<{ payload: { text: string } }>(`SELECT payload FROM jobs WHERE kind = 'email' AND payload->>'to' = 'mary@example.com' ORDER BY created_at`);
    expect(mails).toHaveLength(1);
    const token = new URL(mails[0]!.payload.text.match(/https?:\/\/\S+\/accept-invite\?\S+/)![0]).searchParams.get('token')!;

    // Until the owner accepts, resending works; afterwards it says so.
    expect((await operator.post(`/api/admin/pharmacies/${pharmacyId}/resend-invitation`, {})).status).toBe(200);
    expect((await t.client().post('/api/auth/accept-invite', { token, password: 'Owner#2026pw', confirmPassword: 'Owner#2026pw' })).body.error.code).toBe('VERIFY_LINK_USED');
    const mails2 = await t.db.owner.query<{ payload: { text: string } }>(`SELECT payload FROM jobs WHERE kind = 'email' AND payload->>'to' = 'mary@example.com' ORDER BY created_at DESC LIMIT 1`);
    const token2 = new URL(mails2[0]!.payload.text.match(/https?:\/\/\S+\/accept-invite\?\S+/)![0]).searchParams.get('token')!;
    const owner = t.client();
    const accepted = await owner.post('/api/auth/accept-invite', { token: token2, password: 'Owner#2026pw', confirmPassword: 'Owner#2026pw' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.pharmacy).toMatchObject({ id: pharmacyId, name: 'Mary Chemists' });
    expect(accepted.body.membership.role).toBe('owner');
    expect((await owner.get('/api/branches')).body.branches.map((b: { name: string }) => b.name)).toEqual(['Main Branch']);
    const again = await operator.post(`/api/admin/pharmacies/${pharmacyId}/resend-invitation`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This person has already accepted the invitation.');
  });

  it("analytics: a month's sales per pharmacy, counts and totals only, voided sales left out; a bad month is refused", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const sale = (n: number, cents: number, status = 'completed', date = today) =>
      t.db.owner.query(
        `INSERT INTO sales (pharmacy_id, id, invoice_number, branch_id, client_name, cashier_name, sale_date, subtotal_cents, total_cents, amount_paid_cents, payment_method, status)
         VALUES ($1, gen_random_uuid(), $2, $3, 'Walk-in', 'Cashier', $4, $5, $5, $5, 'Cash', $6)`,
        [trial.pharmacyId, `INV-${String(n).padStart(6, '0')}`, trial.branches[0]!.id, date, cents, status],
      );
    await sale(1, 100_000);
    await sale(2, 250_000);
    await sale(3, 999_999, 'voided');
    await sale(4, 777_777, 'completed', '2020-01-15');
    const res = await operator.get('/api/admin/analytics');
    expect(res.status).toBe(200);
    const row = res.body.pharmacies.find((p: { id: string }) => p.id === trial.pharmacyId);
    expect(row).toEqual({ id: trial.pharmacyId, name: 'Trial Chemists', isDemo: false, salesCount: 2, salesTotalCents: 350_000, lastSaleDate: today });
    expect(res.body.totals).toMatchObject({ activePharmacies: 1, salesCount: 2, salesTotalCents: 350_000, licenceCents: 3_000_000, hostingCents: 350_000 });
    expect(JSON.stringify(res.body)).not.toContain('Walk-in');
    const old = await operator.get('/api/admin/analytics?month=2020-01');
    expect(old.body.totals).toMatchObject({ salesCount: 1, salesTotalCents: 777_777, signUps: 0 });
    expect((await operator.get('/api/admin/analytics?month=2020-13')).status).toBe(400);
    expect((await (await loginAs(t, trial.users.owner!.email)).get('/api/admin/analytics')).status).toBe(403);
  });

  it("reads and saves a pharmacy's theme for the operator, audited in its log; another id is 404", async () => {
    expect((await operator.get(`/api/admin/pharmacies/${trial.pharmacyId}/theme`)).body.theme).toMatchObject({ primaryColor: '#2563eb', secondaryColor: '#10b981' });
    const saved = await operator.put(`/api/admin/pharmacies/${trial.pharmacyId}/theme`, { primaryColor: '#7c3aed', secondaryColor: '#f59e0b', appTitle: 'Trial POS' });
    expect(saved.status).toBe(200);
    const owner = await loginAs(t, trial.users.owner!.email);
    expect((await owner.get('/api/pharmacy/theme')).body.theme).toMatchObject({ primaryColor: '#7c3aed', appTitle: 'Trial POS' });
    expect((await operator.put(`/api/admin/pharmacies/${trial.pharmacyId}/theme`, { primaryColor: 'purple', secondaryColor: '#f59e0b' })).status).toBe(400);
    expect((await operator.get('/api/admin/pharmacies/no_such_pharmacy/theme')).status).toBe(404);
    const rows = await t.db.owner.query<{ user_id: string }>(`SELECT user_id FROM audit_log WHERE pharmacy_id = $1 AND entity = 'theme'`, [trial.pharmacyId]);
    expect(rows).toEqual([{ user_id: operatorId }]);
  });

  it('extends a trial once for one Idempotency-Key, however often and however concurrently it is retried (issue 7)', async () => {
    const end = async () => new Date((await subscription(trial.pharmacyId)).trial_end_date!).getTime();
    const before = await end();
    const auditBefore = (await auditRows(trial.pharmacyId)).length;
    const url = `/api/admin/pharmacies/${trial.pharmacyId}/extend-trial`;
    const key = { 'idempotency-key': 'extend-retry-1' };
    const answers = await Promise.all([1, 2, 3, 4].map(() => operator.request('POST', url, { days: 3 }, key)));
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.message).toBe('Trial extended by 3 days for Trial Chemists');
    }
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    expect(await end()).toBe(before + 3 * DAY);
    expect(await auditRows(trial.pharmacyId)).toHaveLength(auditBefore + 1);
    // The same key for another request is refused; a new key extends again.
    expect((await operator.request('POST', url, { days: 4 }, key)).body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await operator.request('POST', url, { days: 1 }, { 'idempotency-key': 'bad key!' })).status).toBe(400);
    expect(await end()).toBe(before + 3 * DAY);
    expect((await operator.request('POST', url, { days: 1 }, { 'idempotency-key': 'extend-retry-2' })).status).toBe(200);
    expect(await end()).toBe(before + 4 * DAY);
  });

  it('a replay answers the stored first answer, not the pharmacy as it is now (decision 0060)', async () => {
    const url = `/api/admin/pharmacies/${trial.pharmacyId}/extend-trial`;
    const first = await operator.request('POST', url, { days: 2 }, { 'idempotency-key': 'extend-replay-1' });
    expect(first.status).toBe(200);
    const firstEnd = first.body.pharmacy.subscription.trialEndDate as string;
    expect(new Date(firstEnd).getTime()).toBe(new Date((await subscription(trial.pharmacyId)).trial_end_date!).getTime());
    // The trial moves on under another key; the first key still answers what it answered then.
    expect((await operator.request('POST', url, { days: 5 }, { 'idempotency-key': 'extend-replay-2' })).status).toBe(200);
    const replay = await operator.request('POST', url, { days: 2 }, { 'idempotency-key': 'extend-replay-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(new Date((await subscription(trial.pharmacyId)).trial_end_date!).getTime()).toBe(new Date(firstEnd).getTime() + 5 * DAY);
    // An unknown pharmacy is 404 with a key too, and claims nothing.
    const missing = await operator.request('POST', '/api/admin/pharmacies/no_such_pharmacy/extend-trial', { days: 2 }, { 'idempotency-key': 'extend-replay-3' });
    expect(missing.status).toBe(404);
    expect(await t.db.owner.query(`SELECT 1 FROM idempotency_keys WHERE key = 'extend-replay-3'`)).toHaveLength(0);
  });
});
