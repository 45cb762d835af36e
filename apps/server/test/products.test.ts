import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movementListResponseSchema, productDetailResponseSchema, productListResponseSchema } from '@pharmapoint/domain/products';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

describe.each(testDatabaseKinds())('products API on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'prod_ph');
    other = await stockTestPharmacy(t.db, 'prod_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
  });
  afterAll(async () => t?.close());

  const create = (client: TestClient, body: Record<string, unknown>) => client.post('/api/products', body);
  const count = async (table: string, pharmacyId = ph.pharmacyId) =>
    (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [pharmacyId]))[0]!.n;

  it('creates a product with per-branch prices; shows the minimum selling price, margin and markup', async () => {
    const res = await create(c.owner!, {
      name: 'Amoxicillin 500mg Capsules',
      sku: 'AMX-500',
      barcodes: ['6001234567890'],
      category: 'medicine',
      packageSize: 100,
      packageType: 'box',
      isDda: false,
      taxApplied: true,
      sellingPriceCents: 15_000,
      purchasePriceCents: 10_000,
      branches: [{ branchId: west, sellingPriceCents: 16_000, purchasePriceCents: 10_000, minMarginBasisPoints: 3000 }],
      priceChangeReason: 'New product',
    });
    expect(res.status).toBe(201);
    const detail = productDetailResponseSchema.parse(res.body);
    expect(detail.product).toMatchObject({ name: 'Amoxicillin 500mg Capsules', sku: 'AMX-500', category: 'Medicine', packageSize: 100, isActive: true });
    const m = detail.branches.find((b) => b.branchId === main)!;
    expect(m).toMatchObject({ sellingPriceCents: 15_000, purchasePriceCents: 10_000, effectiveMinMarginBasisPoints: 2200, minimumSellingPriceCents: 12_821 });
    expect(m).toMatchObject({ marginPercent: 33.33, markupPercent: 50, quantity: 0, status: 'out', isAvailable: true });
    const w = detail.branches.find((b) => b.branchId === west)!;
    // 100 / (1 - 0.30) = 142.857... -> 142.86
    expect(w).toMatchObject({ sellingPriceCents: 16_000, minMarginBasisPoints: 3000, minimumSellingPriceCents: 14_286, marginPercent: 37.5, markupPercent: 60 });
    expect(detail.priceChanges).toHaveLength(2);
    expect(detail.priceChanges[0]).toMatchObject({ reason: 'New product', userId: ph.users.owner, oldSellingPriceCents: null });
    expect(detail.product.lastPriceUpdateReason).toBe('New product');
  });

  it('writes every branch row of a new product at once: overrides, defaults, and a price change only where a price is set', async () => {
    const res = await create(c.owner!, {
      name: 'Branch values product',
      sellingPriceCents: 0,
      purchasePriceCents: 0,
      branches: [{ branchId: west, sellingPriceCents: 2_000, purchasePriceCents: 1_200, isAvailable: false, lowStockThreshold: 7, reason: 'Westlands launch' }],
    });
    expect(res.status).toBe(201);
    const detail = productDetailResponseSchema.parse(res.body);
    expect(detail.branches.find((b) => b.branchId === main)).toMatchObject({ sellingPriceCents: 0, purchasePriceCents: 0, isAvailable: true, minMarginBasisPoints: null });
    expect(detail.branches.find((b) => b.branchId === west)).toMatchObject({ sellingPriceCents: 2_000, purchasePriceCents: 1_200, isAvailable: false, lowStockThreshold: 7 });
    // Main's prices stay 0: no price change there; Westlands' names its own reason, and so does the product's stamp.
    expect(detail.priceChanges.map((p) => [p.branchId, p.reason, p.newSellingPriceCents])).toEqual([[west, 'Westlands launch', 2_000]]);
    expect(detail.product.lastPriceUpdateReason).toBe('Westlands launch');

    const free = await create(c.owner!, { name: 'Free sample product' });
    expect(free.status).toBe(201);
    const freeDetail = productDetailResponseSchema.parse(free.body);
    expect(freeDetail.priceChanges).toEqual([]);
    expect(freeDetail.product.lastPriceUpdateReason).toBeNull();
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const before = await count('products');
    for (const body of [
      { name: 'X', sellingPriceCents: -100 },
      { name: 'X', purchasePriceCents: 12.5 },
      { name: 'X', packageSize: 1.5 },
      { name: 'X', lowStockThreshold: -1 },
      { name: 'X', minMarginBasisPoints: 10_000 },
      { name: '' },
      { name: 'X', unknownField: 1 },
      { name: 'X', category: 'Groceries' },
    ]) {
      const res = await create(c.owner!, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.message).toBeTruthy();
    }
    expect(await count('products')).toBe(before);
  });

  it('refuses a duplicate SKU (any case) with 409 and an unknown branch with 404', async () => {
    const dup = await create(c.owner!, { name: 'Other', sku: 'amx-500' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'SKU_TAKEN', message: 'A product with this SKU already exists.' });
    const unknownBranch = await create(c.owner!, { name: 'Other', restrictedBranchIds: [other.branches[0]!.id] });
    expect(unknownBranch.status).toBe(404);
  });

  it('applies the plan product limit', async () => {
    await t.db.owner.query(`UPDATE subscriptions SET max_products = (SELECT count(*) FROM products WHERE pharmacy_id = $1) WHERE pharmacy_id = $1`, [
      ph.pharmacyId,
    ]);
    try {
      const res = await create(c.owner!, { name: 'One too many' });
      expect(res.status).toBe(402);
      expect(res.body.error.code).toBe('LIMIT_EXCEEDED');
      expect(res.body.error.message).toMatch(/^Limit exceeded\. Plan allows \d+, current usage: \d+$/);
    } finally {
      await t.db.owner.query(`UPDATE subscriptions SET max_products = -1 WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    }
  });

  it('enforces permissions: cashier cannot create, inventory cannot change prices, demo is read-only', async () => {
    expect((await create(c.cashier!, { name: 'Nope' })).status).toBe(403);
    expect((await create(c.demo!, { name: 'Nope' })).body.error.code).toBe('DEMO_READ_ONLY');
    const [p] = await t.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND sku = 'AMX-500'`, [ph.pharmacyId]);
    const priced = await c.inventory!.patch(`/api/products/${p!.id}`, { sellingPriceCents: 1 });
    expect(priced.status).toBe(403);
    const named = await c.inventory!.patch(`/api/products/${p!.id}`, { reorderLevel: 7 });
    expect(named.status).toBe(200);
    expect(named.body.product.reorderLevel).toBe(7);
    expect((await c.inventory!.put(`/api/products/${p!.id}/branches/${west}`, { sellingPriceCents: 1 })).status).toBe(403);
    expect((await c.inventory!.put(`/api/products/${p!.id}/branches/${west}`, { isAvailable: false })).status).toBe(200);
    expect((await c.cashier!.delete(`/api/products/${p!.id}`)).status).toBe(403);
  });

  it('PATCH changes prices of the session branch (or ?branchId=) and stamps the price change', async () => {
    const created = await create(c.owner!, { name: 'Paracetamol 500mg Tablets', sku: 'PCM-500', sellingPriceCents: 500, purchasePriceCents: 300 });
    const id = created.body.product.id as string;
    const res = await c.manager!.patch(`/api/products/${id}?branchId=${west}`, { sellingPriceCents: 600, priceChangeReason: 'Supplier increase' });
    expect(res.status).toBe(200);
    const detail = productDetailResponseSchema.parse(res.body);
    expect(detail.branches.find((b) => b.branchId === west)!.sellingPriceCents).toBe(600);
    expect(detail.branches.find((b) => b.branchId === main)!.sellingPriceCents).toBe(500);
    expect(detail.priceChanges[0]).toMatchObject({
      branchId: west,
      oldSellingPriceCents: 500,
      newSellingPriceCents: 600,
      oldPurchasePriceCents: 300,
      newPurchasePriceCents: 300,
      reason: 'Supplier increase',
      userId: ph.users.manager,
    });
    expect(detail.product.lastPriceUpdateBy).toBe(ph.users.manager);
    const put = await c.owner!.put(`/api/products/${id}/branches/${main}`, { purchasePriceCents: 400, minMarginBasisPoints: 2000, reason: 'Cost up' });
    expect(put.status).toBe(200);
    // 400 / 0.8 = 500
    expect(put.body.branches.find((b: { branchId: string }) => b.branchId === main)).toMatchObject({ purchasePriceCents: 400, minimumSellingPriceCents: 500 });
    expect((await c.owner!.put(`/api/products/${id}/branches/${main}`, { sellingPriceCents: -5 })).status).toBe(400);
  });

  it('DELETE deactivates', async () => {
    const created = await create(c.owner!, { name: 'Old Syrup 100ml' });
    const res = await c.owner!.delete(`/api/products/${created.body.product.id}`);
    expect(res.status).toBe(200);
    expect(res.body.product.isActive).toBe(false);
    const list = await c.owner!.get('/api/products?active=false');
    expect(list.body.items.map((i: { name: string }) => i.name)).toContain('Old Syrup 100ml');
  });

  it('receives opening stock into batches, through the ledger', async () => {
    const created = await create(c.owner!, { name: 'Ibuprofen 400mg Tablets', sku: 'IBU-400', sellingPriceCents: 800, purchasePriceCents: 500 });
    const id = created.body.product.id as string;
    const res = await c.inventory!.post(`/api/products/${id}/batches`, { batchNumber: 'IB-1', expiryDate: daysFromToday(200), quantity: 40, unitCostCents: 500 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ quantity: 40, reservedQuantity: 0, batch: { batchNumber: 'IB-1', quantity: 40, unitCostCents: 500, source: 'opening', isExpired: false } });
    const again = await c.inventory!.post(`/api/products/${id}/batches`, { batchNumber: 'IB-1', expiryDate: daysFromToday(200), quantity: 2, unitCostCents: 500, branchId: west });
    expect(again.body.quantity).toBe(2);
    for (const bad of [{ quantity: -3 }, { quantity: 0 }, { quantity: 1.5 }, { unitCostCents: -1 }, { expiryDate: '31/12/2027' }]) {
      const r = await c.inventory!.post(`/api/products/${id}/batches`, { batchNumber: 'IB-2', expiryDate: daysFromToday(100), quantity: 5, unitCostCents: 500, ...bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await c.inventory!.post(`/api/products/00000000-0000-4000-8000-000000000000/batches`, { batchNumber: 'X', expiryDate: daysFromToday(9), quantity: 1, unitCostCents: 1 })).status).toBe(404);
    expect((await c.cashier!.post(`/api/products/${id}/batches`, { batchNumber: 'X', expiryDate: daysFromToday(9), quantity: 1, unitCostCents: 1 })).status).toBe(403);
    const detail = productDetailResponseSchema.parse((await c.owner!.get(`/api/products/${id}`)).body);
    expect(detail.batches).toHaveLength(2);
    expect(detail.branches.find((b) => b.branchId === main)).toMatchObject({ quantity: 40, status: 'good', nearestExpiry: daysFromToday(200) });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('lists with search, filters, sort, paging and per-branch values', async () => {
    const ids: Record<string, string> = {};
    for (const [name, sku, qty, price, expiry, dda] of [
      ['Cetirizine 10mg Tablets', 'CTZ-10', 3, 1000, 40, false],
      ['Diazepam 5mg Tablets', 'DZP-5', 20, 2000, 300, true],
      ['Zinc Sulphate 20mg Dispersible', 'ZNC-20', 0, 300, 0, false],
    ] as const) {
      const r = await create(c.owner!, { name, sku, sellingPriceCents: price, purchasePriceCents: 100, isDda: dda, category: 'Medicine' });
      ids[sku] = r.body.product.id;
      if (qty > 0) await c.owner!.post(`/api/products/${r.body.product.id}/batches`, { batchNumber: `${sku}-B`, expiryDate: daysFromToday(expiry), quantity: qty, unitCostCents: 100 });
    }
    const page = productListResponseSchema.parse((await c.owner!.get('/api/products?q=CETIRIZINE')).body);
    expect(page.items.map((i) => i.name)).toEqual(['Cetirizine 10mg Tablets']);
    expect(page.items[0]).toMatchObject({ quantity: 3, status: 'low', branchId: main, nearestExpiry: daysFromToday(40), minimumSellingPriceCents: 129 });
    expect(page.total).toBe(1);
    expect((await c.owner!.get('/api/products?q=dzp')).body.items[0].name).toBe('Diazepam 5mg Tablets');
    expect((await c.owner!.get('/api/products?q=6001234567890')).body.items[0].sku).toBe('AMX-500');
    expect((await c.owner!.get('/api/products?q=zinc%20dispers')).body.total).toBe(1);
    expect((await c.owner!.get('/api/products?q=100%25')).body.total).toBe(0);
    const dda = (await c.owner!.get('/api/products?dda=true')).body;
    expect(dda.items.map((i: { sku: string }) => i.sku)).toEqual(['DZP-5']);
    const low = (await c.owner!.get('/api/products?status=low')).body.items.map((i: { sku: string }) => i.sku);
    expect(low).toEqual(['CTZ-10']);
    const good = (await c.owner!.get('/api/products?status=good')).body.items.map((i: { sku: string }) => i.sku);
    expect(good).toEqual(expect.arrayContaining(['DZP-5', 'IBU-400']));
    const out = (await c.owner!.get('/api/products?status=out')).body.items.map((i: { sku: string }) => i.sku);
    expect(out).toContain('ZNC-20');
    expect(out).not.toContain('CTZ-10');
    // In Westlands only the 2 pieces of IB-1 exist.
    const westGood = (await c.owner!.get(`/api/products?status=low&branchId=${west}`)).body.items.map((i: { sku: string }) => i.sku);
    expect(westGood).toEqual(['IBU-400']);
    const byPrice = (await c.owner!.get('/api/products?sort=price&order=desc&category=Medicine&active=true')).body.items.map((i: { sellingPriceCents: number }) => i.sellingPriceCents);
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    const byQuantity = (await c.owner!.get('/api/products?sort=quantity')).body.items.map((i: { quantity: number }) => i.quantity);
    expect(byQuantity).toEqual([...byQuantity].sort((a, b) => a - b));
    const byExpiry = (await c.owner!.get('/api/products?sort=expiry')).body.items.map((i: { sku: string }) => i.sku);
    expect(byExpiry.slice(0, 3)).toEqual(['CTZ-10', 'IBU-400', 'DZP-5']);
    const bySku = (await c.owner!.get('/api/products?sort=sku&order=desc')).body.items.map((i: { sku: string | null }) => i.sku);
    expect(bySku[0]).toBe('ZNC-20');
    const first = (await c.owner!.get('/api/products?limit=2')).body;
    const second = (await c.owner!.get('/api/products?limit=2&offset=2')).body;
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(second.total);
    expect(first.items.map((i: { id: string }) => i.id)).not.toContain(second.items[0].id);
    expect((await c.owner!.get('/api/products?limit=201')).status).toBe(400);
    expect((await c.owner!.get('/api/products?status=empty')).status).toBe(400);
    expect((await c.owner!.get(`/api/products?branchId=${other.branches[0]!.id}`)).status).toBe(404);
    expect((await c.cashier!.get('/api/products')).status).toBe(200);
    expect((await t.client().get('/api/products')).status).toBe(401);
  });

  it('shows the product history with filters', async () => {
    const [p] = await t.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND sku = 'IBU-400'`, [ph.pharmacyId]);
    const all = movementListResponseSchema.parse((await c.owner!.get(`/api/products/${p!.id}/movements`)).body);
    expect(all.total).toBe(2);
    expect(all.items[0]).toMatchObject({ kind: 'opening', reason: 'Opening stock', userName: 'inventory prod_ph', userId: ph.users.inventory, batchNumber: 'IB-1' });
    expect(all.items.map((i) => i.delta).sort()).toEqual([2, 40]);
    const west2 = (await c.owner!.get(`/api/products/${p!.id}/movements?branchId=${west}`)).body;
    expect(west2.items.map((i: { delta: number; quantityAfter: number }) => [i.delta, i.quantityAfter])).toEqual([[2, 2]]);
    expect((await c.owner!.get(`/api/products/${p!.id}/movements?kind=sale`)).body.total).toBe(0);
    const today = daysFromToday(0);
    expect((await c.owner!.get(`/api/products/${p!.id}/movements?from=${daysFromToday(-2)}&to=${daysFromToday(2)}`)).body.total).toBe(2);
    expect((await c.owner!.get(`/api/products/${p!.id}/movements?to=${daysFromToday(-3)}`)).body.total).toBe(0);
    expect((await c.owner!.get(`/api/products/${p!.id}/movements?from=${today}x`)).status).toBe(400);
    expect((await c.owner!.get(`/api/products/${p!.id}/movements?kind=theft`)).status).toBe(400);
  });

  it("answers 404 for another pharmacy's product ids, and changes nothing", async () => {
    const [p] = await t.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND sku = 'AMX-500'`, [ph.pharmacyId]);
    const id = p!.id;
    const otherBranch = other.branches[0]!.id;
    expect((await otherOwner.get(`/api/products/${id}`)).status).toBe(404);
    expect((await otherOwner.patch(`/api/products/${id}`, { name: 'Hijack' })).status).toBe(404);
    expect((await otherOwner.delete(`/api/products/${id}`)).status).toBe(404);
    expect((await otherOwner.put(`/api/products/${id}/branches/${otherBranch}`, { sellingPriceCents: 1 })).status).toBe(404);
    expect((await otherOwner.post(`/api/products/${id}/batches`, { batchNumber: 'X', expiryDate: daysFromToday(9), quantity: 1, unitCostCents: 1 })).status).toBe(404);
    expect((await otherOwner.get(`/api/products/${id}/movements`)).status).toBe(404);
    expect((await c.owner!.put(`/api/products/${id}/branches/${otherBranch}`, { sellingPriceCents: 1 })).status).toBe(404);
    expect((await otherOwner.get('/api/products')).body.total).toBe(0);
    const [row] = await t.db.owner.query<{ name: string; is_active: boolean }>(`SELECT name, is_active FROM products WHERE pharmacy_id = $1 AND id = $2`, [ph.pharmacyId, id]);
    expect(row).toEqual({ name: 'Amoxicillin 500mg Capsules', is_active: true });
    expect(await count('products', other.pharmacyId)).toBe(0);
  });

  it('refuses to receive a batch that has already expired, with a sentence, and writes nothing (decision 0033)', async () => {
    const created = await create(c.owner!, { name: 'Expired Receipt Test Syrup', sku: 'ERT-1', sellingPriceCents: 500, purchasePriceCents: 200 });
    const id = created.body.product.id as string;
    const before = await t.db.owner.query(`SELECT count(*)::int AS n FROM stock_movements WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    const res = await c.inventory!.post(`/api/products/${id}/batches`, { batchNumber: 'CET-OLD', expiryDate: daysFromToday(-1), quantity: 10, unitCostCents: 200 });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'BATCH_EXPIRED', values: { batch: 'CET-OLD', expiryDate: daysFromToday(-1) } });
    expect(res.body.error.message).toBe(`Batch CET-OLD expired on ${daysFromToday(-1)}: it cannot be received as sellable stock.`);
    expect(res.body.error.details.issues[0]).toMatchObject({ path: 'expiryDate' });
    expect(await t.db.owner.query(`SELECT count(*)::int AS n FROM stock_movements WHERE pharmacy_id = $1`, [ph.pharmacyId])).toEqual(before);
    // Expiring today is still sellable today.
    expect((await c.inventory!.post(`/api/products/${id}/batches`, { batchNumber: 'CET-TODAY', expiryDate: daysFromToday(0), quantity: 100, unitCostCents: 200 })).status).toBe(201);
  });

  it('answers bad product input with a sentence about the field by its label, never zod wording', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'x'.repeat(121) }, 'name', 'Product name must be at most 120 characters.'],
      [{ name: 'Tax too high', taxRateBasisPoints: 10_001 }, 'taxRateBasisPoints', 'Tax rate must be between 0 and 100 %.'],
      [{ name: 'Bad pack', packageSize: 0 }, 'packageSize', 'Package size must be between 1 and 100,000.'],
      [{ name: 'Bad price', sellingPriceCents: -1 }, 'sellingPriceCents', 'Selling price cannot be negative.'],
      [{ name: 'Bad margin', minMarginBasisPoints: 10_000 }, 'minMarginBasisPoints', 'Minimum margin must be above 0 and below 100 %.'],
    ];
    for (const [body, path, message] of cases) {
      const res = await c.owner!.post('/api/products', body);
      expect(res.status, path).toBe(400);
      expect(res.body.error.details.issues[0], path).toMatchObject({ path, message });
    }
  });
});
