import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeCatalogue, posCatalogueResponseSchema, type PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { receiveThenExpire } from './expired-batches.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * GET /api/pos/catalogue (issue 9 item 3): the branch's active products with prices, sellable stock (expired
 * batches left out) and nearest expiry, in one columnar answer; the session's branch by default; tenant and branch
 * boundaries.
 */
describe.each(testDatabaseKinds())('the till catalogue on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  const ids: Record<string, string> = {};

  const product = async (key: string, body: Record<string, unknown>, stock: [string, number, number][] = []) => {
    const created = await c.owner!.post('/api/products', body);
    expect(created.status).toBe(201);
    const id = created.body.product.id as string;
    for (const [number, days, quantity] of stock) {
      const r = await c.owner!.post(`/api/products/${id}/batches`, { batchNumber: number, expiryDate: daysFromToday(days), quantity, unitCostCents: 500 });
      expect(r.status).toBe(201);
    }
    ids[key] = id;
    return id;
  };

  const catalogue = async (who: TestClient, query = '') => {
    const res = await who.get(`/api/pos/catalogue${query}`);
    expect(res.status).toBe(200);
    const body = posCatalogueResponseSchema.parse(res.body);
    return { body, items: decodeCatalogue(body) };
  };
  const byId = (items: PosCatalogueItem[], id: string) => items.find((i) => i.id === id);

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'poscat_ph', ['owner', 'manager', 'cashier', 'inventory']);
    other = await stockTestPharmacy(t.db, 'poscat_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    await product('para', { name: 'Paracetamol 500mg', sku: 'PARA', barcodes: ['6001'], category: 'Medicine', sellingPriceCents: 1000, purchasePriceCents: 500 }, [
      ['LATE', 300, 15],
      ['SOON', 30, 5],
    ]);
    await product('dda', { name: 'Codeine Linctus', isDda: true, taxApplied: true, taxRateBasisPoints: 800, packageSize: 10, packageType: 'box', sellingPriceCents: 2000, purchasePriceCents: 900, minMarginBasisPoints: 3000 });
    await product('free', { name: 'Free sample', sellingPriceCents: 0 });
    await product('inactive', { name: 'Old stock', sellingPriceCents: 100 });
    expect((await c.owner!.delete(`/api/products/${ids.inactive}`)).status).toBeLessThan(300);
    await product('expiring', { name: 'Eye drops', sellingPriceCents: 300, purchasePriceCents: 100 }, [['FRESH', 10, 4]]);
    const expired = await receiveThenExpire(t.db, c.owner!, ph.pharmacyId, ids.expiring!, { batchNumber: 'GONE', quantity: 6, unitCostCents: 100 }, -2);
    expect(expired.status).toBe(201);
    await product('allExpired', { name: 'Expired syrup', sellingPriceCents: 300 });
    expect((await receiveThenExpire(t.db, c.owner!, ph.pharmacyId, ids.allExpired!, { batchNumber: 'OLD', quantity: 3, unitCostCents: 100 }, -1)).status).toBe(201);
    await product('westOnly', { name: 'Westlands special', sellingPriceCents: 500, restrictedBranchIds: [west] });
    await otherOwner.post('/api/products', { name: 'Other tenant product', sellingPriceCents: 100 });
  });
  afterAll(async () => t?.close());

  it("answers the session's branch, columnar, every active product with its branch values", async () => {
    const { body, items } = await catalogue(c.cashier!);
    expect(body.branchId).toBe(main);
    expect(body.count).toBe(items.length);
    expect(Number.isNaN(Date.parse(body.at))).toBe(false);
    expect(items.map((i) => i.name)).not.toContain('Old stock');
    expect(items.map((i) => i.name)).not.toContain('Other tenant product');
    expect(byId(items, ids.para!)).toMatchObject({
      name: 'Paracetamol 500mg',
      sku: 'PARA',
      barcodes: ['6001'],
      category: 'Medicine',
      isActive: true,
      isAvailable: true,
      priceCents: 1000,
      costCents: 500,
      quantity: 20,
      reservedQuantity: 0,
      expiredQuantity: 0,
      nearestExpiry: daysFromToday(30),
      lowStockThreshold: 5,
    });
    expect(byId(items, ids.dda!)).toMatchObject({ isDda: true, taxApplied: true, taxRateBasisPoints: 800, packageSize: 10, packageType: 'box', minMarginBasisPoints: 3000, quantity: 0, nearestExpiry: null });
  });

  it('the margin in force falls back to the settings default (22 %)', async () => {
    const { items } = await catalogue(c.cashier!);
    expect(byId(items, ids.para!)!.minMarginBasisPoints).toBe(2200);
  });

  it('leaves expired batches out of the quantity and the nearest expiry', async () => {
    const { items } = await catalogue(c.cashier!);
    expect(byId(items, ids.expiring!)).toMatchObject({ quantity: 4, expiredQuantity: 6, nearestExpiry: daysFromToday(10) });
    expect(byId(items, ids.allExpired!)).toMatchObject({ quantity: 0, expiredQuantity: 3, nearestExpiry: null });
  });

  it('marks a product restricted to another branch, or made unavailable here, as not available', async () => {
    const { items } = await catalogue(c.cashier!);
    const westOnly = byId(items, ids.westOnly!);
    // Created in the session's branch but offered only in Westlands.
    if (westOnly) expect(westOnly.isAvailable).toBe(false);
    const westItems = (await catalogue(c.owner!, `?branchId=${west}`)).items;
    expect(byId(westItems, ids.westOnly!)).toMatchObject({ isAvailable: true, priceCents: 500 });
    expect((await c.owner!.put(`/api/products/${ids.free}/branches/${main}`, { isAvailable: false })).status).toBe(200);
    const after = await catalogue(c.cashier!);
    expect(byId(after.items, ids.free!)).toMatchObject({ isAvailable: false, priceCents: 0 });
  });

  it('answers another branch of the pharmacy when asked', async () => {
    const { body, items } = await catalogue(c.owner!, `?branchId=${west}`);
    expect(body.branchId).toBe(west);
    expect(byId(items, ids.para!)?.quantity ?? 0).toBe(0);
  });

  it('follows a sale: the sold pieces leave the quantity', async () => {
    const sale = await c.cashier!.request(
      'POST',
      '/api/sales',
      { id: '7d6f4b9e-0000-4000-8000-000000000001', lines: [{ productId: ids.para, quantity: 3 }], payments: [{ method: 'Cash', amountCents: 3000 }], expectedTotalCents: 3000 },
      { 'idempotency-key': '7d6f4b9e-0000-4000-8000-000000000001' },
    );
    expect(sale.status).toBe(201);
    const { items } = await catalogue(c.cashier!);
    expect(byId(items, ids.para!)).toMatchObject({ quantity: 17, nearestExpiry: daysFromToday(30) });
  });

  it('needs pos:access', async () => {
    expect((await c.inventory!.get('/api/pos/catalogue')).status).toBe(403);
  });

  it("another tenant's branch is 404; the other tenant never sees this one's products", async () => {
    expect((await otherOwner.get(`/api/pos/catalogue?branchId=${main}`)).status).toBe(404);
    const { items } = await catalogue(otherOwner);
    expect(items.map((i) => i.name)).toEqual(['Other tenant product']);
  });

  it('a branch the user may not work in is refused like other branch-scoped reads (403 BRANCH_NOT_ALLOWED)', async () => {
    await t.db.owner.query(`UPDATE memberships SET allowed_branch_ids = $3 WHERE pharmacy_id = $1 AND user_id = $2`, [ph.pharmacyId, ph.users.cashier, [main]]);
    try {
      // The session cache (decision 0062) hears a membership changed behind the app's back by its notification.
      await vi.waitFor(
        async () => {
          const res = await c.cashier!.get(`/api/pos/catalogue?branchId=${west}`);
          expect(res.status).toBe(403);
          expect(res.body.error.code).toBe('BRANCH_NOT_ALLOWED');
        },
        { timeout: 5000, interval: 100 },
      );
      expect((await c.cashier!.get(`/api/pos/catalogue?branchId=${main}`)).status).toBe(200);
    } finally {
      await t.db.owner.query(`UPDATE memberships SET allowed_branch_ids = NULL WHERE pharmacy_id = $1 AND user_id = $2`, [ph.pharmacyId, ph.users.cashier]);
    }
  });

  it('refuses a branch id that is not a UUID with 400', async () => {
    expect((await c.cashier!.get('/api/pos/catalogue?branchId=nope')).status).toBe(400);
    expect((await c.cashier!.get('/api/pos/catalogue?other=1')).status).toBe(400);
  });
});
