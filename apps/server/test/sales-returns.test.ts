import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saleReturnSchema } from '@pharmapoint/domain/sale-returns';
import { creditOutstandingResponseSchema, customerPaymentSchema, paymentSummaryResponseSchema, saleHistoryResponseSchema } from '@pharmapoint/domain/sales-history';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The back office's sales (issue 10 items 7, 8 and 10) over HTTP: the all-sales list with its filters and totals,
 * returns with restocking into the batches the pieces came from or writing them off, refunds and the sale's status,
 * voiding a sale of today, a customer's later payment of credit sales allocated oldest first, the payment summary
 * and the credit aging; every refusal with its message and nothing written; concurrent returns and payments.
 */
describe.each(testDatabaseKinds())('sales returns, voids, lists and customer payments on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  /** 100.00 a piece, batches SOON (5) and LATE (15). */
  let para: string;
  /** 10.00 a piece, 100 in one batch. */
  let cheap: string;
  let client: string;
  const batches: Record<string, string> = {};

  const product = async (body: Record<string, unknown>, stock: [string, number, number][]) => {
    const created = await c.owner!.post('/api/products', body);
    expect(created.status).toBe(201);
    const id = created.body.product.id as string;
    for (const [number, days, quantity] of stock) {
      const r = await c.owner!.post(`/api/products/${id}/batches`, { batchNumber: number, expiryDate: daysFromToday(days), quantity, unitCostCents: 500 });
      expect(r.status).toBe(201);
      batches[number] = r.body.batch.id;
    }
    return id;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'sret_ph', ['owner', 'manager', 'cashier', 'demo']);
    other = await stockTestPharmacy(t.db, 'sret_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    para = await product({ name: 'Paracetamol 500mg', sku: 'PARA', sellingPriceCents: 10_000, purchasePriceCents: 5000 }, [
      ['LATE', 300, 15],
      ['SOON', 30, 5],
    ]);
    cheap = await product({ name: 'Cough Drops', sku: 'DROP', sellingPriceCents: 1000, purchasePriceCents: 500 }, [['DROP1', 200, 100]]);
    client = (await c.cashier!.post('/api/contacts', { name: 'Jane Wanjiku', phone: '0712 345 678' })).body.id;
  });
  afterAll(async () => t?.close());

  const sell = async (who: TestClient, body: Record<string, unknown>) => {
    const id = randomUUID();
    const res = await who.request('POST', '/api/sales', { id, ...body }, { 'idempotency-key': id });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
    return res.body as { id: string; invoiceNumber: string; totalCents: number; lines: { line: number; batches: { batchNumber: string; quantity: number }[] }[] };
  };
  const giveBack = (who: TestClient, saleId: string, body: Record<string, unknown>) => {
    const id = (body.id as string | undefined) ?? randomUUID();
    return who.request('POST', `/api/sales/${saleId}/returns`, { id, ...body }, { 'idempotency-key': id });
  };
  const pay = (who: TestClient, body: Record<string, unknown>) => {
    const id = (body.id as string | undefined) ?? randomUUID();
    return who.request('POST', '/api/customer-payments', { id, ...body }, { 'idempotency-key': id });
  };
  const batchQty = async (batchId: string) =>
    (await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM batches WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, batchId]))[0]!.quantity;
  const stockOf = async (productId: string) =>
    (await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [ph.pharmacyId, main, productId]))[0]!.quantity;
  const count = async (table: string) => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;
  const saleRow = async (id: string) =>
    (await t.db.owner.query<{ status: string; balance_due_cents: number; refunded_cents: number; paid_later_cents: number }>(
      `SELECT status, balance_due_cents, refunded_cents, paid_later_cents FROM sales WHERE pharmacy_id = $1 AND id = $2`,
      [ph.pharmacyId, id],
    ))[0]!;

  it('returns part of a sale into the batches it came from (latest expiry first), refunds in cash, and the sale becomes partially returned', async () => {
    // 7 pieces: SOON 5 + LATE 2 (FEFO).
    const sale = await sell(c.cashier!, { lines: [{ productId: para, quantity: 7 }, { productId: cheap, quantity: 3 }], payments: [{ method: 'Cash', amountCents: 80_000 }] });
    expect(sale.lines[0]!.batches.map((b) => [b.batchNumber, b.quantity])).toEqual([['SOON', 5], ['LATE', 2]]);
    const soonBefore = await batchQty(batches.SOON!);
    const lateBefore = await batchQty(batches.LATE!);
    const res = await giveBack(c.manager!, sale.id, { lines: [{ line: 1, quantity: 3 }], refundMethod: 'cash', reason: 'Wrong strength' });
    expect(res.status).toBe(201);
    const ret = saleReturnSchema.parse(res.body);
    expect(ret).toMatchObject({ returnNumber: 'RET-000001', kind: 'return', refundCents: 30_000, creditCents: 0, paidOutCents: 30_000, refundMethod: 'Cash', reason: 'Wrong strength', saleStatus: 'partially_returned' });
    // LATE took 2, so 2 go back there, then 1 to SOON.
    expect(ret.items[0]!.batches.map((b) => [b.batchNumber, b.quantity])).toEqual([['LATE', 2], ['SOON', 1]]);
    expect(await batchQty(batches.LATE!)).toBe(lateBefore + 2);
    expect(await batchQty(batches.SOON!)).toBe(soonBefore + 1);
    const movements = await t.db.owner.query<{ kind: string; delta: number; reason: string }>(
      `SELECT kind, delta, reason FROM stock_movements WHERE pharmacy_id = $1 AND reference_type = 'sale_return' AND reference_id = $2 ORDER BY sequence`,
      [ph.pharmacyId, ret.id],
    );
    expect(movements).toEqual([
      { kind: 'sale_return', delta: 2, reason: `Return: RET-000001 (${sale.invoiceNumber})` },
      { kind: 'sale_return', delta: 1, reason: `Return: RET-000001 (${sale.invoiceNumber})` },
    ]);
    expect(await saleRow(sale.id)).toMatchObject({ status: 'partially_returned', refunded_cents: 30_000 });

    // More than is left: 4 sold-and-not-returned of line 1, asking 5.
    const tooMany = await giveBack(c.manager!, sale.id, { lines: [{ line: 1, quantity: 5 }], refundMethod: 'Cash' });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatchObject({ code: 'SALE_RETURN_TOO_MANY', message: 'Only 4 of Paracetamol 500mg can be returned (sold 7, returned 3).' });
    const unknownLine = await giveBack(c.manager!, sale.id, { lines: [{ line: 9, quantity: 1 }], refundMethod: 'Cash' });
    expect(unknownLine.body.error).toMatchObject({ code: 'SALE_RETURN_LINE_UNKNOWN', message: 'Line 9 is not on this sale.' });
    const noMethod = await giveBack(c.manager!, sale.id, { lines: [{ line: 2, quantity: 1 }] });
    expect(noMethod.body.error).toMatchObject({ code: 'SALE_REFUND_METHOD_REQUIRED', message: 'Choose how the refund is paid.' });
    const fractional = await giveBack(c.manager!, sale.id, { lines: [{ line: 2, quantity: 1.5 }], refundMethod: 'Cash' });
    expect(fractional.status).toBe(400);

    // The rest, line 2 damaged: back in the ledger and written off at once; the sale is returned, refunds add up to its total.
    const dropBefore = await stockOf(cheap);
    const rest = await giveBack(c.owner!, sale.id, { lines: [{ line: 1, quantity: 4 }, { line: 2, quantity: 3, condition: 'damaged' }], refundMethod: 'MPESA', refundReference: 'QWE123' });
    expect(rest.status).toBe(201);
    expect(rest.body).toMatchObject({ returnNumber: 'RET-000002', refundCents: 43_000, saleStatus: 'returned', refundMethod: 'MPESA' });
    expect(await stockOf(cheap)).toBe(dropBefore);
    const written = await t.db.owner.query<{ kind: string; delta: number }>(
      `SELECT kind, delta FROM stock_movements WHERE pharmacy_id = $1 AND reference_id = $2 AND product_id = $3 ORDER BY sequence`,
      [ph.pharmacyId, rest.body.id, cheap],
    );
    expect(written).toEqual([{ kind: 'sale_return', delta: 3 }, { kind: 'adjustment', delta: -3 }]);
    expect(await saleRow(sale.id)).toMatchObject({ status: 'returned', refunded_cents: sale.totalCents });
    const again = await giveBack(c.owner!, sale.id, { lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' });
    expect(again.body.error).toMatchObject({ code: 'SALE_NOT_RETURNABLE', message: 'This sale is returned: nothing is left to return.' });
    const list = await c.owner!.get(`/api/sales/${sale.id}/returns`);
    expect(list.body.items.map((r: { returnNumber: string }) => r.returnNumber)).toEqual(['RET-000001', 'RET-000002']);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('refuses a cashier without a refund permission, a demo user, another tenant and another tenant’s sale; a retried return is the first one', async () => {
    const sale = await sell(c.cashier!, { lines: [{ productId: cheap, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 2000 }] });
    const before = await count('sale_returns');
    expect((await giveBack(c.cashier!, sale.id, { lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' })).status).toBe(403);
    expect((await giveBack(c.demo!, sale.id, { lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' })).status).toBe(403);
    expect((await giveBack(otherOwner, sale.id, { lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' })).status).toBe(404);
    expect((await otherOwner.get(`/api/sales/${sale.id}/returns`)).status).toBe(404);
    expect(await count('sale_returns')).toBe(before);
    const id = randomUUID();
    const first = await giveBack(c.manager!, sale.id, { id, lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' });
    const retried = await giveBack(c.manager!, sale.id, { id, lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' });
    expect(first.status).toBe(201);
    expect(retried.body).toEqual(first.body);
    expect(await count('sale_returns')).toBe(before + 1);
  });

  it('voids a sale of today completely (stock back, refund, status voided), only once, and never one with returns', async () => {
    const stockBefore = await stockOf(cheap);
    const sale = await sell(c.cashier!, { lines: [{ productId: cheap, quantity: 4 }], payments: [{ method: 'MPESA', amountCents: 4000, reference: 'ABC' }] });
    expect(await stockOf(cheap)).toBe(stockBefore - 4);
    expect((await c.cashier!.post(`/api/sales/${sale.id}/void`, { id: randomUUID() })).status).toBe(403);
    const voided = await c.manager!.post(`/api/sales/${sale.id}/void`, { id: randomUUID(), reason: 'Rang up twice' });
    expect(voided.status).toBe(201);
    expect(voided.body).toMatchObject({ kind: 'void', refundCents: 4000, refundMethod: 'MPESA', saleStatus: 'voided', reason: 'Rang up twice' });
    expect(await stockOf(cheap)).toBe(stockBefore);
    const twice = await c.manager!.post(`/api/sales/${sale.id}/void`, { id: randomUUID() });
    expect(twice.body.error).toMatchObject({ code: 'SALE_ALREADY_VOIDED', message: 'This sale was already voided.' });

    const returned = await sell(c.cashier!, { lines: [{ productId: cheap, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 2000 }] });
    expect((await giveBack(c.manager!, returned.id, { lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' })).status).toBe(201);
    const refused = await c.manager!.post(`/api/sales/${returned.id}/void`, { id: randomUUID() });
    expect(refused.body.error).toMatchObject({ code: 'SALE_VOID_NOT_ALLOWED' });
    const old = await sell(c.cashier!, { lines: [{ productId: cheap, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 1000 }], saleDate: daysFromToday(-2) });
    const notToday = await c.manager!.post(`/api/sales/${old.id}/void`, { id: randomUUID() });
    expect(notToday.body.error).toMatchObject({ code: 'SALE_VOID_NOT_TODAY', message: 'Only a sale made today can be voided; use a return for older sales.' });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('credit: a return first lowers what the client owes; later payments are allocated oldest first; balance = credit sales - payments - refunds to credit', async () => {
    const older = await sell(c.cashier!, { clientId: client, lines: [{ productId: cheap, quantity: 5 }], payments: [{ method: 'Credit', amountCents: 0 }], saleDate: daysFromToday(-3) });
    const newer = await sell(c.cashier!, { clientId: client, lines: [{ productId: cheap, quantity: 3 }], payments: [{ method: 'Cash', amountCents: 1000 }, { method: 'Credit', amountCents: 0 }] });
    expect((await saleRow(older.id)).balance_due_cents).toBe(5000);
    expect((await saleRow(newer.id)).balance_due_cents).toBe(2000);
    // Return 1 of the older: 10.00 off what is owed, nothing paid out (no method needed).
    const ret = await giveBack(c.manager!, older.id, { lines: [{ line: 1, quantity: 1 }] });
    expect(ret.body).toMatchObject({ refundCents: 1000, creditCents: 1000, paidOutCents: 0, refundMethod: null });
    const owed = creditOutstandingResponseSchema.parse((await c.owner!.get(`/api/sales/credit-outstanding?clientId=${client}`)).body);
    expect(owed.customers).toHaveLength(1);
    expect(owed.customers[0]).toMatchObject({ name: 'Jane Wanjiku', balanceCents: 6000, creditDays: 30, oldestSaleDate: daysFromToday(-3) });
    expect(owed.customers[0]!.invoices.map((i) => [i.invoiceNumber, i.balanceCents, i.bucket])).toEqual([
      [older.invoiceNumber, 4000, 'current'],
      [newer.invoiceNumber, 2000, 'current'],
    ]);

    const above = await pay(c.cashier!, { clientId: client, amountCents: 6001, method: 'Cash' });
    expect(above.body.error).toMatchObject({ code: 'CUSTOMER_PAYMENT_ABOVE_BALANCE', message: 'The payment of KSh 60.01 is more than Jane Wanjiku owes (KSh 60.00).' });
    expect((await pay(c.cashier!, { clientId: client, amountCents: 100, method: 'Credit' })).body.error.code).toBe('CUSTOMER_PAYMENT_ON_CREDIT');
    expect((await pay(c.cashier!, { clientId: client, amountCents: 0, method: 'Cash' })).status).toBe(400);
    expect((await pay(otherOwner, { clientId: client, amountCents: 100, method: 'Cash' })).status).toBe(404);
    expect((await pay(c.demo!, { clientId: client, amountCents: 100, method: 'Cash' })).status).toBe(403);
    expect(await count('customer_payments')).toBe(0);

    const id = randomUUID();
    const paid = await pay(c.cashier!, { id, clientId: client, amountCents: 4500, method: 'MPESA', reference: 'XYZ789' });
    expect(paid.status).toBe(201);
    const payment = customerPaymentSchema.parse(paid.body);
    expect(payment).toMatchObject({ amountCents: 4500, method: 'MPESA', balanceAfterCents: 1500, clientName: 'Jane Wanjiku' });
    expect(payment.allocations.map((a) => [a.invoiceNumber, a.amountCents, a.balanceAfterCents])).toEqual([
      [older.invoiceNumber, 4000, 0],
      [newer.invoiceNumber, 500, 1500],
    ]);
    expect((await pay(c.cashier!, { id, clientId: client, amountCents: 4500, method: 'MPESA', reference: 'XYZ789' })).body).toEqual(paid.body);
    expect(await saleRow(older.id)).toMatchObject({ balance_due_cents: 0, paid_later_cents: 4000 });
    expect(await saleRow(newer.id)).toMatchObject({ balance_due_cents: 1500, paid_later_cents: 500 });
    // The invariant: credit given at the sales - later payments - refunds to credit.
    const [sums] = await t.db.owner.query<{ given: number; later: number; credited: number; due: number }>(
      `SELECT (SELECT sum(total_cents - (amount_paid_cents - change_cents)) FROM sales WHERE pharmacy_id = $1 AND client_id = $2)::bigint AS given,
              (SELECT sum(amount_cents) FROM customer_payments WHERE pharmacy_id = $1 AND client_id = $2)::bigint AS later,
              (SELECT sum(r.credit_cents) FROM sale_returns r JOIN sales s ON s.pharmacy_id = r.pharmacy_id AND s.id = r.sale_id WHERE r.pharmacy_id = $1 AND s.client_id = $2)::bigint AS credited,
              (SELECT sum(balance_due_cents) FROM sales WHERE pharmacy_id = $1 AND client_id = $2)::bigint AS due`,
      [ph.pharmacyId, client],
    );
    expect(Number(sums!.due)).toBe(Number(sums!.given) - Number(sums!.later) - Number(sums!.credited));
    const listed = await c.owner!.get(`/api/customer-payments?clientId=${client}`);
    expect(listed.body).toMatchObject({ total: 1 });

    // A 45-day-old credit sale (the sale date moved by the database owner) is 15 days overdue.
    await t.db.owner.query(`UPDATE sales SET sale_date = $3 WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, newer.id, daysFromToday(-45)]);
    const aged = creditOutstandingResponseSchema.parse((await c.owner!.get('/api/sales/credit-outstanding')).body);
    const jane = aged.customers.find((x) => x.clientId === client)!;
    expect(jane.invoices[0]).toMatchObject({ daysOverdue: 15, bucket: 'days1to30', dueDate: daysFromToday(-15) });
    expect(jane.buckets).toEqual({ current: 0, days1to30: 1500, days31to60: 0, days60plus: 0 });

    // Nothing owed once all is paid.
    expect((await pay(c.cashier!, { clientId: client, amountCents: 1500, method: 'Cash' })).status).toBe(201);
    const nothing = await pay(c.cashier!, { clientId: client, amountCents: 100, method: 'Cash' });
    expect(nothing.body.error).toMatchObject({ code: 'CUSTOMER_PAYMENT_NOTHING_OWED', message: 'Jane Wanjiku owes nothing.' });
  });

  it('lists sales with the filters and the totals of the filtered set; the payment summary per method and day', async () => {
    const a = await sell(c.cashier!, { lines: [{ productId: cheap, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 5000 }] });
    const b = await sell(c.manager!, { lines: [{ productId: cheap, quantity: 1 }], payments: [{ method: 'MPESA', amountCents: 1000, reference: 'R1' }], saleDate: daysFromToday(-1) });
    const today = saleHistoryResponseSchema.parse((await c.owner!.get('/api/sales?preset=today&limit=200')).body);
    expect(today.range).toEqual({ from: daysFromToday(0), to: daysFromToday(0) });
    expect(today.items.map((s) => s.id)).toContain(a.id);
    expect(today.items.map((s) => s.id)).not.toContain(b.id);
    expect(today.totals.count).toBe(today.total);
    expect(today.totals.totalCents).toBe(today.items.reduce((x, s) => x + s.totalCents, 0));
    const yesterday = saleHistoryResponseSchema.parse((await c.owner!.get('/api/sales?preset=yesterday')).body);
    expect(yesterday.items.map((s) => s.id)).toEqual([b.id]);
    const byMethod = saleHistoryResponseSchema.parse((await c.owner!.get('/api/sales?preset=last30Days&paymentMethod=m-pesa')).body);
    expect(byMethod.items.every((s) => s.paymentMethod === 'MPESA')).toBe(true);
    const byInvoice = saleHistoryResponseSchema.parse((await c.owner!.get(`/api/sales?invoiceNumber=${a.invoiceNumber.slice(-4)}`)).body);
    expect(byInvoice.items.map((s) => s.invoiceNumber)).toContain(a.invoiceNumber);
    const byCashier = saleHistoryResponseSchema.parse((await c.owner!.get(`/api/sales?preset=last30Days&cashierId=${ph.users.manager}`)).body);
    expect(byCashier.items.every((s) => s.cashier.id === ph.users.manager)).toBe(true);
    const voided = saleHistoryResponseSchema.parse((await c.owner!.get('/api/sales?status=voided')).body);
    expect(voided.items.length).toBeGreaterThan(0);
    expect(voided.items.every((s) => s.status === 'voided' && s.refundedCents === s.totalCents)).toBe(true);
    const paged = saleHistoryResponseSchema.parse((await c.owner!.get('/api/sales?preset=last30Days&limit=2&offset=1')).body);
    expect(paged.items).toHaveLength(2);
    expect(paged.totals.count).toBe(paged.total);
    expect((await c.owner!.get('/api/sales?from=2026-02-10&to=2026-02-01')).status).toBe(400);
    expect((await c.owner!.get('/api/sales?preset=someday')).status).toBe(400);
    expect((await otherOwner.get('/api/sales?preset=last30Days')).body.total).toBe(0);
    const options = await c.owner!.get('/api/sales/filter-options?preset=last30Days');
    expect(options.status).toBe(200);
    expect(options.body.cashiers.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining([ph.users.cashier, ph.users.manager]));
    expect(options.body.clients.map((x: { name: string }) => x.name)).toContain('Jane Wanjiku');
    const yesterdayOnly = await c.owner!.get('/api/sales/filter-options?preset=yesterday');
    expect(yesterdayOnly.body.cashiers.map((x: { id: string }) => x.id)).toEqual([ph.users.manager]);
    expect((await otherOwner.get('/api/sales/filter-options?preset=last30Days')).body).toEqual({ cashiers: [], clients: [] });

    const summary = paymentSummaryResponseSchema.parse((await c.owner!.get(`/api/sales/payment-summary?from=${daysFromToday(-1)}&to=${daysFromToday(0)}&branchId=${main}`)).body);
    const cashToday = summary.rows.find((r) => r.date === daysFromToday(0) && r.method === 'Cash')!;
    // Sale a: 50.00 tendered, 30.00 change: 20.00 taken.
    expect(cashToday.salesCents).toBeGreaterThanOrEqual(2000);
    const mpesaYesterday = summary.rows.find((r) => r.date === daysFromToday(-1) && r.method === 'MPESA')!;
    expect(mpesaYesterday).toMatchObject({ salesCount: 1, salesCents: 1000 });
    expect(summary.netCents).toBe(summary.rows.reduce((x, r) => x + r.netCents, 0));
    const sqlCash = await t.db.owner.query<{ cents: number }>(
      `SELECT coalesce(sum(p.amount_cents - s.change_cents), 0)::bigint AS cents FROM sales s JOIN sale_payments p ON p.pharmacy_id = s.pharmacy_id AND p.sale_id = s.id
        WHERE s.pharmacy_id = $1 AND s.sale_date = $2 AND p.method = 'Cash' AND s.status <> 'voided' AND s.branch_id = $3`,
      [ph.pharmacyId, daysFromToday(0), main],
    );
    expect(cashToday.salesCents).toBe(Number(sqlCash[0]!.cents));
    expect((await c.owner!.get(`/api/sales/payment-summary?from=2025-01-01&to=2026-06-30`)).status).toBe(400);
  });

  it('after a random mix of sales, returns (restocked and damaged), voids and later payments: stock = batches = ledger, nothing returned twice, balances add up', async () => {
    let seed = 20261124;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65_536) % n;
    };
    const buyer = (await c.cashier!.post('/api/contacts', { name: 'Mixed Buyer', phone: '0733000222' })).body.id as string;
    const mix = await product({ name: 'Mixed Ointment', sellingPriceCents: 1500, purchasePriceCents: 700 }, [['MIX-A', 40, 20], ['MIX-B', 200, 20], ['MIX-C', 400, 20]]);
    const sales: { id: string; lines: number[] }[] = [];
    const done = { returns: 0, voidsOrPayments: 0 };
    for (let step = 0; step < 40; step++) {
      const action = sales.length === 0 ? 0 : random(6);
      if (action <= 1) {
        const quantities = [1 + random(3), 1 + random(2)];
        const credit = random(2) === 0;
        const total = quantities.reduce((a, q) => a + q * 1500, 0);
        const res = await c.owner!.request('POST', '/api/sales', {
          id: randomUUID(),
          ...(credit ? { clientId: buyer } : {}),
          lines: quantities.map((quantity) => ({ productId: mix, quantity })),
          payments: credit ? [{ method: 'Credit', amountCents: 0 }] : [{ method: 'Cash', amountCents: total }],
        });
        if (res.status === 201) sales.push({ id: res.body.id, lines: quantities });
        else expect(res.body.error.code).toBe('SALE_STOCK_EXCEEDED');
      } else if (action === 2 || action === 3) {
        const sale = sales[random(sales.length)]!;
        const line = 1 + random(sale.lines.length);
        const res = await giveBack(c.owner!, sale.id, { lines: [{ line, quantity: 1 + random(2), condition: random(3) === 0 ? 'damaged' : 'restock' }], refundMethod: 'Cash' });
        expect([201, 409]).toContain(res.status);
        if (res.status === 201) done.returns++;
      } else {
        const sale = sales[random(sales.length)]!;
        const res = action === 4 ? await c.owner!.post(`/api/sales/${sale.id}/void`, { id: randomUUID() }) : await pay(c.owner!, { clientId: buyer, amountCents: 100 + random(2000), method: 'Cash' });
        expect([201, 409]).toContain(res.status);
        if (res.status === 201) done.voidsOrPayments++;
      }
    }
    // The mix did happen (the sequence is fixed by its seed).
    expect(sales.length).toBeGreaterThan(3);
    expect(done.returns).toBeGreaterThan(3);
    expect(done.voidsOrPayments).toBeGreaterThan(1);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    const over = await t.db.owner.query(
      `SELECT i.sale_id, i.line FROM sale_items i
        WHERE i.pharmacy_id = $1 AND i.quantity < (SELECT coalesce(sum(r.quantity), 0) FROM sale_return_items r WHERE r.pharmacy_id = i.pharmacy_id AND r.sale_id = i.sale_id AND r.line = i.line)`,
      [ph.pharmacyId],
    );
    expect(over).toEqual([]);
    const wrong = await t.db.owner.query(
      `SELECT s.id FROM sales s WHERE s.pharmacy_id = $1 AND (
         s.refunded_cents <> (SELECT coalesce(sum(r.refund_cents), 0) FROM sale_returns r WHERE r.pharmacy_id = s.pharmacy_id AND r.sale_id = s.id)
         OR s.balance_due_cents <> greatest(0, s.total_cents - (s.amount_paid_cents - s.change_cents)) - s.paid_later_cents
              - (SELECT coalesce(sum(r.credit_cents), 0) FROM sale_returns r WHERE r.pharmacy_id = s.pharmacy_id AND r.sale_id = s.id)
         OR s.paid_later_cents <> (SELECT coalesce(sum(a.amount_cents), 0) FROM customer_payment_allocations a WHERE a.pharmacy_id = s.pharmacy_id AND a.sale_id = s.id))`,
      [ph.pharmacyId],
    );
    expect(wrong).toEqual([]);
  });

  it('concurrent returns of one sale never return more than was sold; concurrent payments never take more than is owed', async () => {
    const sale = await sell(c.owner!, { lines: [{ productId: cheap, quantity: 6 }], payments: [{ method: 'Cash', amountCents: 6000 }] });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => giveBack(i % 2 ? c.owner! : c.manager!, sale.id, { lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(6).fill(201), ...Array(6).fill(409)]);
    const [returned] = await t.db.owner.query<{ n: number }>(`SELECT coalesce(sum(quantity), 0)::int AS n FROM sale_return_items WHERE pharmacy_id = $1 AND sale_id = $2`, [ph.pharmacyId, sale.id]);
    expect(returned!.n).toBe(6);
    expect(await saleRow(sale.id)).toMatchObject({ status: 'returned', refunded_cents: 6000 });

    const buyer = (await c.cashier!.post('/api/contacts', { name: 'Concurrent Buyer', phone: '0722000111' })).body.id as string;
    await sell(c.cashier!, { clientId: buyer, lines: [{ productId: cheap, quantity: 5 }], payments: [{ method: 'Credit', amountCents: 0 }] });
    const payments = await Promise.all(Array.from({ length: 10 }, () => pay(c.cashier!, { clientId: buyer, amountCents: 1000, method: 'Cash' })));
    expect(payments.map((r) => r.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(409)]);
    const [left] = await t.db.owner.query<{ due: number; later: number }>(
      `SELECT sum(balance_due_cents)::bigint AS due, sum(paid_later_cents)::bigint AS later FROM sales WHERE pharmacy_id = $1 AND client_id = $2`,
      [ph.pharmacyId, buyer],
    );
    expect({ due: Number(left!.due), later: Number(left!.later) }).toEqual({ due: 0, later: 5000 });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });
});
