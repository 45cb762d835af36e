import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tillMpesaResponseSchema } from '@pharmapoint/domain/till-mpesa';
import { startK2Simulator, type K2Simulator, type SimulatedClient, type SimulatedPrompt } from '../src/dev/k2-simulator.ts';
import { K2_CALLBACK_PATH, TILL_CALLBACK_PREFIX } from '../src/modules/payments/k2-config.ts';
import { clearTokenCache } from '../src/modules/payments/k2.client.ts';
import { setReconcileTiming } from '../src/modules/payments/payments.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { until } from './platform-helpers.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * M-Pesa at the till (issue 11 item 7) against the local K2 simulator over real HTTP: the pharmacy's own till
 * credentials (write-only), the STK push through the job runner with them, the callback signed with THAT pharmacy's
 * API key completing the sale once with the receipt as reference, forged callbacks refused, declines, the sale paid
 * another way meanwhile kept for reconciliation, and a lost callback found by the status query.
 */

describe.each(testDatabaseKinds())('M-Pesa at the till on %s', (kind) => {
  let t: TestApp;
  let sim: K2Simulator;
  let base: string;
  let ph: StockPharmacy;
  /** A pharmacy with no credentials of its own: it uses the simulator's till (npm start's demo pharmacy). */
  let plain: StockPharmacy;
  let c: Record<string, TestClient>;
  let plainCashier: TestClient;
  let till: SimulatedClient;
  /** 150.00 a piece, 100 in stock. */
  let product: string;
  let plainProduct: string;
  let phone = 12_340_000;

  const addProduct = async (owner: TestClient, sku: string, cents: number) => {
    const created = await owner.post('/api/products', { name: `Cetirizine ${sku}`, sku, sellingPriceCents: cents, purchasePriceCents: 5000 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.product.id as string;
    const batch = await owner.post(`/api/products/${id}/batches`, { batchNumber: `B-${sku}`, expiryDate: daysFromToday(300), quantity: 100, unitCostCents: 5000 });
    expect(batch.status).toBe(201);
    return id;
  };

  beforeAll(async () => {
    sim = await startK2Simulator();
    clearTokenCache();
    setReconcileTiming({ firstMs: 60_000, everyMs: 300, max: 30 });
    t = await createTestApp(kind, { kopokopo: sim.config('http://127.0.0.1:1/unset') });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    t.config.kopokopo!.callbackUrl = `${base}${K2_CALLBACK_PATH}`;
    ph = await stockTestPharmacy(t.db, 'till_mpesa', ['owner', 'manager', 'cashier']);
    plain = await stockTestPharmacy(t.db, 'till_plain', ['owner', 'cashier']);
    c = await clientsOf(t, ph);
    const plainClients = await clientsOf(t, plain);
    plainCashier = plainClients.cashier!;
    product = await addProduct(c.owner!, 'CET', 15_000);
    plainProduct = await addProduct(plainClients.owner!, 'CETP', 15_000);
    // The pharmacy's own K2 application, issued by the simulator as K2's dashboard would.
    till = sim.addClient();
    const current = await c.owner!.get('/api/settings');
    const settings = current.body.settings;
    settings.integrations.kopokopo = { enabled: true, environment: 'sandbox', tillNumber: till.tillNumber, clientId: till.clientId, clientSecret: till.clientSecret, apiKey: till.apiKey };
    const saved = await c.owner!.put('/api/settings', settings);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const count = async (table: string, pharmacyId = ph.pharmacyId) =>
    (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [pharmacyId]))[0]!.n;
  const stockOf = async (productId: string, pharmacy = ph) =>
    (await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [pharmacy.pharmacyId, pharmacy.branches[0]!.id, productId]))[0]!.quantity;

  function saleBody(productId = product, quantity = 2, overrides: Record<string, unknown> = {}) {
    return { id: randomUUID(), lines: [{ productId, quantity }], payments: [{ method: 'MPESA', amountCents: 15_000 * quantity }], expectedTotalCents: 15_000 * quantity, ...overrides };
  }

  async function ask(who: TestClient = c.cashier!, sale = saleBody()) {
    phone += 1;
    const key = randomUUID();
    const res = await who.request('POST', '/api/till-payments', { phoneNumber: `07${phone}`, sale }, { 'idempotency-key': key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const request = tillMpesaResponseSchema.parse(res.body).request;
    const prompt = await until<SimulatedPrompt>('the STK prompt', () => sim.prompts().find((p) => p.metadata.till_request_id === request.id));
    await until('the stored location', async () => (await row(request.id))?.k2_location);
    return { request, prompt, sale, key, phone: `2547${phone}` };
  }

  async function row(id: string) {
    const [found] = await t.db.owner.query<Record<string, any>>(`SELECT * FROM till_payment_requests WHERE id = $1`, [id]);
    return found;
  }

  it('secrets are write-only: GET /api/settings says they are set and never sends them; a manager cannot change them', async () => {
    const res = await c.owner!.get('/api/settings');
    expect(res.body.settings.integrations.kopokopo).toMatchObject({ enabled: true, clientId: till.clientId, tillNumber: till.tillNumber, clientSecret: '', apiKey: '' });
    expect(res.body.secretsSet).toMatchObject({ 'integrations.kopokopo.clientSecret': true, 'integrations.kopokopo.apiKey': true });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(till.clientSecret);
    expect(text).not.toContain(till.apiKey);
    // Saving the document as read keeps the secrets ('' keeps).
    const again = await c.owner!.put('/api/settings', res.body.settings);
    expect(JSON.stringify(again.body)).not.toContain(till.apiKey);
    const [stored] = await t.db.owner.query<{ key: string }>(`SELECT document->'integrations'->'kopokopo'->>'apiKey' AS key FROM settings WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    expect(stored!.key).toBe(till.apiKey);
    // The audit log keeps no secret either.
    const audits = await t.db.owner.query<{ t: string }>(`SELECT coalesce(before::text, '') || coalesce(after::text, '') AS t FROM audit_log WHERE pharmacy_id = $1 AND entity = 'settings'`, [ph.pharmacyId]);
    for (const a of audits) expect(a.t).not.toContain(till.apiKey);
    const manager = await c.manager!.put('/api/settings', { ...res.body.settings, integrations: { ...res.body.settings.integrations, kopokopo: { ...res.body.settings.integrations.kopokopo, apiKey: 'stolen' } } });
    expect(manager.status).toBe(403);
  });

  it('approved: the STK push goes to the pharmacy’s own till for the server’s total; the signed callback completes the sale once, the receipt as reference', async () => {
    const before = await stockOf(product);
    const { request, prompt, sale, phone: msisdn } = await ask();
    expect(request).toMatchObject({ status: 'pending', amountCents: 30_000, saleId: sale.id, phoneNumber: msisdn.replace(/(\d{3})(?=\d)/g, '$1 ') });
    expect(prompt).toMatchObject({ amount: '300.0', tillNumber: till.tillNumber, clientId: till.clientId, phoneNumber: `+${msisdn}` });
    expect(prompt.callbackUrl).toBe(`${base}${TILL_CALLBACK_PREFIX}/${ph.pharmacyId}`);
    expect(await count('sales')).toBe(0);

    await sim.decide(prompt.id, 'approve');
    expect(prompt.deliveries).toEqual([200]);
    const status = await c.cashier!.get(`/api/till-payments/${request.id}`);
    expect(status.body.request).toMatchObject({ status: 'completed', completedSaleId: sale.id, mpesaReceipt: prompt.reference, saleRecorded: true, paidCents: 30_000 });
    const receipt = await c.cashier!.get(`/api/sales/${sale.id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ totalCents: 30_000, paymentMethod: 'MPESA', paymentStatus: 'paid', cashier: { id: ph.users.cashier } });
    expect(receipt.body.payments).toEqual([{ method: 'MPESA', amountCents: 30_000, reference: prompt.reference }]);
    expect(await stockOf(product)).toBe(before - 2);
    const audit = await t.db.owner.query<{ action: string }>(`SELECT action FROM audit_log WHERE pharmacy_id = $1 AND entity_id = $2 ORDER BY id`, [ph.pharmacyId, request.id]);
    expect(audit.map((a) => a.action).sort()).toEqual(['till_payment.complete', 'till_payment.request']);
    // The same sale cannot be asked for again, nor completed a second time by the till.
    const again = await c.cashier!.request('POST', '/api/till-payments', { phoneNumber: '0712345678', sale }, { 'idempotency-key': randomUUID() });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('SALE_ID_TAKEN');
  });

  it('a forged or unsigned callback, or one signed with another key, is refused and changes nothing', async () => {
    const { request, prompt } = await ask();
    const events = await count('till_payment_events');
    const body = JSON.stringify({
      data: {
        id: prompt.id,
        type: 'incoming_payment',
        attributes: { status: 'Success', event: { type: 'Incoming Payment Request', resource: { reference: 'FORGED123', amount: '300.0' }, errors: null }, metadata: prompt.metadata },
      },
    });
    const url = `${base}${TILL_CALLBACK_PREFIX}/${ph.pharmacyId}`;
    const post = (headers: Record<string, string>, text = body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-kopokopo-signature': 'ab'.repeat(32) })).status).toBe(401);
    // Signed with the simulator's own key (another K2 application) or the platform's: not this pharmacy's.
    expect((await post({ 'x-kopokopo-signature': sim.sign(body) })).status).toBe(401);
    // This pharmacy's key, but over other bytes.
    expect((await post({ 'x-kopokopo-signature': sim.sign(body, till.clientId) }, `${body} `)).status).toBe(401);
    // An unknown pharmacy.
    expect((await fetch(`${base}${TILL_CALLBACK_PREFIX}/nope`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kopokopo-signature': sim.sign(body, till.clientId) }, body })).status).toBe(401);
    expect(await count('till_payment_events')).toBe(events);
    expect((await row(request.id))!.status).toBe('pending');
    expect(await count('sales')).toBe(1);
    await c.cashier!.post(`/api/till-payments/${request.id}/cancel`, {});
  });

  it('the same callback delivered 5 times at once completes the sale once', async () => {
    const sales = await count('sales');
    const { request, prompt, sale } = await ask();
    await sim.decide(prompt.id, 'approve', { deliveries: 5 });
    expect(prompt.deliveries).toEqual([200, 200, 200, 200, 200]);
    expect(await count('sales')).toBe(sales + 1);
    const payments = await t.db.owner.query<{ reference: string }>(`SELECT reference FROM sale_payments WHERE pharmacy_id = $1 AND sale_id = $2`, [ph.pharmacyId, sale.id]);
    expect(payments).toEqual([{ reference: prompt.reference }]);
    expect((await row(request.id))!).toMatchObject({ status: 'completed', attention: null });
    const events = await t.db.owner.query(`SELECT 1 FROM till_payment_events WHERE request_id = $1 AND source = 'callback'`, [request.id]);
    expect(events).toHaveLength(5);
  });

  it('declined or timed out: the request fails with the phone’s reason and no sale is written', async () => {
    const sales = await count('sales');
    const stock = await stockOf(product);
    const declined = await ask();
    await sim.decide(declined.prompt.id, 'decline');
    const answer = await c.cashier!.get(`/api/till-payments/${declined.request.id}`);
    expect(answer.body.request).toMatchObject({ status: 'failed', failureReason: 'Request cancelled by user', saleRecorded: false });
    const timedOut = await ask();
    await sim.decide(timedOut.prompt.id, 'timeout');
    expect((await c.cashier!.get(`/api/till-payments/${timedOut.request.id}`)).body.request).toMatchObject({ status: 'failed', failureReason: 'DS timeout user cannot be reached' });
    expect(await count('sales')).toBe(sales);
    expect(await stockOf(product)).toBe(stock);
    // The same sale may be asked for again after a failure.
    const retry = await c.cashier!.request('POST', '/api/till-payments', { phoneNumber: '0712345678', sale: declined.sale }, { 'idempotency-key': randomUUID() });
    expect(retry.status).toBe(201);
    await c.cashier!.post(`/api/till-payments/${retry.body.request.id}/cancel`, {});
  });

  it('paid after the cashier cancelled and took cash: no second sale, the money is kept for reconciliation', async () => {
    const { request, prompt, sale } = await ask();
    const cancelled = await c.cashier!.post(`/api/till-payments/${request.id}/cancel`, {});
    expect(cancelled.body.request.status).toBe('cancelled');
    const cash = await c.cashier!.request('POST', '/api/sales', { ...sale, payments: [{ method: 'Cash', amountCents: 30_000 }] }, { 'idempotency-key': sale.id });
    expect(cash.status, JSON.stringify(cash.body)).toBe(201);
    const sales = await count('sales');
    await sim.decide(prompt.id, 'approve');
    expect(prompt.deliveries).toEqual([200]);
    expect(await count('sales')).toBe(sales);
    const after = (await c.owner!.get(`/api/till-payments/${request.id}`)).body.request;
    expect(after).toMatchObject({ status: 'unmatched', attention: 'sale_already_completed', mpesaReceipt: prompt.reference, paidCents: 30_000, saleRecorded: true, completedSaleId: null });
    const list = await c.owner!.get('/api/till-payments?status=unmatched');
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(request.id);
    const [audit] = await t.db.owner.query<{ after: Record<string, unknown> }>(`SELECT after FROM audit_log WHERE pharmacy_id = $1 AND entity_id = $2 AND action = 'till_payment.unmatched'`, [ph.pharmacyId, request.id]);
    expect(audit!.after).toMatchObject({ attention: 'sale_already_completed', receipt: prompt.reference, paidCents: 30_000, saleId: sale.id });
  });

  it('a lost callback is found by the status query and completes the sale', async () => {
    const { request, prompt, sale } = await ask();
    setReconcileTiming({ firstMs: 300 });
    await t.db.owner.query(`UPDATE jobs SET run_at = now() WHERE kind = 'k2_till_status_query' AND payload->>'requestId' = $1`, [request.id]);
    await sim.decide(prompt.id, 'approve', { deliveries: 0 });
    const done = await until('the reconciled request', async () => ((await row(request.id))!.status === 'completed' ? row(request.id) : undefined));
    expect(done).toMatchObject({ mpesa_receipt: prompt.reference, completed_sale_id: sale.id });
    const events = await t.db.owner.query<{ source: string }>(`SELECT source FROM till_payment_events WHERE request_id = $1`, [request.id]);
    expect(events.map((e) => e.source)).toContain('status_query');
  });

  it('the server prices the cart: a total other than the branch’s or a bad phone is refused and nothing is recorded; the amount is the exact total', async () => {
    const requests = await count('till_payment_requests');
    const wrong = await c.cashier!.request('POST', '/api/till-payments', { phoneNumber: '0712345678', sale: saleBody(product, 1, { expectedTotalCents: 100 }) }, { 'idempotency-key': randomUUID() });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.code).toBe('SALE_TOTAL_CHANGED');
    const badPhone = await c.cashier!.request('POST', '/api/till-payments', { phoneNumber: '0612', sale: saleBody() }, { 'idempotency-key': randomUUID() });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.error.message).toContain('Please enter a valid M-Pesa number');
    expect(await count('till_payment_requests')).toBe(requests);
    // The exact total the sale will have, the shilling rounding included (150.50 sells for 151.00): the till shows it
    // and asks for it (the sale's own payment rules hold the M-Pesa payment to the exact total).
    const cents = await addProduct(c.owner!, 'CENTS', 15_050);
    const roundedSale = saleBody(cents, 1, { expectedTotalCents: 15_100, payments: [{ method: 'MPESA', amountCents: 15_100 }] });
    const rounded = await c.cashier!.request('POST', '/api/till-payments', { phoneNumber: '0712345678', sale: roundedSale }, { 'idempotency-key': randomUUID() });
    expect(rounded.status, JSON.stringify(rounded.body)).toBe(201);
    expect(rounded.body.request.amountCents).toBe(15_100);
    await c.cashier!.post(`/api/till-payments/${rounded.body.request.id}/cancel`, {});
  });

  it('a pharmacy without its own credentials uses the simulator’s till while the simulator runs (npm start’s demo)', async () => {
    const { request, prompt, sale } = await ask(plainCashier, saleBody(plainProduct, 1));
    expect(prompt).toMatchObject({ clientId: sim.clientId, tillNumber: sim.tillNumber, amount: '150.0' });
    expect(prompt.callbackUrl).toBe(`${base}${TILL_CALLBACK_PREFIX}/${plain.pharmacyId}`);
    await sim.decide(prompt.id, 'approve');
    expect((await plainCashier.get(`/api/till-payments/${request.id}`)).body.request).toMatchObject({ status: 'completed', completedSaleId: sale.id });
    expect(await count('sales', plain.pharmacyId)).toBe(1);
  });
});
