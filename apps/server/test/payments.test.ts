import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startK2Simulator, type K2Simulator, type SimulatedPrompt } from '../src/dev/k2-simulator.ts';
import { K2_CALLBACK_PATH } from '../src/modules/payments/k2-config.ts';
import { clearTokenCache } from '../src/modules/payments/k2.client.ts';
import { resetKopokopoHealth, setReconcileTiming } from '../src/modules/payments/payments.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { until } from './platform-helpers.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, FIXTURE_PASSWORD } from './fixtures.ts';

/**
 * Buying the licence by M-Pesa (issue 11 items 2-4) against the local K2 simulator over real HTTP: the server
 * listens on a port, its job runner sends the STK push to the simulator, the simulator posts its signed callback
 * back to the server, and status queries reconcile a callback that never came.
 */

let counter = 0;
function registration(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    phoneNumber: `2547${String(12000000 + counter)}`,
    amount: 5,
    plan: 'complete',
    pharmacyName: `Uzima Chemists ${counter}`,
    ownerName: 'Amina Wanjiru',
    ownerEmail: `amina${counter}-${Date.now()}@example.com`,
    ownerPhone: '0712345678',
    location: 'Moi Avenue, Nairobi',
    county: 'Nairobi',
    licenseNumber: 'PPB/123',
    ...overrides,
  };
}

/** The status answer holds no email, name, phone number (in any form) or pharmacy name of the payment's owner. */
function expectNothingPersonal(text: string, body: ReturnType<typeof registration>, slug?: string) {
  const local = `0${body.phoneNumber.slice(3)}`;
  for (const secret of [body.ownerEmail, body.ownerName, body.pharmacyName, body.phoneNumber, local, body.phoneNumber.slice(3), body.ownerPhone, ...(slug ? [slug] : [])]) {
    expect(text.toLowerCase(), secret).not.toContain(secret.toLowerCase());
  }
  expect(text).not.toMatch(/@|ownerEmail|ownerName|pharmacyName|subdomain/);
}

