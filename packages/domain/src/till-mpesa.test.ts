import { describe, expect, it } from 'vitest';
import {
  canMoveTillPayment,
  normalizeInvoiceNumber,
  TILL_MPESA_STATUSES,
  tillMpesaNotResolvableText,
  tillMpesaResolveBody,
  tillMpesaResolveFormSchema,
  tillMpesaResolveSchema,
} from './till-mpesa.ts';

describe('till M-Pesa reconciliation rules (decision 0068)', () => {
  it('a request moves only forward; only unmatched money becomes resolved, and resolved never moves', () => {
    expect(canMoveTillPayment('unmatched', 'resolved')).toBe(true);
    expect(canMoveTillPayment('pending', 'resolved')).toBe(false);
    expect(canMoveTillPayment('cancelled', 'resolved')).toBe(false);
    expect(canMoveTillPayment('completed', 'resolved')).toBe(false);
    for (const to of TILL_MPESA_STATUSES) expect(canMoveTillPayment('resolved', to)).toBe(false);
    expect(canMoveTillPayment('cancelled', 'unmatched')).toBe(true);
  });

  it('an invoice number is read as the sale has it', () => {
    expect(normalizeInvoiceNumber('42')).toBe('INV-000042');
    expect(normalizeInvoiceNumber(' inv-000042 ')).toBe('INV-000042');
    expect(normalizeInvoiceNumber('INV42')).toBe('INV-000042');
    expect(normalizeInvoiceNumber('INV-1234567')).toBe('INV-1234567');
    expect(normalizeInvoiceNumber('receipt 5')).toBe('RECEIPT 5');
  });

  it('refunded needs a reference and a note; applied needs an invoice number (the note optional)', () => {
    expect(tillMpesaResolveSchema.safeParse({ resolution: 'refunded', reference: 'RVS1', note: '' }).error?.issues[0]?.message).toBe('Write a note: how and when the customer was refunded.');
    expect(tillMpesaResolveSchema.parse({ resolution: 'applied', invoiceNumber: '7' })).toEqual({ resolution: 'applied', invoiceNumber: 'INV-000007', note: '' });
    expect(tillMpesaResolveSchema.safeParse({ resolution: 'applied', invoiceNumber: 'INV-1', reference: 'x' }).success).toBe(false);
    expect(tillMpesaResolveSchema.safeParse({ resolution: 'refunded', reference: 'x'.repeat(61), note: 'n' }).success).toBe(false);
  });

  it('the form checks only the chosen way’s fields and sends only them', () => {
    const applied = tillMpesaResolveFormSchema.parse({ resolution: 'applied', reference: '', invoiceNumber: ' INV-000009 ', note: '' });
    expect(tillMpesaResolveBody(applied)).toEqual({ resolution: 'applied', invoiceNumber: 'INV-000009', note: '' });
    const issues = tillMpesaResolveFormSchema.safeParse({ resolution: 'applied', reference: '', invoiceNumber: '', note: '' }).error?.issues ?? [];
    expect(issues.map((i) => i.path.join('.'))).toEqual(['invoiceNumber']);
    expect(tillMpesaNotResolvableText('resolved')).toBe('This M-Pesa payment has already been reconciled.');
    expect(tillMpesaNotResolvableText('failed')).toContain('no money was received');
  });
});
