import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSummarySchema } from '@pharmapoint/domain/contacts';
import { agingOfInvoices, supplierOpenInvoicesResponseSchema, supplierPaymentSavedSchema, supplierReportResponseSchema } from '@pharmapoint/domain/supplier-payments';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { applySupplierCredit, syncSupplierAccounts } from '../src/modules/supplier-payments/supplier-payments.service.ts';
import { clientsOf, daysFromToday, ownerContext, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Supplier payments and the supplier balances report (issue 10 items 5 and 6, seed 002 sections 3-5, 8, 9; decision
 * 0041): allocation oldest first or to a chosen invoice, credit held and used by the next purchase, edit and delete,
 * every message word for word, aging by credit terms, and balance = purchases - returns - payments.
 */
describe.each(testDatabaseKinds())('supplier payments on %s', (kind) => {
  let t: TestApp;
  let ph: StockPharmacy;
  let c: Record<string, TestClient>;
  let otherOwner: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await stockTestPharmacy(t.db, 'suppay_ph', ['owner', 'accounts', 'cashier', 'manager']);
    const other = await stockTestPharmacy(t.db, 'suppay_other', ['owner']);
    c = await clientsOf(t, ph);
    otherOwner = (await clientsOf(t, other)).owner!;
  });
  afterAll(async () => t?.close());

  const supplier = async (name: string, creditTerms?: string) => {
    const res = await c.owner!.request('POST', '/api/contacts', { type: 'supplier', name, phone: '0722000000', creditTerms }, { 'idempotency-key': randomUUID() });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /** The kept balances (migration 0028) of what a helper wrote, as the purchases module keeps them in its transaction. */
  const keepBalances = (supplierId: string, purchaseId: string) =>
    t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ph.users.owner! }, (q) => syncSupplierAccounts(q, { ...ownerContext(ph), now: new Date() }, [supplierId], [purchaseId]));
  /** A purchase as the purchases module stores it (written directly: this file tests payments, not purchasing). */
  const purchase = async (supplierId: string, date: string, totalCents: number, status = 'received') => {
    const [row] = await t.db.owner.query<{ id: string }>(
      `INSERT INTO purchases (pharmacy_id, purchase_number, supplier_id, branch_id, purchase_date, status, subtotal_cents, tax_cents, total_cents)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $7) RETURNING id`,
      [ph.pharmacyId, `PO-${randomUUID().slice(0, 8)}`, supplierId, ph.branches[0]!.id, date, status, totalCents],
    );
    await keepBalances(supplierId, row!.id);
    return row!.id;
  };
  const purchaseReturn = async (supplierId: string, purchaseId: string, totalCents: number) => {
    await t.db.owner.query(
      `INSERT INTO purchase_returns (pharmacy_id, return_number, purchase_id, supplier_id, branch_id, return_date, reason, total_cents)
       VALUES ($1, $2, $3, $4, $5, $6, 'Damaged', $7)`,
      [ph.pharmacyId, `PR-${randomUUID().slice(0, 8)}`, purchaseId, supplierId, ph.branches[0]!.id, daysFromToday(0), totalCents],
    );
    await keepBalances(supplierId, purchaseId);
  };
  const pay = (who: TestClient, body: Record<string, unknown>) => who.request('POST', '/api/supplier-payments', { date: daysFromToday(0), method: 'Cash', ...body }, { 'idempotency-key': randomUUID() });
  const paymentCount = async () => (await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM supplier_payments WHERE pharmacy_id = $1`, [ph.pharmacyId]))[0]!.n;
  const report = async (query = '') => supplierReportResponseSchema.parse((await c.owner!.get(`/api/reports/suppliers${query}`)).body);
  const rowOf = async (id: string) => (await report()).rows.find((r) => r.supplierId === id)!;
  /** A report row's open invoices, as the screen loads them when the row is opened. */
  const openOf = async (id: string) => {
    const res = await c.owner!.get(`/api/reports/suppliers/${id}/invoices`);
    expect(res.status).toBe(200);
    return supplierOpenInvoicesResponseSchema.parse(res.body).invoices;
  };

  it('a payment goes to the oldest invoice first, with the messages and allocationDetails of the specification', async () => {
    const s = await supplier('Oldest First Ltd');
    const older = await purchase(s, daysFromToday(-50), 100_000);
    const newer = await purchase(s, daysFromToday(-10), 50_000);
    const res = await pay(c.accounts!, { supplierId: s, amountCents: 120_000, method: 'M-Pesa', reference: 'QWE123RTY' });
    expect(res.status).toBe(201);
    const saved = supplierPaymentSavedSchema.parse(res.body);
    expect(saved.message).toBe('Payment of KES 1,200.00 saved successfully (allocated to 2 invoice(s))');
    expect(saved.allocationMessage).toMatch(/^Payment allocated to 2 invoice\(s\), starting with oldest \(\d{1,2} [A-Z][a-z]{2} \d{4}\)$/);
    expect(saved.payment.allocationDetails).toMatchObject({
      type: 'auto',
      totalAllocated: 120_000,
      overpayment: 0,
      invoicesAffected: 2,
      allocations: [
        { invoiceId: older, invoiceTotal: 100_000, previouslyPaid: 0, allocationAmount: 100_000, remainingBalance: 0 },
        { invoiceId: newer, invoiceTotal: 50_000, previouslyPaid: 0, allocationAmount: 20_000, remainingBalance: 30_000 },
      ],
    });
    expect(saved.payment).toMatchObject({ supplierName: 'Oldest First Ltd', method: 'M-Pesa', reference: 'QWE123RTY', creditCents: 0 });
    const row = await rowOf(s);
    expect(row).toMatchObject({ totalPurchases: 150_000, totalPaid: 120_000, balance: 30_000, balanceStatus: 'Outstanding', ageBucket: 'Current', paymentCount: 1, purchaseCount: 2 });
    expect(row.outstandingInvoiceCount).toBe(1);
    expect((await openOf(s)).map((i) => [i.id, i.outstandingCents, i.creditDays])).toEqual([[newer, 30_000, 30]]);
  });

  it('a chosen invoice is paid first; an overpayment is held as credit and used by the next purchase', async () => {
    const s = await supplier('Credit Holder Ltd', 'net 14');
    const a = await purchase(s, daysFromToday(-40), 30_000);
    const b = await purchase(s, daysFromToday(-20), 20_000);
    const specific = supplierPaymentSavedSchema.parse((await pay(c.owner!, { supplierId: s, amountCents: 20_000, invoiceId: b, method: 'Cheque', reference: 'CHQ 0042' })).body);
    expect(specific.payment.allocationDetails).toMatchObject({ type: 'specific', invoicesAffected: 1, allocations: [{ invoiceId: b, allocationAmount: 20_000 }] });
    expect(specific.allocationMessage).toBeNull();
    const over = supplierPaymentSavedSchema.parse((await pay(c.owner!, { supplierId: s, amountCents: 45_000, method: 'Bank Transfer', reference: 'TRX-9' })).body);
    expect(over.message).toBe('Payment of KES 450.00 saved successfully (allocated to 1 invoice(s))');
    expect(over.payment.allocationDetails).toMatchObject({ totalAllocated: 30_000, overpayment: 15_000, invoicesAffected: 1, allocations: [{ invoiceId: a, remainingBalance: 0 }] });
    expect(over.payment.creditCents).toBe(15_000);
    let row = await rowOf(s);
    expect(row).toMatchObject({ balance: -15_000, balanceStatus: 'Overpaid', ageBucket: 'Credit Balance', outstandingInvoiceCount: 0 });
    expect(await openOf(s)).toEqual([]);
    // The next purchase is paid from the credit: shown at once, and written by the next payment's transaction.
    const next = await purchase(s, daysFromToday(0), 25_000);
    row = await rowOf(s);
    expect(row).toMatchObject({ balance: 10_000, balanceStatus: 'Outstanding' });
    expect(row).toMatchObject({ outstandingInvoiceCount: 1, agingBreakdown: { current: 10_000, days1to30: 0, days31to60: 0, over60: 0 } });
    expect((await openOf(s)).map((i) => [i.id, i.paidCents, i.outstandingCents])).toEqual([[next, 15_000, 10_000]]);
    const rest = supplierPaymentSavedSchema.parse((await pay(c.owner!, { supplierId: s, amountCents: 10_000 })).body);
    expect(rest.payment.allocationDetails.allocations).toEqual([expect.objectContaining({ invoiceId: next, previouslyPaid: 15_000, allocationAmount: 10_000, remainingBalance: 0 })]);
    const credit = await t.db.owner.query<{ source: string; amount_cents: string }>(`SELECT source, amount_cents FROM supplier_payment_allocations WHERE pharmacy_id = $1 AND purchase_id = $2 ORDER BY source`, [ph.pharmacyId, next]);
    expect(credit.map((r) => [r.source, Number(r.amount_cents)])).toEqual([['credit', 15_000], ['payment', 10_000]]);
    expect((await rowOf(s)).balanceStatus).toBe('Settled');
  });

  it('applySupplierCredit (for the purchases module) writes the credit to a new purchase at once', async () => {
    const s = await supplier('Credit Hook Ltd');
    await pay(c.owner!, { supplierId: s, amountCents: 5_000 });
    const next = await purchase(s, daysFromToday(0), 3_000);
    await t.db.transaction({ pharmacyId: ph.pharmacyId, userId: ph.users.owner! }, (q) => applySupplierCredit(q, { ...ownerContext(ph), now: new Date() }, s));
    const rows = await t.db.owner.query<{ source: string; amount_cents: string }>(`SELECT source, amount_cents FROM supplier_payment_allocations WHERE pharmacy_id = $1 AND purchase_id = $2`, [ph.pharmacyId, next]);
    expect(rows.map((r) => [r.source, Number(r.amount_cents)])).toEqual([['credit', 3_000]]);
    expect(await rowOf(s)).toMatchObject({ balance: -2_000, outstandingInvoiceCount: 0 });
  });

  it('edit and delete: allocations made again, the messages of section 8; the invoices owe again after a deletion', async () => {
    const s = await supplier('Edit Delete Ltd');
    const inv = await purchase(s, daysFromToday(-5), 40_000);
    const first = supplierPaymentSavedSchema.parse((await pay(c.owner!, { supplierId: s, amountCents: 10_000 })).body);
    const edited = await c.owner!.put(`/api/supplier-payments/${first.payment.id}`, { amountCents: 25_000, date: daysFromToday(-1), method: 'Cash', notes: 'Corrected' });
    expect(edited.status).toBe(200);
    expect(edited.body.message).toBe('Payment updated successfully');
    expect(edited.body.payment.allocationDetails.allocations).toEqual([expect.objectContaining({ invoiceId: inv, previouslyPaid: 0, allocationAmount: 25_000, remainingBalance: 15_000 })]);
    expect((await rowOf(s)).balance).toBe(15_000);
    const deleted = await c.owner!.delete(`/api/supplier-payments/${first.payment.id}`);
    expect(deleted.body).toEqual({ message: 'Payment deleted successfully' });
    expect((await rowOf(s))).toMatchObject({ balance: 40_000, totalPaid: 0, paymentCount: 0 });
    expect((await c.owner!.get(`/api/supplier-payments/${first.payment.id}`)).status).toBe(404);
    expect((await c.owner!.delete(`/api/supplier-payments/${first.payment.id}`)).status).toBe(404);
  });

  it.each([
    [{ amountCents: 100 }, 'Missing required payment fields'],
    [{ supplier: true, amountCents: 0 }, 'Missing required payment fields'],
    [{ supplier: true }, 'Missing required payment fields'],
    [{ supplier: true, amountCents: 100, date: null }, 'Missing required payment fields'],
    [{ supplier: true, amountCents: -100 }, 'The amount must be more than KES 0.00.'],
    [{ supplier: true, amountCents: 100, method: 'M-Pesa' }, 'A reference is required for M-Pesa payments.'],
    [{ supplier: true, amountCents: 100, date: '2999-01-01' }, 'The payment date cannot be in the future.'],
    [{ supplier: true, amountCents: 100, invoiceId: randomUUID() }, 'The invoice chosen is not an open purchase of this supplier.'],
    [{ supplier: true, amountCents: 10.5 }, null],
    [{ supplier: true, amountCents: 100, method: 'Bitcoin' }, null],
  ])('refuses %j with "%s", nothing written', async (body, message) => {
    const s = await supplier('Refused Ltd');
    await purchase(s, daysFromToday(-1), 1000);
    const before = await paymentCount();
    const { supplier: withSupplier, ...rest } = body as Record<string, unknown>;
    const res = await pay(c.owner!, { ...(withSupplier ? { supplierId: s } : {}), ...rest });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    if (message) expect(res.body.error.message).toBe(message);
    expect(await paymentCount()).toBe(before);
  });

  it("a missing supplier, a customer or another tenant's supplier is 404; a cashier or manager may not pay", async () => {
    const s = await supplier('Guarded Ltd');
    const customer = (await c.owner!.request('POST', '/api/contacts', { name: 'Not A Supplier', phone: '0711000111' }, { 'idempotency-key': randomUUID() })).body.id;
    expect((await pay(c.owner!, { supplierId: randomUUID(), amountCents: 100 })).status).toBe(404);
    expect((await pay(c.owner!, { supplierId: customer, amountCents: 100 })).status).toBe(404);
    expect((await pay(otherOwner, { supplierId: s, amountCents: 100 })).status).toBe(404);
    expect((await pay(c.cashier!, { supplierId: s, amountCents: 100 })).status).toBe(403);
    expect((await pay(c.manager!, { supplierId: s, amountCents: 100 })).status).toBe(403);
    expect((await c.cashier!.get('/api/reports/suppliers')).status).toBe(403);
    expect((await c.cashier!.get(`/api/reports/suppliers/${s}/invoices`)).status).toBe(403);
    expect((await c.owner!.get(`/api/reports/suppliers/${customer}/invoices`)).status).toBe(404);
    expect((await c.owner!.get(`/api/reports/suppliers/${randomUUID()}/invoices`)).status).toBe(404);
    expect((await otherOwner.get(`/api/reports/suppliers/${s}/invoices`)).status).toBe(404);
    expect((await c.owner!.get('/api/reports/suppliers/not-an-id/invoices')).status).toBe(400);
    const mine = supplierPaymentSavedSchema.parse((await pay(c.owner!, { supplierId: s, amountCents: 100 })).body);
    expect((await otherOwner.get(`/api/supplier-payments/${mine.payment.id}`)).status).toBe(404);
    expect((await otherOwner.delete(`/api/supplier-payments/${mine.payment.id}`)).status).toBe(404);
  });

  it('aging by credit terms: due dates, days overdue, buckets and the filters; settings kept per user', async () => {
    const s = await supplier('Aging Ltd', '30 days');
    const old = await purchase(s, daysFromToday(-100), 10_000); // 70 days overdue
    const mid = await purchase(s, daysFromToday(-75), 20_000); // 45 days overdue
    const recent = await purchase(s, daysFromToday(-40), 30_000); // 10 days overdue
    const fresh = await purchase(s, daysFromToday(-5), 40_000); // current
    await purchase(s, daysFromToday(-3), 99_000, 'cancelled'); // not an invoice
    const row = await rowOf(s);
    expect(row).toMatchObject({ balance: 100_000, outstandingInvoiceCount: 4, daysOutstanding: 100, ageBucket: '60+ days overdue', agingBreakdown: { current: 40_000, days1to30: 30_000, days31to60: 20_000, over60: 10_000 } });
    expect((await openOf(s)).map((i) => [i.id, i.dueDate, i.daysOverdue])).toEqual([
      [old, daysFromToday(-70), 70],
      [mid, daysFromToday(-45), 45],
      [recent, daysFromToday(-10), 10],
      [fresh, daysFromToday(25), 0],
    ]);
    const due = (await c.owner!.get('/api/reports/suppliers/payment-due')).body;
    expect(due.windowDays).toBe(7);
    expect(due.invoiceCount).toBeGreaterThanOrEqual(3);
    expect(due.invoices.length).toBe(Math.min(due.invoiceCount, 20));
    const mineDue = due.invoices.filter((i: { supplierId: string }) => i.supplierId === s).map((i: { id: string }) => i.id);
    expect(mineDue).toEqual([old, mid, recent]);
    expect((await c.cashier!.get('/api/reports/suppliers/payment-due')).status).toBe(403);
    const settled = await supplier('Zero Ltd');
    expect((await report()).rows.some((r) => r.supplierId === settled)).toBe(true);
    expect((await report('?nonZeroOnly=true')).rows.some((r) => r.supplierId === settled)).toBe(false);
    expect((await report('?minBalanceCents=100000&search=aging')).rows.map((r) => r.supplierId)).toEqual([s]);
    expect((await report('?minBalanceCents=100001&search=aging')).rows).toEqual([]);
    // Settings: the default credit days and aging periods change the report for this user only.
    const saved = await c.owner!.put('/api/reports/suppliers/settings', { reportTitle: 'Owed to suppliers', showZeroBalances: false, defaultCreditDays: 10, agingPeriods: [15, 45, 90], currencySymbol: 'KES', dateFormat: 'DD/MM/YYYY' });
    expect(saved.status).toBe(200);
    const mine = await report();
    expect(mine.settings.reportTitle).toBe('Owed to suppliers');
    expect(mine.bucketLabels).toEqual(['Current', '1-15 days overdue', '16-45 days overdue', '45+ days overdue']);
    expect(mine.rows.some((r) => r.supplierId === settled)).toBe(false);
    expect((await c.accounts!.get('/api/reports/suppliers/settings')).body.reportTitle).toBe('Supplier Balances Report');
    expect((await c.owner!.put('/api/reports/suppliers/settings', { agingPeriods: [60, 30, 90] })).status).toBe(400);
    await c.owner!.put('/api/reports/suppliers/settings', {});
  });

  it("invariant: after any mix of purchases, returns, payments, edits and deletions, balance = purchases - returns - payments and no invoice gets more than it owes", async () => {
    const s = await supplier('Invariant Ltd', '2m');
    let next = 1;
    const rand = () => {
      next = (next * 48271) % 2147483647;
      return next / 2147483647;
    };
    const purchases: string[] = [];
    const payments: string[] = [];
    for (let step = 0; step < 24; step++) {
      const r = rand();
      if (r < 0.3 || purchases.length === 0) purchases.push(await purchase(s, daysFromToday(-Math.floor(rand() * 90)), 1000 + Math.floor(rand() * 50_000)));
      else if (r < 0.4) await purchaseReturn(s, purchases[Math.floor(rand() * purchases.length)]!, 100 + Math.floor(rand() * 500));
      else if (r < 0.8) {
        const res = await pay(c.owner!, { supplierId: s, amountCents: 500 + Math.floor(rand() * 40_000), ...(rand() < 0.3 ? { invoiceId: purchases[0] } : {}) });
        if (res.status === 201) payments.push(res.body.payment.id);
        else expect(res.body.error.code).toBe('SUPPLIER_PAYMENT_INVOICE_UNKNOWN');
      } else if (r < 0.9 && payments.length > 0) {
        expect((await c.owner!.put(`/api/supplier-payments/${payments[0]}`, { amountCents: 500 + Math.floor(rand() * 10_000), date: daysFromToday(0) })).status).toBe(200);
      } else if (payments.length > 0) {
        expect((await c.owner!.delete(`/api/supplier-payments/${payments.pop()}`)).status).toBe(200);
      }
      const [sums] = await t.db.owner.query<{ purchases: string; returns: string; paid: string }>(
        `SELECT (SELECT coalesce(sum(total_cents), 0) FROM purchases WHERE pharmacy_id = $1 AND supplier_id = $2 AND deleted_at IS NULL AND status <> 'cancelled')::bigint AS purchases,
                (SELECT coalesce(sum(total_cents), 0) FROM purchase_returns WHERE pharmacy_id = $1 AND supplier_id = $2)::bigint AS returns,
                (SELECT coalesce(sum(amount_cents), 0) FROM supplier_payments WHERE pharmacy_id = $1 AND supplier_id = $2 AND deleted_at IS NULL)::bigint AS paid`,
        [ph.pharmacyId, s],
      );
      const row = await rowOf(s);
      expect(row.balance).toBe(Number(sums!.purchases) - Number(sums!.returns) - Number(sums!.paid));
      // The row's SQL aggregate is the domain's aging rule over the invoices the row opens to.
      const open = await openOf(s);
      const aging = agingOfInvoices(open, [30, 60, 90]);
      expect([row.outstandingInvoiceCount, row.daysOutstanding, row.agingBreakdown]).toEqual([aging.openInvoiceCount, aging.maxDaysOld, aging.breakdown]);
      if (row.balance > 0) expect(open.reduce((sum, i) => sum + i.outstandingCents, 0)).toBeGreaterThanOrEqual(row.balance);
      const over = await t.db.owner.query(
        `SELECT p.id FROM purchases p
           JOIN supplier_payment_allocations a ON a.pharmacy_id = p.pharmacy_id AND a.purchase_id = p.id AND a.removed_at IS NULL
           JOIN supplier_payments sp ON sp.pharmacy_id = a.pharmacy_id AND sp.id = a.payment_id AND sp.deleted_at IS NULL
          WHERE p.pharmacy_id = $1 AND p.supplier_id = $2
          GROUP BY p.id, p.total_cents HAVING sum(a.amount_cents) > p.total_cents`,
        [ph.pharmacyId, s],
      );
      expect(over).toEqual([]);
      const overPaid = await t.db.owner.query(
        `SELECT sp.id FROM supplier_payments sp JOIN supplier_payment_allocations a ON a.pharmacy_id = sp.pharmacy_id AND a.payment_id = sp.id AND a.removed_at IS NULL
          WHERE sp.pharmacy_id = $1 AND sp.supplier_id = $2 AND sp.deleted_at IS NULL GROUP BY sp.id, sp.amount_cents HAVING sum(a.amount_cents) > sp.amount_cents`,
        [ph.pharmacyId, s],
      );
      expect(overPaid).toEqual([]);
    }
    const summary = contactSummarySchema.parse((await c.owner!.get(`/api/contacts/${s}/summary`)).body);
    expect(summary.balance.balanceCents).toBe((await rowOf(s)).balance);
    expect(summary.supplierPayments.length).toBe(payments.length);
  });
});