describe.each(testDatabaseKinds())('licence purchase by M-Pesa on %s', (kind) => {
  let t: TestApp;
  let sim: K2Simulator;
  let base: string;

  beforeAll(async () => {
    sim = await startK2Simulator();
    clearTokenCache();
    resetKopokopoHealth();
    setReconcileTiming({ firstMs: 400, everyMs: 300, max: 30 });
    t = await createTestApp(kind, { kopokopo: sim.config('http://127.0.0.1:1/unset') });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    t.config.kopokopo!.callbackUrl = `${base}${K2_CALLBACK_PATH}`;
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  async function start(body = registration()) {
    const c = t.client('10.9.0.' + (counter % 200));
    const res = await c.post('/api/payments/kopokopo/stk-push', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const prompt = await until('the STK prompt', () => sim.prompts().find((p) => p.metadata.payment_id === res.body.transactionId));
    await until('the stored location', async () => (await paymentRow(res.body.transactionId))?.k2_location);
    return { c, body, id: res.body.transactionId as string, setupToken: res.body.setupToken as string, prompt };
  }

  async function paymentRow(id: string) {
    const [row] = await t.db.owner.query<Record<string, any>>(`SELECT * FROM platform_payments WHERE id = $1`, [id]);
    return row;
  }

  it('GET /health reports Kopo Kopo configured and online (the simulator answers OAuth)', async () => {
    const res = await t.client().get('/health');
    expect(res.body.kopokopo).toEqual({ configured: true, status: 'online', simulator: true });
  });

  it('a newcomer pays, the signed callback provisions the pharmacy in one go, and the owner sets a password and signs in', async () => {
    const { c, body, id, setupToken, prompt } = await start();
    // The server's price, whatever the browser sent (amount 5), to the normalised phone in E.164.
    expect(prompt.amount).toBe('30000.0');
    expect(prompt.phoneNumber).toBe(`+${body.phoneNumber}`);
    const pendingAnswer = await c.get(`/api/payments/kopokopo/status/${id}`);
    expect(pendingAnswer.body.transaction).toMatchObject({ status: 'pending', amount: 30000, pharmacyId: null });
    expectNothingPersonal(JSON.stringify(pendingAnswer.body), body);

    await sim.decide(prompt.id, 'approve');
    expect(prompt.deliveries).toEqual([200]);
    const answer = await c.get(`/api/payments/kopokopo/status/${id}`);
    const status = answer.body.transaction;
    expect(status).toMatchObject({ status: 'completed', amount: 30000, mpesaReceiptNumber: prompt.reference, failureReason: null });
    expect(status.pharmacyId).toMatch(/^pharm_/);

    const pharmacyId = status.pharmacyId as string;
    const [pharmacy] = await t.db.owner.query<Record<string, any>>(`SELECT name, slug, owner_email FROM pharmacies WHERE id = $1`, [pharmacyId]);
    expect(pharmacy).toMatchObject({ name: body.pharmacyName, owner_email: body.ownerEmail });
    expect(pharmacy!.slug).toMatch(/^uzima-chemists-\d+$/);
    // Public to whoever holds the id: the state of the payment, nothing personal (issue 7).
    expectNothingPersonal(JSON.stringify(answer.body), body, pharmacy!.slug);
    expect(status.phoneNumber).toBe(`*********${body.phoneNumber.slice(-3)}`);
    const [sub] = await t.db.owner.query<Record<string, any>>(`SELECT plan_id, status, hosting_paid_until FROM subscriptions WHERE pharmacy_id = $1`, [pharmacyId]);
    expect(sub).toMatchObject({ plan_id: 'standard', status: 'active' });
    const days = (new Date(sub!.hosting_paid_until).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(360);
    const branches = await t.db.owner.query<{ name: string; is_default: boolean }>(`SELECT name, is_default FROM branches WHERE pharmacy_id = $1`, [pharmacyId]);
    expect(branches).toEqual([{ name: 'Main Branch', is_default: true }]);
    expect(await t.db.owner.query(`SELECT 1 FROM settings WHERE pharmacy_id = $1`, [pharmacyId])).toHaveLength(1);
    const members = await t.db.owner.query<Record<string, any>>(
      `SELECT m.role, m.is_owner, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.pharmacy_id = $1`,
      [pharmacyId],
    );
    expect(members).toEqual([{ role: 'owner', is_owner: true, email: body.ownerEmail, name: 'Amina Wanjiru' }]);
    // The confirmation email went through the jobs table, once.
    const mails = await t.db.owner.query<{ payload: any }>(`SELECT payload FROM jobs WHERE kind = 'email' AND payload->>'to' = $1`, [body.ownerEmail]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.payload.text).toContain(prompt.reference!);
    expect((await c.post('/api/emails/payment-confirmation', { transactionId: id })).body).toEqual({ success: true, queued: false });

    // Password setup: only with the paying browser's secret and the payment's email; once.
    const setup = { transactionId: id, setupToken, email: body.ownerEmail, password: 'Uzima#2026', confirmPassword: 'Uzima#2026', pharmacyId };
    expect((await c.post('/api/tenants/create-owner', { ...setup, setupToken: 'forged' })).status).toBe(403);
    expect((await c.post('/api/tenants/create-owner', { ...setup, email: 'other@example.com' })).status).toBe(403);
    expect((await c.post('/api/tenants/create-owner', { ...setup, confirmPassword: 'Uzima#2027' })).body.error.message).toBe('Passwords do not match');
    expect((await c.post('/api/tenants/create-owner', { ...setup, password: 'weakpass', confirmPassword: 'weakpass' })).body.error.message).toBe(
      'Password does not meet requirements',
    );
    const created = await c.post('/api/tenants/create-owner', setup);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ success: true, email: body.ownerEmail, pharmacy: { id: pharmacyId, name: body.pharmacyName, subdomain: pharmacy!.slug } });
    const again = await c.post('/api/tenants/create-owner', { ...setup, password: 'Other#2026', confirmPassword: 'Other#2026' });
    expect(again.body.error.code).toBe('OWNER_ALREADY_SET_UP');

    const owner = t.client();
    const login = await owner.post('/api/auth/login', { email: body.ownerEmail, password: 'Uzima#2026' });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const me = await owner.get('/api/me');
    expect(me.body.pharmacy?.id ?? me.body.pharmacyId).toBe(pharmacyId);
  });

  it('refuses an email that already has an account or a pharmacy, a plan other than complete and a bad phone', async () => {
    await createPharmacyWithStaff(t.db, { id: `pay_taken_${kind}` });
    const taken = `owner@pay_taken_${kind}.test`;
    const c = t.client('10.9.1.1');
    expect((await c.post('/api/payments/email-check', { email: taken.toUpperCase() })).body).toEqual({ available: false });
    expect((await c.post('/api/payments/email-check', { email: 'free@example.com' })).body).toEqual({ available: true });
    const res = await c.post('/api/payments/kopokopo/stk-push', registration({ ownerEmail: taken }));
    expect({ status: res.status, code: res.body.error.code, message: res.body.error.message }).toEqual({
      status: 409,
      code: 'PAYMENT_EMAIL_TAKEN',
      message: 'This email is already registered. Please login or use a different email.',
    });
    const plan = await c.post('/api/payments/kopokopo/stk-push', registration({ plan: 'basic' }));
    expect({ status: plan.status, message: plan.body.error.message }).toEqual({ status: 400, message: 'Invalid plan selection' });
    const phone = await c.post('/api/payments/kopokopo/stk-push', registration({ phoneNumber: '25481234567' }));
    expect(phone.status).toBe(400);
    expect(JSON.stringify(phone.body)).toContain('Please enter a valid M-Pesa number');
    expect(await t.db.owner.query(`SELECT 1 FROM platform_payments WHERE owner_email = $1`, [taken])).toHaveLength(0);
  });

  it('a forged or unsigned callback is refused and changes nothing', async () => {
    const { id, prompt } = await start();
    const forgedBody = JSON.stringify({
      data: { id: prompt.id, type: 'incoming_payment', attributes: { status: 'Success', event: { resource: { reference: 'FORGED123', amount: '30000.0' }, errors: null }, metadata: { payment_id: id } } },
    });
    for (const signature of [undefined, 'a'.repeat(64), sim.sign(forgedBody).replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))]) {
      const res = await fetch(`${base}${K2_CALLBACK_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-kopokopo-signature': signature } : {}) },
        body: forgedBody,
      });
      expect(res.status).toBe(401);
    }
    // Signed with the right key but over other bytes than those sent: refused too.
    const res = await fetch(`${base}${K2_CALLBACK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kopokopo-signature': sim.sign(forgedBody) },
      body: `${forgedBody} `,
    });
    expect(res.status).toBe(401);
    const row = await paymentRow(id);
    expect({ status: row!.status, receipt: row!.mpesa_receipt, pharmacy: row!.provisioned_pharmacy_id }).toEqual({ status: 'pending', receipt: null, pharmacy: null });
    expect(await t.db.owner.query(`SELECT 1 FROM platform_payment_events WHERE payment_id = $1`, [id])).toHaveLength(0);
  });

  it('a declined payment fails with its reason and never moves back, even on a later signed success', async () => {
    const { c, id, prompt } = await start();
    await sim.decide(prompt.id, 'decline');
    const status = (await c.get(`/api/payments/kopokopo/status/${id}`)).body.transaction;
    expect(status).toMatchObject({ status: 'failed', failureReason: 'Request cancelled by user', pharmacyId: null });
    const late = JSON.stringify({
      data: { id: prompt.id, type: 'incoming_payment', attributes: { status: 'Success', event: { resource: { reference: 'LATE12345', amount: '30000.0' }, errors: null }, metadata: { payment_id: id } } },
    });
    const res = await fetch(`${base}${K2_CALLBACK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kopokopo-signature': sim.sign(late) }, body: late });
    expect(res.status).toBe(200);
    const row = await paymentRow(id);
    expect({ status: row!.status, attention: row!.attention, pharmacy: row!.provisioned_pharmacy_id }).toEqual({ status: 'failed', attention: 'paid_after_failure', pharmacy: null });
  });

  it('a timed-out prompt fails with the phone’s time-out text', async () => {
    const { c, id, prompt } = await start();
    await sim.decide(prompt.id, 'timeout');
    expect((await c.get(`/api/payments/kopokopo/status/${id}`)).body.transaction).toMatchObject({ status: 'failed', failureReason: 'DS timeout user cannot be reached' });
  });

  it('a callback that never comes is reconciled by the status query', async () => {
    const { c, id, prompt } = await start();
    await sim.decide(prompt.id, 'approve', { deliveries: 0 });
    expect(prompt.deliveries).toEqual([]);
    const status = await until('the reconciled payment', async () => {
      const s = (await c.get(`/api/payments/kopokopo/status/${id}`)).body.transaction;
      return s.status === 'completed' && s;
    });
    expect(status.pharmacyId).toMatch(/^pharm_/);
    expect(status.mpesaReceiptNumber).toBe(prompt.reference);
    const events = await t.db.owner.query<{ source: string }>(`SELECT source FROM platform_payment_events WHERE payment_id = $1`, [id]);
    expect(events.map((e) => e.source)).toContain('status_query');
  });

  it('the same callback delivered 5 times at once gives one pharmacy', async () => {
    const { body, id, prompt } = await start();
    await sim.decide(prompt.id, 'approve', { deliveries: 5 });
    expect(prompt.deliveries.sort()).toEqual([200, 200, 200, 200, 200]);
    const pharmacies = await t.db.owner.query(`SELECT id FROM pharmacies WHERE name = $1`, [body.pharmacyName]);
    expect(pharmacies).toHaveLength(1);
    expect(await t.db.owner.query(`SELECT 1 FROM users WHERE email = $1`, [body.ownerEmail])).toHaveLength(1);
    expect(await t.db.owner.query(`SELECT 1 FROM jobs WHERE kind = 'email' AND payload->>'to' = $1`, [body.ownerEmail])).toHaveLength(1);
    const events = await t.db.owner.query(`SELECT 1 FROM platform_payment_events WHERE payment_id = $1 AND source = 'callback'`, [id]);
    expect(events).toHaveLength(5);
  });

  it('a signed reversal moves a completed payment to reversed and flags the provisioned pharmacy for the operator', async () => {
    const { id, prompt } = await start();
    await sim.decide(prompt.id, 'approve');
    const reversal = JSON.stringify({
      topic: 'buygoods_transaction_reversed',
      id: `rev-${prompt.id}`,
      created_at: new Date().toISOString(),
      event: { type: 'Buygoods Transaction', resource: { id: 'r1', amount: '30000.0', status: 'Reversed', reference: prompt.reference, till_number: 'K000000' } },
    });
    const forged = await fetch(`${base}${K2_CALLBACK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kopokopo-signature': 'f'.repeat(64) }, body: reversal });
    expect(forged.status).toBe(401);
    expect((await paymentRow(id))!.status).toBe('completed');
    const res = await fetch(`${base}${K2_CALLBACK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kopokopo-signature': sim.sign(reversal) }, body: reversal });
    expect(res.status).toBe(200);
    const row = await paymentRow(id);
    expect({ status: row!.status, attention: row!.attention }).toEqual({ status: 'reversed', attention: 'reversed_after_provisioning' });
    expect(row!.provisioned_pharmacy_id).toMatch(/^pharm_/);
  });

  it('a second payment for the same registration creates no second pharmacy', async () => {
    const body = registration();
    const first = await start(body);
    const second = await start(body);
    await sim.decide(first.prompt.id, 'approve');
    await sim.decide(second.prompt.id, 'approve');
    expect(await t.db.owner.query(`SELECT id FROM pharmacies WHERE owner_email = $1`, [body.ownerEmail])).toHaveLength(1);
    const row = await paymentRow(second.id);
    expect({ status: row!.status, attention: row!.attention, pharmacy: row!.provisioned_pharmacy_id }).toEqual({
      status: 'completed',
      attention: 'duplicate_registration',
      pharmacy: null,
    });
  });

  it('an owner upgrades a trial and pays hosting by M-Pesa; hosting extends a year from the later of now and paid-until', async () => {
    const ph = await createPharmacyWithStaff(t.db, { id: `pay_sub_${kind}`, plan: 'trial', roles: ['owner', 'cashier'] });
    const owner = t.client('10.9.3.3');
    expect((await owner.post('/api/auth/login', { email: ph.users.owner!.email, password: FIXTURE_PASSWORD })).status).toBe(200);
    const cashier = t.client('10.9.3.4');
    expect((await cashier.post('/api/auth/login', { email: ph.users.cashier!.email, password: FIXTURE_PASSWORD })).status).toBe(200);
    expect((await cashier.post('/api/subscription/payments', { purpose: 'upgrade', phoneNumber: '254700111222' })).status).toBe(403);
    const noLicence = await owner.post('/api/subscription/payments', { purpose: 'hosting', phoneNumber: '254700111222' });
    expect({ status: noLicence.status, message: noLicence.body.error.message }).toEqual({ status: 409, message: 'No active license' });

    async function payAndApprove(purpose: 'upgrade' | 'hosting') {
      const res = await owner.post('/api/subscription/payments', { purpose, phoneNumber: '254700111222' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.payment).toMatchObject({ purpose, status: 'pending', amount: purpose === 'upgrade' ? 30000 : 3500 });
      const id = res.body.payment.id as string;
      const prompt = await until('the STK prompt', () => sim.prompts().find((p) => p.metadata.payment_id === id));
      await until('the stored location', async () => (await paymentRow(id))?.k2_location);
      await sim.decide(prompt.id, 'approve');
      expect((await owner.get(`/api/subscription/payments/${id}`)).body.payment).toMatchObject({ status: 'completed', mpesaReceiptNumber: prompt.reference });
      return id;
    }

    const upgradeId = await payAndApprove('upgrade');
    const upgraded = (await owner.get('/api/subscription')).body.subscription;
    expect(upgraded).toMatchObject({ planId: 'standard', status: 'active' });
    const paidUntil = new Date(upgraded.hostingPaidUntil).getTime();
    expect(paidUntil - Date.now()).toBeGreaterThan(360 * 86_400_000);
    const again = await owner.post('/api/subscription/payments', { purpose: 'upgrade', phoneNumber: '254700111222' });
    expect({ status: again.status, message: again.body.error.message }).toEqual({ status: 409, message: 'Not in trial period' });

    await payAndApprove('hosting');
    const extended = new Date((await owner.get('/api/subscription')).body.subscription.hostingPaidUntil);
    const expected = new Date(paidUntil);
    expected.setUTCFullYear(expected.getUTCFullYear() + 1);
    expect(extended.getTime()).toBe(expected.getTime());

    // Another pharmacy's member never sees this pharmacy's payment.
    const other = await createPharmacyWithStaff(t.db, { id: `pay_sub_other_${kind}` });
    const stranger = t.client('10.9.3.5');
    expect((await stranger.post('/api/auth/login', { email: other.users.owner!.email, password: FIXTURE_PASSWORD })).status).toBe(200);
    expect((await stranger.get(`/api/subscription/payments/${upgradeId}`)).status).toBe(404);
  });

  const STK_PUSH = '/api/payments/kopokopo/stk-push';
  const keyed = (key: string) => ({ 'idempotency-key': key });

  async function stkRows(email: string) {
    const payments = await t.db.owner.query<Record<string, any>>(`SELECT * FROM platform_payments WHERE owner_email = $1 ORDER BY created_at`, [email]);
    const jobs = await t.db.owner.query<{ id: string }>(`SELECT id FROM jobs WHERE kind = 'k2_stk_push' AND payload->>'paymentId' = ANY($1::text[])`, [payments.map((p) => p.id)]);
    return { payments, jobs };
  }

  it('a retry with the same Idempotency-Key answers the first answer: one payment, one queued STK push, even after the payment completed', async () => {
    const body = registration();
    const c = t.client('10.9.4.1');
    const key = randomUUID();
    const first = await c.request('POST', STK_PUSH, body, keyed(key));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await c.request('POST', STK_PUSH, body, keyed(key));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const { payments, jobs } = await stkRows(body.ownerEmail);
    expect(payments.map((p) => p.id)).toEqual([first.body.transactionId]);
    expect(jobs).toHaveLength(1);
    // Neither the key nor the setup token is stored; the token's hash is, as for an unkeyed purchase.
    const row = payments[0]!;
    expect(row.setup_token_hash).toBe(createHash('sha256').update(first.body.setupToken).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(JSON.stringify(row)).not.toContain(first.body.setupToken);

    const prompt = await until('the STK prompt', () => sim.prompts().find((p) => p.metadata.payment_id === first.body.transactionId));
    await until('the stored location', async () => (await paymentRow(first.body.transactionId))?.k2_location);
    await sim.decide(prompt.id, 'approve');
    expect((await c.get(`/api/payments/kopokopo/status/${first.body.transactionId}`)).body.transaction.status).toBe('completed');
    // The email is registered now, yet the retry is still answered by its key (not PAYMENT_EMAIL_TAKEN), and its
    // setup token sets the owner's password.
    const late = await c.request('POST', STK_PUSH, body, keyed(key));
    expect({ status: late.status, body: late.body, replayed: late.headers['idempotent-replayed'] }).toEqual({ status: 200, body: first.body, replayed: 'true' });
    expect(sim.prompts().filter((p) => p.metadata.payment_id === first.body.transactionId)).toHaveLength(1);
    expect((await stkRows(body.ownerEmail)).jobs).toHaveLength(1);
    const created = await c.post('/api/tenants/create-owner', {
      transactionId: late.body.transactionId,
      setupToken: late.body.setupToken,
      email: body.ownerEmail,
      password: 'Uzima#2026',
      confirmPassword: 'Uzima#2026',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  });

  it('five requests at once with one Idempotency-Key make one payment and one queued STK push, and all answer the same', async () => {
    const body = registration();
    const c = t.client('10.9.4.2');
    await c.get('/api/me'); // the CSRF cookie first, so the five are sent together
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => c.request('POST', STK_PUSH, body, keyed(key))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    const { payments, jobs } = await stkRows(body.ownerEmail);
    expect(payments.map((p) => p.id)).toEqual([answers[0]!.body.transactionId]);
    expect(jobs).toHaveLength(1);
    await until('the STK prompt', () => sim.prompts().find((p) => p.metadata.payment_id === answers[0]!.body.transactionId));
    expect(sim.prompts().filter((p) => p.metadata.payment_id === answers[0]!.body.transactionId)).toHaveLength(1);
  });

  it('the same Idempotency-Key with another body is 422 and changes nothing; a new key is a new payment', async () => {
    const body = registration();
    const c = t.client('10.9.4.3');
    const key = randomUUID();
    const first = await c.request('POST', STK_PUSH, body, keyed(key));
    expect(first.status).toBe(200);
    const other = await c.request('POST', STK_PUSH, { ...body, phoneNumber: '254799000111' }, keyed(key));
    expect({ status: other.status, code: other.body.error.code, message: other.body.error.message }).toEqual({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This Idempotency-Key was already used for a different request.',
    });
    expect((await stkRows(body.ownerEmail)).payments).toHaveLength(1);
    const malformed = await c.request('POST', STK_PUSH, body, keyed('not a key!'));
    expect({ status: malformed.status, code: malformed.body.error.code }).toEqual({ status: 400, code: 'IDEMPOTENCY_KEY_INVALID' });

    // A new attempt (the first one failed, say) with a new key: a second payment with its own push and token.
    const second = await c.request('POST', STK_PUSH, body, keyed(randomUUID()));
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.transactionId).not.toBe(first.body.transactionId);
    expect(second.body.setupToken).not.toBe(first.body.setupToken);
    const { payments, jobs } = await stkRows(body.ownerEmail);
    expect(payments.map((p) => p.id).sort()).toEqual([first.body.transactionId, second.body.transactionId].sort());
    expect(jobs).toHaveLength(2);
  });

  it('limits email checks per address, in the app’s error format (issue 7)', async () => {
    const c = t.client('10.9.7.1');
    for (let n = 0; n < 30; n += 1) expect((await c.post('/api/payments/email-check', { email: `probe${n}@example.com` })).status).toBe(200);
    const refused = await c.post('/api/payments/email-check', { email: 'probe-last@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect((await t.client('10.9.7.2').post('/api/payments/email-check', { email: 'probe-last@example.com' })).body).toEqual({ available: true });
  });

  it('limits payment starts per email (and per phone and address)', async () => {
    const body = registration({ phoneNumber: '254798765432' });
    const c = t.client('10.9.2.2');
    const answers: number[] = [];
    for (let i = 0; i < 6; i += 1) answers.push((await c.post('/api/payments/kopokopo/stk-push', body)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await c.post('/api/payments/kopokopo/stk-push', body);
    expect(limited.body.error.message).toBe('Too many payment attempts. Please wait a moment and try again.');
  });
});

describe('the K2 simulator itself', () => {
  it('refuses wrong client credentials and unauthenticated API calls', async () => {
    const sim = await startK2Simulator();
    try {
      const token = await fetch(`${sim.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: sim.clientId, client_secret: 'wrong', grant_type: 'client_credentials' }).toString(),
      });
      expect(token.status).toBe(401);
      const push = await fetch(`${sim.url}/api/v2/incoming_payments`, { method: 'POST', body: '{}' });
      expect(push.status).toBe(401);
      const page = await fetch(`${sim.url}/`);
      expect(await page.text()).toContain('No STK prompts yet.');
    } finally {
      await sim.close();
    }
  });
});

export type { SimulatedPrompt };
