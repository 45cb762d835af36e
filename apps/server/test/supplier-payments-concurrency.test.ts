import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { syncSupplierAccounts } from '../src/modules/supplier-payments/supplier-payments.service.ts';
import { clientsOf, daysFromToday, ownerContext, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Supplier payments at the same moment (issue 10, invariant 6): the supplier's row is locked in each payment's
 * transaction, so concurrent payments, edits and deletions never give an invoice more than it owes, and every
 * cent of every payment is either allocated or held as credit.
 */
describe.each(testDatabaseKinds())('supplier payments under concurrency on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let people: TestClient[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'suppay_conc', ['owner', 'accounts']);
    const c = await clientsOf(t, ph);
    people = [c.owner!, c.accounts!];
  });
  afterAll(async () => t?.close());

  /** A purchase written directly, with its kept balances (migration 0028) as the purchases module keeps them. */
  const purchase = async (supplierId: string, days: number, totalCents: number) => {
    const [row] = await t.db.owner.query<{ id: string }>(
      `INSERT INTO purchases (pharmacy_id, purchase_number, supplier_id, branch_id, purchase_date, status, subtotal_cents, tax_cents, total_cents)
       VALUES ($1, $2, $3, $4, $5, 'received', $6, 0, $6) RETURNING id`,
      [ph.pharmacyId, `PO-${randomUUID().slice(0, 8)}`, supplierId, ph.branches[0]!.id, daysFromToday(days), totalCents],
    );
    await t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ph.users.owner! }, (q) => syncSupplierAccounts(q, { ...ownerContext(ph), now: new Date() }, [supplierId], [row!.id]));
  };
  const overAllocated = async (supplierId: string) =>
    t.db.owner.query(
      `SELECT p.id, p.total_cents, sum(a.amount_cents) AS allocated FROM purchases p
         JOIN supplier_payment_allocations a ON a.pharmacy_id = p.pharmacy_id AND a.purchase_id = p.id AND a.removed_at IS NULL
         JOIN supplier_payments sp ON sp.pharmacy_id = a.pharmacy_id AND sp.id = a.payment_id AND sp.deleted_at IS NULL
        WHERE p.pharmacy_id = $1 AND p.supplier_id = $2 GROUP BY p.id, p.total_cents HAVING sum(a.amount_cents) > p.total_cents`,
      [ph.pharmacyId, supplierId],
    );

  it('12 payments at once to 3 invoices: each invoice paid exactly in full, the rest held as credit, the balance exact', async () => {
    const supplier = (await people[0]!.request('POST', '/api/contacts', { type: 'supplier', name: 'Race Ltd', phone: '0722000001' }, { 'idempotency-key': randomUUID() })).body.id as string;
    await purchase(supplier, -30, 40_000);
    await purchase(supplier, -20, 35_000);
    await purchase(supplier, -10, 25_000);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        people[i % 2]!.request('POST', '/api/supplier-payments', { supplierId: supplier, amountCents: 15_000, date: daysFromToday(0), method: 'Cash' }, { 'idempotency-key': randomUUID() }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(await overAllocated(supplier)).toEqual([]);
    const [sums] = await t.db.owner.query<{ allocated: string }>(
      `SELECT coalesce(sum(a.amount_cents), 0)::bigint AS allocated FROM supplier_payment_allocations a
         JOIN supplier_payments sp ON sp.pharmacy_id = a.pharmacy_id AND sp.id = a.payment_id
        WHERE a.pharmacy_id = $1 AND sp.supplier_id = $2 AND a.removed_at IS NULL`,
      [ph.pharmacyId, supplier],
    );
    expect(Number(sums!.allocated)).toBe(100_000);
    const overpayments = results.reduce((sum, r) => sum + (r.body.payment.allocationDetails.overpayment as number), 0);
    expect(overpayments).toBe(12 * 15_000 - 100_000);
    const row = (await people[0]!.get('/api/reports/suppliers?search=Race')).body.rows[0];
    expect(row).toMatchObject({ balance: 100_000 - 180_000, balanceStatus: 'Overpaid', ageBucket: 'Credit Balance' });
  });

  it('payments, edits and deletions racing with a new purchase: no invoice over-allocated, balance = purchases - payments', async () => {
    const supplier = (await people[0]!.request('POST', '/api/contacts', { type: 'supplier', name: 'Churn Ltd', phone: '0722000002' }, { 'idempotency-key': randomUUID() })).body.id as string;
    await purchase(supplier, -15, 30_000);
    const first = await Promise.all(
      Array.from({ length: 4 }, () => people[0]!.request('POST', '/api/supplier-payments', { supplierId: supplier, amountCents: 10_000, date: daysFromToday(0) }, { 'idempotency-key': randomUUID() })),
    );
    const ids = first.map((r) => r.body.payment.id as string);
    const mixed = await Promise.all([
      purchase(supplier, -1, 20_000).then(() => ({ status: 201 })),
      people[1]!.put(`/api/supplier-payments/${ids[0]}`, { amountCents: 25_000, date: daysFromToday(0) }),
      people[0]!.delete(`/api/supplier-payments/${ids[1]}`),
      people[1]!.request('POST', '/api/supplier-payments', { supplierId: supplier, amountCents: 12_000, date: daysFromToday(0) }, { 'idempotency-key': randomUUID() }),
      people[0]!.put(`/api/supplier-payments/${ids[2]}`, { amountCents: 5_000, date: daysFromToday(0) }),
    ]);
    expect(mixed.map((r) => r.status)).toEqual([201, 200, 200, 201, 200]);
    // One more payment writes any credit to the new purchase.
    expect((await people[0]!.request('POST', '/api/supplier-payments', { supplierId: supplier, amountCents: 100, date: daysFromToday(0) }, { 'idempotency-key': randomUUID() })).status).toBe(201);
    expect(await overAllocated(supplier)).toEqual([]);
    const row = (await people[0]!.get('/api/reports/suppliers?search=Churn')).body.rows[0];
    const paid = 25_000 + 10_000 + 5_000 + 12_000 + 100;
    expect(row).toMatchObject({ totalPurchases: 50_000, totalPaid: paid, balance: 50_000 - paid });
  });
});
