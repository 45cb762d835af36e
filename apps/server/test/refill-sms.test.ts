import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refillReminderListResponseSchema, refillSmsSchema, reminderConsentResponseSchema, type RefillReminder } from '@pharmapoint/domain/refills';
import { startAtSimulator, type AtSimulator } from '../src/dev/at-simulator.ts';
import { AT_DELIVERY_PATH } from '../src/modules/refills/at-config.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * SMS refill reminders through the job runner and the local Africa's Talking simulator (real HTTP both ways): the
 * message id and the delivery report's status on the alert, consent given and withdrawn, the provider's opt-out.
 */
describe.each(testDatabaseKinds())('SMS refill reminders on %s', (kind) => {
  let sim: AtSimulator;
  let t: TestApp;
  let base: string;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let product: string;

  beforeAll(async () => {
    sim = await startAtSimulator();
    t = await createTestApp(kind, { africasTalking: sim.config('http://127.0.0.1:1') });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    sim.config(base);
    ph = await stockTestPharmacy(t.db, 'refill_sms', ['owner', 'cashier', 'inventory']);
    const otherPh = await stockTestPharmacy(t.db, 'refill_sms_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, otherPh)).owner!;
    const res = await c.owner!.post('/api/products', { name: 'Glibenclamide 5mg', sellingPriceCents: 1_000 });
    product = res.body.product.id as string;
    expect((await c.owner!.post(`/api/products/${product}/batches`, { batchNumber: 'GB1', expiryDate: daysFromToday(300), quantity: 100, unitCostCents: 500 })).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const refill = async (name: string, phone: string) => {
    const client = (await c.owner!.request('POST', '/api/contacts', { name, phone }, { 'idempotency-key': randomUUID() })).body.id as string;
    const id = randomUUID();
    const body = { id, clientId: client, saleDate: daysFromToday(-2), lines: [{ productId: product, quantity: 1, needsRefill: true, refillDays: 3 }], payments: [{ method: 'Cash', amountCents: 100_000 }] };
    const res = await c.owner!.request('POST', '/api/sales', body, { 'idempotency-key': id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { client, saleId: id };
  };
  const alertOf = async (name: string): Promise<RefillReminder> => {
    const res = await c.inventory!.get(`/api/refill-reminders?due=all&search=${encodeURIComponent(name)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = refillReminderListResponseSchema.parse(res.body).items;
    expect(items).toHaveLength(1);
    return items[0]!;
  };
  const until = async <T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await read();
      if (ok(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const sendSms = (who: TestClient, saleId: string, key = randomUUID()) => who.request('POST', `/api/refill-reminders/${saleId}/1/sms`, {}, { 'idempotency-key': key });

  it('Send SMS queues a job that sends through the provider; the message id and then the delivery report show on the alert', async () => {
    const r = await refill('Mary Sms', '0712 000 111');
    const key = randomUUID();
    const queued = await sendSms(c.inventory!, r.saleId, key);
    expect(queued.status, JSON.stringify(queued.body)).toBe(201);
    const sms = refillSmsSchema.parse(queued.body);
    expect(sms).toMatchObject({ status: 'queued', messageId: null, deliveryStatus: null, trigger: 'manual' });
    // A retry with the same key answers the same message: one SMS.
    const again = await sendSms(c.inventory!, r.saleId, key);
    expect(again.body.id).toBe(sms.id);

    const sent = await until(() => alertOf('Mary Sms'), (a) => a.sms?.status === 'sent', 'the SMS to be sent');
    const inbox = sim.messages().filter((m) => m.to === '+254712000111');
    expect(inbox).toHaveLength(1);
    expect(sent.sms!.messageId).toBe(inbox[0]!.id);
    expect(inbox[0]!.message).toMatch(/^Hello Mary Sms, this is .+\. Your refill is due on \d+ \w+ \d{4}\. Please visit us or call to arrange it\.$/);
    expect(inbox[0]!.message).not.toContain('Glibenclamide');

    await sim.deliver(inbox[0]!.id, 'Success');
    expect(inbox[0]!.deliveries).toEqual([200]);
    const delivered = await alertOf('Mary Sms');
    expect(delivered.sms).toMatchObject({ id: sms.id, status: 'sent', deliveryStatus: 'Success' });
    expect(delivered.sms!.deliveredAt).not.toBeNull();
    // A late, non-final report changes nothing; a report with the wrong token is not found and changes nothing.
    const late = await fetch(`${base}${AT_DELIVERY_PATH}/${t.config.africasTalking!.callbackToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: inbox[0]!.id, status: 'Submitted', phoneNumber: '+254712000111', networkCode: '63902' }).toString(),
    });
    expect(late.status).toBe(200);
    const forged = await fetch(`${base}${AT_DELIVERY_PATH}/not-the-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: inbox[0]!.id, status: 'Failed', failureReason: 'UserIsInactive' }).toString(),
    });
    expect(forged.status).toBe(404);
    expect((await alertOf('Mary Sms')).sms).toMatchObject({ deliveryStatus: 'Success', failureReason: null });
    const jobs = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'refill_sms_send' AND payload->>'smsId' = $1`, [sms.id]);
    expect(jobs[0]!.n).toBe(1);
  });

  it('refuses without a phone, for a completed refill, without report:inventory, and another pharmacy\'s line is not found', async () => {
    // The client's phone was removed after the sale (the till needs one to set a refill).
    const noPhone = await refill('Nophone Client', '0712 000 999');
    await t.db.owner.query(`UPDATE contacts SET phone = NULL WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, noPhone.client]);
    await t.db.owner.query(`UPDATE sales SET client_phone = NULL WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, noPhone.saleId]);
    const res = await sendSms(c.inventory!, noPhone.saleId);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'REFILL_NO_PHONE', message: 'No phone number available' });
    const r = await refill('Done Client', '0712 000 222');
    expect((await sendSms(c.cashier!, r.saleId)).status).toBe(403);
    expect((await sendSms(otherOwner, r.saleId)).status).toBe(404);
    expect((await c.inventory!.post(`/api/refill-reminders/${r.saleId}/1/complete`, {})).status).toBe(200);
    expect((await sendSms(c.inventory!, r.saleId)).body.error.code).toBe('REFILL_COMPLETED');
    const rows = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM refill_sms WHERE pharmacy_id = $1 AND sale_id = ANY ($2::uuid[])`, [ph.pharmacyId, [noPhone.saleId, r.saleId]]);
    expect(rows[0]!.n).toBe(0);
  });

  it('consent to reminders is recorded apart, withdrawn at the till, audited; withdrawn refuses the SMS', async () => {
    const r = await refill('Consent Client', '0712 000 333');
    const read = async () => reminderConsentResponseSchema.parse((await c.cashier!.get(`/api/contacts/${r.client}/reminder-consent`)).body);
    expect(await read()).toMatchObject({ consent: null, smsOptedOut: false });
    const withdrawn = await c.cashier!.request('PUT', `/api/contacts/${r.client}/reminder-consent`, { consent: false, source: 'till' });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(await read()).toMatchObject({ consent: false, source: 'till' });
    expect((await alertOf('Consent Client')).client.reminderConsent).toBe(false);
    const refused = await sendSms(c.inventory!, r.saleId);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'REFILL_NO_CONSENT', message: 'Consent Client has not agreed to refill reminders.' });
    expect((await c.owner!.request('PUT', `/api/contacts/${r.client}/reminder-consent`, { consent: true, source: 'contact' })).status).toBe(200);
    expect((await sendSms(c.inventory!, r.saleId)).status).toBe(201);
    const audits = await t.db.owner.query<{ action: string }>(`SELECT action FROM audit_log WHERE pharmacy_id = $1 AND entity_id = $2 AND action LIKE 'reminder_consent.%' ORDER BY at`, [ph.pharmacyId, r.client]);
    expect(audits.map((a) => a.action)).toEqual(['reminder_consent.withdraw', 'reminder_consent.give']);
    expect((await otherOwner.request('PUT', `/api/contacts/${r.client}/reminder-consent`, { consent: true, source: 'contact' })).status).toBe(404);
    expect((await c.cashier!.request('PUT', `/api/contacts/${r.client}/reminder-consent`, { consent: 'yes', source: 'till' })).status).toBe(400);
  });

  it('an opt-out reported by the provider is honoured across the pharmacy: later SMS to the number are refused', async () => {
    const r = await refill('Stop Client', '0712 000 444');
    expect((await sendSms(c.inventory!, r.saleId)).status).toBe(201);
    await until(() => alertOf('Stop Client'), (a) => a.sms?.status === 'sent', 'the SMS to be sent');
    expect(await sim.optOut('+254712000444')).toBe(200);
    const rows = await t.db.owner.query<{ source: string }>(`SELECT source FROM sms_opt_outs WHERE pharmacy_id = $1 AND phone = '254712000444'`, [ph.pharmacyId]);
    expect(rows).toEqual([{ source: 'provider_opt_out' }]);
    expect((await alertOf('Stop Client')).client.smsOptedOut).toBe(true);
    // Another client of the pharmacy with the same number is not messaged either.
    const same = await refill('Stop Client Two', '0712000444');
    const refused = await sendSms(c.inventory!, same.saleId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('REFILL_OPTED_OUT');
  });

  it('the opt-in automatic reminder: planned by the job runner, N days before, once per refill, one per client per day, consent needed', async () => {
    const sell = async (client: string, ago: number, days: number) => {
      const id = randomUUID();
      const body = { id, clientId: client, saleDate: daysFromToday(-ago), lines: [{ productId: product, quantity: 1, needsRefill: true, refillDays: days }], payments: [{ method: 'Cash', amountCents: 100_000 }] };
      expect((await c.owner!.request('POST', '/api/sales', body, { 'idempotency-key': id })).status).toBe(201);
      return id;
    };
    const contact = async (name: string, phone: string, consent: boolean | null) => {
      const id = (await c.owner!.request('POST', '/api/contacts', { name, phone }, { 'idempotency-key': randomUUID() })).body.id as string;
      if (consent !== null) expect((await c.owner!.request('PUT', `/api/contacts/${id}/reminder-consent`, { consent, source: 'contact' })).status).toBe(200);
      return id;
    };
    const amina = await contact('Amina Auto', '0712 000 555', true);
    const soon = await sell(amina, 0, 1);
    const later = await sell(amina, 0, 2);
    const bakari = await contact('Bakari Auto', '0712 000 666', null);
    await sell(bakari, 0, 2);
    const chege = await contact('Chege Auto', '0712 000 777', true);
    await sell(chege, 0, 5);

    expect((await c.inventory!.get('/api/refill-reminders/settings')).body).toEqual({ enabled: false, daysBefore: 3, quietStart: '20:00', quietEnd: '08:00' });
    const settings = { enabled: true, daysBefore: 3, quietStart: '00:00', quietEnd: '00:00' };
    expect((await c.inventory!.request('PUT', '/api/refill-reminders/settings', settings)).status).toBe(403);
    expect((await c.owner!.request('PUT', '/api/refill-reminders/settings', { ...settings, quietStart: '25:00' })).status).toBe(400);
    const saved = await c.owner!.request('PUT', '/api/refill-reminders/settings', settings);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // Saving it on again starts no second chain.
    expect((await c.owner!.request('PUT', '/api/refill-reminders/settings', settings)).status).toBe(200);

    const autoOf = (client: string) =>
      t.db.owner.query<{ saleId: string; status: string }>(`SELECT sale_id AS "saleId", status FROM refill_sms WHERE pharmacy_id = $1 AND client_id = $2 AND trigger = 'auto'`, [ph.pharmacyId, client]);
    const sent = await until(() => autoOf(amina), (rows) => rows.length === 1 && rows[0]!.status === 'sent', "Amina's automatic reminder");
    expect(sent[0]!.saleId).toBe(soon);
    expect(sent.map((r) => r.saleId)).not.toContain(later);
    expect(sim.messages().filter((m) => m.to === '+254712000555')).toHaveLength(1);
    expect(await autoOf(bakari)).toEqual([]);
    expect(await autoOf(chege)).toEqual([]);
    const plans = await t.db.owner.query<{ state: string; due: boolean }>(
      `SELECT state, run_at > now() + interval '10 minutes' AS due FROM jobs WHERE kind = 'refill_sms_plan' AND pharmacy_id = $1 AND state IN ('pending', 'running')`,
      [ph.pharmacyId],
    );
    expect(plans).toEqual([{ state: 'pending', due: true }]);
  });
});
