import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { DEMO_CATALOGUE } from '../src/db/demo-catalogue-data.ts';
import { DEMO_PHARMACY_ID, seedDemoData } from '../src/db/seed.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';
import { ledgerMismatches } from './import-helpers.ts';
import { ledgerProblems, ownerContext } from './stock-helpers.ts';
import { paymentDue, supplierReport } from '../src/modules/supplier-payments/supplier-payments.service.ts';
import { getPaymentSummary, listSalesHistory } from '../src/modules/sales/sales-history.service.ts';
import { listPurchases } from '../src/modules/purchases/purchases.service.ts';
import { listContacts } from '../src/modules/contacts/contacts.service.ts';
import { purchaseListQuerySchema } from '@pharmapoint/domain/purchases';
import { saleHistoryQuerySchema } from '@pharmapoint/domain/sales-history';
import { contactListQuerySchema } from '@pharmapoint/domain/contacts';
import { supplierReportQuerySchema } from '@pharmapoint/domain/supplier-payments';

describe('demo catalogue data', () => {
  it('has a few hundred distinct products in the settings categories, with sane prices', () => {
    expect(DEMO_CATALOGUE.length).toBeGreaterThanOrEqual(300);
    expect(new Set(DEMO_CATALOGUE.map((r) => r[0].toLowerCase())).size).toBe(DEMO_CATALOGUE.length);
    for (const [name, category, packageSize, , , buy, sell] of DEMO_CATALOGUE) {
      expect(['Medicine', 'Equipment', 'Supplies', 'Cosmetics', 'Supplements'], name).toContain(category);
      expect(packageSize, name).toBeGreaterThanOrEqual(1);
      expect(sell, name).toBeGreaterThan(buy);
    }
    const names = DEMO_CATALOGUE.map((r) => r[0]).join('\n');
    for (const known of ['Panadol', 'Amoxil', 'Augmentin', 'Flagyl', 'ORS', 'Cetirizine', 'Piriton', 'Betapyn', 'Mara Moja', 'Hedex', 'Gofen', 'Ventolin', 'Metformin', 'Amlodipine', 'Losartan', 'Condoms', 'Diapers', 'Pads', 'Vaseline', 'Gloves', 'Syringe', 'Glucose Test Strips']) {
      expect(names, known).toContain(known);
    }
  });
});

