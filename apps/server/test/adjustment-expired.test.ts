import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/** Issue 6 leftovers / decision 0033: an adjustment cannot create sellable stock in a batch that has already expired. */
describe.each(testDatabaseKinds())('an adjustment naming an expired batch on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'adj_expired');
    c = await clientsOf(t, ph);
    product = (await c.owner!.post('/api/products', { name: 'Loratadine 10mg', sellingPriceCents: 1_500, purchasePriceCents: 700 })).body.product.id;
  });
  afterAll(async () => t?.close());

  const count = async (table: string) => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;

  it('is refused with BATCH_EXPIRED on the line, as receiving it is, and writes nothing', async () => {
    const before = await Promise.all(['stock_adjustments', 'batches', 'stock_movements'].map(count));
    const res = await c.owner!.post('/api/stock/adjustments', {
      reason: 'Found a carton',
      items: [
        { productId: product, delta: 5, reasonType: 'count_correction', batchNumber: 'FRESH', expiryDate: daysFromToday(200) },
        { productId: product, delta: 3, reasonType: 'count_correction', batchNumber: 'OLD', expiryDate: daysFromToday(-1) },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('BATCH_EXPIRED');
    expect(res.body.error.message).toBe(`Batch OLD expired on ${daysFromToday(-1)}: it cannot be received as sellable stock.`);
    expect(res.body.error.details.issues).toEqual([{ path: 'items.1.expiryDate', message: expect.stringContaining(daysFromToday(-1)) }]);
    expect(await Promise.all(['stock_adjustments', 'batches', 'stock_movements'].map(count))).toEqual(before);
  });

  it('still takes a batch that expires today or later', async () => {
    const res = await c.owner!.post('/api/stock/adjustments', {
      reason: 'Found a carton',
      items: [{ productId: product, delta: 2, reasonType: 'count_correction', batchNumber: 'TODAY', expiryDate: daysFromToday(0) }],
    });
    expect(res.status).toBe(201);
  });
});
