import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branchSummaryResponseSchema } from '@pharmapoint/domain/stock';
import { expiringResponseSchema, lowStockResponseSchema } from '@pharmapoint/domain/stock-reports';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { receiveThenExpire } from './expired-batches.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The inventory reports (issue 3: expiry alerts across branches, stock status per product and branch):
 * GET /api/stock/expiring and GET /api/stock/low-stock, tenant- and branch-scoped like the branch summary.
 */
describe.each(testDatabaseKinds())('stock reports on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  let amox: string;
  let para: string;
  let gloves: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'reports_ph', ['owner', 'manager', 'inventory', 'cashier', 'demo']);
    other = await stockTestPharmacy(t.db, 'reports_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    const product = async (body: Record<string, unknown>) => {
      const r = await c.owner!.post('/api/products', { sellingPriceCents: 10_000, purchasePriceCents: 5_000, ...body });
      expect(r.status).toBe(201);
      return r.body.product.id as string;
    };
    amox = await product({ name: 'Amoxicillin 250mg Suspension', sku: 'AMX-250', lowStockThreshold: 5, reorderLevel: 8 });
    para = await product({ name: 'Paracetamol 500mg Tablets', sku: 'PCM-500', lowStockThreshold: 10, reorderLevel: 20 });
    gloves = await product({ name: 'Examination Gloves', sku: 'GLV-M', lowStockThreshold: 3, reorderLevel: 4 });
    const batch = async (productId: string, branchId: string, batchNumber: string, days: number, quantity: number, unitCostCents: number) => {
      const r =
        days < 0
          ? await receiveThenExpire(t.db, c.owner!, ph.pharmacyId, productId, { branchId, batchNumber, quantity, unitCostCents }, days)
          : await c.owner!.post(`/api/products/${productId}/batches`, { branchId, batchNumber, expiryDate: daysFromToday(days), quantity, unitCostCents });
      expect(r.status).toBe(201);
    };
    // Main: amox 3 expired + 4 in 10 days + 20 late (27, good); para 6 in 40 days (low, threshold 10); gloves none (out).
    await batch(amox, main, 'AMX-OLD', -5, 3, 14_000);
    await batch(amox, main, 'AMX-SOON', 10, 4, 15_000);
    await batch(amox, main, 'AMX-LATE', 400, 20, 16_000);
    await batch(para, main, 'PCM-40', 40, 6, 500);
    // Westlands: amox 2 expiring in 25 days (low); para 50 expired 2 days ago (counted on hand, good); gloves 10 (good).
    await batch(amox, west, 'AMX-W', 25, 2, 15_000);
    await batch(para, west, 'PCM-W-OLD', -2, 50, 400);
    await batch(gloves, west, 'GLV-W', 700, 10, 1_000);
    // Another tenant's expired batch must never show.
    const foreign = await otherOwner.post('/api/products', { name: 'Foreign Cough Syrup', sellingPriceCents: 10_000, purchasePriceCents: 5_000 });
    expect((await receiveThenExpire(t.db, otherOwner, other.pharmacyId, foreign.body.product.id, { batchNumber: 'FOREIGN', quantity: 9, unitCostCents: 100 }, -1)).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it('expiry report: expired and expiring batches with stock across branches, sorted by expiry, with days left and value at cost', async () => {
    const res = await c.manager!.get('/api/stock/expiring');
    expect(res.status).toBe(200);
    const report = expiringResponseSchema.parse(res.body);
    expect(report.days).toBe(30);
    expect(report.expiryAlertDays).toBe(30);
    expect(report.items.map((i) => [i.batchNumber, i.branchId, i.daysLeft, i.isExpired, i.quantity, i.valueCents])).toEqual([
      ['AMX-OLD', main, -5, true, 3, 42_000],
      ['PCM-W-OLD', west, -2, true, 50, 20_000],
      ['AMX-SOON', main, 10, false, 4, 60_000],
      ['AMX-W', west, 25, false, 2, 30_000],
    ]);
    expect(report.items[0]).toMatchObject({ productName: 'Amoxicillin 250mg Suspension', branchName: 'Main Branch', expiryDate: daysFromToday(-5) });
    expect(report.total).toBe(4);
    expect(report.totals).toEqual({
      expiredBatches: 2,
      expiredQuantity: 53,
      expiredValueCents: 62_000,
      nearBatches: 2,
      nearQuantity: 6,
      nearValueCents: 90_000,
    });
    // The same numbers as the dashboard's branch summary.
    const summary = branchSummaryResponseSchema.parse((await c.manager!.get('/api/stock/branch-summary')).body);
    expect(summary.branches.reduce((n, b) => n + b.expiredBatches + b.nearExpiryBatches, 0)).toBe(report.total);
  });

  it('expiry report: window, branch filter and paging', async () => {
    const wide = expiringResponseSchema.parse((await c.owner!.get('/api/stock/expiring?days=60')).body);
    expect(wide.items.map((i) => i.batchNumber)).toEqual(['AMX-OLD', 'PCM-W-OLD', 'AMX-SOON', 'AMX-W', 'PCM-40']);
    const expiredOnly = expiringResponseSchema.parse((await c.owner!.get('/api/stock/expiring?days=0')).body);
    expect(expiredOnly.items.map((i) => i.batchNumber)).toEqual(['AMX-OLD', 'PCM-W-OLD']);
    const westOnly = expiringResponseSchema.parse((await c.owner!.get(`/api/stock/expiring?branchId=${west}`)).body);
    expect(westOnly.items.map((i) => i.batchNumber)).toEqual(['PCM-W-OLD', 'AMX-W']);
    const page2 = expiringResponseSchema.parse((await c.owner!.get('/api/stock/expiring?days=60&pageSize=2&page=2')).body);
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page2.items.map((i) => i.batchNumber)).toEqual(['AMX-SOON', 'AMX-W']);
  });

  it('low stock report: out and low products per branch with threshold and reorder level; filters by branch and status', async () => {
    const res = await c.inventory!.get('/api/stock/low-stock');
    expect(res.status).toBe(200);
    const report = lowStockResponseSchema.parse(res.body);
    expect(report.items.map((i) => [i.productName, i.branchName, i.status, i.quantity, i.lowStockThreshold, i.reorderLevel])).toEqual([
      ['Examination Gloves', 'Main Branch', 'out', 0, 3, 4],
      ['Amoxicillin 250mg Suspension', 'Westlands Branch', 'low', 2, 5, 8],
      ['Paracetamol 500mg Tablets', 'Main Branch', 'low', 6, 10, 20],
    ]);
    expect(report.counts).toEqual({ low: 2, out: 1 });
    expect(report.total).toBe(3);
    const summary = branchSummaryResponseSchema.parse((await c.inventory!.get('/api/stock/branch-summary')).body);
    expect(summary.branches.reduce((n, b) => n + b.low, 0)).toBe(2);
    expect(summary.branches.reduce((n, b) => n + b.out, 0)).toBe(1);

    const lowMain = lowStockResponseSchema.parse((await c.inventory!.get(`/api/stock/low-stock?branchId=${main}&status=low`)).body);
    expect(lowMain.items.map((i) => i.productName)).toEqual(['Paracetamol 500mg Tablets']);
    expect(lowMain.total).toBe(1);
    const out = lowStockResponseSchema.parse((await c.inventory!.get('/api/stock/low-stock?status=out')).body);
    expect(out.items.map((i) => [i.productName, i.branchId])).toEqual([['Examination Gloves', main]]);
  });

  it('needs report:inventory; validates the query', async () => {
    expect((await c.cashier!.get('/api/stock/expiring')).status).toBe(403);
    expect((await c.cashier!.get('/api/stock/low-stock')).status).toBe(403);
    expect((await t.client().get('/api/stock/expiring')).status).toBe(401);
    expect((await c.demo!.get('/api/stock/expiring')).status).toBe(200);
    for (const bad of ['days=-1', 'days=1.5', 'days=soon', 'branchId=main', 'page=0', 'unknown=1']) {
      expect((await c.owner!.get(`/api/stock/expiring?${bad}`)).status, bad).toBe(400);
    }
    for (const bad of ['status=good', 'branchId=1', 'pageSize=1000']) {
      expect((await c.owner!.get(`/api/stock/low-stock?${bad}`)).status, bad).toBe(400);
    }
  });

  it("another tenant's branch is 404 and its batches never show", async () => {
    const foreignBranch = other.branches[0]!.id;
    expect((await c.owner!.get(`/api/stock/expiring?branchId=${foreignBranch}`)).status).toBe(404);
    expect((await c.owner!.get(`/api/stock/low-stock?branchId=${foreignBranch}`)).status).toBe(404);
    const mine = expiringResponseSchema.parse((await c.owner!.get('/api/stock/expiring?days=1000')).body);
    expect(mine.items.some((i) => i.batchNumber === 'FOREIGN')).toBe(false);
    const theirs = expiringResponseSchema.parse((await otherOwner.get(`/api/stock/expiring`)).body);
    expect(theirs.items.map((i) => i.batchNumber)).toEqual(['FOREIGN']);
    expect((await otherOwner.get(`/api/stock/expiring?branchId=${main}`)).status).toBe(404);
    const theirLow = lowStockResponseSchema.parse((await otherOwner.get('/api/stock/low-stock')).body);
    expect(theirLow.items.every((i) => other.branches.some((b) => b.id === i.branchId))).toBe(true);
  });

  it("a user limited to one branch sees only that branch's rows; the other branch is 403", async () => {
    await t.db.owner.query(`UPDATE memberships SET allowed_branch_ids = $3 WHERE pharmacy_id = $1 AND user_id = $2`, [
      ph.pharmacyId,
      ph.users.inventory,
      [main],
    ]);
    try {
      const expiring = expiringResponseSchema.parse((await c.inventory!.get('/api/stock/expiring?days=1000')).body);
      expect(expiring.items.length).toBeGreaterThan(0);
      expect(expiring.items.every((i) => i.branchId === main)).toBe(true);
      expect(expiring.totals.expiredBatches).toBe(1);
      const low = lowStockResponseSchema.parse((await c.inventory!.get('/api/stock/low-stock')).body);
      expect(low.items.map((i) => i.branchId)).toEqual([main, main]);
      expect((await c.inventory!.get(`/api/stock/expiring?branchId=${west}`)).status).toBe(403);
      expect((await c.inventory!.get(`/api/stock/low-stock?branchId=${west}`)).status).toBe(403);
      const summary = branchSummaryResponseSchema.parse((await c.inventory!.get('/api/stock/branch-summary')).body);
      expect(summary.branches.map((b) => b.branchId)).toEqual([main]);
    } finally {
      await t.db.owner.query(`UPDATE memberships SET allowed_branch_ids = NULL WHERE pharmacy_id = $1 AND user_id = $2`, [ph.pharmacyId, ph.users.inventory]);
    }
  });
});
