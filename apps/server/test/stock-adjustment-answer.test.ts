import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustmentSchema } from '@pharmapoint/domain/stock';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * POST /api/stock/adjustments answers from what the use case has (branch, products, the batches the ledger touched)
 * instead of reading the adjustment back (decision 0078): the answer must be exactly GET /api/stock/adjustments/:id.
 */
describe.each(testDatabaseKinds())('the answer of a new adjustment on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let product: string;
  let other: string;
  let fresh: string;
  let lateBatch: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'h1_adj_answer');
    c = await clientsOf(t, ph);
    const created = await c.owner!.post('/api/products', { name: 'Cetirizine 10mg', sellingPriceCents: 2_000, purchasePriceCents: 1_000 });
    product = created.body.product.id;
    other = (await c.owner!.post('/api/products', { name: 'Amoxicillin 500mg', sellingPriceCents: 3_000, purchasePriceCents: 1_500 })).body.product.id;
    // A product without stock anywhere: an increase creates its branch row.
    fresh = (await c.owner!.post('/api/products', { name: 'Zinc tablets', sellingPriceCents: 500, purchasePriceCents: 200 })).body.product.id;
    for (const [number, days, quantity] of [
      ['SOON', 20, 3],
      ['LATE', 400, 10],
    ] as const) {
      const r = await c.owner!.post(`/api/products/${product}/batches`, { batchNumber: number, expiryDate: daysFromToday(days), quantity, unitCostCents: 1_000 });
      expect(r.status).toBe(201);
    }
    await c.owner!.post(`/api/products/${other}/batches`, { batchNumber: 'AMX', expiryDate: daysFromToday(300), quantity: 8, unitCostCents: 1_500 });
    {
      const [row] = await t.db.owner.query<{ id: string }>(`SELECT id FROM batches WHERE pharmacy_id = $1 AND product_id = $2 AND batch_number = 'LATE'`, [ph.pharmacyId, product]);
      lateBatch = row!.id;
    }
  });
  afterAll(async () => t?.close());

  async function sameAsGet(body: unknown): Promise<void> {
    const res = await c.inventory!.post('/api/stock/adjustments', body);
    expect(res.status).toBe(201);
    const answer = adjustmentSchema.parse(res.body);
    const read = await c.inventory!.get(`/api/stock/adjustments/${answer.id}`);
    expect(read.status).toBe(200);
    expect(res.body).toEqual(read.body);
  }

  it('a one-line increase', async () => {
    await sameAsGet({ reason: 'Found in the store room', items: [{ productId: product, delta: 2, reasonType: 'count_correction' }] });
  });

  it('a one-line increase of a product without a branch row', async () => {
    await sameAsGet({ reason: 'Opening count', items: [{ productId: fresh, delta: 5, reasonType: 'count_correction', note: 'shelf B' }] });
  });

  it('a decrease spread over two batches', async () => {
    await sameAsGet({ reason: 'Damaged carton', items: [{ productId: product, delta: -4, reasonType: 'damage', note: null }] });
  });

  it('a named new batch', async () => {
    await sameAsGet({
      reason: 'Delivery without invoice',
      items: [{ productId: product, delta: 6, reasonType: 'other', batchNumber: 'NEW-1', expiryDate: daysFromToday(500) }],
    });
  });

  it('a multi-line adjustment (two lines of one product, a batch named by id, another product)', async () => {
    await sameAsGet({
      reason: 'Stock take',
      items: [
        { productId: other, delta: -3, reasonType: 'count_correction' },
        { productId: product, delta: -2, reasonType: 'damage', batchId: lateBatch },
        { productId: product, delta: 1, reasonType: 'count_correction', note: 'recount' },
        { productId: product, delta: -1, reasonType: 'expiry_write_off' },
        { productId: other, delta: 4, reasonType: 'other', batchNumber: 'AMX-2', expiryDate: daysFromToday(250), unitCostCents: 1_400 },
      ],
    });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });
});
