import { describe, expect, it } from 'vitest';
import {
  checkReservationInput,
  checkSuspension,
  DEFAULT_SUSPEND_REASON,
  newReservationId,
  RESERVATION_ID_PATTERN,
  suspendFormSchema,
  suspendPaymentMethods,
  suspendReason,
  suspendSaleSchema,
} from './suspended-sales.ts';
import { ERRORS, formatMessage } from './errors.ts';

const message = (problem: ReturnType<typeof checkSuspension>) =>
  problem ? formatMessage(ERRORS[problem.code].message, problem.values) : null;

const line = (over: Partial<Parameters<typeof checkSuspension>[0]['lines'][number]> = {}) => ({ productName: 'Paracetamol', quantity: 2, available: 5, lowMargin: false, ...over });
const base = { lines: [line()], clientId: 'c1', amountPaidCents: 0, totalCents: 1000, enforceMargins: true, allowSuspendWithLowMargin: false };

describe('suspending a sale: the checks of seed 001 section 5 in order, with their messages', () => {
  it('passes a registered customer with stock, paid up to the total', () => {
    expect(checkSuspension(base)).toBeNull();
    expect(checkSuspension({ ...base, amountPaidCents: 1000 })).toBeNull();
  });
  it('refuses each problem with the specification sentence', () => {
    expect(message(checkSuspension({ ...base, lines: [] }))).toBe('Cart is empty');
    expect(message(checkSuspension({ ...base, clientId: null }))).toBe('Please select a registered customer before suspending the sale.');
    expect(message(checkSuspension({ ...base, lines: [line({ quantity: 4 }), line({ quantity: 3 })] }))).toBe('Insufficient stock for Paracetamol. Available: 5, Requested: 7');
    expect(message(checkSuspension({ ...base, amountPaidCents: 1001 }))).toBe('Amount paid cannot exceed total');
    expect(message(checkSuspension({ ...base, lines: [line({ lowMargin: true })] }))).toBe('Low margin items detected. Cannot suspend sale.');
  });
  it('low margin passes when margins are not enforced or suspending with low margin is allowed', () => {
    expect(checkSuspension({ ...base, lines: [line({ lowMargin: true })], enforceMargins: false })).toBeNull();
    expect(checkSuspension({ ...base, lines: [line({ lowMargin: true })], allowSuspendWithLowMargin: true })).toBeNull();
  });
  it('the empty cart comes before the client, the client before stock', () => {
    expect(checkSuspension({ ...base, lines: [], clientId: null })?.code).toBe('SALE_CART_EMPTY');
    expect(checkSuspension({ ...base, clientId: undefined, lines: [line({ quantity: 99 })] })?.code).toBe('SUSPEND_CLIENT_REQUIRED');
  });
});

describe('the reservation input check', () => {
  const item = { productId: 'p1', name: 'A', quantity: 1, priceCents: 100 };
  it('answers its messages', () => {
    expect(checkReservationInput([item], 'c1')).toBeNull();
    expect(checkReservationInput([], 'c1')?.code).toBe('SALE_CART_EMPTY');
    expect(formatMessage(ERRORS[checkReservationInput([item], null)!.code].message)).toBe('Client is required');
    expect(formatMessage(ERRORS[checkReservationInput([{ ...item, priceCents: 0 }], 'c1')!.code].message)).toBe('No items to reserve');
    expect(checkReservationInput([{ ...item, name: ' ' }], 'c1')?.code).toBe('SUSPEND_NO_ITEMS');
  });
});

describe('reservation ids, reasons, methods', () => {
  it("'RES-' + timestamp + random suffix", () => {
    const id = newReservationId(new Date(1_764_000_000_000), () => 0.5);
    expect(id).toMatch(/^RES-1764000000000-[A-Z0-9]{6}$/);
    expect(id).toMatch(RESERVATION_ID_PATTERN);
    expect(newReservationId()).not.toBe(newReservationId());
  });
  it('the default reason', () => {
    expect(suspendReason('')).toBe(DEFAULT_SUSPEND_REASON);
    expect(suspendReason('  ')).toBe('Customer requested suspension');
    expect(suspendReason(' Back at 5 ')).toBe('Back at 5');
  });
  it('the suspend modal offers Cash, MPESA, Card, Bank Transfer, Credit, then the settings others', () => {
    expect(suspendPaymentMethods(null)).toEqual(['Cash', 'MPESA', 'Card', 'Bank Transfer', 'Credit']);
    expect(suspendPaymentMethods(['M-Pesa', 'Insurance'])).toEqual(['Cash', 'MPESA', 'Card', 'Bank Transfer', 'Credit', 'Insurance']);
  });
});

describe('schemas', () => {
  it('the reason is at most 200 characters', () => {
    const body = { id: '11111111-1111-4111-8111-111111111111', clientId: '22222222-2222-4222-8222-222222222222', lines: [{ productId: '33333333-3333-4333-8333-333333333333', quantity: 1 }] };
    expect(suspendSaleSchema.safeParse({ ...body, reason: 'x'.repeat(200) }).success).toBe(true);
    const long = suspendSaleSchema.safeParse({ ...body, reason: 'x'.repeat(201) });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.message).toBe('The reason must be at most 200 characters.');
    expect(suspendSaleSchema.parse(body)).toMatchObject({ paymentMethod: 'Cash', amountPaidCents: 0 });
  });
  it('the dialog form: amount not above the total, default reason', () => {
    const form = suspendFormSchema(10_000);
    expect(form.parse({ paymentMethod: 'MPESA', amountPaid: '50', reason: '' })).toEqual({ paymentMethod: 'MPESA', amountPaidCents: 5000, reason: DEFAULT_SUSPEND_REASON });
    expect(form.parse({ paymentMethod: 'Cash', amountPaid: '', reason: 'later' })).toMatchObject({ amountPaidCents: 0, reason: 'later' });
    expect(form.safeParse({ paymentMethod: 'Cash', amountPaid: '100.01', reason: '' }).error?.issues[0]?.message).toBe('Amount paid cannot exceed total');
    expect(form.safeParse({ paymentMethod: 'Cash', amountPaid: 'abc', reason: '' }).success).toBe(false);
  });
});
