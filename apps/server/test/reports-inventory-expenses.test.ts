import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expenseReportResponseSchema } from '@pharmapoint/domain/expense-report';
import { expenseSchema } from '@pharmapoint/domain/expenses';
import { inventoryReportResponseSchema, stockAdjustmentReportResponseSchema, stockTransferReportResponseSchema } from '@pharmapoint/domain/inventory-report';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * The expense report with expenses kept by hand (record, edit, void), the inventory report, the stock adjustments
 * report and the stock transfers summary: figures against the raw rows, filters, bad input, other tenants, rights.
 */
describe.each(testDatabaseKinds())('expense and inventory reports on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let other: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;
  let main: string;
  let west: string;
  let amox: string;
  let para: string;

  const today = () => daysFromToday(0);
  const manual = (who: TestClient, body: Record<string, unknown>, key = randomUUID()) => who.request('POST', '/api/expenses/manual', body, { 'idempotency-key': key });
  const till = (who: TestClient, body: Record<string, unknown>) => who.request('POST', '/api/expenses', body, { 'idempotency-key': randomUUID() });
  const voidIt = (who: TestClient, id: string, reason: string, key = randomUUID()) => who.request('POST', `/api/expenses/${id}/void`, { reason }, { 'idempotency-key': key });

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'invexp_ph', ['owner', 'manager', 'accounts', 'inventory', 'cashier']);
    other = await stockTestPharmacy(t.db, 'invexp_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
    main = ph.branches[0]!.id;
    west = ph.branches[1]!.id;
    const product = async (body: Record<string, unknown>) => {
      const r = await c.owner!.post('/api/products', { sellingPriceCents: 10_000, purchasePriceCents: 5_000, ...body });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.product.id as string;
    };
    amox = await product({ name: 'Amoxicillin 250mg', sku: 'AMX', category: 'Medicine', reorderLevel: 10 });
    para = await product({ name: 'Paracetamol 500mg', sku: 'PCM', category: 'Supplies', reorderLevel: 5, sellingPriceCents: 200 });
    const batch = async (productId: string, branchId: string, batchNumber: string, days: number, quantity: number, unitCostCents: number) => {
      const r = await c.owner!.post(`/api/products/${productId}/batches`, { branchId, batchNumber, expiryDate: daysFromToday(days), quantity, unitCostCents });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    // Main: amox 10 expiring in 20 days at 40.00 + 20 in a year at 60.00; para 100 expiring in 10 days at 1.00.
    await batch(amox, main, 'AMX-SOON', 20, 10, 4_000);
    await batch(amox, main, 'AMX-LATE', 365, 20, 6_000);
    await batch(para, main, 'PCM-1', 10, 100, 100);
    // Westlands: amox 3 expiring in 900 days at 50.00, never sold there.
    await batch(amox, west, 'AMX-W', 900, 3, 5_000);
    // Sales at Main: 15 amox (from AMX-SOON first) today and 30 days ago (outside the window); 30 para.
    const sell = async (productId: string, quantity: number, saleDate?: string) => {
      const id = randomUUID();
      const r = await c.owner!.request('POST', '/api/sales', { id, ...(saleDate ? { saleDate } : {}), lines: [{ productId, quantity }], payments: [{ method: 'Cash', amountCents: 10_000_000 }] }, { 'idempotency-key': id });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    await sell(amox, 6);
    await sell(para, 30);
    await sell(amox, 1, daysFromToday(-30));
  });
  afterAll(async () => t?.close());

  // ----------------------------------------------------------------------------------------- expenses

  describe('expenses kept by hand', () => {
    it('accounts staff record an expense in the back office: source manual, approved, audited, idempotent', async () => {
      const key = randomUUID();
      const body = { description: 'Bank charges for October', category: 'Bank Charges', amountCents: 25_000, paymentMethod: 'Bank Transfer', date: daysFromToday(-2), branchId: west };
      const first = await manual(c.accounts!, body, key);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const e = expenseSchema.parse(first.body);
      expect(e).toMatchObject({ source: 'manual', status: 'approved', branchId: west, date: daysFromToday(-2), totalCents: 25_000, voidedAt: null, approvedBy: ph.users.accounts });
      const again = await manual(c.accounts!, body, key);
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(e.id);
      const [n] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM expenses WHERE pharmacy_id = $1 AND description = 'Bank charges for October'`, [ph.pharmacyId]);
      expect(n!.n).toBe(1);
      const [audit] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE pharmacy_id = $1 AND action = 'expense.create' AND entity_id = $2`, [ph.pharmacyId, e.id]);
      expect(audit!.n).toBe(1);
    });

    it('refuses a future date, a bad category and the cashier; a demo-free role without report:financial is 403', async () => {
      expect((await manual(c.owner!, { description: 'x', category: 'Rent', amountCents: 100, date: daysFromToday(3) })).body.error.code).toBe('EXPENSE_DATE_IN_FUTURE');
      const bad = await manual(c.owner!, { description: 'x', category: 'Holidays', amountCents: 100 });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.issues[0].message).toBe('Choose a category from the list.');
      expect((await manual(c.cashier!, { description: 'x', category: 'Rent', amountCents: 100 })).status).toBe(403);
      expect((await manual(c.inventory!, { description: 'x', category: 'Rent', amountCents: 100 })).status).toBe(403);
    });

    it('edits an expense (a transport one gains its section and total), audited with before and after', async () => {
      const created = await manual(c.manager!, { description: 'Fuel', category: 'Office Supplies', amountCents: 10_000 });
      const id = created.body.id as string;
      const res = await c.manager!.put(`/api/expenses/${id}`, {
        description: 'Fuel for delivery',
        category: 'Transport - Fuel',
        amountCents: 10_000,
        paymentMethod: 'M-Pesa',
        transport: { destination: 'Karen', reason: 'Delivery', transportType: 'Company Vehicle', fuelCents: 2_000, parkingCents: 500 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const e = expenseSchema.parse(res.body);
      expect(e).toMatchObject({ description: 'Fuel for delivery', category: 'Transport - Fuel', totalCents: 12_500, source: 'manual', paymentMethod: 'M-Pesa' });
      expect(e.transport).toMatchObject({ destination: 'Karen', fuelCents: 2_000, parkingCents: 500, totalTransportCostCents: 12_500 });
      const [row] = await t.db.owner.query<{ before: { description: string }; after: { description: string } }>(
        `SELECT before, after FROM audit_log WHERE pharmacy_id = $1 AND action = 'expense.update' AND entity_id = $2`,
        [ph.pharmacyId, id],
      );
      expect(row!.before.description).toBe('Fuel');
      expect(row!.after.description).toBe('Fuel for delivery');
      expect((await c.cashier!.put(`/api/expenses/${id}`, { description: 'x', category: 'Rent', amountCents: 1 })).status).toBe(403);
    });

    it('voids an expense once (a repeat with its key replays, without it is 409); a voided expense is not edited; audited', async () => {
      const created = await manual(c.owner!, { description: 'Duplicate rent', category: 'Rent', amountCents: 50_000 });
      const id = created.body.id as string;
      const key = randomUUID();
      const first = await voidIt(c.owner!, id, ' Entered twice ', key);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ voidReason: 'Entered twice', voidedBy: { id: ph.users.owner } });
      expect(first.body.voidedAt).toBeTruthy();
      expect((await voidIt(c.owner!, id, ' Entered twice ', key)).body.voidedAt).toBe(first.body.voidedAt);
      const again = await voidIt(c.owner!, id, 'again');
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'CONFLICT', message: 'This expense was voided and can no longer be changed.', details: { reason: 'EXPENSE_VOIDED' } });
      expect((await c.owner!.put(`/api/expenses/${id}`, { description: 'x', category: 'Rent', amountCents: 1 })).body.error.details.reason).toBe('EXPENSE_VOIDED');
      expect((await voidIt(c.owner!, randomUUID(), 'x')).status).toBe(404);
      expect((await c.owner!.request('POST', `/api/expenses/${id}/void`, { reason: '  ' }, { 'idempotency-key': randomUUID() })).status).toBe(400);
      const [audit] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE pharmacy_id = $1 AND action = 'expense.void' AND entity_id = $2`, [ph.pharmacyId, id]);
      expect(audit!.n).toBe(1);
    });

    it("another pharmacy's expense is 404 to edit and void, and unchanged", async () => {
      const theirs = await manual(otherOwner, { description: 'Their rent', category: 'Rent', amountCents: 70_000 });
      expect(theirs.status).toBe(201);
      expect((await c.owner!.put(`/api/expenses/${theirs.body.id}`, { description: 'Mine now', category: 'Rent', amountCents: 1 })).status).toBe(404);
      expect((await voidIt(c.owner!, theirs.body.id, 'not mine')).status).toBe(404);
      const [row] = await t.db.owner.query<{ description: string; voided_at: string | null }>(`SELECT description, voided_at FROM expenses WHERE id = $1`, [theirs.body.id]);
      expect(row).toEqual({ description: 'Their rent', voided_at: null });
    });
  });

  describe('expense report', () => {
    it('totals by category, branch, method, source and period against the rows; voided listed but out of the totals; transport breakdown', async () => {
      await till(c.cashier!, { description: 'Boda to supplier', category: 'Transport - Public', amountCents: 30_000, transport: { destination: 'Town', reason: 'Pick up stock', transportType: 'Boda Boda', distanceKm: 4.5, tollCents: 1_000 } });
      const res = await c.accounts!.get(`/api/reports/expenses?from=${daysFromToday(-10)}&to=${today()}&pageSize=100`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const report = expenseReportResponseSchema.parse(res.body);
      const rows = await t.db.owner.query<{ category: string; branch_id: string; payment_method: string; source: string; total_cents: number; voided: boolean; is_transport: boolean; fuel_cents: number; toll_cents: number; parking_cents: number; amount_cents: number }>(
        `SELECT category, branch_id, payment_method, source, total_cents, voided_at IS NOT NULL AS voided, is_transport, fuel_cents, toll_cents, parking_cents, amount_cents
           FROM expenses WHERE pharmacy_id = $1 AND expense_date BETWEEN $2 AND $3`,
        [ph.pharmacyId, daysFromToday(-10), today()],
      );
      const live = rows.filter((r) => !r.voided);
      const sum = (list: typeof rows) => list.reduce((n, r) => n + r.total_cents, 0);
      expect(report.summary.count).toBe(live.length);
      expect(report.summary.totalCents).toBe(sum(live));
      expect(report.summary.voidedCount).toBe(rows.length - live.length);
      expect(report.summary.voidedCount).toBeGreaterThan(0);
      expect(report.summary.voidedTotalCents).toBe(sum(rows.filter((r) => r.voided)));
      for (const b of report.summary.byCategory) expect(b.totalCents).toBe(sum(live.filter((r) => r.category === b.key)));
      for (const b of report.summary.byBranch) expect(b.totalCents).toBe(sum(live.filter((r) => r.branch_id === b.key)));
      for (const b of report.summary.byPaymentMethod) expect(b.totalCents).toBe(sum(live.filter((r) => r.payment_method === b.key)));
      expect(report.summary.bySource.map((b) => [b.key, b.totalCents]).sort()).toEqual(
        ['POS', 'manual'].map((s) => [s, sum(live.filter((r) => r.source === s))] as [string, number]).filter(([, n]) => n > 0).sort(),
      );
      expect(report.period).toBe('day');
      expect(report.summary.byPeriod.reduce((n, p) => n + p.totalCents, 0)).toBe(sum(live));
      const transport = live.filter((r) => r.is_transport);
      expect(report.summary.transport).toMatchObject({
        count: transport.length,
        totalCents: sum(transport),
        baseCents: transport.reduce((n, r) => n + r.amount_cents, 0),
        fuelCents: transport.reduce((n, r) => n + r.fuel_cents, 0),
        tollCents: transport.reduce((n, r) => n + r.toll_cents, 0),
      });
      expect(report.summary.transport.byType.find((b) => b.key === 'Boda Boda')).toMatchObject({ count: 1, totalCents: 31_000, distanceKm: 4.5 });
      // Every expense of the range is listed, voided ones marked.
      expect(report.total).toBe(rows.length);
      expect(report.items.filter((e) => e.voidedAt !== null)).toHaveLength(rows.length - live.length);
    });

    it('filters by branch, category, method, source and status; the default range is the last 30 days', async () => {
      const byBranch = expenseReportResponseSchema.parse((await c.owner!.get(`/api/reports/expenses?branchId=${west}`)).body);
      expect(byBranch.from).toBe(daysFromToday(-29));
      expect(byBranch.to).toBe(today());
      expect(byBranch.items.every((e) => e.branchId === west)).toBe(true);
      expect(byBranch.summary.byBranch.map((b) => b.key)).toEqual([west]);
      const manualOnly = expenseReportResponseSchema.parse((await c.owner!.get('/api/reports/expenses?source=manual&status=active')).body);
      expect(manualOnly.items.every((e) => e.source === 'manual' && e.voidedAt === null)).toBe(true);
      expect(manualOnly.summary.bySource.map((b) => b.key)).toEqual(['manual']);
      const voided = expenseReportResponseSchema.parse((await c.owner!.get('/api/reports/expenses?status=voided')).body);
      expect(voided.items.length).toBeGreaterThan(0);
      expect(voided.items.every((e) => e.voidedAt !== null)).toBe(true);
      const bank = expenseReportResponseSchema.parse((await c.owner!.get('/api/reports/expenses?category=bank%20charges&paymentMethod=Bank%20Transfer')).body);
      expect(bank.summary.byCategory.map((b) => [b.key, b.totalCents])).toEqual([['Bank Charges', 25_000]]);
      const long = expenseReportResponseSchema.parse((await c.owner!.get(`/api/reports/expenses?from=${daysFromToday(-400)}&to=${today()}`)).body);
      expect(long.period).toBe('month');
    });

    it('bad input is a sentence; another pharmacy\'s branch is 404; the cashier and inventory staff are 403; no data is an empty report', async () => {
      const backwards = await c.owner!.get(`/api/reports/expenses?from=${today()}&to=${daysFromToday(-1)}`);
      expect(backwards.status).toBe(400);
      expect(backwards.body.error.details.issues[0].message).toBe('The end date must be on or after the start date.');
      const tooLong = await c.owner!.get('/api/reports/expenses?from=2019-01-01&to=2025-01-02');
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.details.issues[0].message).toBe('Choose a date range of at most 5 years.');
      expect((await c.owner!.get('/api/reports/expenses?from=2026-02-30')).status).toBe(400);
      expect((await c.owner!.get(`/api/reports/expenses?branchId=${other.branches[0]!.id}`)).status).toBe(404);
      expect((await c.cashier!.get('/api/reports/expenses')).status).toBe(403);
      expect((await c.inventory!.get('/api/reports/expenses')).status).toBe(403);
      const empty = expenseReportResponseSchema.parse((await c.owner!.get('/api/reports/expenses?from=2020-01-01&to=2020-01-31')).body);
      expect(empty).toMatchObject({ total: 0, items: [], summary: { count: 0, totalCents: 0, byCategory: [] } });
    });
  });

  // ----------------------------------------------------------------------------------------- inventory

  describe('inventory report', () => {
    it('values stock at cost (FIFO from the batches) and at selling price, with sales of 30 days, days of stock and value expiring before it sells', async () => {
      const res = await c.inventory!.get('/api/reports/inventory?pageSize=100');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const report = inventoryReportResponseSchema.parse(res.body);
      expect(report.valuationMethod).toBe('FIFO');
      const [raw] = await t.db.owner.query<{ pieces: number; cost: number }>(
        `SELECT sum(quantity + reserved_quantity)::int AS pieces, sum((quantity + reserved_quantity) * unit_cost_cents)::bigint AS cost FROM batches WHERE pharmacy_id = $1`,
        [ph.pharmacyId],
      );
      expect(report.totals.onHand).toBe(raw!.pieces);
      expect(report.totals.costValueCents).toBe(raw!.cost);
      const amoxMain = report.items.find((l) => l.productId === amox && l.branchId === main)!;
      // 30 received, 7 sold from AMX-SOON first: 3 × 40.00 + 20 × 60.00 left; the sale 30 days ago is outside the window (6 sold in it).
      expect(amoxMain).toMatchObject({ onHand: 23, costValueCents: 3 * 4_000 + 20 * 6_000, retailValueCents: 23 * 10_000, soldLast30Days: 6, daysOfStock: 115, category: 'Medicine' });
      // 6 a month = 0.2 a day: by AMX-SOON's expiry in 20 days 4 could sell (all 3 left do); AMX-LATE's 20 sell within a year.
      expect(amoxMain).toMatchObject({ atRiskQuantity: 0, atRiskValueCents: 0, suggestedQuantity: null });
      const paraMain = report.items.find((l) => l.productId === para && l.branchId === main)!;
      // 70 left expiring in 10 days at 1 a day: 10 sell, 60 expire (60 × 1.00).
      expect(paraMain).toMatchObject({ onHand: 70, soldLast30Days: 30, daysOfStock: 70, atRiskQuantity: 60, atRiskValueCents: 6_000, retailValueCents: 70 * 200 });
      const amoxWest = report.items.find((l) => l.productId === amox && l.branchId === west)!;
      // 3 at or below the reorder level 10: order 10 + 0 sold - 3 = 7; nothing sells there, so all 3 expire unsold.
      expect(amoxWest).toMatchObject({ onHand: 3, suggestedQuantity: 7, daysOfStock: null, atRiskQuantity: 3, atRiskValueCents: 15_000, earliestExpiry: daysFromToday(900) });
      expect(report.byBranch.map((b) => [b.branchName, b.onHand])).toEqual([['Main Branch', 93], ['Westlands Branch', 3]]);
      expect(report.byCategory.find((b) => b.category === 'Supplies')).toMatchObject({ onHand: 70, atRiskValueCents: 6_000 });
      expect(report.totals.reorderLines).toBe(report.items.filter((l) => l.suggestedQuantity !== null).length);
    });

    it('views, filters and paging: reorder and expiring lists; branch and category; weighted average valuation from settings', async () => {
      const reorder = inventoryReportResponseSchema.parse((await c.owner!.get('/api/reports/inventory?view=reorder')).body);
      expect(reorder.items.every((l) => l.suggestedQuantity !== null && l.onHand <= l.reorderLevel)).toBe(true);
      expect(reorder.items.some((l) => l.productId === amox && l.branchId === west)).toBe(true);
      const expiring = inventoryReportResponseSchema.parse((await c.owner!.get('/api/reports/inventory?view=expiring')).body);
      // The most value at risk first.
      expect(expiring.items.map((l) => [l.productId, l.branchId, l.atRiskValueCents])).toEqual([[amox, west, 15_000], [para, main, 6_000]]);
      const west1 = inventoryReportResponseSchema.parse((await c.owner!.get(`/api/reports/inventory?branchId=${west}&category=medicine`)).body);
      expect(west1.items.map((l) => [l.productId, l.branchId])).toEqual([[amox, west]]);
      const page2 = inventoryReportResponseSchema.parse((await c.owner!.get('/api/reports/inventory?pageSize=1&page=2')).body);
      expect(page2.items).toHaveLength(1);
      expect(page2.total).toBeGreaterThanOrEqual(3);
      await t.db.owner.query(`UPDATE settings SET document = jsonb_set(document, '{stockValuationMethod}', '"WEIGHTED_AVERAGE"') WHERE pharmacy_id = $1`, [ph.pharmacyId]);
      try {
        const avg = inventoryReportResponseSchema.parse((await c.owner!.get(`/api/reports/inventory?branchId=${main}&category=Medicine`)).body);
        expect(avg.valuationMethod).toBe('WEIGHTED_AVERAGE');
        // (3 × 40.00 + 20 × 60.00) / 23 = 57.391… → 57.39 each.
        expect(avg.items[0]!.costValueCents).toBe(23 * 5_739);
      } finally {
        await t.db.owner.query(`UPDATE settings SET document = jsonb_set(document, '{stockValuationMethod}', '"FIFO"') WHERE pharmacy_id = $1`, [ph.pharmacyId]);
      }
    });

    it('another pharmacy\'s branch is 404; a cashier is 403; a pharmacy without stock has an empty report', async () => {
      expect((await c.owner!.get(`/api/reports/inventory?branchId=${other.branches[0]!.id}`)).status).toBe(404);
      expect((await c.cashier!.get('/api/reports/inventory')).status).toBe(403);
      expect((await c.accounts!.get('/api/reports/inventory')).status).toBe(403);
      const empty = inventoryReportResponseSchema.parse((await otherOwner.get('/api/reports/inventory')).body);
      expect(empty.items.every((l) => l.onHand === 0)).toBe(true);
      expect(empty.totals.costValueCents).toBe(0);
      expect((await c.owner!.get('/api/reports/inventory?view=everything')).status).toBe(400);
    });
  });

  describe('stock adjustments report and transfers summary', () => {
    beforeAll(async () => {
      const adjust = await c.owner!.request('POST', '/api/stock/adjustments', {
        branchId: main,
        reason: 'Monthly count',
        items: [
          { productId: para, delta: -5, reasonType: 'damage' },
          { productId: amox, delta: 2, reasonType: 'count_correction' },
        ],
      }, { 'idempotency-key': randomUUID() });
      expect(adjust.status, JSON.stringify(adjust.body)).toBe(201);
      const transfer = await c.owner!.request('POST', '/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: amox, quantity: 4 }] }, { 'idempotency-key': randomUUID() });
      expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
      const second = await c.owner!.request('POST', '/api/stock/transfers', { fromBranchId: main, toBranchId: west, items: [{ productId: para, quantity: 3 }] }, { 'idempotency-key': randomUUID() });
      expect(second.status).toBe(201);
      expect((await c.owner!.request('POST', `/api/stock/transfers/${second.body.id}/cancel`, {}, { 'idempotency-key': randomUUID() })).status).toBe(200);
    });

    it('adjustment lines with pieces added and removed, value at cost, by reason and branch; filters and bad input', async () => {
      const res = await c.inventory!.get('/api/reports/stock-adjustments');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const report = stockAdjustmentReportResponseSchema.parse(res.body);
      const [raw] = await t.db.owner.query<{ lines: number; added: number; removed: number }>(
        `SELECT count(*)::int AS lines, coalesce(sum(delta) FILTER (WHERE delta > 0), 0)::int AS added, coalesce(-sum(delta) FILTER (WHERE delta < 0), 0)::int AS removed
           FROM stock_adjustment_items WHERE pharmacy_id = $1`,
        [ph.pharmacyId],
      );
      expect(report.totals).toMatchObject({ adjustments: 1, lines: raw!.lines, piecesAdded: raw!.added, piecesRemoved: raw!.removed });
      expect(report.byReason.map((r) => r.reasonType)).toEqual(['count_correction', 'damage']);
      const damage = report.items.find((l) => l.reasonType === 'damage')!;
      expect(damage).toMatchObject({ productName: 'Paracetamol 500mg', delta: -5, branchName: 'Main Branch', reason: 'Monthly count', date: today() });
      expect(damage.valueCents).toBe(-5 * damage.unitCostCents);
      const onlyDamage = stockAdjustmentReportResponseSchema.parse((await c.owner!.get('/api/reports/stock-adjustments?reasonType=damage')).body);
      expect(onlyDamage.items.map((l) => l.reasonType)).toEqual(['damage']);
      const westOnly = stockAdjustmentReportResponseSchema.parse((await c.owner!.get(`/api/reports/stock-adjustments?branchId=${west}`)).body);
      expect(westOnly.total).toBe(0);
      expect((await c.owner!.get(`/api/reports/stock-adjustments?from=${today()}&to=${daysFromToday(-3)}`)).status).toBe(400);
      expect((await c.owner!.get(`/api/reports/stock-adjustments?branchId=${other.branches[1]!.id}`)).status).toBe(404);
      expect((await c.cashier!.get('/api/reports/stock-adjustments')).status).toBe(403);
      const empty = stockAdjustmentReportResponseSchema.parse((await otherOwner.get('/api/reports/stock-adjustments')).body);
      expect(empty).toMatchObject({ total: 0, items: [], byReason: [] });
    });

    it('transfers by branch pair and status with pieces; filters and bad input', async () => {
      const res = await c.manager!.get('/api/reports/stock-transfers');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const report = stockTransferReportResponseSchema.parse(res.body);
      expect(report.items.map((p) => [p.fromBranchName, p.toBranchName, p.status, p.transfers, p.piecesRequested])).toEqual([
        ['Main Branch', 'Westlands Branch', 'requested', 1, 4],
        ['Main Branch', 'Westlands Branch', 'cancelled', 1, 3],
      ]);
      expect(report.totals).toMatchObject({ transfers: 2, piecesRequested: 7 });
      expect(report.byStatus.map((s) => s.status)).toEqual(['requested', 'cancelled']);
      const cancelled = stockTransferReportResponseSchema.parse((await c.owner!.get('/api/reports/stock-transfers?status=cancelled')).body);
      expect(cancelled.items.map((p) => p.status)).toEqual(['cancelled']);
      const old = stockTransferReportResponseSchema.parse((await c.owner!.get('/api/reports/stock-transfers?from=2020-01-01&to=2020-12-31')).body);
      expect(old.items).toEqual([]);
      expect((await c.owner!.get('/api/reports/stock-transfers?from=2018-01-01&to=2026-01-01')).status).toBe(400);
      expect((await c.owner!.get(`/api/reports/stock-transfers?branchId=${other.branches[0]!.id}`)).status).toBe(404);
      expect((await c.cashier!.get('/api/reports/stock-transfers')).status).toBe(403);
      expect(stockTransferReportResponseSchema.parse((await otherOwner.get('/api/reports/stock-transfers')).body).total).toBe(0);
    });
  });
});
