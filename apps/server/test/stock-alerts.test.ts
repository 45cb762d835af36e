import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { alertsDrift, clientsOf, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The low and out pairs the stock reports read (stock_alerts, migration 0015, decision 0022) are kept by triggers:
 * after every kind of change through the API they equal what the rows say (every active product x branch, a
 * missing branch row counting as out), and the reports' counts agree with them.
 */

describe.each(testDatabaseKinds())('stock alerts on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let owner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'alerts_ph', ['owner']);
    owner = (await clientsOf(t, ph)).owner!;
  });
  afterAll(async () => t?.close());

  it('follow products, stock, thresholds, deactivation, new branches and imports', async () => {
    const [main, west] = [ph.branches[0]!.id, ph.branches[1]!.id];
    const created = await owner.post('/api/products', { name: 'Amoxicillin 250mg', sellingPriceCents: 1000, purchasePriceCents: 500, lowStockThreshold: 5 });
    expect(created.status).toBe(201);
    const amox = created.body.product.id as string;
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    let counts = (await owner.get('/api/stock/low-stock')).body.counts;
    expect(counts).toEqual({ low: 0, out: 2 });

    const adjust = (branchId: string, delta: number) =>
      owner.post('/api/stock/adjustments', { branchId, reason: 'Count', items: [{ productId: amox, delta, reasonType: 'count_correction' }] });
    expect((await adjust(main, 3)).status).toBe(201);
    expect((await adjust(west, 40)).status).toBe(201);
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    expect((await owner.get('/api/stock/low-stock')).body.counts).toEqual({ low: 1, out: 0 });

    expect((await owner.patch(`/api/products/${amox}`, { lowStockThreshold: 50, name: 'Amoxicillin 250mg Caps' })).status).toBe(200);
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    expect((await owner.get('/api/stock/low-stock')).body.counts).toEqual({ low: 2, out: 0 });
    expect((await adjust(main, -3)).status).toBe(201);
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);

    const branch = await owner.post('/api/branches', { name: 'Karen Branch' });
    expect(branch.status).toBe(201);
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    counts = (await owner.get('/api/stock/low-stock')).body.counts;
    expect(counts).toEqual({ low: 1, out: 2 });
    const summary = (await owner.get('/api/stock/branch-summary')).body.branches as { branchId: string; out: number; low: number; good: number }[];
    expect(summary.find((b) => b.branchId === west)).toMatchObject({ out: 0, low: 1, good: 0 });

    const imported = await owner.request(
      'POST',
      '/api/products/import?mode=all-or-nothing',
      'Name,SKU,Branch,Opening Quantity\nImported good,IMP-G,Main Branch,100\nImported low,IMP-L,Westlands Branch,2\n',
      { 'content-type': 'text/csv' },
    );
    expect(imported.status).toBe(200);
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);

    expect((await owner.delete(`/api/products/${amox}`)).status).toBeLessThan(300);
    expect(await alertsDrift(t.db, ph.pharmacyId)).toEqual([]);
    const rows = (await owner.get('/api/stock/low-stock?pageSize=100')).body.items as { productId: string }[];
    expect(rows.some((r) => r.productId === amox)).toBe(false);
  });
});
