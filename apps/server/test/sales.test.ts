import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saleSchema } from '@pharmapoint/domain/sales';
import { saleHistoryResponseSchema } from '@pharmapoint/domain/sales-history';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Completing a sale over HTTP (issue 9 item 5): totals recomputed from the branch's prices, FEFO batch takes, the
 * invoice counter, payments, and every refusal of seed 001 section 5 with its message, nothing written.
 */
describe.each(testDatabaseKinds())('completing a sale on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  /** 100.00 a piece, cost 50.00, 20 in two batches (SOON 5, LATE 15). */
  let para: string;
  /** DDA, 200.00, 10 in stock, taxed 16 %. */
  let dda: string;
  /** Package of 10 at 10.00 a piece, 35 in stock. */
  let pack: string;
  let otherProduct: string;
  let client: string;
  let otherClient: string;
  const batches: Record<string, string> = {};

  const product = async (body: Record<string, unknown>, stock: [string, number, number][]) => {
    const created = await c.owner!.post('/api/products', body);
    expect(created.status).toBe(201);
    const id = created.body.product.id as string;
    for (const [number, days, quantity] of stock) {
      const r = await c.owner!.post(`/api/products/${id}/batches`, { batchNumber: number, expiryDate: daysFromToday(days), quantity, unitCostCents: 5000 });
      expect(r.status).toBe(201);
      batches[number] = r.body.batch.id;
    }
    return id;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'sales_ph', ['owner', 'manager', 'cashier', 'inventory', 'demo']);
    other = await stockTestPharmacy(t.db, 'sales_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    para = await product({ name: 'Paracetamol 500mg', sku: 'PARA', sellingPriceCents: 10_000, purchasePriceCents: 5000 }, [
      ['LATE', 300, 15],
      ['SOON', 30, 5],
    ]);
    dda = await product({ name: 'Codeine Linctus', sku: 'COD', isDda: true, taxApplied: true, taxRateBasisPoints: 1600, sellingPriceCents: 20_000, purchasePriceCents: 10_000 }, [
      ['DDA1', 200, 10],
    ]);
    pack = await product({ name: 'Amoxicillin 250mg', sku: 'AMX', packageSize: 10, sellingPriceCents: 1000, purchasePriceCents: 500 }, [['AMX1', 200, 35]]);
    const op = await otherOwner.post('/api/products', { name: 'Other tenant product', sellingPriceCents: 100 });
    otherProduct = op.body.product.id;
    client = (await c.cashier!.post('/api/contacts', { name: 'Jane Wanjiku', phone: '0712 345 678', location: 'Nairobi', address: 'Moi Avenue 1' })).body.id;
    otherClient = (await otherOwner.post('/api/contacts', { name: 'Other client', phone: '0700000000' })).body.id;
  });
  afterAll(async () => t?.close());

  const sell = (who: TestClient, body: Record<string, unknown>, key?: string) => {
    const id = (body.id as string | undefined) ?? randomUUID();
    return who.request('POST', '/api/sales', { id, ...body }, { 'idempotency-key': key ?? id });
  };
  const cash = (amountCents: number) => [{ method: 'Cash', amountCents }];
  const count = async (table: string) => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;
  const stockOf = async (productId: string) =>
    (await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [ph.pharmacyId, main, productId]))[0]!.quantity;
  const counter = async () =>
    (await t.db.owner.query<{ next_value: number }>(`SELECT next_value FROM invoice_counters WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]?.next_value ?? 1;

  it('sells for cash with change: totals from the branch, FEFO batches, invoice INV-000001, payments, ledger', async () => {
    const res = await sell(c.cashier!, { lines: [{ productId: para, quantity: 7 }], payments: cash(100_000), expectedTotalCents: 70_000 });
    expect(res.status).toBe(201);
    const sale = saleSchema.parse(res.body);
    expect(sale).toMatchObject({
      invoiceNumber: 'INV-000001',
      branchId: main,
      clientName: 'Walk-in Customer',
      client: null,
      subtotalCents: 70_000,
      discountCents: 0,
      taxCents: 0,
      totalCents: 70_000,
      amountPaidCents: 100_000,
      changeCents: 30_000,
      paymentMethod: 'Cash',
      paymentStatus: 'paid',
      status: 'completed',
      isBackdated: false,
      saleDate: daysFromToday(0),
      cashier: { id: ph.users.cashier },
    });
    expect(sale.lines[0]!.batches.map((b) => [b.batchNumber, b.quantity])).toEqual([
      ['SOON', 5],
      ['LATE', 2],
    ]);
    expect(await stockOf(para)).toBe(13);
    const movements = await t.db.owner.query<{ kind: string; delta: number; reason: string; reference_id: string }>(
      `SELECT kind, delta, reason, reference_id FROM stock_movements WHERE pharmacy_id = $1 AND reference_type = 'sale' ORDER BY sequence`,
      [ph.pharmacyId],
    );
    // The movements are written before the invoice number is taken (it is taken last, see completeSale): they name
    // the sale by reference; the branch row's last-update reason carries the number (seed 001: 'Sale: {invoice}').
    expect(movements).toEqual([
      { kind: 'sale', delta: -5, reason: 'Sale', reference_id: sale.id },
      { kind: 'sale', delta: -2, reason: 'Sale', reference_id: sale.id },
    ]);
    // The branch row names the sale by reference (decision 0087); the product's detail shows its number as the reason.
    const detail = await c.owner!.get(`/api/products/${para}`);
    expect(detail.status).toBe(200);
    const stamped = (detail.body as { branches: { branchId: string; lastStockUpdateReason: string | null }[] }).branches.find((b) => b.branchId === main);
    expect(stamped!.lastStockUpdateReason).toBe('Sale: INV-000001');
    // The product's history reads the number through the reference, as a person expects to see it.
    const history = await c.owner!.get(`/api/products/${para}/movements?limit=10`);
    expect(history.status).toBe(200);
    const sold = (history.body as { items: { kind: string; delta: number; reason: string | null }[] }).items.filter((m) => m.kind === 'sale');
    expect(sold.map((m) => [m.delta, m.reason])).toEqual(expect.arrayContaining([[-5, 'Sale: INV-000001'], [-2, 'Sale: INV-000001']]));
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    const receipt = await c.cashier!.get(`/api/sales/${sale.id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toEqual(res.body);
  });

  it('a DDA sale to a registered client with prescriber, tax after a discount, W mode, split tender with an M-Pesa reference and a refill', async () => {
    const prescription = { doctorName: 'Dr. Otieno', hospitalName: 'Kenyatta National Hospital', prescriptionNumber: 'RX-9', prescriptionDate: daysFromToday(-1) };
    const res = await sell(c.manager!, {
      clientId: client,
      lines: [
        { productId: dda, quantity: 1, prescription },
        { productId: pack, quantity: 20, unitMode: 'W', unitPriceCents: 10_000, needsRefill: true, refillDays: 14 },
      ],
      discount: { type: 'percent', basisPoints: 500 },
      payments: [
        { method: 'MPESA', amountCents: 30_000, reference: 'SGH7XK2L9P' },
        { method: 'Cash', amountCents: 20_000 },
      ],
    });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
    const sale = saleSchema.parse(res.body);
    // 200.00 + 2 x 100.00 = 400.00; 5 % = 20.00, 10.00 a line; tax 16 % of 190.00 = 30.40; 410.40 -> KSh 410.
    expect(sale).toMatchObject({ subtotalCents: 40_000, discountCents: 2000, taxCents: 3040, roundingCents: -40, totalCents: 41_000, amountPaidCents: 50_000, changeCents: 9000 });
    expect(sale.client).toMatchObject({ id: client, name: 'Jane Wanjiku', phone: '254712345678' });
    expect(sale.lines[0]).toMatchObject({ isDda: true, prescription: { doctorName: 'Dr. Otieno', hospitalName: 'Kenyatta National Hospital' }, taxCents: 3040 });
    expect(sale.lines[1]).toMatchObject({ unitMode: 'W', quantity: 20, unitPriceCents: 10_000, grossCents: 20_000, needsRefill: true, refillDays: 14, refillDueDate: daysFromToday(14) });
    expect(sale.payments).toEqual([
      { method: 'MPESA', amountCents: 30_000, reference: 'SGH7XK2L9P' },
      { method: 'Cash', amountCents: 20_000, reference: null },
    ]);
    expect(await stockOf(pack)).toBe(15);
    // The DDA modal is prefilled from the client's last prescription.
    const last = await c.cashier!.get(`/api/sales/last-prescription?clientId=${client}`);
    expect(last.body).toMatchObject({ saleId: sale.id, invoiceNumber: sale.invoiceNumber, prescription: { doctorName: 'Dr. Otieno', prescriptionNumber: 'RX-9' } });
    expect((await otherOwner.get(`/api/sales/last-prescription?clientId=${client}`)).status).toBe(404);
  });

  it('a credit sale leaves a balance on a registered client; a backdated sale records who backdated it', async () => {
    const credit = await sell(c.cashier!, { clientId: client, lines: [{ productId: para, quantity: 1 }], payments: [{ method: 'Credit', amountCents: 4000 }] });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({ balanceDueCents: 6000, paymentStatus: 'partial', paymentMethod: 'Credit' });
    const back = await sell(c.cashier!, { saleDate: daysFromToday(-3), lines: [{ productId: para, quantity: 1 }], payments: cash(10_000) });
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ isBackdated: true, backdatedBy: ph.users.cashier, saleDate: daysFromToday(-3) });
  });

  it('the same Idempotency-Key twice answers the first sale and sells once; another body with it is 422', async () => {
    const id = randomUUID();
    const body = { id, lines: [{ productId: para, quantity: 1 }], payments: cash(10_000) };
    const before = await stockOf(para);
    const first = await sell(c.cashier!, body);
    const again = await sell(c.cashier!, body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await stockOf(para)).toBe(before - 1);
    const changed = await sell(c.cashier!, { ...body, payments: cash(20_000) });
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The same sale id under another key is never a second sale.
    const otherKey = await sell(c.cashier!, body, `other-${id}`);
    expect(otherKey.status).toBe(409);
    expect(otherKey.body.error.code).toBe('SALE_ID_TAKEN');
  });

  describe('refusals with the specification’s messages, nothing written', () => {
    const refusals: [string, () => Record<string, unknown>, number, string][] = [
      ['empty cart', () => ({ lines: [], payments: cash(100) }), 400, 'Cart is empty'],
      ['no payment method', () => ({ lines: [{ productId: para, quantity: 1 }], payments: [] }), 400, 'Please select payment method'],
      ['no amount', () => ({ lines: [{ productId: para, quantity: 1 }], payments: cash(0) }), 400, 'Please enter amount paid'],
      ['less than total', () => ({ lines: [{ productId: para, quantity: 1 }], payments: cash(9999) }), 400, 'Amount paid is less than total (or use Credit payment method)'],
      ['digital not exact', () => ({ lines: [{ productId: para, quantity: 1 }], payments: [{ method: 'MPESA', amountCents: 20_000 }] }), 400, 'MPESA requires exact amount: KSh 100.00'],
      ['over stock', () => ({ lines: [{ productId: para, quantity: 999 }], payments: cash(99_900_000) }), 409, 'Some items exceed available stock'],
      ['DDA without prescriber', () => ({ clientId: client, lines: [{ productId: dda, quantity: 1, prescription: { doctorName: 'Dr A', hospitalName: ' ' } }], payments: cash(30_000) }), 400, 'DDA products need prescription information'],
      ['DDA without client', () => ({ lines: [{ productId: dda, quantity: 1, prescription: { doctorName: 'Dr A', hospitalName: 'KNH' } }], payments: cash(30_000) }), 400, 'DDA products require a registered customer to be selected'],
      ['future date', () => ({ saleDate: daysFromToday(1), lines: [{ productId: para, quantity: 1 }], payments: cash(10_000) }), 400, 'Sale date cannot be in the future. Only today and past dates are allowed.'],
      ['31 days back', () => ({ saleDate: daysFromToday(-31), lines: [{ productId: para, quantity: 1 }], payments: cash(10_000) }), 400, 'Sale date cannot be more than 30 days in the past'],
      ['refill without client', () => ({ lines: [{ productId: para, quantity: 1, needsRefill: true }], payments: cash(10_000) }), 400, 'Please select a client for refill reminders'],
      ['refill days out of range', () => ({ clientId: client, lines: [{ productId: para, quantity: 1, needsRefill: true, refillDays: 0 }], payments: cash(10_000) }), 400, 'Please enter a valid number of days (1-365).'],
      ['credit without client', () => ({ lines: [{ productId: para, quantity: 1 }], payments: [{ method: 'Credit', amountCents: 0 }] }), 400, 'Credit sales need a registered customer.'],
      ['price not the branch price', () => ({ lines: [{ productId: para, quantity: 1, unitPriceCents: 5 }], payments: cash(10_000) }), 409, 'The price of Paracetamol 500mg is now KSh 100.00. Check the cart and try again.'],
      ['discount without the right', () => ({ lines: [{ productId: para, quantity: 1 }], discount: { type: 'fixed', cents: 100 }, payments: cash(10_000) }), 403, 'You may not give discounts at the till.'],
      ['stale total', () => ({ lines: [{ productId: para, quantity: 1 }], payments: cash(10_000), expectedTotalCents: 9000 }), 409, 'The total is now KSh 100.00. Check the cart and try again.'],
      ['unknown method', () => ({ lines: [{ productId: para, quantity: 1 }], payments: [{ method: 'Bitcoin', amountCents: 10_000 }] }), 400, 'Bitcoin is not a payment method of this pharmacy.'],
      ['fractional quantity', () => ({ lines: [{ productId: para, quantity: 1.5 }], payments: cash(10_000) }), 400, 'The quantity must be a whole number.'],
      ['negative quantity', () => ({ lines: [{ productId: para, quantity: -1 }], payments: cash(10_000) }), 400, 'The quantity must be between 1 and 100,000.'],
      ['W not whole packages', () => ({ lines: [{ productId: pack, quantity: 15, unitMode: 'W' }], payments: cash(100_000) }), 400, 'The quantity of Amoxicillin 250mg must be whole packages of 10 pieces.'],
      // Several problems at once: the first of the one ordered list the till uses too (decision 0069).
      ['DDA for the walk-in customer before the payment', () => ({ lines: [{ productId: dda, quantity: 1 }], payments: [] }), 400, 'DDA products require a registered customer to be selected'],
      ['the payment before the stock and the date', () => ({ saleDate: daysFromToday(1), lines: [{ productId: para, quantity: 999 }], payments: cash(0) }), 400, 'Please enter amount paid'],
      ['Credit for the walk-in before the stock', () => ({ lines: [{ productId: para, quantity: 999 }], payments: [{ method: 'Credit', amountCents: 0 }] }), 400, 'Credit sales need a registered customer.'],
      ['the stock before the refill client and the date', () => ({ saleDate: daysFromToday(-31), lines: [{ productId: para, quantity: 999, needsRefill: true }], payments: cash(99_900_000) }), 409, 'Some items exceed available stock'],
    ];
    it.each(refusals)('%s', async (_name, body, status, message) => {
      const before = { sales: await count('sales'), movements: await count('stock_movements'), counter: await counter(), para: await stockOf(para) };
      const res = await sell(c.cashier!, body());
      expect({ status: res.status, message: res.body.error?.message }).toEqual({ status, message });
      expect({ sales: await count('sales'), movements: await count('stock_movements'), counter: await counter(), para: await stockOf(para) }).toEqual(before);
    });

    it('a body of 10,000 lines is 400', async () => {
      const res = await sell(c.cashier!, { lines: Array.from({ length: 10_000 }, () => ({ productId: para, quantity: 1 })), payments: cash(100) });
      expect(res.status).toBe(400);
    });

    it('a discount above settings.maxDiscount (10 %) needs more than pos:discount; a low-margin override is refused', async () => {
      const big = await sell(c.manager!, { lines: [{ productId: para, quantity: 1 }], discount: { type: 'percent', basisPoints: 2000 }, payments: cash(10_000) });
      expect({ status: big.status, message: big.body.error.message }).toEqual({ status: 400, message: 'The discount cannot be more than 10 % of the subtotal.' });
      const noRight = await sell(c.manager!, { lines: [{ productId: para, quantity: 1, unitPriceCents: 9000 }], payments: cash(10_000) });
      expect(noRight.status).toBe(409);
      const low = await sell(c.owner!, { lines: [{ productId: para, quantity: 1, unitPriceCents: 5000 }], payments: cash(10_000) });
      expect({ status: low.status, message: low.body.error.message }).toEqual({ status: 400, message: 'Low margin items detected. Cannot complete sale.' });
      const fine = await sell(c.owner!, { lines: [{ productId: para, quantity: 1, unitPriceCents: 9000 }], payments: cash(9000) });
      expect(fine.status).toBe(201);
      expect(fine.body.lines[0]).toMatchObject({ unitPriceCents: 9000, listPriceCents: 10_000, lowMargin: false });
    });
  });

  it("another tenant's product or client is 404, never 500, and writes nothing", async () => {
    const before = await count('sales');
    const foreignProduct = await sell(c.cashier!, { lines: [{ productId: otherProduct, quantity: 1 }], payments: cash(100) });
    expect(foreignProduct.status).toBe(404);
    const foreignClient = await sell(c.cashier!, { clientId: otherClient, lines: [{ productId: para, quantity: 1 }], payments: cash(10_000) });
    expect(foreignClient.status).toBe(404);
    const unknown = await sell(c.cashier!, { lines: [{ productId: randomUUID(), quantity: 1 }], payments: cash(100) });
    expect(unknown.status).toBe(404);
    expect(await count('sales')).toBe(before);
    const sale = (await c.cashier!.get('/api/sales')).body.items[0].id;
    expect((await otherOwner.get(`/api/sales/${sale}`)).status).toBe(404);
  });

  it('a demo user and a user without pos:access cannot sell', async () => {
    expect((await sell(c.demo!, { lines: [{ productId: para, quantity: 1 }], payments: cash(10_000) })).status).toBe(403);
    expect((await sell(c.inventory!, { lines: [{ productId: para, quantity: 1 }], payments: cash(10_000) })).status).toBe(403);
  });

  it('a sale whose second line fails leaves nothing: no sale, no stock change, counter not advanced', async () => {
    // The counter says 10 are there, but every piece of the DDA product's only batch is expired now.
    await t.db.owner.query(`UPDATE batches SET expiry_date = $3 WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, batches.DDA1, daysFromToday(-1)]);
    const before = { sales: await count('sales'), movements: await count('stock_movements'), counter: await counter(), para: await stockOf(para), dda: await stockOf(dda), items: await count('sale_items') };
    const res = await sell(c.cashier!, {
      clientId: client,
      lines: [
        { productId: para, quantity: 1 },
        { productId: dda, quantity: 1, prescription: { doctorName: 'Dr A', hospitalName: 'KNH' } },
      ],
      payments: cash(40_000),
    });
    expect({ status: res.status, message: res.body.error.message }).toEqual({ status: 409, message: 'Some items exceed available stock' });
    expect({ sales: await count('sales'), movements: await count('stock_movements'), counter: await counter(), para: await stockOf(para), dda: await stockOf(dda), items: await count('sale_items') }).toEqual(before);
    await t.db.owner.query(`UPDATE batches SET expiry_date = $3 WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, batches.DDA1, daysFromToday(200)]);
  });

  it('lists sales newest first with filters; invoice numbers are consecutive', async () => {
    const res = await c.manager!.get('/api/sales?limit=200');
    expect(res.status).toBe(200);
    const list = saleHistoryResponseSchema.parse(res.body);
    const numbers = list.items.map((s) => Number(s.invoiceNumber.slice(4))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(list.items[0]!.invoiceNumber).toBe(`INV-${String(numbers.length).padStart(6, '0')}`);
    expect((await c.manager!.get(`/api/sales?clientId=${client}`)).body.total).toBe(2);
    expect((await c.manager!.get('/api/sales?paymentMethod=mpesa')).body.total).toBe(1);
    expect((await c.manager!.get('/api/sales?invoiceNumber=inv-000001')).body.items.map((s: { invoiceNumber: string }) => s.invoiceNumber)).toEqual(['INV-000001']);
    expect((await c.manager!.get(`/api/sales?from=${daysFromToday(-5)}&to=${daysFromToday(-1)}`)).body.total).toBe(1);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });
});
