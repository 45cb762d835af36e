import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gettingStartedResponseSchema } from '@pharmapoint/domain/getting-started';
import { productDetailResponseSchema } from '@pharmapoint/domain/products';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import { signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, ledgerProblems, stockTestPharmacy } from './stock-helpers.ts';

/**
 * A new pharmacy's first day: Add Product takes an optional opening stock written through the ledger in the
 * product's transaction, and the dashboard's getting-started checklist ticks itself from the pharmacy's data.
 */
describe.each(testDatabaseKinds())('first day on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let main: string;
  let west: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'first_day_ph');
    c = await clientsOf(t, ph);
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
  });
  afterAll(async () => t?.close());

  const count = async (table: string, pharmacyId = ph.pharmacyId) =>
    (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [pharmacyId]))[0]!.n;

  it('creates a product with opening stock through the ledger: stock = batches = ledger', async () => {
    const res = await c.owner!.post('/api/products', {
      name: 'Cetirizine 10mg Tablets',
      sellingPriceCents: 1_000,
      purchasePriceCents: 400,
      openingStock: { quantity: 60, batchNumber: 'CTZ-01', expiryDate: daysFromToday(300), unitCostCents: 400 },
    });
    expect(res.status).toBe(201);
    const detail = productDetailResponseSchema.parse(res.body);
    expect(detail.branches.find((b) => b.branchId === main)).toMatchObject({ quantity: 60, status: 'good', nearestExpiry: daysFromToday(300) });
    expect(detail.branches.find((b) => b.branchId === west)).toMatchObject({ quantity: 0, status: 'out' });
    expect(detail.batches).toHaveLength(1);
    expect(detail.batches[0]).toMatchObject({ batchNumber: 'CTZ-01', quantity: 60, unitCostCents: 400, source: 'opening', branchId: main });
    // The answer is what the detail answers right after.
    expect(productDetailResponseSchema.parse((await c.owner!.get(`/api/products/${detail.product.id}`)).body)).toEqual(detail);
    const movements = await t.db.owner.query<{ kind: string; delta: number; reason: string }>(
      `SELECT kind, delta, reason FROM stock_movements WHERE pharmacy_id = $1 AND product_id = $2`,
      [ph.pharmacyId, detail.product.id],
    );
    expect(movements).toEqual([{ kind: 'opening', delta: 60, reason: 'Opening stock' }]);
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);

    // Into another branch when one is named.
    const westRes = await c.owner!.post('/api/products', {
      name: 'Loratadine 10mg Tablets',
      openingStock: { branchId: west, quantity: 5, batchNumber: 'LOR-1', expiryDate: daysFromToday(0), unitCostCents: 250 },
    });
    expect(westRes.status).toBe(201);
    expect(productDetailResponseSchema.parse(westRes.body).branches.find((b) => b.branchId === west)).toMatchObject({ quantity: 5 });
    expect(await ledgerProblems(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('refuses a bad opening stock with the batch rules and writes nothing: neither product nor stock', async () => {
    const before = { products: await count('products'), batches: await count('batches'), movements: await count('stock_movements') };
    const expired = await c.owner!.post('/api/products', {
      name: 'Expired Opening Syrup',
      openingStock: { quantity: 10, batchNumber: 'OLD-1', expiryDate: daysFromToday(-1), unitCostCents: 100 },
    });
    expect(expired.status).toBe(422);
    expect(expired.body.error).toMatchObject({ code: 'BATCH_EXPIRED', values: { batch: 'OLD-1', expiryDate: daysFromToday(-1) } });
    expect(expired.body.error.message).toBe(`Batch OLD-1 expired on ${daysFromToday(-1)}: it cannot be received as sellable stock.`);
    expect(expired.body.error.details.issues[0]).toMatchObject({ path: 'openingStock.expiryDate' });
    for (const bad of [{ quantity: 0 }, { quantity: -2 }, { quantity: 1.5 }, { unitCostCents: -1 }, { expiryDate: '31/12/2027' }, { batchNumber: '' }]) {
      const r = await c.owner!.post('/api/products', {
        name: 'Bad Opening Product',
        openingStock: { quantity: 3, batchNumber: 'B-1', expiryDate: daysFromToday(30), unitCostCents: 100, ...bad },
      });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error.details.issues[0].path, JSON.stringify(bad)).toMatch(/^openingStock\.\w+$/);
    }
    // A branch that is not the pharmacy's: 404, nothing written.
    const stranger = await c.owner!.post('/api/products', {
      name: 'Stranger Branch Product',
      openingStock: { branchId: randomUUID(), quantity: 3, batchNumber: 'B-1', expiryDate: daysFromToday(30), unitCostCents: 100 },
    });
    expect(stranger.status).toBe(404);
    // Opening stock needs inventory:update as the batches route does; a product alone does not.
    await t.db.owner.query(`UPDATE memberships SET permissions = ARRAY['dashboard:view', 'product:read', 'product:create'] WHERE pharmacy_id = $1 AND user_id = $2`, [
      ph.pharmacyId,
      ph.users.manager,
    ]);
    const catalogueOnly = await signedInClient(t, ph.users.manager!, ph.pharmacyId, main);
    const manager = await catalogueOnly.post('/api/products', {
      name: 'Manager Opening Product',
      openingStock: { quantity: 3, batchNumber: 'B-1', expiryDate: daysFromToday(30), unitCostCents: 100 },
    });
    expect(manager.status, JSON.stringify(manager.body)).toBe(403);
    expect({ products: await count('products'), batches: await count('batches'), movements: await count('stock_movements') }).toEqual(before);
  });

  it('ticks the getting-started checklist from the pharmacy data, shows it until the first sale, and dismisses it for good', async () => {
    const fresh = await stockPharmacy(t.db, 'first_day_fresh', { roles: ['owner'], branchNames: ['Main Branch'] });
    const owner = (await clientsOf(t, fresh)).owner!;
    const read = async () => {
      const res = await owner.get('/api/dashboard/getting-started');
      expect(res.status).toBe(200);
      return gettingStartedResponseSchema.parse(res.body);
    };
    const none = { branches: false, suppliers: false, products: false, openingStock: false, users: false, receiptSettings: false, firstSale: false };
    expect(await read()).toEqual({ show: true, dismissed: false, steps: none });

    // Each step as a person does it on its screen.
    const supplier = await owner.post('/api/contacts', { type: 'supplier', name: 'Dawa Distributors', phone: '0722000111' });
    expect(supplier.status, JSON.stringify(supplier.body)).toBe(201);
    await t.db.owner.query(`UPDATE branches SET phone = '0712345678' WHERE pharmacy_id = $1`, [fresh.pharmacyId]);
    const product = await owner.post('/api/products', {
      name: 'Paracetamol 500mg Tablets',
      sellingPriceCents: 500,
      openingStock: { quantity: 20, batchNumber: 'P-1', expiryDate: daysFromToday(200), unitCostCents: 200 },
    });
    expect(product.status).toBe(201);
    expect(await read()).toEqual({ show: true, dismissed: false, steps: { ...none, branches: true, suppliers: true, products: true, openingStock: true } });

    // A sale hides it (a pharmacy selling is past its first day).
    const productId = product.body.product.id as string;
    const saleId = randomUUID();
    const sale = await owner.request('POST', '/api/sales', { id: saleId, lines: [{ productId, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 500 }] }, { 'idempotency-key': saleId });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(await read()).toMatchObject({ show: false, dismissed: false, steps: { firstSale: true } });

    // Dismissing: for good, idempotent, for every user of the pharmacy.
    const second = await stockPharmacy(t.db, 'first_day_second', { roles: ['owner', 'admin', 'cashier'], branchNames: ['Main Branch'] });
    const sc = await clientsOf(t, second);
    expect(gettingStartedResponseSchema.parse((await sc.owner!.get('/api/dashboard/getting-started')).body)).toMatchObject({ show: true, steps: { users: true } });
    const dismissed = await sc.owner!.post('/api/dashboard/getting-started/dismiss', {});
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({ show: false, dismissed: true });
    expect((await sc.owner!.post('/api/dashboard/getting-started/dismiss', {})).status).toBe(200);
    expect(await count('getting_started_dismissals', second.pharmacyId)).toBe(1);
    expect((await sc.admin!.get('/api/dashboard/getting-started')).body).toMatchObject({ show: false, dismissed: true });
    // The fresh pharmacy's own checklist is untouched by another's dismissal.
    expect(await read()).toMatchObject({ dismissed: false });

    // Owners and admins only (settings:system).
    expect((await sc.cashier!.get('/api/dashboard/getting-started')).status).toBe(403);
    expect((await sc.cashier!.post('/api/dashboard/getting-started/dismiss', {})).status).toBe(403);
  });
});
