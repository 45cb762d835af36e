import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TILL_MPESA_ONE_PAYMENT_TEXT, tillMpesaResponseSchema } from '@pharmapoint/domain/till-mpesa';
import { startK2Simulator, type K2Simulator, type SimulatedPrompt } from '../src/dev/k2-simulator.ts';
import { K2_CALLBACK_PATH } from '../src/modules/payments/k2-config.ts';
import { clearTokenCache } from '../src/modules/payments/k2.client.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { until } from './platform-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * M-Pesa at the till runs the sale's own checks before any phone rings: POST /api/till-payments with a body that
 * POST /api/sales refuses is refused with the same status, code and message, and writes nothing — no payment
 * request, no job, no audit row, no stock or suspension change — so the simulator never receives a prompt. A good
 * body still asks the customer's phone once, and a resumed sale's request leaves its reservation as it was.
 */
describe.each(testDatabaseKinds())('M-Pesa at the till checks the sale first on %s', (kind) => {
  let t: TestApp;
  let sim: K2Simulator;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  /** 50.00 a piece, 2 in stock. */
  let few: string;
  /** 150.00 a piece, 100 in stock in each branch. */
  let lots: string;
  /** 100.00 a piece, 3 in stock in the main branch: all reserved by `heldSale`. */
  let reserved: string;
  let customer: string;
  let otherCustomer: string;
  /** Suspended sales: 3 of `reserved` (main, open), one of `lots` in Westlands (open), one completed, one cancelled. */
  let heldSale: string;
  let westSale: string;
  let completedSale: string;
  let cancelledSale: string;
  let phone = 13_450_000;

  const addProduct = async (sku: string, cents: number, stock: number, branchId?: string) => {
    const created = await c.owner!.post('/api/products', { name: `Product ${sku}`, sku, sellingPriceCents: cents, purchasePriceCents: Math.round(cents / 3) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.product.id as string;
    const batch = await c.owner!.post(`/api/products/${id}/batches`, { batchNumber: `B-${sku}`, expiryDate: daysFromToday(300), quantity: stock, unitCostCents: 1000 });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    if (branchId) {
      const moved = await c.owner!.request('POST', `/api/products/${id}/batches`, { batchNumber: `W-${sku}`, expiryDate: daysFromToday(300), quantity: stock, unitCostCents: 1000, branchId });
      expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    }
    return id;
  };

  const suspend = async (who: TestClient, body: Record<string, unknown>) => {
    const id = randomUUID();
    const res = await who.request('POST', '/api/suspended-sales', { id, clientId: customer, ...body }, { 'idempotency-key': id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return id;
  };

  beforeAll(async () => {
    sim = await startK2Simulator();
    clearTokenCache();
    // The pharmacy has no till credentials of its own: it uses the simulator's till (npm start's demo pharmacy).
    t = await createTestApp(kind, { kopokopo: sim.config('http://127.0.0.1:1/unset') });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.config.kopokopo!.callbackUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${K2_CALLBACK_PATH}`;
    ph = await stockTestPharmacy(t.db, 'till_checks', ['owner', 'cashier']);
    const other = await stockTestPharmacy(t.db, 'till_checks_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    few = await addProduct('FEW', 5_000, 2);
    lots = await addProduct('LOTS', 15_000, 100, west);
    reserved = await addProduct('HELD', 10_000, 3);
    customer = (await c.cashier!.post('/api/contacts', { name: 'Jane Wanjiku', phone: '0712 345 678' })).body.id;
    otherCustomer = (await otherOwner.post('/api/contacts', { name: 'Other pharmacy client', phone: '0700 000 000' })).body.id;
    expect(customer).toBeTruthy();
    expect(otherCustomer).toBeTruthy();

    heldSale = await suspend(c.cashier!, { lines: [{ productId: reserved, quantity: 3 }] });
    westSale = await suspend(c.owner!, { branchId: west, lines: [{ productId: lots, quantity: 1 }] });
    completedSale = await suspend(c.cashier!, { lines: [{ productId: lots, quantity: 1 }] });
    const id = randomUUID();
    const done = await c.cashier!.request(
      'POST',
      '/api/sales',
      { id, clientId: customer, suspendedSaleId: completedSale, lines: [{ productId: lots, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 15_000 }], expectedTotalCents: 15_000 },
      { 'idempotency-key': id },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    cancelledSale = await suspend(c.cashier!, { lines: [{ productId: lots, quantity: 1 }] });
    expect((await c.cashier!.post(`/api/suspended-sales/${cancelledSale}/cancel`, {})).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const count = async (sql: string) => (await t.db.owner.query<{ n: number }>(sql, [ph.pharmacyId]))[0]!.n;
  /** Everything a till request or a sale could write. */
  const snapshot = async () => ({
    requests: await count(`SELECT count(*)::int AS n FROM till_payment_requests WHERE pharmacy_id = $1`),
    jobs: await count(`SELECT count(*)::int AS n FROM jobs WHERE pharmacy_id = $1`),
    audit: await count(`SELECT count(*)::int AS n FROM audit_log WHERE pharmacy_id = $1`),
    sales: await count(`SELECT count(*)::int AS n FROM sales WHERE pharmacy_id = $1`),
    movements: await count(`SELECT count(*)::int AS n FROM stock_movements WHERE pharmacy_id = $1`),
    stock: await t.db.owner.query(`SELECT branch_id, product_id, quantity, reserved_quantity FROM branch_products WHERE pharmacy_id = $1 ORDER BY branch_id, product_id`, [ph.pharmacyId]),
    suspended: await t.db.owner.query(`SELECT id, status FROM suspended_sales WHERE pharmacy_id = $1 ORDER BY id`, [ph.pharmacyId]),
    prompts: sim.prompts().length,
  });

  /** A sale of `quantity` pieces of one product paid by M-Pesa, as the till sends it. */
  const saleOf = (productId: string, quantity: number, unitCents: number, overrides: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    branchId: main,
    lines: [{ productId, quantity }],
    payments: [{ method: 'MPESA', amountCents: unitCents * quantity, reference: null }],
    expectedTotalCents: unitCents * quantity,
    ...overrides,
  });

  const askPhone = (who: TestClient, sale: Record<string, unknown>) => {
    phone += 1;
    return who.request('POST', '/api/till-payments', { phoneNumber: `07${phone}`, sale }, { 'idempotency-key': randomUUID() });
  };

  const cases: [string, string, () => { who?: TestClient; sale: Record<string, unknown> }][] = [
    // The body of the report: a made-up suspension, 5,000 pieces of a product with 2, KSh 250,000 by M-Pesa.
    ['a made-up suspended sale id', 'NOT_FOUND', () => ({ sale: saleOf(few, 5_000, 5_000, { suspendedSaleId: randomUUID(), clientId: customer }) })],
    ['a suspended sale of another branch, the cashier’s branch asked', 'SUSPENDED_SALE_OTHER_BRANCH', () => ({ sale: saleOf(lots, 1, 15_000, { suspendedSaleId: westSale, clientId: customer }) })],
    ['a suspended sale of another branch, asked by the owner', 'SUSPENDED_SALE_OTHER_BRANCH', () => ({ who: c.owner!, sale: saleOf(lots, 1, 15_000, { suspendedSaleId: westSale, clientId: customer }) })],
    ['a suspended sale already completed', 'SUSPENDED_SALE_GONE', () => ({ sale: saleOf(lots, 1, 15_000, { suspendedSaleId: completedSale, clientId: customer }) })],
    ['a suspended sale already cancelled', 'SUSPENDED_SALE_GONE', () => ({ sale: saleOf(lots, 1, 15_000, { suspendedSaleId: cancelledSale, clientId: customer }) })],
    ['lines beyond the suspended sale’s reservation', 'SALE_STOCK_EXCEEDED', () => ({ sale: saleOf(reserved, 4, 10_000, { suspendedSaleId: heldSale, clientId: customer }) })],
    ['a quantity beyond stock', 'SALE_STOCK_EXCEEDED', () => ({ sale: saleOf(few, 5_000, 5_000) })],
    ['a price other than the branch’s', 'SALE_PRICE_CHANGED', () => ({ sale: { ...saleOf(few, 1, 4_000), lines: [{ productId: few, quantity: 1, unitPriceCents: 4_000 }] } })],
    ['a total other than the server’s', 'SALE_TOTAL_CHANGED', () => ({ sale: saleOf(few, 1, 5_000, { expectedTotalCents: 4_000 }) })],
    ['an M-Pesa amount other than the total', 'SALE_EXACT_AMOUNT_REQUIRED', () => ({ sale: saleOf(few, 1, 5_000, { payments: [{ method: 'MPESA', amountCents: 25_000_000, reference: null }] }) })],
    ['a payment of 0', 'SALE_AMOUNT_REQUIRED', () => ({ sale: saleOf(few, 1, 5_000, { payments: [{ method: 'MPESA', amountCents: 0, reference: null }] }) })],
    ['a payment method the pharmacy does not take', 'SALE_PAYMENT_METHOD_UNKNOWN', () => ({ sale: saleOf(few, 1, 5_000, { payments: [{ method: 'Bitcoin', amountCents: 5_000, reference: null }] }) })],
    ['Credit for the walk-in customer', 'SALE_CREDIT_CLIENT_REQUIRED', () => ({ sale: saleOf(few, 1, 5_000, { payments: [{ method: 'Credit', amountCents: 0, reference: null }] }) })],
    ['a sale date outside the window', 'SALE_DATE_IN_FUTURE', () => ({ sale: saleOf(few, 1, 5_000, { saleDate: daysFromToday(5) }) })],
    ['an empty cart', 'SALE_CART_EMPTY', () => ({ sale: saleOf(few, 1, 5_000, { lines: [] }) })],
    ['a product of another pharmacy', 'NOT_FOUND', () => ({ sale: saleOf(randomUUID(), 1, 5_000) })],
    ['a random client id', 'NOT_FOUND', () => ({ sale: saleOf(few, 1, 5_000, { clientId: randomUUID() }) })],
    ['another pharmacy’s customer', 'NOT_FOUND', () => ({ sale: saleOf(few, 1, 5_000, { clientId: otherCustomer }) })],
  ];

  it.each(cases)('%s (%s): refused as POST /api/sales refuses it; no request, no job, no prompt', async (_name, code, make) => {
    const { who = c.cashier!, sale } = make();
    const before = await snapshot();
    const till = await askPhone(who, sale);
    expect(till.status, JSON.stringify(till.body)).toBeGreaterThanOrEqual(400);
    expect(till.status).toBeLessThan(500);
    expect(till.body.error.code).toBe(code);
    // Nothing written: the till's refusal leaves no trace.
    expect(await snapshot()).toEqual(before);

    const direct = await who.request('POST', '/api/sales', sale, { 'idempotency-key': sale.id as string });
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect({ status: till.status, code: till.body.error.code, message: till.body.error.message }).toEqual({
      status: direct.status,
      code: direct.body.error.code,
      message: direct.body.error.message,
    });
    // No prompt reaches the customer's phone, even a moment later (the job runner would have sent it by now).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sim.prompts().length).toBe(before.prompts);
  });

  it('a sale POST /api/sales takes but not as one M-Pesa payment (split tender, cash) is refused with nothing written', async () => {
    for (const payments of [
      [
        { method: 'Cash', amountCents: 2_000, reference: null },
        { method: 'MPESA', amountCents: 3_000, reference: null },
      ],
      [{ method: 'Cash', amountCents: 5_000, reference: null }],
    ]) {
      const before = await snapshot();
      const res = await askPhone(c.cashier!, saleOf(few, 1, 5_000, { payments }));
      expect({ status: res.status, code: res.body.error?.code, message: res.body.error?.message }).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: TILL_MPESA_ONE_PAYMENT_TEXT });
      expect(await snapshot()).toEqual(before);
    }
  });

  it('a good body answers 201, queues exactly one job and rings the phone once', async () => {
    const pushJobs = () => count(`SELECT count(*)::int AS n FROM jobs WHERE pharmacy_id = $1 AND kind = 'k2_till_stk_push'`);
    const pushesBefore = await pushJobs();
    const before = await snapshot();
    const sale = saleOf(few, 2, 5_000, { clientId: customer });
    const res = await askPhone(c.cashier!, sale);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const request = tillMpesaResponseSchema.parse(res.body).request;
    expect(request).toMatchObject({ status: 'pending', amountCents: 10_000, saleId: sale.id });
    // The request's transaction queued one job, the STK push (which, once sent, queues the status query itself).
    const pushes = await t.db.owner.query(`SELECT 1 FROM jobs WHERE pharmacy_id = $1 AND kind = 'k2_till_stk_push' AND payload->>'requestId' = $2`, [ph.pharmacyId, request.id]);
    expect(pushes).toHaveLength(1);
    expect(await pushJobs()).toBe(pushesBefore + 1);
    const prompt = await until<SimulatedPrompt>('the STK prompt', () => sim.prompts().find((p) => p.metadata.till_request_id === request.id));
    expect(prompt.amount).toBe('100.0');
    expect(sim.prompts().length).toBe(before.prompts + 1);
    const after = await snapshot();
    expect(after.requests).toBe(before.requests + 1);
    // Asking takes no stock and records no sale: the customer has not paid yet.
    expect({ sales: after.sales, movements: after.movements, stock: after.stock }).toEqual({ sales: before.sales, movements: before.movements, stock: before.stock });
    expect((await c.cashier!.post(`/api/till-payments/${request.id}/cancel`, {})).body.request.status).toBe('cancelled');
  });

  it('a resumed sale within its reservation is asked for, and its suspension and reserved stock stay as they were', async () => {
    const before = await snapshot();
    const sale = saleOf(reserved, 3, 10_000, { suspendedSaleId: heldSale, clientId: customer });
    const res = await askPhone(c.cashier!, sale);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const request = tillMpesaResponseSchema.parse(res.body).request;
    expect(request.amountCents).toBe(30_000);
    await until('the STK prompt', () => sim.prompts().find((p) => p.metadata.till_request_id === request.id));
    const after = await snapshot();
    expect({ suspended: after.suspended, stock: after.stock, movements: after.movements, sales: after.sales }).toEqual({
      suspended: before.suspended,
      stock: before.stock,
      movements: before.movements,
      sales: before.sales,
    });
    expect((await c.cashier!.post(`/api/till-payments/${request.id}/cancel`, {})).body.request.status).toBe('cancelled');
  });
});
