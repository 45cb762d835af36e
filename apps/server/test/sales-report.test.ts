import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZERO_FIGURES, addFigures, reportFigures, type SalesReportResponse, type SummaryFigures } from '@pharmapoint/domain/sales-report';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

interface RawSale {
  day: string;
  week: string;
  month: string;
  branch_id: string;
  cashier_id: string;
  payment_method: string;
  hour: number;
  total_cents: number;
  discount_cents: number;
  tax_cents: number;
  returned: number;
  voided: number;
  cost: number;
  returned_cost: number;
}

interface RawLine {
  product_id: string;
  category: string | null;
  rate: number;
  quantity: number;
  total_cents: number;
  tax_cents: number;
  discount_cents: number;
  cost: number;
  returned_quantity: number;
  returned: number;
  returned_cost: number;
}

/**
 * The sales report (GET /api/reports/sales, /products, /slow-movers; decision 0096): after sales on two days, two
 * branches, two cashiers and two payment methods, a return and a void, every grouping equals what the raw sale rows
 * say (computed here straight from sales, lines, batch takes and returns); filters, bad input, another pharmacy's
 * branch, a cashier without report:sales, and a pharmacy with no sales.
 */
describe.each(testDatabaseKinds())('sales report on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  const product: Record<'exempt' | 'vat' | 'idle', string> = { exempt: '', vat: '', idle: '' };

  async function sell(who: TestClient, lines: { productId: string; quantity: number }[], extra: Record<string, unknown> = {}, method = 'Cash'): Promise<string> {
    const id = randomUUID();
    const body: Record<string, unknown> = { id, lines, payments: [{ method, amountCents: 1_000_000 }], ...extra };
    let res = await who.request('POST', '/api/sales', body, { 'idempotency-key': id });
    if (res.body.error?.code === 'SALE_EXACT_AMOUNT_REQUIRED') {
      const exact = Math.round(Number(String(res.body.error.values.total).replace(/[^0-9.]/g, '')) * 100);
      body.payments = [{ method, amountCents: exact }];
      res = await who.request('POST', '/api/sales', body, { 'idempotency-key': id });
    }
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'srep_ph', ['owner', 'manager', 'cashier']);
    other = await stockTestPharmacy(t.db, 'srep_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    const catalogue = [
      ['exempt', 'Paracetamol 500mg', 'Medicine', 10_000, 5_000, false],
      ['vat', 'Vitamin C 1000mg', 'Supplements', 2_500, 1_200, true],
      ['idle', 'Crutches', undefined, 40_000, 30_000, false],
    ] as const;
    for (const [key, name, category, price, cost, taxed] of catalogue) {
      const created = await c.owner!.post('/api/products', { name, sku: `SREP-${key}`, category, sellingPriceCents: price, purchasePriceCents: cost, taxApplied: taxed });
      expect(created.status).toBe(201);
      product[key] = created.body.product.id;
      for (const branch of ph.branches) {
        const r = await c.owner!.post(`/api/products/${product[key]}/batches`, { branchId: branch.id, batchNumber: `SR-${key}-${branch.name.slice(0, 4)}`, expiryDate: daysFromToday(400), quantity: 50, unitCostCents: cost });
        expect(r.status).toBe(201);
      }
    }
    // Today: the cashier in the first branch (cash), the owner in the second (M-Pesa, then voided), and the owner's
    // sale backdated 3 days with a 10 % discount; a return of one Vitamin C piece of the cashier's sale.
    const first = await sell(c.cashier!, [
      { productId: product.exempt, quantity: 2 },
      { productId: product.vat, quantity: 3 },
    ]);
    await sell(c.owner!, [{ productId: product.exempt, quantity: 1 }], { branchId: ph.branches[1]!.id }, 'M-Pesa');
    const voided = await sell(c.owner!, [{ productId: product.vat, quantity: 1 }], { branchId: ph.branches[1]!.id }, 'M-Pesa');
    await sell(c.owner!, [{ productId: product.vat, quantity: 2 }], { saleDate: daysFromToday(-3), discount: { type: 'percent', basisPoints: 1000 } });
    const ret = randomUUID();
    const returned = await c.manager!.request('POST', `/api/sales/${first}/returns`, { id: ret, lines: [{ line: 2, quantity: 1, condition: 'restock' }], refundMethod: 'Cash', reason: 'Changed mind' }, { 'idempotency-key': ret });
    expect(returned.status).toBe(201);
    const v = randomUUID();
    const voidRes = await c.manager!.request('POST', `/api/sales/${voided}/void`, { id: v, reason: 'Wrong client' }, { 'idempotency-key': v });
    expect(voidRes.status).toBe(201);
  });
  afterAll(async () => t?.close());

  async function rawSales(): Promise<RawSale[]> {
    return t.db.owner.query<RawSale>(
      `SELECT s.sale_date::text AS day, (s.sale_date - extract(dow FROM s.sale_date)::int)::text AS week, date_trunc('month', s.sale_date)::date::text AS month,
              s.branch_id, s.cashier_id, s.payment_method, extract(hour FROM s.created_at AT TIME ZONE 'Africa/Nairobi')::int AS hour,
              s.total_cents, s.discount_cents, s.tax_cents,
              (SELECT coalesce(sum(r.refund_cents), 0) FROM sale_returns r WHERE r.pharmacy_id = s.pharmacy_id AND r.sale_id = s.id)::bigint AS returned,
              (SELECT count(*) FROM sale_returns r WHERE r.pharmacy_id = s.pharmacy_id AND r.sale_id = s.id AND r.kind = 'void')::int AS voided,
              (SELECT coalesce(sum(b.quantity * b.unit_cost_cents), 0) FROM sale_item_batches b WHERE b.pharmacy_id = s.pharmacy_id AND b.sale_id = s.id)::bigint AS cost,
              (SELECT coalesce(sum(y.quantity * b.unit_cost_cents), 0) FROM sale_return_items y
                 JOIN sale_item_batches b ON b.pharmacy_id = y.pharmacy_id AND b.sale_id = y.sale_id AND b.line = y.line AND b.batch_id = y.batch_id
                WHERE y.pharmacy_id = s.pharmacy_id AND y.sale_id = s.id)::bigint AS returned_cost
         FROM sales s WHERE s.pharmacy_id = $1`,
      [ph.pharmacyId],
    );
  }

  async function rawLines(): Promise<RawLine[]> {
    return t.db.owner.query<RawLine>(
      `SELECT i.product_id, nullif(p.category, '') AS category, i.tax_rate_basis_points AS rate, i.quantity, i.total_cents, i.tax_cents, i.discount_cents,
              (SELECT sum(b.quantity * b.unit_cost_cents) FROM sale_item_batches b WHERE b.pharmacy_id = i.pharmacy_id AND b.sale_id = i.sale_id AND b.line = i.line)::bigint AS cost,
              (SELECT coalesce(sum(y.quantity), 0) FROM sale_return_items y WHERE y.pharmacy_id = i.pharmacy_id AND y.sale_id = i.sale_id AND y.line = i.line)::int AS returned_quantity,
              (SELECT coalesce(sum(y.refund_cents), 0) FROM sale_return_items y WHERE y.pharmacy_id = i.pharmacy_id AND y.sale_id = i.sale_id AND y.line = i.line)::bigint AS returned,
              (SELECT coalesce(sum(y.quantity * b.unit_cost_cents), 0) FROM sale_return_items y
                 JOIN sale_item_batches b ON b.pharmacy_id = y.pharmacy_id AND b.sale_id = y.sale_id AND b.line = y.line AND b.batch_id = y.batch_id
                WHERE y.pharmacy_id = i.pharmacy_id AND y.sale_id = i.sale_id AND y.line = i.line)::bigint AS returned_cost
         FROM sale_items i JOIN products p ON p.pharmacy_id = i.pharmacy_id AND p.id = i.product_id
        WHERE i.pharmacy_id = $1`,
      [ph.pharmacyId],
    );
  }

  function saleFigures(s: RawSale): SummaryFigures {
    return {
      saleCount: 1,
      voidCount: s.voided,
      revenueCents: s.total_cents,
      returnedCents: s.returned,
      costCents: s.cost,
      returnedCostCents: s.returned_cost,
      discountCents: s.discount_cents,
      taxCents: s.tax_cents,
    };
  }

  function expectedBy(sales: readonly RawSale[], key: (s: RawSale) => string) {
    const groups = new Map<string, SummaryFigures>();
    for (const s of sales) groups.set(key(s), addFigures(groups.get(key(s)) ?? ZERO_FIGURES, saleFigures(s)));
    return new Map([...groups].map(([k, f]) => [k, reportFigures(f)]));
  }

  async function report(query: string, who = c.owner!): Promise<SalesReportResponse> {
    const res = await who.get(`/api/reports/sales?${query}`);
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 200, error: undefined });
    return res.body as SalesReportResponse;
  }

  it('every grouping equals what the raw sale rows say', async () => {
    const sales = await rawSales();
    const lines = await rawLines();
    expect(sales).toHaveLength(4);
    for (const groupBy of ['day', 'week', 'month'] as const) {
      const r = await report(`dateFilter=last30Days&groupBy=${groupBy}`);
      expect(r.groupBy).toBe(groupBy);
      const expected = expectedBy(sales, (s) => s[groupBy]);
      expect(Object.fromEntries(r.byPeriod.map(({ period, ...f }) => [period, f]))).toEqual(Object.fromEntries(expected));
    }
    const r = await report('dateFilter=last30Days');
    const all = reportFigures(sales.map(saleFigures).reduce(addFigures, ZERO_FIGURES));
    expect(r.totals).toMatchObject({
      totalRevenue: all.revenueCents,
      totalCost: all.costCents,
      totalProfit: all.profitCents,
      profitMargin: all.marginPercent,
      status: all.status,
      saleCount: 3,
      voidCount: 1,
      returnCount: 1,
      discountCents: all.discountCents,
      taxCents: all.taxCents,
      returnedCents: all.returnedCents,
    });
    expect(all.discountCents).toBeGreaterThan(0);
    expect(all.returnedCents).toBeGreaterThan(0);
    expect(Object.fromEntries(r.byBranch.map(({ branchId, name: _n, ...f }) => [branchId, f]))).toEqual(Object.fromEntries(expectedBy(sales, (s) => s.branch_id)));
    expect(r.byBranch.map((b) => b.name).sort()).toEqual(['Main Branch', 'Westlands Branch']);
    expect(Object.fromEntries(r.byCashier.map(({ cashierId, name: _n, ...f }) => [cashierId, f]))).toEqual(Object.fromEntries(expectedBy(sales, (s) => s.cashier_id)));
    expect(Object.fromEntries(r.byPaymentMethod.map(({ method, ...f }) => [method, f]))).toEqual(Object.fromEntries(expectedBy(sales, (s) => s.payment_method)));

    // Hours: net sales and revenue by the hour each sale was recorded (Nairobi time); 24 rows.
    expect(r.byHour).toHaveLength(24);
    const hours = expectedBy(sales, (s) => String(s.hour));
    for (const h of r.byHour) {
      const e = hours.get(String(h.hour));
      expect({ hour: h.hour, saleCount: h.saleCount, revenueCents: h.revenueCents }).toEqual({ hour: h.hour, saleCount: e?.saleCount ?? 0, revenueCents: e?.revenueCents ?? 0 });
    }

    // Categories and products from the lines.
    const byCategory = new Map<string, { quantity: number; revenue: number; cost: number }>();
    for (const l of lines) {
      const k = l.category ?? 'Uncategorized';
      const seen = byCategory.get(k) ?? { quantity: 0, revenue: 0, cost: 0 };
      byCategory.set(k, { quantity: seen.quantity + l.quantity - l.returned_quantity, revenue: seen.revenue + l.total_cents - l.returned, cost: seen.cost + l.cost - l.returned_cost });
    }
    expect(Object.fromEntries(r.byCategory.map((x) => [x.category, { quantity: x.quantity, revenue: x.revenueCents, cost: x.costCents }]))).toEqual(Object.fromEntries(byCategory));
    expect([...byCategory.keys()].sort()).toEqual(['Medicine', 'Supplements']);

    // VAT by tax type: exempt medicines apart from 16 % VAT, net of the return (its tax share given back).
    const rates = new Map<number, { gross: number; tax: number }>();
    for (const l of lines) {
      const seen = rates.get(l.rate) ?? { gross: 0, tax: 0 };
      rates.set(l.rate, { gross: seen.gross + l.total_cents - l.returned, tax: seen.tax + l.tax_cents - Math.round((l.tax_cents * l.returned_quantity) / l.quantity) });
    }
    expect(r.vat.rows.map((v) => [v.label, v.rateBasisPoints, v.grossCents, v.taxCents, v.taxableCents])).toEqual([
      ['Exempt', 0, rates.get(0)!.gross, 0, rates.get(0)!.gross],
      ['VAT 16%', 1600, rates.get(1600)!.gross, rates.get(1600)!.tax, rates.get(1600)!.gross - rates.get(1600)!.tax],
    ]);
    expect(rates.get(1600)!.tax).toBeGreaterThan(0);

    // Top sellers by pieces sold, net of returns; the idle product is not among them.
    const pieces = new Map<string, number>();
    for (const l of lines) pieces.set(l.product_id, (pieces.get(l.product_id) ?? 0) + l.quantity - l.returned_quantity);
    expect(r.topSellers.map((p) => [p.productId, p.quantity])).toEqual([...pieces].filter(([, q]) => q > 0).sort((a, b) => b[1] - a[1]));
  });

  it('filters by date and branch; an unknown date filter is today', async () => {
    const today = await report('dateFilter=today');
    const sales = (await rawSales()).filter((s) => s.day === daysFromToday(0));
    expect(today.totals.totalRevenue).toBe(reportFigures(sales.map(saleFigures).reduce(addFigures, ZERO_FIGURES)).revenueCents);
    expect(today.byPeriod.map((p) => p.period)).toEqual([daysFromToday(0)]);
    const unknown = await report('dateFilter=nonsense');
    expect(unknown.range).toMatchObject({ preset: 'today', start: daysFromToday(0), end: daysFromToday(0) });
    expect(unknown.totals).toEqual(today.totals);

    const second = await report(`dateFilter=last30Days&branchId=${ph.branches[1]!.id}`);
    expect(second.byBranch.map((b) => b.branchId)).toEqual([ph.branches[1]!.id]);
    // The second branch's one sale that stayed (the other, of Vitamin C, was voided: nothing left of it).
    expect(second.totals).toMatchObject({ saleCount: 1, voidCount: 1 });
    expect(second.byCategory.map((x) => [x.category, x.quantity, x.revenueCents > 0])).toEqual([
      ['Medicine', 1, true],
      ['Supplements', 0, false],
    ]);

    const custom = await report(`dateFilter=custom&startDate=${daysFromToday(-3)}&endDate=${daysFromToday(-3)}`);
    expect(custom.totals.saleCount).toBe(1);
    expect(custom.vat.rows.map((v) => v.label)).toEqual(['VAT 16%']);
  });

  it('pages the products sold and the slow movers on the server', async () => {
    const page = await c.owner!.get('/api/reports/sales/products?dateFilter=last30Days&sort=name');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 2, page: 1, pageSize: 25 });
    expect(page.body.rows.map((r: { name: string }) => r.name)).toEqual(['Paracetamol 500mg', 'Vitamin C 1000mg']);
    const search = await c.owner!.get('/api/reports/sales/products?dateFilter=last30Days&search=vitamin');
    expect(search.body.rows.map((r: { name: string }) => r.name)).toEqual(['Vitamin C 1000mg']);
    const beyond = await c.owner!.get('/api/reports/sales/products?dateFilter=last30Days&page=2');
    expect(beyond.body).toMatchObject({ rows: [], total: 0, page: 2 });

    const slow = await c.owner!.get(`/api/reports/sales/slow-movers?branchId=${ph.branches[0]!.id}`);
    expect(slow.status).toBe(200);
    expect(slow.body).toMatchObject({ days: 30, total: 1, page: 1 });
    expect(slow.body.rows).toEqual([
      expect.objectContaining({ productId: product.idle, branchId: ph.branches[0]!.id, stock: 50, stockValueCents: 50 * 30_000, lastSoldOn: null, category: null }),
    ]);
    // Over both branches: the idle product in each. A voided sale still made its day's row: not slow over one day.
    const all = await c.owner!.get('/api/reports/sales/slow-movers');
    expect(all.body.rows.map((r: { productId: string }) => r.productId).filter((id: string) => id === product.idle)).toHaveLength(2);
    const shortWindow = await c.owner!.get(`/api/reports/sales/slow-movers?days=1&branchId=${ph.branches[1]!.id}`);
    expect(shortWindow.body.rows.map((r: { productId: string }) => r.productId)).toEqual([product.idle]);
  });

  it('refuses bad input with a sentence, another pharmacy branch with 404, a cashier with 403', async () => {
    const endBefore = await c.owner!.get(`/api/reports/sales?dateFilter=custom&startDate=${daysFromToday(0)}&endDate=${daysFromToday(-1)}`);
    expect(endBefore.status).toBe(400);
    expect(endBefore.body.error.message).toBe('The end date must be on or after the start date.');
    const tooLong = await c.owner!.get('/api/reports/sales?dateFilter=custom&startDate=2019-01-01&endDate=2025-01-02');
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toBe('Choose a range of at most 5 years.');
    const noDates = await c.owner!.get('/api/reports/sales/products?dateFilter=custom');
    expect(noDates.status).toBe(400);
    expect(noDates.body.error.message).toBe('Choose a start date and an end date.');
    const badGroup = await c.owner!.get('/api/reports/sales?groupBy=year');
    expect(badGroup.status).toBe(400);
    const badDays = await c.owner!.get('/api/reports/sales/slow-movers?days=0');
    expect(badDays.status).toBe(400);
    expect(badDays.body.error.message).toContain('Days without a sale must be a whole number from 1 to 365.');
    const badBranch = await c.owner!.get('/api/reports/sales?branchId=not-a-uuid');
    expect(badBranch.status).toBe(400);

    for (const path of ['/api/reports/sales', '/api/reports/sales/products', '/api/reports/sales/slow-movers']) {
      expect((await c.owner!.get(`${path}?branchId=${other.branches[0]!.id}`)).status).toBe(404);
      expect((await c.cashier!.get(path)).status).toBe(403);
    }
  });

  it('a pharmacy with no sales answers zeros and empty lists', async () => {
    const r = await report('dateFilter=last3Months', otherOwner);
    expect(r.totals).toMatchObject({ totalRevenue: 0, totalCost: 0, totalProfit: 0, profitMargin: 0, status: 'Break Even', saleCount: 0, voidCount: 0, returnCount: 0 });
    expect(r).toMatchObject({ byPeriod: [], byBranch: [], byCashier: [], byPaymentMethod: [], byCategory: [], topSellers: [], vat: { rows: [], total: { grossCents: 0, taxableCents: 0, taxCents: 0 } } });
    expect(r.byHour.every((h) => h.saleCount === 0 && h.revenueCents === 0)).toBe(true);
    expect((await otherOwner.get('/api/reports/sales/products')).body).toMatchObject({ rows: [], total: 0 });
    expect((await otherOwner.get('/api/reports/sales/slow-movers')).body).toMatchObject({ rows: [], total: 0 });
  });

  it('counts a sale at its hour in the pharmacy time zone, and a zone the database does not know falls back to Nairobi', async () => {
    const hourOf = async (id: string, zone: string) =>
      (
        await t.db.owner.query<{ sale: number; kept: number }>(
          `SELECT extract(hour FROM s.created_at AT TIME ZONE $3)::int AS sale,
                  (SELECT count(*)::int FROM daily_hour_sales h WHERE h.pharmacy_id = $1 AND h.branch_id = s.branch_id AND h.business_day = s.sale_date
                      AND h.hour = extract(hour FROM s.created_at AT TIME ZONE $3)) AS kept
             FROM sales s WHERE s.pharmacy_id = $1 AND s.id = $2`,
          [ph.pharmacyId, id, zone],
        )
      )[0]!;
    for (const [zone, expected] of [
      ['Asia/Tokyo', 'Asia/Tokyo'],
      ['Mars/Olympus_Mons', 'Africa/Nairobi'],
    ] as const) {
      await t.db.owner.query(`UPDATE settings SET document = jsonb_set(document, '{timezone}', to_jsonb($2::text)) WHERE pharmacy_id = $1`, [ph.pharmacyId, zone]);
      const id = await sell(c.owner!, [{ productId: product.exempt, quantity: 1 }]);
      expect((await hourOf(id, expected)).kept).toBe(1);
    }
  });
});
