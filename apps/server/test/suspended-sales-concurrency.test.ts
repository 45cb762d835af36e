import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Suspensions and resumed sales under many tills at once (issue 9, concurrency; decision 0028): reservations of the
 * last pieces never over-reserve (the branch rows are locked in the ledger's order), one suspension posted several
 * times with one Idempotency-Key is one record, and the same resumed sale completed (or cancelled) from several tills
 * at once becomes one sale: the suspension's row is locked before any stock row, and the losers find it closed.
 */
describe.each(testDatabaseKinds())('suspended sales under concurrency on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let tills: TestClient[];
  let main: string;
  let client: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'susp_conc', ['owner', 'cashier', 'manager']);
    const c = await clientsOf(t, ph);
    tills = [c.owner!, c.cashier!, c.manager!];
    main = ph.branches[0]!.id;
    client = (await c.cashier!.post('/api/contacts', { name: 'Mary Achieng', phone: '0711 222 333' })).body.id;
  });
  afterAll(async () => t?.close());

  const newProduct = async (name: string, pieces: number) => {
    const created = await tills[0]!.post('/api/products', { name, sellingPriceCents: 5000, purchasePriceCents: 2000 });
    expect(created.status).toBe(201);
    const id = created.body.product.id as string;
    for (const [number, days, quantity] of [
      ['A', 60, Math.floor(pieces / 2)],
      ['B', 300, pieces - Math.floor(pieces / 2)],
    ] as const) {
      const r = await tills[0]!.post(`/api/products/${id}/batches`, { batchNumber: `${name}-${number}`, expiryDate: daysFromToday(days), quantity, unitCostCents: 2000 });
      expect(r.status).toBe(201);
    }
    return id;
  };
  const suspend = (till: TestClient, productId: string, quantity = 1, id: string = randomUUID()) =>
    till.request('POST', '/api/suspended-sales', { id, clientId: client, lines: [{ productId, quantity }] }, { 'idempotency-key': id });
  const complete = (till: TestClient, suspendedSaleId: string, productId: string, quantity: number) => {
    const id = randomUUID();
    return till.request(
      'POST',
      '/api/sales',
      { id, suspendedSaleId, clientId: client, lines: [{ productId, quantity }], payments: [{ method: 'Cash', amountCents: 5000 * quantity }] },
      { 'idempotency-key': id },
    );
  };
  const stock = async (productId: string) =>
    (
      await t.db.owner.query<{ quantity: number; reserved: number }>(
        `SELECT quantity, reserved_quantity AS reserved FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
        [ph.pharmacyId, main, productId],
      )
    )[0]!;

  it('25 concurrent suspensions for the last 10 pieces: exactly 10 reserve, the rest 409 with the stock message; nothing negative', async () => {
    const product = await newProduct('Last Ten Reserved', 10);
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => suspend(tills[i % tills.length]!, product)));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), ...Array(15).fill(409)]);
    for (const refused of results.filter((r) => r.status === 409)) expect(refused.body.error.message).toMatch(/^Insufficient stock for Last Ten Reserved\. Available: 0, Requested: 1$/);
    expect(await stock(product)).toEqual({ quantity: 0, reserved: 10 });
    const [rows] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM suspended_sales WHERE pharmacy_id = $1 AND status = 'suspended'`, [ph.pharmacyId]);
    expect(rows!.n).toBe(10);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('one suspension posted 5 times at once with one Idempotency-Key: one record, five identical answers', async () => {
    const product = await newProduct('Suspend Once', 10);
    const id = randomUUID();
    const results = await Promise.all(Array.from({ length: 5 }, () => suspend(tills[1]!, product, 3, id)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    for (const r of results) expect(r.body).toEqual(results[0]!.body);
    const [row] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM suspended_sales WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, id]);
    expect(row!.n).toBe(1);
    expect(await stock(product)).toEqual({ quantity: 7, reserved: 3 });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('the same resumed sale completed from 5 tills at once: one sale, the others 409; reserved pieces sold once', async () => {
    const product = await newProduct('Resume Once', 10);
    const suspended = await suspend(tills[0]!, product, 4);
    expect(suspended.status).toBe(201);
    const results = await Promise.all(tills.concat(tills.slice(0, 2)).map((till) => complete(till, suspended.body.id, product, 4)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('SUSPENDED_SALE_GONE');
    const [sales] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM sales WHERE pharmacy_id = $1 AND reservation_id = $2`, [ph.pharmacyId, suspended.body.reservationId]);
    expect(sales!.n).toBe(1);
    expect(await stock(product)).toEqual({ quantity: 6, reserved: 0 });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('completing and cancelling the same suspension at once: exactly one wins', async () => {
    const product = await newProduct('Complete Or Cancel', 10);
    const suspended = await suspend(tills[0]!, product, 2);
    expect(suspended.status).toBe(201);
    const [sold, cancelled] = await Promise.all([complete(tills[1]!, suspended.body.id, product, 2), tills[2]!.post(`/api/suspended-sales/${suspended.body.id}/cancel`, {})]);
    const outcome = `${sold.status}/${cancelled.status}`;
    expect(['201/409', '409/200']).toContain(outcome);
    expect((sold.status === 409 ? sold : cancelled).body.error.code).toBe('SUSPENDED_SALE_GONE');
    const after = await stock(product);
    expect(after.reserved).toBe(0);
    expect(after.quantity).toBe(sold.status === 201 ? 8 : 10);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });
});
