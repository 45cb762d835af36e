import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saleSchema } from '@pharmapoint/domain/sales';
import { RESERVATION_ID_PATTERN, suspendedSaleListResponseSchema, suspendedSaleSchema, suspendSaleSchema } from '@pharmapoint/domain/suspended-sales';
import { completeSaleSchema } from '@pharmapoint/domain/sales';
import { completeSale } from '../src/modules/sales/sales.service.ts';
import { suspendSale } from '../src/modules/suspended-sales/suspended-sales.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { sessionCookie, SseClient } from './sse-client.ts';
import { clientsOf, daysFromToday, ledgerProblems, ownerContext, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Suspending a sale with reserved stock, the list, resuming and completing, cancelling (issue 9 item 7, seed 001
 * sections 3-5, decision 0028): FEFO reservations through the ledger ('reserve', 'release', 'reserved_sold'), the
 * invariant quantity + reserved = batches = ledger after each step, the specification's refusals with nothing
 * written, and failures after the stock update leaving no trace.
 */
describe.each(testDatabaseKinds())('suspended sales on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  /** 100.00 a piece, cost 50.00; batches SOON (30 days) 5, LATE (300 days) 15, OLD (expired) 4. */
  let para: string;
  /** 20.00 a piece, 10 in one batch. */
  let ors: string;
  let client: string;
  let client2: string;
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
    ph = await stockTestPharmacy(t.db, 'susp_ph', ['owner', 'manager', 'cashier', 'inventory', 'demo']);
    const other = await stockTestPharmacy(t.db, 'susp_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    para = await product({ name: 'Paracetamol 500mg', sku: 'PARA', sellingPriceCents: 10_000, purchasePriceCents: 5000 }, [
      ['LATE', 300, 15],
      ['SOON', 30, 5],
    ]);
    // An expired batch: received while good, then its date passes (a batch past expiry is never received).
    const old = await c.owner!.post(`/api/products/${para}/batches`, { batchNumber: 'OLD', expiryDate: daysFromToday(2), quantity: 4, unitCostCents: 5000 });
    batches.OLD = old.body.batch.id;
    await t.db.owner.query(`UPDATE batches SET expiry_date = $3 WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, batches.OLD, daysFromToday(-3)]);
    ors = await product({ name: 'ORS Sachet', sku: 'ORS', sellingPriceCents: 2000, purchasePriceCents: 1000 }, [['ORS1', 200, 10]]);
    client = (await c.cashier!.post('/api/contacts', { name: 'Jane Wanjiku', phone: '0712 345 678' })).body.id;
    client2 = (await c.cashier!.post('/api/contacts', { name: 'Peter Kamau', phone: '0722 000 111' })).body.id;
    otherClient = (await otherOwner.post('/api/contacts', { name: 'Other client', phone: '0700000000' })).body.id;
  });
  afterAll(async () => t?.close());

  const suspend = (who: TestClient, body: Record<string, unknown>, key?: string) => {
    const id = (body.id as string | undefined) ?? randomUUID();
    return who.request('POST', '/api/suspended-sales', { id, ...body }, { 'idempotency-key': key ?? id });
  };
  const sell = (who: TestClient, body: Record<string, unknown>) => {
    const id = (body.id as string | undefined) ?? randomUUID();
    return who.request('POST', '/api/sales', { id, ...body }, { 'idempotency-key': id });
  };
  const count = async (table: string) => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;
  const stock = async (productId: string) =>
    (
      await t.db.owner.query<{ quantity: number; reserved: number }>(
        `SELECT quantity, reserved_quantity AS reserved FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
        [ph.pharmacyId, main, productId],
      )
    )[0]!;
  const batch = async (id: string) =>
    (await t.db.owner.query<{ quantity: number; reserved: number }>(`SELECT quantity, reserved_quantity AS reserved FROM batches WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, id]))[0]!;
  const movements = async (referenceId: string) =>
    t.db.owner.query<{ kind: string; delta: number; batch_id: string }>(
      `SELECT kind, delta, batch_id FROM stock_movements WHERE pharmacy_id = $1 AND reference_id = $2 ORDER BY sequence`,
      [ph.pharmacyId, referenceId],
    );
  const snapshot = async () => ({
    suspended: await count('suspended_sales'),
    sales: await count('sales'),
    movements: await count('stock_movements'),
    para: await stock(para),
    ors: await stock(ors),
    audit: await count('audit_log'),
  });

  it('suspends for a registered customer: stock reserved FEFO (never expired), RES- id, ledger "reserve" rows of delta 0', async () => {
    const before = await stock(para);
    expect(before).toEqual({ quantity: 24, reserved: 0 });
    const res = await suspend(c.cashier!, {
      clientId: client,
      lines: [
        { productId: para, quantity: 7 },
        { productId: ors, quantity: 2, needsRefill: true, refillDays: 10 },
      ],
      paymentMethod: 'mpesa',
      amountPaidCents: 20_000,
      reason: '  Will pick up after work  ',
      expectedTotalCents: 74_000,
    });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
    const sale = suspendedSaleSchema.parse(res.body);
    expect(sale.reservationId).toMatch(RESERVATION_ID_PATTERN);
    expect(sale).toMatchObject({
      branchId: main,
      client: { id: client, name: 'Jane Wanjiku', phone: '254712345678' },
      totalCents: 74_000,
      paymentMethod: 'MPESA',
      amountPaidCents: 20_000,
      paymentStatus: 'partial',
      notes: 'Will pick up after work',
      status: 'suspended',
      version: '2.0',
      cartItemCount: 2,
      stockReserved: true,
      suspendedBy: { id: ph.users.cashier },
    });
    expect(sale.lines.map((l) => [l.name, l.quantity, l.unitPriceCents, l.needsRefill, l.refillDays])).toEqual([
      ['Paracetamol 500mg', 7, 10_000, false, null],
      ['ORS Sachet', 2, 2000, true, 10],
    ]);
    expect(sale.reservations.find((r) => r.productId === para)!.batches.map((b) => [b.batchNumber, b.quantity])).toEqual([
      ['SOON', 5],
      ['LATE', 2],
    ]);
    expect(await stock(para)).toEqual({ quantity: 17, reserved: 7 });
    expect(await batch(batches.SOON!)).toEqual({ quantity: 0, reserved: 5 });
    expect(await batch(batches.LATE!)).toEqual({ quantity: 13, reserved: 2 });
    expect(await batch(batches.OLD!)).toEqual({ quantity: 4, reserved: 0 });
    expect((await movements(sale.id)).map((m) => [m.kind, m.delta])).toEqual([
      ['reserve', 0],
      ['reserve', 0],
      ['reserve', 0],
    ]);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);

    // Readable by the till (pos:access) and the back office; the products list and history show the reserved pieces.
    expect((await c.cashier!.get(`/api/suspended-sales/${sale.id}`)).body).toEqual(res.body);
    const list = suspendedSaleListResponseSchema.parse((await c.manager!.get('/api/suspended-sales')).body);
    expect(list.items.map((s) => s.id)).toContain(sale.id);
    const products = await c.manager!.get(`/api/products?q=Paracetamol&branchId=${main}`);
    expect(products.body.items[0]).toMatchObject({ quantity: 17, reservedQuantity: 7 });
    // Default reason when none is given; the suspension counts no plan transaction.
    const plain = await suspend(c.cashier!, { clientId: client2, lines: [{ productId: ors, quantity: 1 }] });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ notes: 'Customer requested suspension', paymentMethod: 'Cash', amountPaidCents: 0, paymentStatus: 'unpaid' });
  });

  it('lists with filters by branch, customer and age; 404 for another tenant', async () => {
    const all = (await c.manager!.get('/api/suspended-sales')).body;
    expect(all.total).toBe(2);
    expect((await c.manager!.get(`/api/suspended-sales?clientId=${client}`)).body.total).toBe(1);
    expect((await c.manager!.get(`/api/suspended-sales?branchId=${west}`)).body.total).toBe(0);
    expect((await c.manager!.get(`/api/suspended-sales?branchId=${main}`)).body.total).toBe(2);
    expect((await c.manager!.get('/api/suspended-sales?maxAgeDays=0')).body.total).toBe(2);
    expect((await c.manager!.get('/api/suspended-sales?minAgeDays=1')).body.total).toBe(0);
    await t.db.owner.query(`UPDATE suspended_sales SET suspended_at = now() - interval '8 days' WHERE pharmacy_id = $1 AND client_id = $2`, [ph.pharmacyId, client2]);
    expect((await c.manager!.get('/api/suspended-sales?minAgeDays=7')).body.items.map((s: { clientName: string }) => s.clientName)).toEqual(['Peter Kamau']);
    expect((await c.manager!.get('/api/suspended-sales?maxAgeDays=6')).body.items.map((s: { clientName: string }) => s.clientName)).toEqual(['Jane Wanjiku']);
    expect((await otherOwner.get(`/api/suspended-sales/${all.items[0].id}`)).status).toBe(404);
    expect((await otherOwner.get('/api/suspended-sales')).body.total).toBe(0);
    expect((await c.inventory!.get('/api/suspended-sales')).status).toBe(403);
  });

  describe('refusals with the specification’s messages, nothing written', () => {
    const refusals: [string, () => Record<string, unknown>, number, string][] = [
      ['empty cart', () => ({ clientId: client, lines: [] }), 400, 'Cart is empty'],
      ['walk-in customer', () => ({ clientId: null, lines: [{ productId: para, quantity: 1 }] }), 400, 'Please select a registered customer before suspending the sale.'],
      ['no client at all', () => ({ lines: [{ productId: para, quantity: 1 }] }), 400, 'Please select a registered customer before suspending the sale.'],
      ['more than sellable (expired batch not counted)', () => ({ clientId: client, lines: [{ productId: para, quantity: 14 }] }), 409, 'Insufficient stock for Paracetamol 500mg. Available: 13, Requested: 14'],
      ['two lines over stock', () => ({ clientId: client, lines: [{ productId: ors, quantity: 5 }, { productId: ors, quantity: 3 }] }), 409, 'Insufficient stock for ORS Sachet. Available: 7, Requested: 8'],
      ['paid above total', () => ({ clientId: client, lines: [{ productId: ors, quantity: 1 }], amountPaidCents: 2001 }), 400, 'Amount paid cannot exceed total'],
      ['unknown product', () => ({ clientId: client, lines: [{ productId: '00000000-0000-4000-8000-000000000001', quantity: 1 }] }), 404, 'Product 00000000-0000-4000-8000-000000000001 not found'],
      ['reason over 200', () => ({ clientId: client, lines: [{ productId: ors, quantity: 1 }], reason: 'x'.repeat(201) }), 400, 'The reason must be at most 200 characters.'],
      ['unknown method', () => ({ clientId: client, lines: [{ productId: ors, quantity: 1 }], paymentMethod: 'Bitcoin' }), 400, 'Bitcoin is not a payment method of this pharmacy.'],
      ['stale price', () => ({ clientId: client, lines: [{ productId: ors, quantity: 1, unitPriceCents: 5 }] }), 409, 'The price of ORS Sachet is now KSh 20.00. Check the cart and try again.'],
      // Several problems at once: the first of the one ordered list the till uses too (decision 0069).
      ['a discount without the right before the walk-in customer', () => ({ clientId: null, lines: [{ productId: ors, quantity: 1 }], discount: { type: 'fixed', cents: 100 } }), 403, 'You may not give discounts at the till.'],
      ['the walk-in customer before the stock', () => ({ clientId: null, lines: [{ productId: ors, quantity: 99 }], amountPaidCents: 999_999 }), 400, 'Please select a registered customer before suspending the sale.'],
      ['the stock before the amount paid', () => ({ clientId: client, lines: [{ productId: ors, quantity: 99 }], amountPaidCents: 999_999 }), 409, 'Insufficient stock for ORS Sachet. Available: 7, Requested: 99'],
    ];
    for (const [name, body, status, message] of refusals) {
      it(name, async () => {
        const before = await snapshot();
        const res = await suspend(c.cashier!, body());
        expect({ status: res.status, message: res.body.error?.message }).toEqual({ status, message });
        expect(await snapshot()).toEqual(before);
      });
    }

    it('a low-margin price is refused when margins are enforced, allowed when suspending with low margin is', async () => {
      const before = await snapshot();
      const low = await suspend(c.owner!, { clientId: client, lines: [{ productId: ors, quantity: 1, unitPriceCents: 1000 }] });
      expect({ status: low.status, message: low.body.error.message }).toEqual({ status: 400, message: 'Low margin items detected. Cannot suspend sale.' });
      expect(await snapshot()).toEqual(before);
      const allow = (on: boolean) =>
        t.db.owner.query(
          `INSERT INTO settings (pharmacy_id, document) VALUES ($1, jsonb_build_object('allowSuspendWithLowMargin', $2::boolean))
           ON CONFLICT (pharmacy_id) DO UPDATE SET document = settings.document || jsonb_build_object('allowSuspendWithLowMargin', $2::boolean)`,
          [ph.pharmacyId, on],
        );
      await allow(true);
      const allowed = await suspend(c.owner!, { clientId: client, lines: [{ productId: ors, quantity: 1, unitPriceCents: 1000 }] });
      expect(allowed.status).toBe(201);
      expect(allowed.body.lines[0]).toMatchObject({ lowMargin: true, unitPriceCents: 1000 });
      await allow(false);
      expect((await c.owner!.post(`/api/suspended-sales/${allowed.body.id}/cancel`, {})).status).toBe(200);
    });

    it("another tenant's client or product is 404; demo and inventory users cannot suspend", async () => {
      const before = await snapshot();
      expect((await suspend(c.cashier!, { clientId: otherClient, lines: [{ productId: ors, quantity: 1 }] })).status).toBe(404);
      expect((await suspend(otherOwner, { clientId: otherClient, lines: [{ productId: ors, quantity: 1 }] })).body.error.message).toBe(`Product ${ors} not found`);
      expect((await suspend(c.demo!, { clientId: client, lines: [{ productId: ors, quantity: 1 }] })).status).toBe(403);
      expect((await suspend(c.inventory!, { clientId: client, lines: [{ productId: ors, quantity: 1 }] })).status).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('the same Idempotency-Key answers the first suspension; the same id under another key is 409', async () => {
    const id = randomUUID();
    const body = { id, clientId: client, lines: [{ productId: ors, quantity: 1 }] };
    const before = await stock(ors);
    const first = await suspend(c.cashier!, body);
    const again = await suspend(c.cashier!, body);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await stock(ors)).toEqual({ quantity: before.quantity - 1, reserved: before.reserved + 1 });
    const otherKey = await suspend(c.cashier!, body, `other-${id}`);
    expect({ status: otherKey.status, code: otherKey.body.error.code }).toEqual({ status: 409, code: 'SUSPENDED_ID_TAKEN' });
    expect((await c.cashier!.post(`/api/suspended-sales/${id}/cancel`, {})).status).toBe(200);
  });

  it('cancelling releases the reserved pieces to the same batches; a second cancel is 409; it leaves the list', async () => {
    const res = await suspend(c.cashier!, { clientId: client2, lines: [{ productId: para, quantity: 3 }] });
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    const reservedFrom = res.body.reservations[0].batches as { batchId: string; quantity: number }[];
    const before = await stock(para);
    const cancelled = await c.cashier!.post(`/api/suspended-sales/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ id, reservationId: res.body.reservationId, released: [{ productId: para, quantity: 3 }] });
    expect(await stock(para)).toEqual({ quantity: before.quantity + 3, reserved: before.reserved - 3 });
    const released = await movements(id);
    expect(released.filter((m) => m.kind === 'release').map((m) => [m.batch_id, m.delta])).toEqual(reservedFrom.map((b) => [b.batchId, 0]));
    const again = await c.cashier!.post(`/api/suspended-sales/${id}/cancel`, {});
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 409, code: 'SUSPENDED_SALE_GONE' });
    expect((await c.cashier!.get(`/api/suspended-sales/${id}`)).status).toBe(404);
    expect((await c.manager!.get('/api/suspended-sales')).body.items.map((s: { id: string }) => s.id)).not.toContain(id);
    expect((await c.cashier!.post(`/api/suspended-sales/${randomUUID()}/cancel`, {})).status).toBe(404);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('completing the resumed sale converts the reserved pieces to sold from the reserved batches and closes the suspension', async () => {
    const res = await suspend(c.cashier!, { clientId: client, lines: [{ productId: para, quantity: 6 }], amountPaidCents: 10_000 });
    expect(res.status).toBe(201);
    const suspended = suspendedSaleSchema.parse(res.body);
    const reservedFrom = suspended.reservations[0]!.batches;
    const before = await stock(para);
    const saleCount = await count('sales');
    const sale = await sell(c.cashier!, { suspendedSaleId: suspended.id, clientId: client, lines: [{ productId: para, quantity: 6 }], payments: [{ method: 'Cash', amountCents: 60_000 }] });
    expect({ status: sale.status, error: sale.body.error }).toEqual({ status: 201, error: undefined });
    const parsed = saleSchema.parse(sale.body);
    expect(parsed.lines[0]!.batches.map((b) => [b.batchId, b.quantity])).toEqual(reservedFrom.map((b) => [b.batchId, b.quantity]));
    expect(await stock(para)).toEqual({ quantity: before.quantity, reserved: before.reserved - 6 });
    expect((await movements(parsed.id)).map((m) => [m.kind, m.delta])).toEqual(reservedFrom.map((b) => ['reserved_sold', -b.quantity]));
    const [row] = await t.db.owner.query<{ from_reserved_stock: boolean; reservation_id: string }>(`SELECT from_reserved_stock, reservation_id FROM sales WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, parsed.id]);
    expect(row).toEqual({ from_reserved_stock: true, reservation_id: suspended.reservationId });
    const [closed] = await t.db.owner.query<{ status: string; sale_id: string }>(`SELECT status, sale_id FROM suspended_sales WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, suspended.id]);
    expect(closed).toEqual({ status: 'completed', sale_id: parsed.id });
    expect((await c.cashier!.get(`/api/suspended-sales/${suspended.id}`)).status).toBe(404);
    // A second completion of the same suspended sale fails cleanly, writing nothing.
    const before2 = await snapshot();
    const second = await sell(c.cashier!, { suspendedSaleId: suspended.id, clientId: client, lines: [{ productId: para, quantity: 6 }], payments: [{ method: 'Cash', amountCents: 60_000 }] });
    expect({ status: second.status, message: second.body.error.message }).toEqual({ status: 409, message: 'This suspended sale was already completed or cancelled.' });
    expect(await snapshot()).toEqual(before2);
    expect(await count('sales')).toBe(saleCount + 1);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('a cart changed after resuming: fewer pieces release the rest, more take the difference from sellable stock', async () => {
    const res = await suspend(c.cashier!, { clientId: client, lines: [{ productId: para, quantity: 3 }, { productId: ors, quantity: 2 }] });
    expect(res.status).toBe(201);
    const before = { para: await stock(para), ors: await stock(ors) };
    // Para 3 reserved -> 5 sold (3 reserved + 2 sellable); ORS removed (2 released).
    const sale = await sell(c.cashier!, { suspendedSaleId: res.body.id, clientId: client, lines: [{ productId: para, quantity: 5 }], payments: [{ method: 'Cash', amountCents: 50_000 }] });
    expect({ status: sale.status, error: sale.body.error }).toEqual({ status: 201, error: undefined });
    expect(sale.body.lines[0].batches.reduce((a: number, b: { quantity: number }) => a + b.quantity, 0)).toBe(5);
    expect(await stock(para)).toEqual({ quantity: before.para.quantity - 2, reserved: before.para.reserved - 3 });
    expect(await stock(ors)).toEqual({ quantity: before.ors.quantity + 2, reserved: before.ors.reserved - 2 });
    const kinds = (await movements(sale.body.id)).map((m) => m.kind);
    expect(kinds.filter((k) => k === 'reserved_sold').length).toBeGreaterThan(0);
    expect(kinds).toContain('sale');
    expect((await movements(res.body.id)).map((m) => m.kind)).toEqual(['reserve', 'reserve', 'release']);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('a resumed sale suspended again replaces its suspension: released and re-reserved in one transaction', async () => {
    const first = await suspend(c.cashier!, { clientId: client, lines: [{ productId: ors, quantity: 2 }] });
    expect(first.status).toBe(201);
    const before = await stock(ors);
    // All sellable pieces plus the 2 the first suspension holds: only possible because they are released first.
    const all = before.quantity + 2;
    const second = await suspend(c.cashier!, { clientId: client, replacesSuspendedSaleId: first.body.id, lines: [{ productId: ors, quantity: all }], reason: 'Wants the whole box' });
    expect({ status: second.status, error: second.body.error }).toEqual({ status: 201, error: undefined });
    expect(await stock(ors)).toEqual({ quantity: 0, reserved: before.reserved - 2 + all });
    const [closed] = await t.db.owner.query<{ status: string }>(`SELECT status FROM suspended_sales WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, first.body.id]);
    expect(closed!.status).toBe('cancelled');
    const again = await suspend(c.cashier!, { clientId: client, replacesSuspendedSaleId: first.body.id, lines: [{ productId: para, quantity: 1 }] });
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 409, code: 'SUSPENDED_SALE_GONE' });
    expect((await c.cashier!.post(`/api/suspended-sales/${second.body.id}/cancel`, {})).status).toBe(200);
    expect(await stock(ors)).toEqual({ quantity: all, reserved: before.reserved - 2 });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('live stock events follow: reserving, releasing and selling reserved pieces reach an SSE client after commit', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sse = await SseClient.open(`${url}/api/events`, await sessionCookie(t.db, ph.users.manager!, ph.pharmacyId, main));
    try {
      await sse.next((e) => e.event === 'ready');
      const before = await stock(ors);
      const res = await suspend(c.cashier!, { clientId: client, lines: [{ productId: ors, quantity: 1 }] });
      expect(res.status).toBe(201);
      const reserved = await sse.next((e) => e.event === 'stock' && e.data.productId === ors && e.data.reason === `Reserved: ${res.body.reservationId}`);
      expect(reserved.data).toMatchObject({ branchId: main, quantity: before.quantity - 1, reservedQuantity: before.reserved + 1 });
      expect((await c.cashier!.post(`/api/suspended-sales/${res.body.id}/cancel`, {})).status).toBe(200);
      const released = await sse.next((e) => e.event === 'stock' && e.data.productId === ors && e.data.reason === `Released: ${res.body.reservationId}`);
      expect(released.data).toMatchObject({ quantity: before.quantity, reservedQuantity: before.reserved });
      // Selling reserved pieces: the event carries the sale's invoice number (taken last in the sale), as does the branch row.
      const again = await suspend(c.cashier!, { clientId: client, lines: [{ productId: ors, quantity: 1 }] });
      expect(again.status).toBe(201);
      const price = again.body.totalCents as number;
      const sale = await sell(c.cashier!, { suspendedSaleId: again.body.id, clientId: client, lines: [{ productId: ors, quantity: 1 }], payments: [{ method: 'Cash', amountCents: price }] });
      expect({ status: sale.status, error: sale.body.error }).toEqual({ status: 201, error: undefined });
      const sold = await sse.next((e) => e.event === 'stock' && e.data.productId === ors && e.data.reason === `Sale: ${sale.body.invoiceNumber}`);
      expect(sold.data).toMatchObject({ branchId: main, quantity: before.quantity - 1, reservedQuantity: before.reserved });
      const detail = await c.owner!.get(`/api/products/${ors}`);
      const stamped = (detail.body as { branches: { branchId: string; lastStockUpdateReason: string | null }[] }).branches.find((b) => b.branchId === main);
      expect(stamped!.lastStockUpdateReason).toBe(`Sale: ${sale.body.invoiceNumber}`);
    } finally {
      sse.close();
    }
  });

  it('a resumed sale keeps the price given at suspension although the branch price changed since', async () => {
    const res = await suspend(c.cashier!, { clientId: client, lines: [{ productId: ors, quantity: 1 }] });
    expect(res.status).toBe(201);
    await t.db.owner.query(`UPDATE branch_products SET selling_price_cents = 2500 WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [ph.pharmacyId, main, ors]);
    try {
      const plain = await sell(c.cashier!, { clientId: client, lines: [{ productId: ors, quantity: 1, unitPriceCents: 2000 }], payments: [{ method: 'Cash', amountCents: 2000 }] });
      expect({ status: plain.status, code: plain.body.error.code }).toEqual({ status: 409, code: 'SALE_PRICE_CHANGED' });
      const resumed = await sell(c.cashier!, { suspendedSaleId: res.body.id, clientId: client, lines: [{ productId: ors, quantity: 1, unitPriceCents: 2000 }], payments: [{ method: 'Cash', amountCents: 2000 }] });
      expect({ status: resumed.status, error: resumed.body.error }).toEqual({ status: 201, error: undefined });
      expect(resumed.body).toMatchObject({ totalCents: 2000, lines: [{ unitPriceCents: 2000, listPriceCents: 2500 }] });
    } finally {
      await t.db.owner.query(`UPDATE branch_products SET selling_price_cents = 2000 WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [ph.pharmacyId, main, ors]);
    }
  });

  it('pieces reserved in a batch that expired since are never sold: released, and the sale takes sellable stock', async () => {
    const zinc = await product({ name: 'Zinc 20mg', sku: 'ZINC', sellingPriceCents: 1000, purchasePriceCents: 500 }, [
      ['ZEARLY', 5, 2],
      ['ZLATE', 300, 10],
    ]);
    const res = await suspend(c.cashier!, { clientId: client, lines: [{ productId: zinc, quantity: 2 }] });
    expect(res.body.reservations[0].batches.map((b: { batchNumber: string }) => b.batchNumber)).toEqual(['ZEARLY']);
    await t.db.owner.query(`UPDATE batches SET expiry_date = $3 WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, batches.ZEARLY, daysFromToday(-1)]);
    const sale = await sell(c.cashier!, { suspendedSaleId: res.body.id, clientId: client, lines: [{ productId: zinc, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 2000 }] });
    expect({ status: sale.status, error: sale.body.error }).toEqual({ status: 201, error: undefined });
    expect(sale.body.lines[0].batches.map((b: { batchNumber: string; quantity: number }) => [b.batchNumber, b.quantity])).toEqual([['ZLATE', 2]]);
    expect(await batch(batches.ZEARLY!)).toEqual({ quantity: 2, reserved: 0 });
    expect(await batch(batches.ZLATE!)).toEqual({ quantity: 8, reserved: 0 });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('a resumed sale is completed in the suspension’s branch only', async () => {
    const res = await suspend(c.owner!, { clientId: client, lines: [{ productId: ors, quantity: 1 }] });
    const sale = await sell(c.owner!, { suspendedSaleId: res.body.id, branchId: west, clientId: client, lines: [{ productId: ors, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 2000 }] });
    expect({ status: sale.status, message: sale.body.error.message }).toEqual({ status: 409, message: 'This suspended sale belongs to Main Branch: switch to that branch to complete it.' });
    expect((await c.owner!.post(`/api/suspended-sales/${res.body.id}/cancel`, {})).status).toBe(200);
  });

  it('a failure thrown after the stock update leaves no trace: suspending, and completing a resumed sale', async () => {
    const scope = { pharmacyId: ph.pharmacyId, userId: ph.users.cashier! };
    const ctx = { ...ownerContext(ph), userId: ph.users.cashier!, now: new Date() };
    const before = await snapshot();
    const boom = new Error('failure after the stock update');
    await expect(
      t.db.transaction(scope, async (q) => {
        await suspendSale(q, ctx, suspendSaleSchema.parse({ id: randomUUID(), clientId: client, lines: [{ productId: para, quantity: 2 }] }));
        expect((await q.query<{ reserved_quantity: number }>(`SELECT reserved_quantity FROM branch_products WHERE branch_id = $1 AND product_id = $2`, [main, para]))[0]!.reserved_quantity).toBe(before.para.reserved + 2);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await snapshot()).toEqual(before);

    const res = await suspend(c.cashier!, { clientId: client, lines: [{ productId: para, quantity: 2 }] });
    expect(res.status).toBe(201);
    const held = await snapshot();
    await expect(
      t.db.transaction(scope, async (q) => {
        await completeSale(q, ctx, completeSaleSchema.parse({ id: randomUUID(), suspendedSaleId: res.body.id, clientId: client, lines: [{ productId: para, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 20_000 }] }));
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await snapshot()).toEqual(held);
    const [open] = await t.db.owner.query<{ status: string }>(`SELECT status FROM suspended_sales WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, res.body.id]);
    expect(open!.status).toBe('suspended');
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });
});
