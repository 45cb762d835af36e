import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductSchema, productDetailResponseSchema } from '@pharmapoint/domain/products';
import { createProduct } from '../src/modules/products/products.service.ts';
import { applyStockChange } from '../src/modules/stock/stock.service.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient, TestResponse } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, ownerContext, stockTestPharmacy, withToday } from './stock-helpers.ts';

/**
 * Products under concurrency (issue 6): duplicate SKUs created at the same moment, Idempotency-Key on creates,
 * and two modules' use cases composed in one transaction. On PGlite requests run one at a time; on PostgreSQL
 * (TEST_DATABASE_URL) they truly race.
 */
describe.each(testDatabaseKinds())('products under concurrency on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let owner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'conc_ph', ['owner']);
    owner = (await clientsOf(t, ph)).owner!;
    await owner.get('/api/me'); // the CSRF cookie, before requests go out in parallel
  });
  afterAll(async () => t?.close());

  const productsWithSku = async (sku: string) =>
    (
      await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE pharmacy_id = $1 AND lower(sku) = lower($2)`, [
        ph.pharmacyId,
        sku,
      ])
    )[0]!.n;

  it('ten creates of one SKU at once: exactly one 201, the others 409 SKU_TAKEN, never 500', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => owner.post('/api/products', { name: `Racing product ${i}`, sku: i % 2 ? 'RACE-1' : 'race-1', sellingPriceCents: 100 })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(refused.body.error).toMatchObject({ code: 'SKU_TAKEN', message: 'A product with this SKU already exists.' });
    }
    expect(await productsWithSku('RACE-1')).toBe(1);
  });

  describe('Idempotency-Key on POST /api/products', () => {
    const post = (key: string, body: Record<string, unknown>): Promise<TestResponse> => owner.request('POST', '/api/products', body, { 'idempotency-key': key });

    it('the same create twice answers the same product, and writes one', async () => {
      const body = { name: 'Retried product', sku: 'RETRY-1', sellingPriceCents: 500 };
      const first = await post('create-retry-1', body);
      const second = await post('create-retry-1', body);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(productDetailResponseSchema.parse(second.body)).toEqual(productDetailResponseSchema.parse(first.body));
      expect(await productsWithSku('RETRY-1')).toBe(1);
    });

    it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, writing nothing', async () => {
      expect((await post('create-reused-1', { name: 'First body', sku: 'REUSE-1' })).status).toBe(201);
      const reused = await post('create-reused-1', { name: 'Second body', sku: 'REUSE-2' });
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await productsWithSku('REUSE-2')).toBe(0);
    });

    it('ten requests with one key at once create one product and all answer it', async () => {
      const body = { name: 'Double-clicked product', sku: 'CLICK-1', sellingPriceCents: 900 };
      const responses = await Promise.all(Array.from({ length: 10 }, () => post('create-click-1', body)));
      expect(responses.map((r) => r.status)).toEqual(Array<number>(10).fill(201));
      const ids = new Set(responses.map((r) => productDetailResponseSchema.parse(r.body).product.id));
      expect(ids.size).toBe(1);
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
      expect(await productsWithSku('CLICK-1')).toBe(1);
    });

    it('a malformed key is 400, writing nothing', async () => {
      for (const key of ['has space', 'x'.repeat(101), 'semi;colon']) {
        const response = await post(key, { name: 'Bad key product', sku: 'BADKEY-1' });
        expect(response.status, key).toBe(400);
        expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
      }
      expect(await productsWithSku('BADKEY-1')).toBe(0);
    });
  });

  describe('use cases of two modules in one transaction', () => {
    const compose = (sku: string, take: number) => {
      const ctx = withToday({ ...ownerContext(ph), now: new Date() });
      return t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ctx.userId }, async (q) => {
        const detail = await createProduct(q, ctx, createProductSchema.parse({ name: `Composed ${sku}`, sku }));
        await applyStockChange(q, ctx, {
          kind: 'opening',
          branchId: ph.branches[0]!.id,
          productId: detail.product.id,
          delta: 5,
          batch: { batchNumber: 'C1', expiryDate: '2099-12-31', unitCostCents: 100 },
          reason: 'Opening stock',
        });
        await applyStockChange(q, ctx, { kind: 'adjustment', branchId: ph.branches[0]!.id, productId: detail.product.id, delta: -take, reason: 'Write-off' });
        return detail.product.id;
      });
    };

    it('both commit together', async () => {
      const id = await compose('COMPOSE-OK', 2);
      const [row] = await t.db.owner.query<{ quantity: number }>(`SELECT quantity FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`, [
        ph.pharmacyId,
        ph.branches[0]!.id,
        id,
      ]);
      expect(row?.quantity).toBe(3);
    });

    it('a failing stock change rolls back the product created before it', async () => {
      await expect(compose('COMPOSE-FAIL', 6)).rejects.toMatchObject({ code: 'INSUFFICIENT_STOCK' });
      expect(await productsWithSku('COMPOSE-FAIL')).toBe(0);
      const [audit] = await t.db.owner.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE pharmacy_id = $1 AND entity = 'product' AND after->>'sku' = 'COMPOSE-FAIL'`,
        [ph.pharmacyId],
      );
      expect(audit?.n).toBe(0);
    });
  });
});
