import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustmentListResponseSchema, adjustmentSchema } from '@pharmapoint/domain/stock';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/** Honest records (issue 8 item 9): an adjustment shows the batches each line actually changed, from the ledger. */
describe.each(testDatabaseKinds())('the batches of an adjustment on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'adj_batches');
    c = await clientsOf(t, ph);
    const created = await c.owner!.post('/api/products', { name: 'Cetirizine 10mg', sellingPriceCents: 2_000, purchasePriceCents: 1_000 });
    product = created.body.product.id;
    for (const [number, days, quantity] of [
      ['SOON', 20, 3],
      ['LATE', 400, 10],
    ] as const) {
      const r = await c.owner!.post(`/api/products/${product}/batches`, { batchNumber: number, expiryDate: daysFromToday(days), quantity, unitCostCents: 1_000 });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  it('names the batches earliest-expiry-first took, per line, in the answer and in the list', async () => {
    const res = await c.inventory!.post('/api/stock/adjustments', {
      reason: 'Damaged carton',
      items: [
        { productId: product, delta: -4, reasonType: 'damage' },
        { productId: product, delta: -1, reasonType: 'count_correction' },
        { productId: product, delta: 2, reasonType: 'count_correction' },
      ],
    });
    expect(res.status).toBe(201);
    const adjustment = adjustmentSchema.parse(res.body);
    const shape = (a: typeof adjustment) => a.items.map((i) => i.batches.map((b) => [b.batchNumber, b.delta, b.expiryDate]));
    expect(shape(adjustment)).toEqual([
      [
        ['SOON', -3, daysFromToday(20)],
        ['LATE', -1, daysFromToday(400)],
      ],
      [['LATE', -1, daysFromToday(400)]],
      [['LATE', 2, daysFromToday(400)]],
    ]);
    // No batch was named: the line's own batch stays null, the batches say what happened.
    expect(adjustment.items.map((i) => i.batchNumber)).toEqual([null, null, null]);

    const list = adjustmentListResponseSchema.parse((await c.owner!.get('/api/stock/adjustments')).body);
    const listed = list.items.find((a) => a.id === adjustment.id)!;
    expect(shape(listed)).toEqual(shape(adjustment));
  });
});
