import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, pickWeighted, prng, stockTestPharmacy } from './stock-helpers.ts';

const NIL = '00000000-0000-0000-0000-000000000000';

/** Every row where the kept per-day summaries differ from a full recomputation from the raw rows; empty when all is well. */
export async function summaryDrift(db: Database, pharmacyId: string): Promise<unknown[]> {
  const lineCosts = `
    SELECT i.*, CASE WHEN t.cost IS NOT NULL THEN t.cost WHEN i.cost_cents > 0 THEN i.cost_cents * i.quantity ELSE round(i.total_cents * 0.7)::bigint END AS line_cost,
           CASE WHEN t.cost IS NULL AND i.cost_cents = 0 THEN round(i.total_cents * 0.7)::bigint ELSE 0 END AS line_estimated
      FROM sale_items i
      LEFT JOIN (SELECT sale_id, line, sum(quantity * unit_cost_cents)::bigint AS cost FROM sale_item_batches WHERE pharmacy_id = $1 GROUP BY 1, 2) t
        ON t.sale_id = i.sale_id AND t.line = i.line
     WHERE i.pharmacy_id = $1`;
  const returnCosts = `
    SELECT y.sale_id, y.line, y.quantity, y.refund_cents, y.quantity * b.unit_cost_cents AS cost
      FROM sale_return_items y
      JOIN sale_item_batches b ON b.pharmacy_id = y.pharmacy_id AND b.sale_id = y.sale_id AND b.line = y.line AND b.batch_id = y.batch_id
     WHERE y.pharmacy_id = $1`;
  const sales = await db.owner.query(
    `WITH truth AS (
       SELECT s.branch_id, s.sale_date AS business_day, s.payment_method, coalesce(s.cashier_id, '${NIL}') AS cashier_id,
              count(*)::int AS sale_count,
              coalesce(sum((SELECT count(*) FROM sale_returns r WHERE r.pharmacy_id = $1 AND r.sale_id = s.id AND r.kind = 'void')), 0)::int AS void_count,
              coalesce(sum((SELECT count(*) FROM sale_returns r WHERE r.pharmacy_id = $1 AND r.sale_id = s.id AND r.kind = 'return')), 0)::int AS return_count,
              sum(s.total_cents)::bigint AS revenue_cents, sum(s.subtotal_cents)::bigint AS subtotal_cents,
              sum(s.discount_cents)::bigint AS discount_cents, sum(s.tax_cents)::bigint AS tax_cents,
              coalesce(sum((SELECT sum(l.line_cost) FROM (${lineCosts}) l WHERE l.sale_id = s.id)), 0)::bigint AS cost_cents,
              coalesce(sum((SELECT sum(l.line_estimated) FROM (${lineCosts}) l WHERE l.sale_id = s.id)), 0)::bigint AS estimated_cost_cents,
              coalesce(sum((SELECT sum(r.refund_cents) FROM sale_returns r WHERE r.pharmacy_id = $1 AND r.sale_id = s.id)), 0)::bigint AS returned_cents,
              coalesce(sum((SELECT sum(rc.cost) FROM (${returnCosts}) rc WHERE rc.sale_id = s.id)), 0)::bigint AS returned_cost_cents
         FROM sales s
        -- A sale counts with its line 1 (every sale has lines).
        WHERE s.pharmacy_id = $1 AND EXISTS (SELECT 1 FROM sale_items one WHERE one.pharmacy_id = $1 AND one.sale_id = s.id AND one.line = 1)
        GROUP BY 1, 2, 3, 4),
     kept AS (
       SELECT branch_id, business_day, payment_method, cashier_id, sale_count, void_count, return_count, revenue_cents, subtotal_cents, discount_cents,
              tax_cents, cost_cents, estimated_cost_cents, returned_cents, returned_cost_cents
         FROM daily_sales WHERE pharmacy_id = $1)
     (SELECT 'missing' AS drift, * FROM (SELECT * FROM truth EXCEPT SELECT * FROM kept) m)
     UNION ALL
     (SELECT 'extra' AS drift, * FROM (SELECT * FROM kept EXCEPT SELECT * FROM truth) e)`,
    [pharmacyId],
  );
  const products = await db.owner.query(
    `WITH truth AS (
       SELECT s.branch_id, s.sale_date AS business_day, l.product_id, sum(l.quantity)::bigint AS quantity, count(*)::int AS line_count,
              sum(l.total_cents)::bigint AS revenue_cents, sum(l.gross_cents)::bigint AS gross_cents, sum(l.discount_cents)::bigint AS discount_cents,
              sum(l.tax_cents)::bigint AS tax_cents, sum(l.line_cost)::bigint AS cost_cents, sum(l.line_estimated)::bigint AS estimated_cost_cents,
              coalesce(sum((SELECT sum(rc.quantity) FROM (${returnCosts}) rc WHERE rc.sale_id = l.sale_id AND rc.line = l.line)), 0)::bigint AS returned_quantity,
              coalesce(sum((SELECT sum(rc.refund_cents) FROM (${returnCosts}) rc WHERE rc.sale_id = l.sale_id AND rc.line = l.line)), 0)::bigint AS returned_cents,
              coalesce(sum((SELECT sum(rc.cost) FROM (${returnCosts}) rc WHERE rc.sale_id = l.sale_id AND rc.line = l.line)), 0)::bigint AS returned_cost_cents
         FROM (${lineCosts}) l JOIN sales s ON s.pharmacy_id = $1 AND s.id = l.sale_id
        GROUP BY 1, 2, 3),
     kept AS (
       SELECT branch_id, business_day, product_id, quantity, line_count, revenue_cents, gross_cents, discount_cents, tax_cents, cost_cents,
              estimated_cost_cents, returned_quantity, returned_cents, returned_cost_cents
         FROM daily_product_sales WHERE pharmacy_id = $1)
     (SELECT 'missing' AS drift, * FROM (SELECT * FROM truth EXCEPT SELECT * FROM kept) m)
     UNION ALL
     (SELECT 'extra' AS drift, * FROM (SELECT * FROM kept EXCEPT SELECT * FROM truth) e)`,
    [pharmacyId],
  );
  const expenses = await db.owner.query(
    `WITH truth AS (
       SELECT branch_id, expense_date AS business_day, category, count(*)::int AS expense_count, sum(total_cents)::bigint AS amount_cents
         FROM expenses WHERE pharmacy_id = $1 AND status = 'approved' AND voided_at IS NULL GROUP BY 1, 2, 3),
     kept AS (SELECT branch_id, business_day, category, expense_count, amount_cents FROM daily_expenses WHERE pharmacy_id = $1 AND expense_count <> 0)
     (SELECT 'missing' AS drift, * FROM (SELECT * FROM truth EXCEPT SELECT * FROM kept) m)
     UNION ALL
     (SELECT 'extra' AS drift, * FROM (SELECT * FROM kept EXCEPT SELECT * FROM truth) e)`,
    [pharmacyId],
  );
  return [
    ...sales.map((r) => ({ table: 'daily_sales', ...r })),
    ...products.map((r) => ({ table: 'daily_product_sales', ...r })),
    ...expenses.map((r) => ({ table: 'daily_expenses', ...r })),
    ...(await salesReportSummaryDrift(db, pharmacyId)),
  ];
}

