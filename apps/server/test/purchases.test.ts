import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkDeleteResultSchema,
  purchaseListResponseSchema,
  purchaseResultSchema,
  purchaseReturnResultSchema,
  purchaseSchema,
} from '@pharmapoint/domain/purchases';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/** Purchases, receiving into batches, edits and deletion with their stock, purchase returns (issue 10 items 1-3). */
describe.each(testDatabaseKinds())('purchases on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let other: StockPharmacy;
  let supplier: string;
  let customer: string;
  let otherSupplier: string;
  let main: string;

  const contact = async (pharmacyId: string, type: string, name: string) =>
    (await t.db.owner.query<{ id: string }>(`INSERT INTO contacts (pharmacy_id, type, name) VALUES ($1, $2, $3) RETURNING id`, [pharmacyId, type, name]))[0]!.id;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'purch_ph', ['owner', 'manager', 'inventory', 'cashier', 'demo']);
    other = await stockTestPharmacy(t.db, 'purch_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    supplier = await contact(ph.pharmacyId, 'supplier', 'Harleys Ltd');
    customer = await contact(ph.pharmacyId, 'customer', 'Mary Achieng');
    otherSupplier = await contact(other.pharmacyId, 'supplier', 'Elsewhere Ltd');
  });
  afterAll(async () => t?.close());

  const product = async (name: string) => {
    const r = await c.owner!.post('/api/products', { name, sellingPriceCents: 1000, purchasePriceCents: 500 });
    expect(r.status).toBe(201);
    return r.body.product.id as string;
  };
  const create = (who: TestClient, body: Record<string, unknown>, key = randomUUID()) => who.request('POST', '/api/purchases', body, { 'idempotency-key': key });
  const line = (productId: string, extra: Record<string, unknown> = {}) => ({
    productId,
    quantity: 10,
    purchasePriceCents: 7_800,
    sellingPriceCents: 12_000,
    expiryDate: daysFromToday(400),
    batchNumber: 'B-1',
    applyTax: true,
    ...extra,
  });
  const stock = async (productId: string, branchId = main) =>
    (
      await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [
        ph.pharmacyId,
        branchId,
        productId,
      ])
    )[0]?.quantity ?? 0;
  const count = async (table: string) => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;
  const sell = (productId: string, quantity: number) => {
    const id = randomUUID();
    return c.owner!.request('POST', '/api/sales', { id, lines: [{ productId, quantity }], payments: [{ method: 'Cash', amountCents: 12_000 * quantity }] }, { 'idempotency-key': id });
  };

  it('creates a pending purchase: PO- number, defaults (margin 22 %, tax 16 %, Main Branch), totals computed on the server, no stock yet', async () => {
    const p1 = await product('Amoxil 250mg');
    const before = Date.now();
    const res = await create(c.manager!, { supplierId: supplier, date: daysFromToday(0), reference: 'INV-77', items: [line(p1), line(p1, { quantity: 3, purchasePriceCents: 333, applyTax: false, batchNumber: 'B-2' })] });
    expect(res.status).toBe(201);
    const { purchase, message } = purchaseResultSchema.parse(res.body);
    expect(message).toBe('Purchase created successfully');
    expect(Number(purchase.purchaseNumber.slice(3))).toBeGreaterThanOrEqual(before);
    expect(purchase).toMatchObject({ status: 'pending', branchName: 'Main Branch', supplierName: 'Harleys Ltd', reference: 'INV-77', itemCount: 2, totalQuantity: 13, receivedQuantity: 0 });
    expect(purchase.items[0]).toMatchObject({ name: 'Amoxil 250mg', minMarginBasisPoints: 2200, taxRateBasisPoints: 1600, subtotalCents: 78_000, taxCents: 12_480, totalCents: 90_480 });
    expect(purchase).toMatchObject({ subtotalCents: 78_999, taxCents: 12_480, totalCents: 91_479 });
    expect(await stock(p1)).toBe(0);
    const defaults = await c.manager!.get('/api/purchases/defaults');
    expect(defaults.body).toMatchObject({ minMarginBasisPoints: 2200, taxRateBasisPoints: 1600, branchId: main });
  });

  it("refuses bad input with the specification's sentences and writes nothing", async () => {
    const p = await product('Panadol');
    const before = await count('purchases');
    const missing = await create(c.owner!, { items: [] });
    expect(missing.status).toBe(400);
    const issues = (missing.body.error.details.issues as { path: string; message: string }[]).map((i) => `${i.path}: ${i.message}`);
    expect(issues).toEqual(expect.arrayContaining(['supplierId: Supplier is required', 'items: At least one item is required', 'date: Date is required']));
    for (const bad of [{ quantity: -1 }, { quantity: 1.5 }, { quantity: 0 }, { purchasePriceCents: -5 }, { sellingPriceCents: -1 }]) {
      const r = await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), items: [line(p, bad)] });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const notSupplier = await create(c.owner!, { supplierId: customer, date: daysFromToday(0), items: [line(p)] });
    expect(notSupplier.status).toBe(400);
    expect(notSupplier.body.error.message).toBe('Mary Achieng is not a supplier: choose a supplier.');
    expect((await create(c.owner!, { supplierId: otherSupplier, date: daysFromToday(0), items: [line(p)] })).status).toBe(404);
    // An expired batch is never received (decision 0035): refused when the purchase is created as received...
    const expired = await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), status: 'received', items: [line(p, { expiryDate: daysFromToday(-1) })] });
    expect(expired.status).toBe(422);
    expect(expired.body.error.code).toBe('BATCH_EXPIRED');
    expect(await count('purchases')).toBe(before);
    expect(await stock(p)).toBe(0);
    // ...but may be recorded as pending, and is refused when it comes to receiving it.
    const pending = await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), items: [line(p, { expiryDate: daysFromToday(-1) })] });
    expect(pending.status).toBe(201);
    const receive = await c.owner!.post(`/api/purchases/${pending.body.purchase.id}/receive`, {});
    expect(receive.status).toBe(422);
    expect(await stock(p)).toBe(0);
  });

  it('receiving puts the lines into batches with ledger movements and updates prices in the branch; partial receiving', async () => {
    const p = await product('Augmentin 625mg');
    const res = await create(c.inventory!, { supplierId: supplier, date: daysFromToday(0), status: 'ordered', items: [line(p, { quantity: 10 }), line(p, { quantity: 4, batchNumber: 'B-9', expiryDate: daysFromToday(200) })] });
    expect(res.status).toBe(201);
    const purchase = purchaseSchema.parse(res.body.purchase);
    const [a, b] = purchase.items;
    const partial = await c.inventory!.post(`/api/purchases/${purchase.id}/receive`, { items: [{ itemId: a!.id, quantity: 6 }] });
    expect(partial.status).toBe(200);
    expect(partial.body.purchase).toMatchObject({ status: 'ordered', receivedQuantity: 6 });
    expect(await stock(p)).toBe(6);
    const tooMany = await c.inventory!.post(`/api/purchases/${purchase.id}/receive`, { items: [{ itemId: a!.id, quantity: 5 }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe('Cannot receive 5 of Augmentin 625mg: only 4 not yet received.');
    const rest = await c.inventory!.post(`/api/purchases/${purchase.id}/receive`, {});
    expect(rest.status).toBe(200);
    expect(rest.body.purchase).toMatchObject({ status: 'received', receivedQuantity: 14 });
    expect(await stock(p)).toBe(14);
    const batches = await t.db.owner.query<{ batch_number: string; expiry_date: string; quantity: number; unit_cost_cents: number; source: string }>(
      `SELECT batch_number, expiry_date, quantity, unit_cost_cents, source FROM batches WHERE pharmacy_id = $1 AND product_id = $2 ORDER BY batch_number`,
      [ph.pharmacyId, p],
    );
    expect(batches).toEqual([
      { batch_number: 'B-1', expiry_date: daysFromToday(400), quantity: 10, unit_cost_cents: 7_800, source: 'purchase' },
      { batch_number: 'B-9', expiry_date: daysFromToday(200), quantity: 4, unit_cost_cents: 7_800, source: 'purchase' },
    ]);
    const movements = await t.db.owner.query<{ kind: string; delta: number; reason: string }>(
      `SELECT kind, delta, reason FROM stock_movements WHERE pharmacy_id = $1 AND product_id = $2 ORDER BY sequence`,
      [ph.pharmacyId, p],
    );
    expect(movements.map((m) => [m.kind, m.delta])).toEqual([['purchase_receipt', 6], ['purchase_receipt', 4], ['purchase_receipt', 4]]);
    expect(movements[0]!.reason).toBe(`Purchase: ${purchase.purchaseNumber}`);
    // The product's purchase price, selling price and minimum margin in the branch follow the purchase; the minimum
    // selling price is 78.00 / (1 - 22 %) = 100.00; the price change is recorded.
    const detail = await c.owner!.get(`/api/products/${p}`);
    const branch = detail.body.branches.find((x: { branchId: string }) => x.branchId === main);
    expect(branch).toMatchObject({ purchasePriceCents: 7_800, sellingPriceCents: 12_000, minimumSellingPriceCents: 10_000 });
    expect(detail.body.priceChanges[0]).toMatchObject({ newPurchasePriceCents: 7_800, reason: `Purchase: ${purchase.purchaseNumber}` });
    expect(b!.id).toBeTruthy();
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('editing a received purchase corrects stock by the difference; an edit that would take stock below zero is refused', async () => {
    const p = await product('Flagyl 400mg');
    const res = await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), status: 'received', items: [line(p, { quantity: 10 })] });
    const purchase = purchaseSchema.parse(res.body.purchase);
    expect(await stock(p)).toBe(10);
    const body = (quantity: number, extra: Record<string, unknown> = {}) => ({
      supplierId: supplier,
      date: daysFromToday(0),
      status: 'received',
      items: [{ ...line(p, { quantity }), id: purchase.items[0]!.id, ...extra }],
    });
    const down = await c.owner!.put(`/api/purchases/${purchase.id}`, body(7));
    expect(down.status).toBe(200);
    expect(down.body.message).toBe('Purchase updated successfully');
    expect(await stock(p)).toBe(7);
    expect((await c.owner!.put(`/api/purchases/${purchase.id}`, body(12))).status).toBe(200);
    expect(await stock(p)).toBe(12);
    // A new batch number moves the pieces to the new batch.
    expect((await c.owner!.put(`/api/purchases/${purchase.id}`, body(12, { batchNumber: 'B-NEW' }))).status).toBe(200);
    const batches = await t.db.owner.query<{ batch_number: string; quantity: number }>(`SELECT batch_number, quantity FROM batches WHERE pharmacy_id = $1 AND product_id = $2 ORDER BY batch_number`, [ph.pharmacyId, p]);
    expect(batches).toEqual([{ batch_number: 'B-1', quantity: 0 }, { batch_number: 'B-NEW', quantity: 12 }]);
    expect((await sell(p, 10)).status).toBe(201);
    const below = await c.owner!.put(`/api/purchases/${purchase.id}`, body(1, { batchNumber: 'B-NEW' }));
    expect(below.status).toBe(409);
    expect(below.body.error.code).toBe('INSUFFICIENT_STOCK');
    expect(await stock(p)).toBe(2);
    const after = await c.owner!.get(`/api/purchases/${purchase.id}`);
    expect(after.body.items[0].quantity).toBe(12);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('deleting removes the purchase and its stock (never below zero) in one transaction; bulk delete counts', async () => {
    const p = await product('Brufen 400mg');
    const a = purchaseSchema.parse((await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), status: 'received', items: [line(p, { quantity: 5 })] })).body.purchase);
    expect((await sell(p, 3)).status).toBe(201);
    expect(await stock(p)).toBe(2);
    expect((await c.manager!.delete(`/api/purchases/${a.id}`)).status).toBe(403);
    const del = await c.owner!.delete(`/api/purchases/${a.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Purchase deleted and stock quantities removed successfully');
    expect(await stock(p)).toBe(0);
    const note = await t.db.owner.query<{ kind: string; delta: number; reason: string }>(
      `SELECT kind, delta, reason FROM stock_movements WHERE pharmacy_id = $1 AND product_id = $2 AND kind = 'purchase_delete'`,
      [ph.pharmacyId, p],
    );
    expect(note).toEqual([{ kind: 'purchase_delete', delta: -2, reason: `Purchase deleted: ${a.purchaseNumber}` }]);
    const gone = await c.owner!.get(`/api/purchases/${a.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('Purchase not found');
    expect((await c.owner!.delete(`/api/purchases/${a.id}`)).status).toBe(404);

    const b = (await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), items: [line(p)] })).body.purchase.id;
    const d = (await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), items: [line(p)] })).body.purchase.id;
    const bulk = await c.owner!.post('/api/purchases/bulk-delete', { ids: [b, d, a.id] });
    expect(bulk.status).toBe(200);
    expect(bulkDeleteResultSchema.parse(bulk.body)).toMatchObject({ deleted: 2, failed: 1, message: '2 deleted, 1 failed' });
    const none = await c.owner!.post('/api/purchases/bulk-delete', { ids: [] });
    expect(none.status).toBe(400);
    expect(none.body.error.details.issues[0].message).toBe('No purchases selected for deletion');
    const e = (await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), items: [line(p)] })).body.purchase.id;
    expect((await c.owner!.post('/api/purchases/bulk-delete', { ids: [e] })).body.message).toBe('1 purchase(s) deleted successfully');
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('the list filters by status, branch, supplier and inclusive dates, searches text (number, reference, notes, supplier, items), pages on the server', async () => {
    const p = await product('Zyrtec Syrup');
    const s2 = await contact(ph.pharmacyId, 'supplier', 'Dawa Wholesalers');
    const made = [];
    for (const [i, body] of [
      { supplierId: s2, date: '2026-01-10', reference: 'DW-1', notes: 'urgent delivery', status: 'ordered' },
      { supplierId: s2, date: '2026-01-20', reference: 'DW-2', status: 'cancelled' },
      { supplierId: s2, date: '2026-01-31', reference: 'DW-3', branchId: ph.branches[1]!.id },
    ].entries()) {
      const r = await create(c.owner!, { ...body, items: [line(p, { quantity: i + 1 })] });
      expect(r.status).toBe(201);
      made.push(r.body.purchase);
    }
    const list = async (query: string, who = c.owner!) => purchaseListResponseSchema.parse((await who.get(`/api/purchases?supplierId=${s2}&${query}`)).body);
    expect((await list('')).total).toBe(3);
    expect((await list('status=ordered')).items.map((x) => x.reference)).toEqual(['DW-1']);
    expect((await list('status=all&branchId=all')).total).toBe(3);
    expect((await list(`branchId=${ph.branches[1]!.id}`)).items.map((x) => x.reference)).toEqual(['DW-3']);
    expect((await list('from=2026-01-20&to=2026-01-31')).items.map((x) => x.reference)).toEqual(['DW-3', 'DW-2']);
    expect((await list('search=URGENT')).items.map((x) => x.reference)).toEqual(['DW-1']);
    expect((await list('search=dawa')).total).toBe(3);
    expect((await list('search=zyrtec')).total).toBe(3);
    expect((await list(`search=${made[1].purchaseNumber}`)).items.map((x) => x.reference)).toEqual(['DW-2']);
    expect((await list('search=cancel')).items.map((x) => x.reference)).toEqual(['DW-2']);
    expect((await list('search=100%25')).total).toBe(0);
    const page = await list('limit=2&offset=2');
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(page.items).toHaveLength(1);
    expect((await c.cashier!.get('/api/purchases')).status).toBe(403);
    expect((await c.demo!.get('/api/purchases')).status).toBe(200);
    expect((await create(c.demo!, { supplierId: s2, date: '2026-01-10', items: [line(p)] })).status).toBe(403);
  });

  it("a supplier's earlier overpayment pays a new purchase at once, in the purchase's transaction", async () => {
    const overpaid = await contact(ph.pharmacyId, 'supplier', 'Overpaid Supplies Ltd');
    const paid = await c.owner!.request('POST', '/api/supplier-payments', { supplierId: overpaid, amountCents: 50_000, date: daysFromToday(0), method: 'Cash' }, { 'idempotency-key': randomUUID() });
    expect(paid.status).toBe(201);
    expect(paid.body.payment.creditCents).toBe(50_000);
    const p = await product('Credit Test 5mg');
    const res = await create(c.owner!, { supplierId: overpaid, date: daysFromToday(0), status: 'received', items: [line(p, { quantity: 2, purchasePriceCents: 10_000, applyTax: false })] });
    expect(res.status).toBe(201);
    const { purchase } = purchaseResultSchema.parse(res.body);
    expect(purchase.totalCents).toBe(20_000);
    const allocations = await t.db.owner.query<{ source: string; amount_cents: number }>(
      `SELECT source, amount_cents FROM supplier_payment_allocations WHERE pharmacy_id = $1 AND purchase_id = $2 AND removed_at IS NULL`,
      [ph.pharmacyId, purchase.id],
    );
    expect(allocations.map((a) => [a.source, Number(a.amount_cents)])).toEqual([['credit', 20_000]]);
    const report = await c.owner!.get('/api/reports/suppliers');
    expect(report.body.rows.find((r: { supplierId: string }) => r.supplierId === overpaid)).toMatchObject({ totalPurchases: 20_000, totalPaid: 50_000, balance: -30_000, outstandingInvoiceCount: 0 });
  });

  it("another pharmacy's purchase is 404 everywhere", async () => {
    const p = await product('Cetrizine');
    const id = (await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), items: [line(p)] })).body.purchase.id;
    expect((await otherOwner.get(`/api/purchases/${id}`)).status).toBe(404);
    expect((await otherOwner.put(`/api/purchases/${id}`, { supplierId: otherSupplier, date: daysFromToday(0), items: [line(p)] })).status).toBe(404);
    expect((await otherOwner.post(`/api/purchases/${id}/receive`, {})).status).toBe(404);
    expect((await otherOwner.delete(`/api/purchases/${id}`)).status).toBe(404);
    expect((await otherOwner.get('/api/purchases')).body.total).toBe(0);
  });

  it('returns received pieces to the supplier from their batch, with a reason; never more than received; the ledger records it', async () => {
    const p = await product('Ventolin Inhaler');
    const purchase = purchaseSchema.parse((await create(c.owner!, { supplierId: supplier, date: daysFromToday(0), status: 'received', items: [line(p, { quantity: 5, applyTax: false })] })).body.purchase);
    const item = purchase.items[0]!;
    const ret = (who: TestClient, body: Record<string, unknown>) => who.request('POST', '/api/purchase-returns', body, { 'idempotency-key': randomUUID() });
    expect((await ret(c.inventory!, { purchaseId: purchase.id, reason: 'Damaged', items: [{ purchaseItemId: item.id, quantity: 1 }] })).status).toBe(403);
    const noReason = await ret(c.owner!, { purchaseId: purchase.id, reason: '', items: [{ purchaseItemId: item.id, quantity: 1 }] });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.details.issues[0].message).toBe('Reason is required');
    const ok = await ret(c.owner!, { purchaseId: purchase.id, reason: 'Damaged in transit', items: [{ purchaseItemId: item.id, quantity: 2 }] });
    expect(ok.status).toBe(201);
    const { purchaseReturn, message } = purchaseReturnResultSchema.parse(ok.body);
    expect(message).toBe('Purchase return recorded successfully');
    expect(purchaseReturn).toMatchObject({ reason: 'Damaged in transit', totalCents: 15_600, supplierName: 'Harleys Ltd', items: [{ quantity: 2, batchNumber: 'B-1', unitCostCents: 7_800 }] });
    expect(await stock(p)).toBe(3);
    const tooMany = await ret(c.owner!, { purchaseId: purchase.id, reason: 'x', items: [{ purchaseItemId: item.id, quantity: 4 }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe('Cannot return 4 of Ventolin Inhaler: only 3 received and not yet returned.');
    const [m] = await t.db.owner.query<{ kind: string; delta: number }>(`SELECT kind, delta FROM stock_movements WHERE pharmacy_id = $1 AND product_id = $2 AND kind = 'purchase_return'`, [ph.pharmacyId, p]);
    expect(m).toEqual({ kind: 'purchase_return', delta: -2 });
    const list = await c.owner!.get('/api/purchase-returns');
    expect(list.body.items.some((r: { id: string }) => r.id === purchaseReturn.id)).toBe(true);
    // A purchase with returns cannot be deleted; its returned line cannot go below what was returned.
    expect((await c.owner!.delete(`/api/purchases/${purchase.id}`)).status).toBe(409);
    const shrink = await c.owner!.put(`/api/purchases/${purchase.id}`, { supplierId: supplier, date: daysFromToday(0), status: 'received', items: [{ ...line(p, { quantity: 1, applyTax: false }), id: item.id }] });
    expect(shrink.status).toBe(400);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });
});