describe.each(testDatabaseKinds())('demo catalogue seed on %s', (kind) => {
  let db: Database;
  let seconds = 0;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const started = performance.now();
    await seedDemoData(db);
    seconds = (performance.now() - started) / 1000;
  });
  afterAll(async () => db?.close());

  const one = async <T>(sql: string) => (await db.owner.query<T>(sql, [DEMO_PHARMACY_ID]))[0]!;

  it('gives hundreds of products in both demo branches', async () => {
    const perBranch = await db.owner.query<{ name: string; n: number }>(
      `SELECT b.name, count(*)::int AS n FROM branch_products bp JOIN branches b ON b.pharmacy_id = bp.pharmacy_id AND b.id = bp.branch_id
        WHERE bp.pharmacy_id = $1 GROUP BY b.name ORDER BY b.name`,
      [DEMO_PHARMACY_ID],
    );
    expect(perBranch.map((r) => r.name)).toEqual(['Main Branch', 'Westlands Branch']);
    for (const r of perBranch) expect(r.n).toBeGreaterThanOrEqual(250);
    expect((await one<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE pharmacy_id = $1`)).n).toBe(DEMO_CATALOGUE.length);
  });

  it('flags the controlled medicines', async () => {
    const dda = await db.owner.query<{ name: string }>(`SELECT name FROM products WHERE pharmacy_id = $1 AND is_dda ORDER BY name`, [DEMO_PHARMACY_ID]);
    const names = dda.map((r) => r.name).join('\n');
    for (const drug of ['Tramadol', 'Codeine', 'Diazepam', 'Pethidine', 'Morphine']) expect(names).toContain(drug);
  });

  it('has batches near expiry (within 30 days) and expired ones, in both branches', async () => {
    const rows = await db.owner.query<{ branch_id: string; near: number; expired: number; total: number }>(
      `SELECT branch_id,
              count(*) FILTER (WHERE expiry_date >= current_date AND expiry_date < current_date + 30)::int AS near,
              count(*) FILTER (WHERE expiry_date < current_date)::int AS expired,
              count(*)::int AS total
         FROM batches WHERE pharmacy_id = $1 AND quantity > 0 GROUP BY branch_id`,
      [DEMO_PHARMACY_ID],
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.near).toBeGreaterThan(0);
      expect(r.expired).toBeGreaterThan(0);
      expect(r.total).toBeGreaterThan(250);
    }
  });

  it('has out-of-stock and low-stock products, and the ledger invariant holds', async () => {
    const status = await one<{ out: number; low: number }>(
      `SELECT count(*) FILTER (WHERE bp.quantity = 0)::int AS out,
              count(*) FILTER (WHERE bp.quantity > 0 AND bp.quantity <= COALESCE(p.low_stock_threshold, 5))::int AS low
         FROM branch_products bp JOIN products p ON p.pharmacy_id = bp.pharmacy_id AND p.id = bp.product_id WHERE bp.pharmacy_id = $1`,
    );
    expect(status.out).toBeGreaterThan(0);
    expect(status.low).toBeGreaterThan(0);
    expect(await ledgerMismatches(db, DEMO_PHARMACY_ID)).toEqual([]);
    // The catalogue is written by the import path; every other movement is the demo back office's (demo-business.ts).
    expect((await one<{ n: number }>(`SELECT count(*)::int AS n FROM stock_movements WHERE pharmacy_id = $1 AND kind NOT IN ('import', 'purchase_receipt', 'purchase_return', 'sale', 'sale_return')`)).n).toBe(0);
  });

  it("gives the back office something to show: contacts, purchases, the supplier report and payment-due alert, sales over several days, the payment summary", async () => {
    const [main, westlands] = await db.owner.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 ORDER BY name`, [DEMO_PHARMACY_ID]);
    const [owner] = await db.owner.query<{ user_id: string }>(`SELECT user_id FROM memberships WHERE pharmacy_id = $1 AND is_owner`, [DEMO_PHARMACY_ID]);
    const ctx = { ...ownerContext({ pharmacyId: DEMO_PHARMACY_ID, branches: [{ id: main!.id, name: 'Main Branch' }, { id: westlands!.id, name: 'Westlands Branch' }], users: { owner: owner!.user_id } } as never), now: new Date() };
    await db.transaction({ pharmacyId: DEMO_PHARMACY_ID, userId: owner!.user_id }, async (q) => {
      const contacts = await listContacts(q, ctx, contactListQuerySchema.parse({ type: 'all' }));
      expect(contacts.total).toBeGreaterThanOrEqual(6);
      const purchases = await listPurchases(q, ctx, purchaseListQuerySchema.parse({}));
      expect(new Set(purchases.items.map((p) => p.status))).toEqual(new Set(['received', 'pending']));
      const report = await supplierReport(q, ctx, supplierReportQuerySchema.parse({}));
      expect(report.rows.length).toBe(3);
      expect(report.totals.outstanding).toBeGreaterThan(0);
      // balance = purchases - returns - payments, as the report's rows say.
      const [sums] = await q.query<{ purchases: string; returns: string; paid: string }>(
        `SELECT (SELECT sum(total_cents) FROM purchases WHERE pharmacy_id = $1 AND deleted_at IS NULL AND status <> 'cancelled')::bigint AS purchases,
                (SELECT sum(total_cents) FROM purchase_returns WHERE pharmacy_id = $1)::bigint AS returns,
                (SELECT sum(amount_cents) FROM supplier_payments WHERE pharmacy_id = $1 AND deleted_at IS NULL)::bigint AS paid`,
        [DEMO_PHARMACY_ID],
      );
      expect(report.totals.totalBalance).toBe(Number(sums!.purchases) - Number(sums!.returns) - Number(sums!.paid));
      expect((await paymentDue(q, ctx)).overdueCount).toBeGreaterThan(0);
      const sales = await listSalesHistory(q, ctx, saleHistoryQuerySchema.parse({ preset: 'last30Days' }));
      expect(sales.total).toBeGreaterThanOrEqual(10);
      expect(new Set(sales.items.map((s) => s.saleDate)).size).toBeGreaterThanOrEqual(3);
      expect(sales.items.some((s) => s.status === 'partially_returned')).toBe(true);
      const summary = await getPaymentSummary(q, ctx, { preset: 'last30Days' });
      expect(JSON.stringify(summary)).toMatch(/Cash/);
    });
    expect(await ledgerProblems(db, DEMO_PHARMACY_ID)).toEqual([]);
  });

  it('seeds in well under 10 seconds', () => {
    expect(seconds).toBeLessThan(10);
  });
});
