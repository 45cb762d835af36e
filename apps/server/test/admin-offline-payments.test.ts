import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kenyaToday, offlinePaymentDefaultCents } from '@pharmapoint/domain/admin';
import { PLATFORM_PRICES } from '@pharmapoint/domain/platform-payments';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, createUser, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs, setSubscription } from './platform-helpers.ts';

const DAY = 86_400_000;

/** One year after `from`, as subscription.service's applySubscriptionPayment counts it (same day, next year, UTC). */
function yearAfter(from: Date): number {
  const until = new Date(from.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + 1);
  return until.getTime();
}

/** The day `days` before today in Kenya, as YYYY-MM-DD. */
function daysAgo(days: number): string {
  return kenyaToday(new Date(Date.now() - days * DAY));
}

describe.each(testDatabaseKinds())('the operator records an offline payment on %s (issue 11 item 8)', (kind) => {
  let t: TestApp;
  let trial: PharmacyFixture;
  let licensed: PharmacyFixture;
  let lapsed: PharmacyFixture;
  let freshTrial: PharmacyFixture;
  let operator: TestClient;
  let operatorId: string;

  const url = (id: string) => `/api/admin/pharmacies/${id}/offline-payments`;
  const subscription = async (id: string) =>
    (
      await t.db.owner.query<{ plan_id: string; status: string; hosting_paid_until: string | null; hosting_payment_method: string | null }>(
        `SELECT plan_id, status, hosting_paid_until, hosting_payment_method FROM subscriptions WHERE pharmacy_id = $1`,
        [id],
      )
    )[0]!;
  const payments = async (id: string) =>
    t.db.owner.query<{ purpose: string; amount_cents: number; status: string; method: string; reference: string | null; paid_on: string; note: string | null; requested_by: string; phone: string | null }>(
      `SELECT purpose, amount_cents::int AS amount_cents, status, method, reference, to_char(paid_on, 'YYYY-MM-DD') AS paid_on, note, requested_by, phone
         FROM platform_payments WHERE for_pharmacy_id = $1 ORDER BY created_at`,
      [id],
    );
  const audits = async (id: string) =>
    t.db.owner.query<{ user_id: string; after: Record<string, unknown> }>(
      `SELECT user_id, after FROM audit_log WHERE pharmacy_id = $1 AND action = 'admin.offline_payment_recorded' ORDER BY at, id`,
      [id],
    );
  const counts = async () =>
    (
      await t.db.owner.query<{ payments: number; audit: number; keys: number }>(
        `SELECT (SELECT count(*)::int FROM platform_payments) AS payments, (SELECT count(*)::int FROM audit_log WHERE entity = 'subscription') AS audit,
                (SELECT count(*)::int FROM idempotency_keys) AS keys`,
      )
    )[0]!;

  beforeAll(async () => {
    t = await createTestApp(kind);
    trial = await createPharmacyWithStaff(t.db, { id: 'off_trial', name: 'Trial Chemists', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    licensed = await createPharmacyWithStaff(t.db, { id: 'off_licensed', name: 'Licensed Chemists', plan: 'standard', roles: ['owner'], branchNames: ['Main Branch'] });
    lapsed = await createPharmacyWithStaff(t.db, { id: 'off_lapsed', name: 'Lapsed Chemists', plan: 'standard', roles: ['owner'], branchNames: ['Main Branch'] });
    freshTrial = await createPharmacyWithStaff(t.db, { id: 'off_trial2', name: 'Another Trial', plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
    await setSubscription(t.db, licensed.pharmacyId, { hosting_paid_until: '40 days' });
    await setSubscription(t.db, lapsed.pharmacyId, { hosting_paid_until: '-10 days' });
    const op = await createUser(t.db, { email: 'operator@offline.test', name: 'Platform Operator', isPlatformOperator: true });
    operatorId = op.id;
    operator = await loginAs(t, op.email);
  });
  afterAll(async () => t?.close());

  it('defaults the amounts from the price list the licence purchase uses', () => {
    expect(offlinePaymentDefaultCents('licence')).toBe(PLATFORM_PRICES.complete.amountCents);
    expect(offlinePaymentDefaultCents('hosting')).toBe(PLATFORM_PRICES.hosting.amountCents);
  });

  it('records hosting paid by bank transfer: completed payment, hosting a year from the later of now and paid-until, audited, in the revenue', async () => {
    const before = new Date((await subscription(licensed.pharmacyId)).hosting_paid_until!);
    const today = kenyaToday();
    const res = await operator.post(url(licensed.pharmacyId), {
      kind: 'hosting',
      amountCents: 350_000,
      method: 'bank_transfer',
      reference: ' EQ-2026-0042 ',
      paidOn: today,
      note: 'Paid at Equity Bank, Kenyatta Avenue',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('KSh 3,500.00 hosting payment by bank transfer recorded for Licensed Chemists');
    expect(res.body.payment).toMatchObject({ kind: 'hosting', amountCents: 350_000, method: 'bank_transfer', reference: 'EQ-2026-0042', paidOn: today });
    const after = await subscription(licensed.pharmacyId);
    expect(new Date(after.hosting_paid_until!).getTime()).toBe(yearAfter(before));
    expect(after.hosting_payment_method).toBe('bank_transfer');
    expect(new Date(res.body.pharmacy.subscription.hostingPaidUntil).getTime()).toBe(yearAfter(before));

    expect(await payments(licensed.pharmacyId)).toEqual([
      { purpose: 'hosting', amount_cents: 350_000, status: 'completed', method: 'bank_transfer', reference: 'EQ-2026-0042', paid_on: today, note: 'Paid at Equity Bank, Kenyatta Avenue', requested_by: operatorId, phone: null },
    ]);
    const audit = await audits(licensed.pharmacyId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: operatorId, after: { kind: 'hosting', amountCents: 350_000, method: 'bank_transfer', by: 'platform_operator', operatorEmail: 'operator@offline.test' } });

    // Hosting that had lapsed runs a year from now; cash needs no reference.
    const lapsedRes = await operator.post(url(lapsed.pharmacyId), { kind: 'hosting', amountCents: 350_000, method: 'cash', paidOn: today });
    expect(lapsedRes.status, JSON.stringify(lapsedRes.body)).toBe(201);
    expect(Math.abs(new Date((await subscription(lapsed.pharmacyId)).hosting_paid_until!).getTime() - yearAfter(new Date()))).toBeLessThan(60_000);

    const overview = (await operator.get('/api/admin/overview')).body;
    expect(overview.months[11]).toMatchObject({ hostingCents: 700_000, licenceCents: 0 });
  });

  it('records the licence paid by cheque last month: the trial becomes the licensed plan; revenue counts it in the month paid', async () => {
    const paidOn = daysAgo(35);
    const res = await operator.post(url(trial.pharmacyId), { kind: 'licence', amountCents: 3_000_000, method: 'cheque', reference: 'CHQ 000123', paidOn });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('KSh 30,000.00 licence payment by cheque recorded for Trial Chemists');
    expect(res.body.pharmacy).toMatchObject({ plan: 'standard', subscription: { status: 'active', systemActive: true } });
    expect(await subscription(trial.pharmacyId)).toMatchObject({ plan_id: 'standard', status: 'active' });
    expect((await payments(trial.pharmacyId))[0]).toMatchObject({ purpose: 'upgrade', method: 'cheque', paid_on: paidOn });
    // The owner sees the licence at once.
    const owner = await loginAs(t, trial.users.owner!.email);
    expect((await owner.get('/api/subscription')).body.summary).toMatchObject({ isTrial: false, systemActive: true });
    const months = (await operator.get('/api/admin/overview')).body.months as { month: string; licenceCents: number }[];
    expect(months.find((m) => m.month === paidOn.slice(0, 7))!.licenceCents).toBe(3_000_000);
    const analytics = (await operator.get(`/api/admin/analytics?month=${paidOn.slice(0, 7)}`)).body;
    expect(analytics.totals.licenceCents).toBe(3_000_000);
  });

  it('refuses bad input and what does not apply with a clear sentence, and writes nothing', async () => {
    const before = await counts();
    const subBefore = await subscription(licensed.pharmacyId);
    const good = { kind: 'hosting', amountCents: 350_000, method: 'mpesa_paybill', reference: 'QK12ABC34D', paidOn: kenyaToday() };
    const cases: [string, Record<string, unknown>, number, string][] = [
      [licensed.pharmacyId, { ...good, paidOn: daysAgo(-2) }, 400, 'The date paid cannot be in the future.'],
      [licensed.pharmacyId, { ...good, paidOn: '2026-02-30' }, 400, 'The date paid must be a real date (YYYY-MM-DD).'],
      [licensed.pharmacyId, { ...good, reference: '' }, 400, 'Enter the reference: the bank or cheque number, or the M-Pesa code.'],
      [licensed.pharmacyId, { ...good, amountCents: 0 }, 400, 'Enter the amount in KSh, more than 0 and at most 1,000,000, with at most 2 decimals.'],
      [licensed.pharmacyId, { ...good, amountCents: 350.5 }, 400, 'Enter the amount in KSh, more than 0 and at most 1,000,000, with at most 2 decimals.'],
      [licensed.pharmacyId, { ...good, method: 'bitcoin' }, 400, 'Choose how the customer paid.'],
      [licensed.pharmacyId, { ...good, kind: 'gold' }, 400, 'Choose what the payment is for.'],
      [licensed.pharmacyId, { ...good, kind: 'licence', amountCents: 3_000_000 }, 409, 'Not in trial period'],
      ['no_such_pharmacy', good, 404, 'Pharmacy not found'],
    ];
    for (const [id, body, status, message] of cases) {
      const res = await operator.post(url(id), body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message).toBe(message);
    }
    // Hosting before a licence: a trial pharmacy ('No active license'); a deactivated pharmacy is reactivated first.
    expect((await operator.post(url(freshTrial.pharmacyId), good)).body.error.message).toBe('No active license');
    await setSubscription(t.db, lapsed.pharmacyId, { status: 'inactive' });
    expect((await operator.post(url(lapsed.pharmacyId), good)).body.error.message).toBe('This pharmacy is deactivated. Reactivate it first.');
    await setSubscription(t.db, lapsed.pharmacyId, { status: 'active' });
    // Only operators.
    const owner = await loginAs(t, licensed.users.owner!.email);
    expect((await owner.post(url(licensed.pharmacyId), good)).status).toBe(403);
    expect((await t.client().post(url(licensed.pharmacyId), good)).status).toBe(401);

    expect(await counts()).toEqual(before);
    expect(await subscription(licensed.pharmacyId)).toEqual(subBefore);
  });

  it('records once for one Idempotency-Key, however often and however concurrently it is sent; a replay answers the first answer', async () => {
    const before = new Date((await subscription(licensed.pharmacyId)).hosting_paid_until!);
    const paymentsBefore = (await payments(licensed.pharmacyId)).length;
    const body = { kind: 'hosting', amountCents: 350_000, method: 'mpesa_paybill', reference: 'QK12ABC34D', paidOn: kenyaToday() };
    const key = { 'idempotency-key': 'offline-pay-1' };
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => operator.request('POST', url(licensed.pharmacyId), body, key)));
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(await payments(licensed.pharmacyId)).toHaveLength(paymentsBefore + 1);
    expect(new Date((await subscription(licensed.pharmacyId)).hosting_paid_until!).getTime()).toBe(yearAfter(before));
    expect(await audits(licensed.pharmacyId)).toHaveLength(paymentsBefore + 1);
    // Later, the same key still answers the first answer; with another body it is refused.
    const later = await operator.request('POST', url(licensed.pharmacyId), body, key);
    expect(later.body).toEqual(answers[0]!.body);
    expect((await operator.request('POST', url(licensed.pharmacyId), { ...body, amountCents: 1 }, key)).body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await payments(licensed.pharmacyId)).toHaveLength(paymentsBefore + 1);
  });
});
