import { describe, expect, it } from 'vitest';
import {
  ageBucket,
  agingBucketLabels,
  allocateCredit,
  allocatePayment,
  balanceStatus,
  invoiceAge,
  paymentAllocatedMessage,
  paymentSavedMessage,
  supplierPaymentFormSchema,
  type OpenInvoice,
} from './supplier-payments.ts';

const invoice = (id: string, date: string, totalCents: number, paidCents = 0, returnedCents = 0): OpenInvoice => ({ id, number: `PO-${id}`, date, totalCents, paidCents, returnedCents });

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('payment allocation (seed 002 sections 3, 4 and 9)', () => {
  it('oldest invoice first, skipping settled ones, the rest as overpayment', () => {
    const details = allocatePayment(70_000, [invoice('b', '2026-02-01', 50_000), invoice('a', '2026-01-01', 30_000, 10_000), invoice('z', '2025-12-01', 5_000, 5_000)]);
    expect(details).toEqual({
      type: 'auto',
      totalAllocated: 70_000,
      overpayment: 0,
      invoicesAffected: 2,
      allocations: [
        { invoiceId: 'a', invoiceNumber: 'PO-a', invoiceDate: '2026-01-01', invoiceTotal: 30_000, previouslyPaid: 10_000, allocationAmount: 20_000, remainingBalance: 0 },
        { invoiceId: 'b', invoiceNumber: 'PO-b', invoiceDate: '2026-02-01', invoiceTotal: 50_000, previouslyPaid: 0, allocationAmount: 50_000, remainingBalance: 0 },
      ],
    });
    expect(allocatePayment(100, []).overpayment).toBe(100);
  });

  it('a chosen invoice first, then the oldest', () => {
    const details = allocatePayment(60_000, [invoice('a', '2026-01-01', 30_000), invoice('b', '2026-02-01', 50_000)], 'b');
    expect(details.type).toBe('specific');
    expect(details.allocations.map((a) => [a.invoiceId, a.allocationAmount])).toEqual([
      ['b', 50_000],
      ['a', 10_000],
    ]);
  });

  it('property: allocations never exceed what an invoice owes, and allocated + overpayment = the amount', () => {
    const next = random(42);
    for (let run = 0; run < 300; run++) {
      const invoices = Array.from({ length: Math.floor(next() * 6) }, (_, i) => {
        const total = Math.floor(next() * 100_000);
        const returned = Math.floor(next() * total * 0.3);
        return invoice(`i${i}`, `2026-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}`, total, Math.floor(next() * (total - returned + 10)), returned);
      });
      const amount = Math.floor(next() * 200_000);
      const details = allocatePayment(amount, invoices, next() < 0.3 && invoices[0] ? invoices[0].id : null);
      expect(details.totalAllocated + details.overpayment).toBe(amount);
      for (const a of details.allocations) {
        const inv = invoices.find((i) => i.id === a.invoiceId)!;
        expect(a.allocationAmount).toBeGreaterThan(0);
        expect(a.allocationAmount).toBeLessThanOrEqual(inv.totalCents - inv.returnedCents - inv.paidCents);
      }
      const given = allocateCredit([{ paymentId: 'p', creditCents: amount }], invoices);
      if (details.type === 'auto') expect(given.reduce((s, g) => s + g.amountCents, 0)).toBe(details.totalAllocated);
    }
  });

  it('the messages of section 8, word for word', () => {
    expect(paymentSavedMessage(1_234_550, 3)).toBe('Payment of KES 12,345.50 saved successfully (allocated to 3 invoice(s))');
    const details = allocatePayment(1000, [invoice('a', '2026-03-05', 600), invoice('b', '2026-04-01', 600)]);
    expect(paymentAllocatedMessage(details)).toBe('Payment allocated to 2 invoice(s), starting with oldest (5 Mar 2026)');
    expect(paymentAllocatedMessage(allocatePayment(1000, []))).toBeNull();
  });
});

describe('supplier report rules (seed 002 sections 4 and 9)', () => {
  it('status, buckets and due dates', () => {
    expect([balanceStatus(1), balanceStatus(-1), balanceStatus(0)]).toEqual(['Outstanding', 'Overpaid', 'Settled']);
    expect(agingBucketLabels()).toEqual(['Current', '1-30 days overdue', '31-60 days overdue', '60+ days overdue']);
    expect([0, 1, 30, 31, 60, 61].map((d) => ageBucket(100, d))).toEqual(['Current', '1-30 days overdue', '1-30 days overdue', '31-60 days overdue', '31-60 days overdue', '60+ days overdue']);
    expect(ageBucket(0, 90)).toBe('Settled');
    expect(ageBucket(-5, 90)).toBe('Credit Balance');
    expect(invoiceAge('2026-01-01', 30, '2026-03-02')).toEqual({ dueDate: '2026-01-31', daysOld: 60, daysOverdue: 30 });
    expect(invoiceAge('2026-01-01', 30, '2026-01-10')).toEqual({ dueDate: '2026-01-31', daysOld: 9, daysOverdue: 0 });
  });

  it('the payment form: amount in KES to cents, a reference for M-Pesa, blanks to null', () => {
    expect(supplierPaymentFormSchema.parse({ amount: '1,500.50', date: '2026-01-01', method: 'Cash', reference: '', notes: '', invoiceId: '' })).toEqual({
      amountCents: 150_050,
      date: '2026-01-01',
      method: 'Cash',
      reference: null,
      notes: null,
      invoiceId: null,
    });
    const bad = supplierPaymentFormSchema.safeParse({ amount: '0', date: '2026-01-01', method: 'M-Pesa', reference: '', notes: '', invoiceId: '' });
    expect(bad.error?.issues.map((i) => i.message)).toEqual(['The amount must be more than KES 0.00.', 'A reference is required for M-Pesa payments.']);
  });
});
