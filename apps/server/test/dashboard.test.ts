import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardSalesResponseSchema } from '@pharmapoint/domain/dashboard';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * GET /api/dashboard/sales over HTTP (decision 0094): the Sales totals object and the chart's series of a date filter,
 * branch and payment method, read from the per-day summaries; bad filters refused with their sentence; another
 * pharmacy's branch 404; an empty pharmacy answers zeros; report:sales required.
 */
describe.each(testDatabaseKinds())('dashboard sales overview on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'dash_ph', ['owner', 'manager', 'cashier', 'demo']);
    other = await stockTestPharmacy(t.db, 'dash_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    const created = await c.owner!.post('/api/products', { name: 'Dashboard Para', sku: 'DPARA', sellingPriceCents: 10_000, purchasePriceCents: 6000 });
    product = created.body.product.id;
    for (const branch of ph.branches) {
      const r = await c.owner!.post(`/api/products/${product}/batches`, { branchId: branch.id, batchNumber: `D-${branch.name.slice(0, 4)}`, expiryDate: daysFromToday(300), quantity: 100, unitCostCents: 6000 });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  const sell = async (body: Record<string, unknown>) => {
    const id = randomUUID();
    const res = await c.owner!.request('POST', '/api/sales', { id, ...body }, { 'idempotency-key': id });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
    return res.body as { id: string; totalCents: number };
  };
  const dashboard = async (who: TestClient, query: string) => who.get(`/api/dashboard/sales${query ? `?${query}` : ''}`);

  it('an empty pharmacy answers zeros for every preset, never an error', async () => {
    for (const preset of ['today', 'yesterday', 'thisWeek', 'lastWeek', 'thisMonth', 'lastMonth', 'last30Days', 'last3Months']) {
      const res = await dashboard(c.owner!, `dateFilter=${preset}`);
      expect(res.status).toBe(200);
      const body = dashboardSalesResponseSchema.parse(res.body);
      expect(body.totals).toMatchObject({ totalRevenue: 0, totalCost: 0, totalProfit: 0, profitMargin: 0, status: 'Break Even', saleCount: 0, costEstimated: false });
      expect(body.series.every((p) => p.revenueCents === 0)).toBe(true);
      expect(body.yearly).toHaveLength(12);
    }
    const body = (await dashboard(c.owner!, '')).body;
    expect(body.range).toMatchObject({ preset: 'today', start: daysFromToday(0), end: daysFromToday(0), granularity: 'day', label: 'Today' });
    expect(body.paymentMethods).toEqual(expect.arrayContaining(['Cash', 'M-Pesa']));
  });

  it('totals, profit, margin and the series after sales, a backdated sale, a return, a void and an expense; branch and payment method filters', async () => {
    await sell({ lines: [{ productId: product, quantity: 3 }], payments: [{ method: 'Cash', amountCents: 30_000 }] });
    const second = await sell({ lines: [{ productId: product, quantity: 2 }], payments: [{ method: 'Cash', amountCents: 20_000 }] });
    await sell({ branchId: ph.branches[1]!.id, lines: [{ productId: product, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 10_000 }] });
    await sell({ saleDate: daysFromToday(-2), lines: [{ productId: product, quantity: 4 }], payments: [{ method: 'Cash', amountCents: 40_000 }] });
    const voided = await sell({ lines: [{ productId: product, quantity: 5 }], payments: [{ method: 'Cash', amountCents: 50_000 }] });
    const voidId = randomUUID();
    expect((await c.owner!.request('POST', `/api/sales/${voided.id}/void`, { id: voidId }, { 'idempotency-key': voidId })).status).toBe(201);
    const returnId = randomUUID();
    const ret = await c.owner!.request('POST', `/api/sales/${second.id}/returns`, { id: returnId, lines: [{ line: 1, quantity: 1 }], refundMethod: 'Cash' }, { 'idempotency-key': returnId });
    expect(ret.status).toBe(201);
    const expense = await c.owner!.request('POST', '/api/expenses', { description: 'Power', category: 'Utilities - Electricity', amountCents: 5_000 }, { 'idempotency-key': randomUUID() });
    expect(expense.status).toBe(201);

    // Today: 3 + 2 (1 returned) + 1 in the other branch = 5 pieces net at 100.00, cost 60.00 each; the voided sale counts nothing.
    const today = dashboardSalesResponseSchema.parse((await dashboard(c.owner!, 'dateFilter=today')).body);
    expect(today.totals).toMatchObject({
      totalRevenue: 50_000,
      totalCost: 30_000,
      totalProfit: 20_000,
      profitMargin: 40,
      status: 'Profitable',
      saleCount: 3,
      returnedCents: 60_000,
      costEstimated: false,
      expensesCents: 5_000,
      netProfit: 15_000,
      netMargin: 30,
      highExpense: false,
    });
    expect(today.topExpenseCategories).toEqual([{ category: 'Utilities - Electricity', amountCents: 5_000, count: 1 }]);

    // This week or the last 30 days include the backdated sale (its day is 2 days ago) in the series.
    const month = dashboardSalesResponseSchema.parse((await dashboard(c.owner!, 'dateFilter=last30Days')).body);
    expect(month.totals).toMatchObject({ totalRevenue: 90_000, totalCost: 54_000, saleCount: 4 });
    expect(month.range.granularity).toBe('day');
    expect(month.series.find((p) => p.period === daysFromToday(-2))).toMatchObject({ revenueCents: 40_000, costCents: 24_000, profitCents: 16_000, saleCount: 1 });
    expect(month.series.reduce((a, p) => a + p.revenueCents, 0)).toBe(90_000);
    expect(month.yearly.reduce((a, p) => a + p.revenueCents, 0)).toBe(90_000);

    // One branch; a payment method no sale used.
    const westlands = dashboardSalesResponseSchema.parse((await dashboard(c.owner!, `dateFilter=today&branchId=${ph.branches[1]!.id}`)).body);
    expect(westlands.totals).toMatchObject({ totalRevenue: 10_000, totalCost: 6_000, saleCount: 1, expensesCents: 0 });
    const mpesa = dashboardSalesResponseSchema.parse((await dashboard(c.owner!, 'dateFilter=today&paymentMethod=M-Pesa')).body);
    expect(mpesa.totals).toMatchObject({ totalRevenue: 0, saleCount: 0 });
    expect(mpesa.paymentMethod).toBe('M-Pesa');

    // Custom Range: the backdated day alone; an unknown filter is today.
    const custom = dashboardSalesResponseSchema.parse((await dashboard(c.owner!, `dateFilter=custom&startDate=${daysFromToday(-2)}&endDate=${daysFromToday(-2)}`)).body);
    expect(custom.totals).toMatchObject({ totalRevenue: 40_000, saleCount: 1 });
    const unknown = dashboardSalesResponseSchema.parse((await dashboard(c.owner!, 'dateFilter=nextDecade')).body);
    expect(unknown.range.preset).toBe('today');
    expect(unknown.totals.totalRevenue).toBe(50_000);

    // The other pharmacy sees none of it.
    expect(dashboardSalesResponseSchema.parse((await dashboard(otherOwner, 'dateFilter=last30Days')).body).totals.totalRevenue).toBe(0);
  });

  it('bad filters get a clear sentence; another pharmacy`s branch is 404; report:sales is required', async () => {
    const backwards = await dashboard(c.owner!, 'dateFilter=custom&startDate=2026-02-01&endDate=2026-01-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.message).toBe('The end date must be on or after the start date.');
    const long = await dashboard(c.owner!, 'dateFilter=custom&startDate=2019-01-01&endDate=2026-01-01');
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('Choose a range of at most 5 years.');
    const missing = await dashboard(c.owner!, 'dateFilter=custom&startDate=2026-01-01');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Choose a start date and an end date.');
    const badDate = await dashboard(c.owner!, 'dateFilter=custom&startDate=2026-02-30&endDate=2026-03-01');
    expect(badDate.status).toBe(400);
    expect(badDate.body.error.message).toBe('The start date must be a real date (YYYY-MM-DD).');
    const badBranch = await dashboard(c.owner!, 'branchId=not-a-uuid');
    expect(badBranch.status).toBe(400);
    expect((await dashboard(c.owner!, `branchId=${other.branches[0]!.id}`)).status).toBe(404);
    expect((await dashboard(c.owner!, `branchId=${randomUUID()}`)).status).toBe(404);

    expect((await dashboard(c.cashier!, '')).status).toBe(403);
    expect((await dashboard(c.manager!, '')).status).toBe(200);
    // The demo pharmacy's users read it (view-only).
    expect((await dashboard(c.demo!, '')).status).toBe(200);
    expect((await t.client().get('/api/dashboard/sales')).status).toBe(401);
  });
});
