import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, ownerContext, stockTestPharmacy } from './stock-helpers.ts';
import { createPurchaseReturnSchema, savePurchaseSchema } from '@pharmapoint/domain/purchases';
import { createPurchase, createPurchaseReturn } from '../src/modules/purchases/purchases.service.ts';

/**
 * Receiving, editing, deleting and returning purchases of the same products at the same moment from several users,
 * while the till sells them
 * (issue 10, invariants): every purchase's row is locked first and the stock rows in the ledger's order, so nothing
 * deadlocks, each purchase is deleted once, and afterwards stock = the sum of the batches = the sum of the ledger =
 * what the live purchases hold (received less returned).
 */
// PostgreSQL only (row locks between real connections): skipped visibly without TEST_DATABASE_URL.
describe.skipIf(!testDatabaseKinds().includes('postgres'))('purchases under concurrency on postgres', () => {
  let t: TestApp;
  let ph: StockPharmacy;
  let users: TestClient[];
  let supplier: string;
  let products: string[];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    ph = await stockTestPharmacy(t.db, 'purch_conc', ['owner', 'manager', 'inventory']);
    const c = await clientsOf(t, ph);
    users = [c.owner!, c.manager!, c.inventory!];
    supplier = (await t.db.owner.query<{ id: string }>(`INSERT INTO contacts (pharmacy_id, type, name) VALUES ($1, 'supplier', 'Harleys Ltd') RETURNING id`, [ph.pharmacyId]))[0]!.id;
    products = [];
    for (const name of ['Amoxil', 'Panadol', 'Brufen']) {
      const r = await c.owner!.post('/api/products', { name, sellingPriceCents: 1000, purchasePriceCents: 500 });
      products.push(r.body.product.id);
    }
  });
  afterAll(async () => t?.close());

  const items = (quantity: number, order: string[]) =>
    order.map((productId, i) => ({ productId, quantity: quantity + i, purchasePriceCents: 500, sellingPriceCents: 1000, batchNumber: i % 2 ? 'SHARED' : null, expiryDate: daysFromToday(300) }));
  const create = (status: string, quantity: number, order: string[]) =>
    users[0]!.request('POST', '/api/purchases', { supplierId: supplier, date: daysFromToday(0), status, items: items(quantity, order) }, { 'idempotency-key': randomUUID() });

  it('concurrent receive, edit, delete, return and sales keep stock = batches = ledger = the live purchases less what was sold', async () => {
    const forward = products;
    const backward = [...products].reverse();
    const received: { id: string; items: { id: string; productId: string; quantity: number; batchNumber: string | null }[] }[] = [];
    const pending: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await create('received', 5 + i, i % 2 ? forward : backward);
      expect(r.status).toBe(201);
      received.push(r.body.purchase);
      const p = await create('pending', 3 + i, i % 2 ? backward : forward);
      pending.push(p.body.purchase.id);
    }
    const ops: Promise<{ status: number }>[] = [];
    pending.forEach((id, i) => ops.push(users[i % 3]!.post(`/api/purchases/${id}/receive`, {})));
    // Two purchases deleted twice at once (one succeeds, one finds it gone), one edited up, one edited down, returns.
    for (const victim of [received[0]!, received[1]!]) {
      ops.push(users[0]!.delete(`/api/purchases/${victim.id}`));
      ops.push(users[0]!.delete(`/api/purchases/${victim.id}`));
    }
    for (const [p, delta] of [[received[2]!, 4], [received[3]!, -2]] as const) {
      const body = {
        supplierId: supplier,
        date: daysFromToday(0),
        status: 'received',
        items: p.items.map((item) => ({ ...items(0, [item.productId])[0], quantity: item.quantity + delta, id: item.id, batchNumber: item.batchNumber })),
      };
      ops.push(users[1]!.put(`/api/purchases/${p.id}`, body));
    }
    for (const p of [received[4]!, received[5]!]) {
      ops.push(
        users[0]!.request('POST', '/api/purchase-returns', { purchaseId: p.id, reason: 'Damaged', items: [{ purchaseItemId: p.items[0]!.id, quantity: 1 }] }, { 'idempotency-key': randomUUID() }),
      );
    }
    // And the till sells meanwhile: one piece of each product, three times.
    const sales: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 3; i++) {
      for (const productId of products) {
        const id = randomUUID();
        sales.push(users[0]!.request('POST', '/api/sales', { id, lines: [{ productId, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 1000 }] }, { 'idempotency-key': id }));
      }
    }
    const [results, sold] = await Promise.all([Promise.all(ops), Promise.all(sales)]);
    expect(sold.map((r) => r.status)).toEqual(sold.map(() => 201));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Each doubly deleted purchase: one 200, one 404.
    const deletes = statuses.slice(pending.length, pending.length + 4);
    expect(deletes.filter((s) => s === 200)).toHaveLength(2);
    expect(deletes.filter((s) => s === 404)).toHaveLength(2);
    expect(statuses.filter((s, i) => (i < pending.length || i >= pending.length + 4) && s !== 200 && s !== 201)).toEqual([]);

    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
    const live = await t.db.owner.query<{ product_id: string; held: number }>(
      `SELECT i.product_id, sum(i.received_quantity - i.returned_quantity)::int AS held
         FROM purchase_items i JOIN purchases p ON p.pharmacy_id = i.pharmacy_id AND p.id = i.purchase_id
        WHERE i.pharmacy_id = $1 AND p.deleted_at IS NULL AND i.removed_at IS NULL GROUP BY 1`,
      [ph.pharmacyId],
    );
    const onHand = await t.db.owner.query<{ product_id: string; quantity: number }>(`SELECT product_id, quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2`, [ph.pharmacyId, ph.branches[0]!.id]);
    for (const productId of products) {
      // What the live purchases hold, less the 3 pieces sold (nothing else moved this stock).
      expect(onHand.find((r) => r.product_id === productId)?.quantity ?? 0).toBe((live.find((r) => r.product_id === productId)?.held ?? 0) - 3);
    }
    expect(live.reduce((s, r) => s + r.held, 0)).toBeGreaterThan(0);
  });

  it('purchases and returns saved in the same millisecond by concurrent transactions get different numbers (migration 0024)', async () => {
    const now = new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 678));
    const ctx = { ...ownerContext(ph), now };
    const body = savePurchaseSchema.parse({ supplierId: supplier, date: daysFromToday(0), status: 'received', items: [{ productId: products[0], quantity: 10, purchasePriceCents: 500, sellingPriceCents: 1000 }] });
    const saved = await Promise.all(
      Array.from({ length: 8 }, () => t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ph.users.owner! }, (q) => createPurchase(q, ctx, body))),
    );
    const numbers = saved.map((r) => r.purchase.purchaseNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => `PO-${now.getTime() + i}`));
    // Returns of one of them, at once and in the same millisecond: PR- numbers likewise distinct.
    const purchase = saved[0]!.purchase;
    const back = createPurchaseReturnSchema.parse({ purchaseId: purchase.id, reason: 'Damaged', date: daysFromToday(0), items: [{ purchaseItemId: purchase.items[0]!.id, quantity: 1 }] });
    const returns = await Promise.all(
      Array.from({ length: 4 }, () => t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ph.users.owner! }, (q) => createPurchaseReturn(q, ctx, back))),
    );
    expect(returns.map((r) => r.purchaseReturn.returnNumber).sort()).toEqual(Array.from({ length: 4 }, (_, i) => `PR-${now.getTime() + i}`));
    // The database itself refuses a second purchase under a number already used.
    await expect(
      t.db.owner.query(
        `INSERT INTO purchases (pharmacy_id, purchase_number, supplier_id, branch_id, purchase_date, status, subtotal_cents, tax_cents, total_cents)
         VALUES ($1, $2, $3, $4, $5, 'pending', 0, 0, 0)`,
        [ph.pharmacyId, numbers[0], supplier, ph.branches[0]!.id, daysFromToday(0)],
      ),
    ).rejects.toThrow(/duplicate key|unique/);
  });
});