/**
 * The sales report's summaries of migration 0054 against the raw rows: daily_hour_sales by the hour each sale was
 * recorded in the pharmacy's time zone, daily_tax_sales by the lines' tax rate (a return's tax is the line's tax
 * times the share of its pieces returned).
 */
export async function salesReportSummaryDrift(db: Database, pharmacyId: string): Promise<unknown[]> {
  const hours = await db.owner.query(
    `WITH truth AS (
       SELECT s.branch_id, s.sale_date AS business_day, extract(hour FROM s.created_at AT TIME ZONE pharmacy_time_zone(s.pharmacy_id))::smallint AS hour,
              count(*)::int AS sale_count,
              coalesce(sum((SELECT count(*) FROM sale_returns r WHERE r.pharmacy_id = $1 AND r.sale_id = s.id AND r.kind = 'void')), 0)::int AS void_count,
              sum(s.total_cents)::bigint AS revenue_cents,
              coalesce(sum((SELECT sum(r.refund_cents) FROM sale_returns r WHERE r.pharmacy_id = $1 AND r.sale_id = s.id)), 0)::bigint AS returned_cents
         FROM sales s WHERE s.pharmacy_id = $1
        GROUP BY 1, 2, 3),
     kept AS (SELECT branch_id, business_day, hour, sale_count, void_count, revenue_cents, returned_cents FROM daily_hour_sales WHERE pharmacy_id = $1)
     (SELECT 'missing' AS drift, * FROM (SELECT * FROM truth EXCEPT SELECT * FROM kept) m)
     UNION ALL
     (SELECT 'extra' AS drift, * FROM (SELECT * FROM kept EXCEPT SELECT * FROM truth) e)`,
    [pharmacyId],
  );
  const taxes = await db.owner.query(
    `WITH returned AS (
       SELECT sale_id, line, sum(quantity) AS quantity, sum(refund_cents) AS refund_cents FROM sale_return_items WHERE pharmacy_id = $1 GROUP BY 1, 2),
     truth AS (
       SELECT s.branch_id, s.sale_date AS business_day, i.tax_rate_basis_points, count(*)::int AS line_count, sum(i.total_cents)::bigint AS revenue_cents,
              sum(i.tax_cents)::bigint AS tax_cents, coalesce(sum(r.refund_cents), 0)::bigint AS returned_cents,
              coalesce(sum(round(i.tax_cents * r.quantity::numeric / i.quantity)), 0)::bigint AS returned_tax_cents
         FROM sale_items i
         JOIN sales s ON s.pharmacy_id = $1 AND s.id = i.sale_id
         LEFT JOIN returned r ON r.sale_id = i.sale_id AND r.line = i.line
        WHERE i.pharmacy_id = $1
        GROUP BY 1, 2, 3),
     kept AS (SELECT branch_id, business_day, tax_rate_basis_points, line_count, revenue_cents, tax_cents, returned_cents, returned_tax_cents
                FROM daily_tax_sales WHERE pharmacy_id = $1)
     (SELECT 'missing' AS drift, * FROM (SELECT * FROM truth EXCEPT SELECT * FROM kept) m)
     UNION ALL
     (SELECT 'extra' AS drift, * FROM (SELECT * FROM kept EXCEPT SELECT * FROM truth) e)`,
    [pharmacyId],
  );
  return [...hours.map((r) => ({ table: 'daily_hour_sales', ...r })), ...taxes.map((r) => ({ table: 'daily_tax_sales', ...r }))];
}

