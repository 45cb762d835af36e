import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productDetailResponseSchema } from '@pharmapoint/domain/products';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, stockTestPharmacy } from './stock-helpers.ts';

/**
 * POST /api/products answers from what it read and wrote instead of reading the product back (decision 0079). The
 * answer must be exactly — values and key order — what GET /api/products/:id answers right after, for every shape
 * of the create's input and for a user who sees only some branches.
 */
describe.each(testDatabaseKinds())('the answer of creating a product on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let main: string;
  let west: string;
  let closed: string;
  let many: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'h2_answer', ['owner', 'manager']);
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    // A closed branch (a product may still be given values there) and names whose order is the database's to decide.
    const [row] = await t.db.owner.query<{ id: string }>(
      `INSERT INTO branches (pharmacy_id, name, is_default, is_active) VALUES ($1, 'Closed Branch', false, false) RETURNING id`,
      [ph.pharmacyId],
    );
    closed = row!.id;
    await t.db.owner.query(
      `INSERT INTO branches (pharmacy_id, name, is_default) SELECT $1, n, false FROM unnest($2::text[]) AS n`,
      [
        ph.pharmacyId,
        ['eldoret branch', 'Éldama Ravine', 'Kisumu Branch', 'kisumu annex', 'Zebra Road', 'Athi River', ...Array.from({ length: 50 }, (_, i) => `Outlet ${i + 1}`)],
      ],
    );
    // The settings' default minimum margin, which the answer's effective margins use.
    await t.db.owner.query(`UPDATE settings SET document = document || '{"defaultMinMargin": 30}'::jsonb WHERE pharmacy_id = $1`, [ph.pharmacyId]);
    // The manager sees Main and Westlands only.
    await t.db.owner.query(`UPDATE memberships SET allowed_branch_ids = $3 WHERE pharmacy_id = $1 AND user_id = $2`, [
      ph.pharmacyId,
      ph.users.manager,
      [main, west],
    ]);
    c = await clientsOf(t, ph);
    many = (await t.db.owner.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY name`, [ph.pharmacyId])).map(
      (r) => r.id,
    );
  });
  afterAll(async () => t?.close());

  /** Creates the product and checks its answer is the detail's, byte for byte; answers it. */
  const createdAsRead = async (client: TestClient, body: Record<string, unknown>) => {
    const created = await client.post('/api/products', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = productDetailResponseSchema.parse(created.body);
    const read = await client.get(`/api/products/${detail.product.id}`);
    expect(read.status).toBe(200);
    expect(created.body).toEqual(read.body);
    expect(JSON.stringify(created.body)).toBe(JSON.stringify(read.body));
    return detail;
  };

  it('a product with nothing but a name: a row in every active branch, no price change', async () => {
    const detail = await createdAsRead(c.owner!, { name: 'Plain product' });
    expect(detail.branches.map((b) => b.branchId)).toContain(main);
    expect(detail.branches.map((b) => b.branchId)).not.toContain(closed);
    expect(detail.priceChanges).toEqual([]);
    expect(detail.product.lastPriceUpdateAt).toBeNull();
  });

  it('a product with every product field: SKU, barcodes, category as the settings spell it, DDA, tax, margin, thresholds', async () => {
    const detail = await createdAsRead(c.owner!, {
      name: 'Pethidine 50mg/ml Injection',
      sku: 'PTH-50',
      barcodes: ['6009876543210', '6009876543210', '6001111111111'],
      category: 'medicine',
      packageSize: 10,
      packageType: 'box',
      unit: 'ampoule',
      isDda: true,
      taxApplied: true,
      taxRateBasisPoints: 800,
      minMarginBasisPoints: 2500,
      lowStockThreshold: 3,
      reorderLevel: 6,
      sellingPriceCents: 45_000,
      purchasePriceCents: 30_000,
      priceChangeReason: 'Controlled stock listed',
    });
    expect(detail.product).toMatchObject({ category: 'Medicine', isDda: true, barcodes: ['6009876543210', '6001111111111'] });
    expect(detail.product.lastPriceUpdateReason).toBe('Controlled stock listed');
    expect(detail.priceChanges.every((p) => p.userName === `owner h2_answer`)).toBe(true);
  });

  it('per-branch prices and values, a closed branch given values, an inactive product', async () => {
    const detail = await createdAsRead(c.owner!, {
      name: 'Per-branch product',
      isActive: false,
      sellingPriceCents: 1_000,
      purchasePriceCents: 600,
      branches: [
        { branchId: west, sellingPriceCents: 1_200, minMarginBasisPoints: 4000, isAvailable: false, lowStockThreshold: 9, reason: 'Westlands price' },
        { branchId: closed, sellingPriceCents: 0, purchasePriceCents: 0 },
        { branchId: many[2]!, purchasePriceCents: 700 },
      ],
    });
    expect(detail.branches.map((b) => b.branchId)).toContain(closed);
    expect(detail.priceChanges.map((p) => p.branchId)).not.toContain(closed);
  });

  it('a product restricted to some branches (the others show without a row), with and without prices', async () => {
    const priced = await createdAsRead(c.owner!, { name: 'Restricted priced', restrictedBranchIds: [west, closed], sellingPriceCents: 500 });
    expect(priced.branches.find((b) => b.branchId === main)).toMatchObject({ isAvailable: false, sellingPriceCents: 0 });
    await createdAsRead(c.owner!, { name: 'Restricted free', restrictedBranchIds: [west] });
  });

  it('more price changes than the detail shows: the same 50, in the same order', async () => {
    const detail = await createdAsRead(c.owner!, {
      name: 'Everywhere product',
      sellingPriceCents: 300,
      branches: many.map((branchId, i) => ({ branchId, sellingPriceCents: 300 + i })),
    });
    expect(many.length).toBeGreaterThan(50);
    expect(detail.priceChanges.length).toBe(50);
  });

  it('a user who sees some branches gets the branches and price changes they may see', async () => {
    const detail = await createdAsRead(c.manager!, {
      name: 'Manager product',
      sellingPriceCents: 2_500,
      purchasePriceCents: 1_500,
      branches: [{ branchId: many[0]!, sellingPriceCents: 2_600 }],
    });
    expect(new Set(detail.branches.map((b) => b.branchId))).toEqual(new Set([main, west]));
    expect(new Set(detail.priceChanges.map((p) => p.branchId))).toEqual(new Set([main, west]));
  });

  /** The answer of a write of an existing product is GET /api/products/:id's after it, byte for byte. */
  const answersAsRead = async (client: TestClient, write: () => Promise<{ status: number; body: unknown }>, id: string) => {
    const written = await write();
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const read = await client.get(`/api/products/${id}`);
    expect(JSON.stringify(written.body)).toBe(JSON.stringify(read.body));
    return productDetailResponseSchema.parse(written.body);
  };

  it('PATCH, PUT of branch values and DELETE answer from the row they wrote, as GET reads it after (decision 0079)', async () => {
    const { product } = await createdAsRead(c.owner!, { name: 'Changing product', sku: 'CHG-1', sellingPriceCents: 800, purchasePriceCents: 500 });
    const id = product.id;
    // Product columns only; a SKU and a category; the minimum margin (stamps the price update); prices in a branch.
    await answersAsRead(c.owner!, () => c.owner!.patch(`/api/products/${id}`, { name: 'Changed product', reorderLevel: 4 }), id);
    await answersAsRead(c.owner!, () => c.owner!.patch(`/api/products/${id}`, { sku: 'CHG-2', category: 'equipment', restrictedBranchIds: [main, west] }), id);
    const margin = await answersAsRead(c.owner!, () => c.owner!.patch(`/api/products/${id}`, { minMarginBasisPoints: 3500, priceChangeReason: 'Margin review' }), id);
    expect(margin.product.lastPriceUpdateReason).toBe('Margin review');
    const priced = await answersAsRead(
      c.owner!,
      () => c.owner!.patch(`/api/products/${id}?branchId=${west}`, { sellingPriceCents: 950, priceChangeReason: 'Westlands up' }),
      id,
    );
    expect(priced.product.lastPriceUpdateReason).toBe('Westlands up');
    // The same prices again: no price change, no stamp.
    await answersAsRead(c.owner!, () => c.owner!.patch(`/api/products/${id}?branchId=${west}`, { sellingPriceCents: 950 }), id);
    // A branch's values: prices (stamps), availability only (does not), as a user who sees two branches.
    await answersAsRead(c.manager!, () => c.manager!.put(`/api/products/${id}/branches/${main}`, { sellingPriceCents: 990, reason: 'Main up' }), id);
    await answersAsRead(c.manager!, () => c.manager!.put(`/api/products/${id}/branches/${main}`, { isAvailable: false }), id);
    const gone = await answersAsRead(c.owner!, () => c.owner!.delete(`/api/products/${id}`), id);
    expect(gone.product.isActive).toBe(false);
  });
});