/**
 * The per-day summaries (decision 0094) kept by the triggers of migration 0050 equal what the raw rows say after a
 * seeded random mix of sales (several lines, batches of different costs, both branches, cashiers, payment methods,
 * backdated days), returns (restocked and damaged), voids, expenses (approved, later rejected) and a line with no
 * cost at all (estimated at 70 %); the migration's backfill rebuilds the same rows from the raw rows.
 */
describe.each(testDatabaseKinds())('per-day summaries on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  const products: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'dsum_ph', ['owner', 'manager', 'cashier']);
    c = await clientsOf(t, ph);
    const catalogue: [number, number][] = [
      [10_000, 5000],
      [2500, 1200],
      [40_000, 30_000],
    ];
    for (const [i, [price, cost]] of catalogue.entries()) {
      const created = await c.owner!.post('/api/products', { name: `Summary product ${i}`, sku: `DSUM${i}`, sellingPriceCents: price, purchasePriceCents: cost, taxApplied: i === 1 });
      expect(created.status).toBe(201);
      const id = created.body.product.id as string;
      products.push(id);
      for (const branch of ph.branches) {
        // Two batches of different costs in each branch, so a line may take from both.
        const takes: [number, number][] = [
          [40, cost - 100],
          [400, cost + 100],
        ];
        for (const [n, [days, unitCost]] of takes.entries()) {
          const r = await c.owner!.post(`/api/products/${id}/batches`, {
            branchId: branch.id,
            batchNumber: `B${i}-${n}-${branch.name.slice(0, 4)}`,
            expiryDate: daysFromToday(days),
            quantity: 60,
            unitCostCents: unitCost,
          });
          expect(r.status).toBe(201);
        }
      }
    }
  });
  afterAll(async () => t?.close());

  it('after a seeded random mix of sales, returns, voids, expenses and backdated sales the summaries equal the raw rows', async () => {
    const random = prng(20_261_128);
    const sold: { id: string; lines: number }[] = [];
    const expenses: string[] = [];
    const methods = ['Cash', 'M-Pesa', 'Card'];
    for (let step = 0; step < 60; step++) {
      const action = pickWeighted(random, [
        ['sale', 6],
        ['return', 2],
        ['void', 1],
        ['expense', 2],
        ['expense change', 1],
      ] as const);
      if (action === 'sale' || sold.length === 0) {
        const who = random() < 0.5 ? c.cashier! : c.owner!;
        const branchId = who === c.owner && random() < 0.5 ? ph.branches[1]!.id : undefined;
        const count = 1 + Math.floor(random() * 3);
        const lines = products.slice(0, count).map((productId) => ({ productId, quantity: 1 + Math.floor(random() * 3) }));
        const id = randomUUID();
        const body: Record<string, unknown> = { id, lines, payments: [{ method: methods[Math.floor(random() * methods.length)]!, amountCents: 1_000_000 }] };
        if (branchId) body.branchId = branchId;
        if (random() < 0.25) body.saleDate = daysFromToday(-1 - Math.floor(random() * 5));
        if (who === c.owner && random() < 0.4) body.discount = { type: 'percent', basisPoints: 1000 };
        let res = await who.request('POST', '/api/sales', body, { 'idempotency-key': id });
        if (res.body.error?.code === 'SALE_EXACT_AMOUNT_REQUIRED') {
          // M-Pesa and card take the exact total: pay what the server priced.
          const exact = Math.round(Number(String(res.body.error.values.total).replace(/[^0-9.]/g, '')) * 100);
          body.payments = [{ method: (body.payments as { method: string }[])[0]!.method, amountCents: exact }];
          res = await who.request('POST', '/api/sales', body, { 'idempotency-key': id });
        }
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
        sold.push({ id, lines: count });
      } else if (action === 'return') {
        const sale = sold[Math.floor(random() * sold.length)]!;
        const id = randomUUID();
        const res = await c.manager!.request(
          'POST',
          `/api/sales/${sale.id}/returns`,
          { id, lines: [{ line: 1 + Math.floor(random() * sale.lines), quantity: 1, condition: random() < 0.3 ? 'damaged' : 'restock' }], refundMethod: 'Cash', reason: 'Changed mind' },
          { 'idempotency-key': id },
        );
        // A line already given back, or a voided sale, is refused: nothing written either way.
        expect([201, 409]).toContain(res.status);
      } else if (action === 'void') {
        const sale = sold[Math.floor(random() * sold.length)]!;
        const id = randomUUID();
        const res = await c.manager!.request('POST', `/api/sales/${sale.id}/void`, { id, reason: 'Wrong client' }, { 'idempotency-key': id });
        expect([201, 409]).toContain(res.status);
      } else if (action === 'expense change' && expenses.length > 0) {
        // An expense edited in the back office (amount, category and day move) or voided (it leaves every total).
        const id = expenses[Math.floor(random() * expenses.length)]!;
        const res =
          random() < 0.5
            ? await c.owner!.put(`/api/expenses/${id}`, { description: 'Corrected', category: random() < 0.5 ? 'Office Supplies' : 'Rent', amountCents: 500 + Math.floor(random() * 9_000), date: daysFromToday(-Math.floor(random() * 3)) })
            : await c.owner!.request('POST', `/api/expenses/${id}/void`, { reason: 'Entered twice' }, { 'idempotency-key': randomUUID() });
        // A voided expense can no longer change: refused, nothing written.
        expect([200, 201, 409], JSON.stringify(res.body)).toContain(res.status);
      } else {
        const res = await c.cashier!.request(
          'POST',
          '/api/expenses',
          { description: 'Supplies', category: random() < 0.5 ? 'Office Supplies' : 'Rent', amountCents: 1000 + Math.floor(random() * 50_000) },
          { 'idempotency-key': randomUUID() },
        );
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
        expenses.push(res.body.id);
      }
    }
    // An expense rejected later leaves the summaries; a line without batch takes or cost is estimated at 70 % of its total.
    await t.db.owner.query(
      `UPDATE expenses SET status = 'rejected', source = 'manual' WHERE pharmacy_id = $1 AND id = (SELECT id FROM expenses WHERE pharmacy_id = $1 AND voided_at IS NULL ORDER BY created_at LIMIT 1)`,
      [ph.pharmacyId],
    );
    const bare = randomUUID();
    await t.db.owner.query(
      `WITH s AS (INSERT INTO sales (pharmacy_id, id, invoice_number, branch_id, client_name, cashier_name, sale_date, subtotal_cents, total_cents, amount_paid_cents, payment_method)
                  VALUES ($1, $2, 'INV-900001', $3, 'Walk-in Customer', 'Imported', $4, 1000, 1000, 1000, 'Cash'))
       INSERT INTO sale_items (pharmacy_id, sale_id, line, product_id, name, quantity, unit_mode, package_size, unit_price_cents, list_price_cents, cost_cents, gross_cents, total_cents)
       VALUES ($1, $2, 1, $5, 'Imported line', 1, 'P', 1, 1000, 1000, 0, 1000, 1000)`,
      [ph.pharmacyId, bare, ph.branches[0]!.id, daysFromToday(-2), products[0]],
    );

    expect(await summaryDrift(t.db, ph.pharmacyId)).toEqual([]);
    const [figures] = await t.db.owner.query<{ sales: number; voids: number; returns: number; estimated: number; days: number }>(
      `SELECT sum(sale_count)::int AS sales, sum(void_count)::int AS voids, sum(return_count)::int AS returns, sum(estimated_cost_cents)::int AS estimated,
              count(DISTINCT business_day)::int AS days
         FROM daily_sales WHERE pharmacy_id = $1`,
      [ph.pharmacyId],
    );
    // The mix did what it says: sales on several days, returns, voids, and the one estimated line (700 of 1000).
    expect(figures!.sales).toBeGreaterThan(15);
    expect(figures!.voids).toBeGreaterThan(0);
    expect(figures!.returns).toBeGreaterThan(0);
    expect(figures!.estimated).toBe(700);
    const [changed] = await t.db.owner.query<{ voided: number; edited: number }>(
      `SELECT count(*) FILTER (WHERE voided_at IS NOT NULL)::int AS voided, count(*) FILTER (WHERE updated_by IS NOT NULL AND voided_at IS NULL)::int AS edited
         FROM expenses WHERE pharmacy_id = $1`,
      [ph.pharmacyId],
    );
    expect(changed!.voided).toBeGreaterThan(0);
    expect(changed!.edited).toBeGreaterThan(0);
    expect(figures!.days).toBeGreaterThan(1);

    // The migration's backfill rebuilds the same rows from the raw rows.
    const migration = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations/0050_daily_summaries.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('-- The summaries of what was recorded before them.'), migration.indexOf('ALTER TABLE daily_sales ENABLE'));
    const before = await t.db.owner.query(`SELECT * FROM daily_sales WHERE pharmacy_id = $1 ORDER BY 1, 2, 3, 4, 5`, [ph.pharmacyId]);
    // 0055 rebuilds the expenses' summary without the voided ones.
    const expenses0055 = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations/0055_expense_summaries_leave_voided.sql'), 'utf8');
    const expensesBackfill = expenses0055.slice(expenses0055.indexOf('DELETE FROM daily_expenses;'));
    await t.db.ownerSession((s) => s.exec(`DELETE FROM daily_sales; DELETE FROM daily_product_sales; DELETE FROM daily_expenses; ${backfill} DROP VIEW sale_line_costs; ${expensesBackfill}`));
    expect(await summaryDrift(t.db, ph.pharmacyId)).toEqual([]);
    expect(await t.db.owner.query(`SELECT * FROM daily_sales WHERE pharmacy_id = $1 ORDER BY 1, 2, 3, 4, 5`, [ph.pharmacyId])).toEqual(before);
  });

  it('concurrent sales and returns of one branch and day add up: every change counted once, none lost', async () => {
    const sell = (who: TestClient, quantity: number) => {
      const id = randomUUID();
      return who.request('POST', '/api/sales', { id, lines: [{ productId: products[1]!, quantity }, { productId: products[0]!, quantity: 1 }], payments: [{ method: 'Cash', amountCents: 1_000_000 }] }, { 'idempotency-key': id });
    };
    const sales = await Promise.all(Array.from({ length: 12 }, (_, i) => sell(i % 2 ? c.owner! : c.cashier!, 1 + (i % 3))));
    expect(sales.map((r) => r.status)).toEqual(Array(12).fill(201));
    const returns = await Promise.all(
      sales.slice(0, 6).map((r) => {
        const id = randomUUID();
        return c.manager!.request('POST', `/api/sales/${r.body.id}/returns`, { id, lines: [{ line: 2, quantity: 1 }], refundMethod: 'Cash' }, { 'idempotency-key': id });
      }),
    );
    expect(returns.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(await summaryDrift(t.db, ph.pharmacyId)).toEqual([]);
  });

  it('the sales report summaries (hours, tax rates) cover both rates and returns, and migration 0054 backfills the same rows', async () => {
    const [rates] = await t.db.owner.query<{ rates: number[]; returned_tax: number }>(
      `SELECT array_agg(DISTINCT tax_rate_basis_points ORDER BY tax_rate_basis_points) AS rates, sum(returned_tax_cents)::int AS returned_tax
         FROM daily_tax_sales WHERE pharmacy_id = $1`,
      [ph.pharmacyId],
    );
    expect(rates!.rates).toEqual([0, 1600]);
    expect(await salesReportSummaryDrift(t.db, ph.pharmacyId)).toEqual([]);
    const migration = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations/0054_sales_report_summaries.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('-- The summaries of what was recorded before them.'), migration.indexOf('ALTER TABLE daily_hour_sales ENABLE'));
    const before = await t.db.owner.query(`SELECT * FROM daily_tax_sales WHERE pharmacy_id = $1 ORDER BY 1, 2, 3, 4`, [ph.pharmacyId]);
    const hours = await t.db.owner.query(`SELECT * FROM daily_hour_sales WHERE pharmacy_id = $1 ORDER BY 1, 2, 3, 4`, [ph.pharmacyId]);
    await t.db.ownerSession((s) => s.exec(`DELETE FROM daily_hour_sales; DELETE FROM daily_tax_sales; ${backfill}`));
    expect(await t.db.owner.query(`SELECT * FROM daily_tax_sales WHERE pharmacy_id = $1 ORDER BY 1, 2, 3, 4`, [ph.pharmacyId])).toEqual(before);
    expect(await t.db.owner.query(`SELECT * FROM daily_hour_sales WHERE pharmacy_id = $1 ORDER BY 1, 2, 3, 4`, [ph.pharmacyId])).toEqual(hours);
  });
});
