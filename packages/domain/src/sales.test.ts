import { describe, expect, it } from 'vitest';
import { newClientProblem, phoneSearchDigits } from './contacts.ts';
import { ERRORS, formatMessage } from './errors.ts';
import {
  allocateProportionally,
  checkCompletion,
  checkPayments,
  completeSaleSchema,
  computeCart,
  discountCents,
  formatInvoiceNumber,
  isLineLowMargin,
  isSaleProblem,
  isWholePackages,
  lineMinimumAllowedCents,
  maxWholePackages,
  paymentKind,
  paymentStatus,
  quickCashSuggestions,
  refillDueDate,
  saleDateProblem,
  taxRateBasisPointsOf,
  tillPaymentMethods,
  canonicalPaymentMethod,
  unitPriceForMode,
  type CartLineInput,
} from './sales.ts';

const line = (over: Partial<CartLineInput> = {}): CartLineInput => ({
  quantity: 1,
  unitMode: 'P',
  packageSize: 1,
  unitPriceCents: 10_000,
  taxApplied: false,
  ...over,
});

const messageOf = (p: ReturnType<typeof checkPayments>) => (isSaleProblem(p) ? formatMessage(ERRORS[p.code].message, p.values) : null);

describe('cart arithmetic', () => {
  it('line totals in cents, W multiplying the unit price by the package size with the quantity in pieces', () => {
    expect(unitPriceForMode(250, 'W', 10)).toBe(2500);
    expect(unitPriceForMode(250, 'P', 10)).toBe(250);
    const cart = computeCart([line({ quantity: 3, unitPriceCents: 250 }), line({ quantity: 20, unitMode: 'W', packageSize: 10, unitPriceCents: 2500 })], null);
    expect(cart.lines.map((l) => l.grossCents)).toEqual([750, 5000]);
    expect(cart.subtotalCents).toBe(5750);
    expect(cart.totalCents).toBe(5800); // KES rounds to whole shillings
    expect(cart.roundingCents).toBe(50);
    expect(isWholePackages(20, 'W', 10)).toBe(true);
    expect(isWholePackages(15, 'W', 10)).toBe(false);
    expect(maxWholePackages(25, 10)).toBe(2);
  });

  it('a percent or fixed discount, capped at the subtotal', () => {
    expect(discountCents(10_000, { type: 'percent', basisPoints: 1000 })).toBe(1000);
    expect(discountCents(10_000, { type: 'fixed', cents: 2500 })).toBe(2500);
    expect(discountCents(10_000, { type: 'fixed', cents: 99_999 })).toBe(10_000);
    expect(discountCents(10_000, { type: 'percent', basisPoints: 10_000 })).toBe(10_000);
    expect(discountCents(0, { type: 'fixed', cents: 5 })).toBe(0);
  });

  it('allocates by largest remainder so the shares add up exactly', () => {
    expect(allocateProportionally(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateProportionally(10, [0, 0])).toEqual([0, 0]);
    expect(allocateProportionally(7, [3, 0, 1])).toEqual([5, 0, 2]);
    for (let i = 0; i < 200; i++) {
      const weights = Array.from({ length: 1 + (i % 7) }, (_, j) => ((i * 7919 + j * 104_729) % 100_000) + (j % 3 === 0 ? 0 : 1));
      const amount = (i * 7_777) % (weights.reduce((a, b) => a + b, 0) + 1);
      const shares = allocateProportionally(amount, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
      shares.forEach((s, k) => expect(s).toBeLessThanOrEqual(weights[k]!));
    }
  });

  it('tax after the discount, per item only when its flag is on: item rate, else settings rate, else 16', () => {
    expect(taxRateBasisPointsOf({ taxApplied: false, taxRateBasisPoints: 1600 }, 16)).toBe(0);
    expect(taxRateBasisPointsOf({ taxApplied: true, taxRateBasisPoints: 800 }, 16)).toBe(800);
    expect(taxRateBasisPointsOf({ taxApplied: true, taxRateBasisPoints: null }, 14)).toBe(1400);
    expect(taxRateBasisPointsOf({ taxApplied: true }, null)).toBe(1600);
    // 100.00 taxed + 100.00 untaxed, 10 % off: 10.00 discount, 5.00 on each; tax 16 % of 95.00 = 15.20.
    const cart = computeCart(
      [line({ taxApplied: true, taxRateBasisPoints: 1600 }), line()],
      { type: 'percent', basisPoints: 1000 },
      { currency: 'USD' },
    );
    expect(cart.discountCents).toBe(2000);
    expect(cart.lines.map((l) => l.discountCents)).toEqual([1000, 1000]);
    expect(cart.taxCents).toBe(1440);
    expect(cart.totalCents).toBe(20_000 - 2000 + 1440);
    expect(cart.roundingCents).toBe(0);
    expect(cart.lines.reduce((a, l) => a + l.totalCents, 0)).toBe(cart.totalCents);
  });

  it('rounds the total to whole units for KES, UGX, TZS, NGN, JPY and KRW, to cents otherwise', () => {
    for (const currency of ['KES', 'UGX', 'TZS', 'NGN', 'JPY', 'KRW']) expect(computeCart([line({ unitPriceCents: 1049 })], null, { currency }).totalCents).toBe(1000);
    expect(computeCart([line({ unitPriceCents: 1050 })], null, { currency: 'KES' }).totalCents).toBe(1100);
    expect(computeCart([line({ unitPriceCents: 1049 })], null, { currency: 'USD' }).totalCents).toBe(1049);
  });

  it('minimum allowed price and Low Margin beyond 0.01', () => {
    // cost 78.00 at 22 %: 100.00
    expect(lineMinimumAllowedCents({ costCents: 7800, minMarginPercent: 22, unitMode: 'P', packageSize: 10 })).toBe(10_000);
    expect(lineMinimumAllowedCents({ costCents: 7800, minMarginPercent: 22, unitMode: 'W', packageSize: 10 })).toBe(100_000);
    expect(lineMinimumAllowedCents({ costCents: 7800, minMarginPercent: 22, minimumPriceCents: 12_000, unitMode: 'P', packageSize: 1 })).toBe(12_000);
    expect(isLineLowMargin(9999, 10_000)).toBe(false);
    expect(isLineLowMargin(9998, 10_000)).toBe(true);
  });
});

describe('payment', () => {
  it('status unpaid, partial with a percentage, paid', () => {
    expect(paymentStatus(0, 1000)).toEqual({ status: 'unpaid', percent: 0 });
    expect(paymentStatus(-5, 1000)).toEqual({ status: 'unpaid', percent: 0 });
    expect(paymentStatus(250, 1000)).toEqual({ status: 'partial', percent: 25 });
    expect(paymentStatus(1000, 1000)).toEqual({ status: 'paid', percent: 100 });
    expect(paymentStatus(1500, 1000)).toEqual({ status: 'paid', percent: 100 });
  });

  it('quick cash: the total and the next multiples of 50, 100, 500 and 1000, at most 4', () => {
    expect(quickCashSuggestions(123_400)).toEqual([123_400, 125_000, 130_000, 150_000]);
    expect(quickCashSuggestions(5_000)).toEqual([5_000, 10_000, 50_000, 100_000]);
    expect(quickCashSuggestions(100_000)).toEqual([100_000]);
    expect(quickCashSuggestions(0)).toEqual([]);
  });

  it('kinds of methods', () => {
    expect(['Cash', 'MPESA', 'M-Pesa', 'Card', 'Credit', 'Bank Transfer', 'Credit Card', 'Insurance'].map(paymentKind)).toEqual([
      'cash', 'digital', 'digital', 'digital', 'credit', 'digital', 'digital', 'other',
    ]);
    expect(tillPaymentMethods(['Cash', 'M-Pesa', 'Insurance', 'Bank Transfer'])).toEqual(['Cash', 'MPESA', 'Card', 'Credit', 'Insurance', 'Bank Transfer']);
    expect(tillPaymentMethods([])).toEqual(['Cash', 'MPESA', 'Card', 'Credit']);
    expect(canonicalPaymentMethod(tillPaymentMethods([]), 'm-pesa')).toBe('MPESA');
    expect(canonicalPaymentMethod(tillPaymentMethods([]), 'Bitcoin')).toBeUndefined();
  });

  it("the specification's messages, in its order", () => {
    const fmt = (c: number) => `KSh ${(c / 100).toFixed(2)}`;
    expect(messageOf(checkPayments([], 1000, fmt))).toBe('Please select payment method');
    expect(messageOf(checkPayments([{ method: ' ', amountCents: 1000 }], 1000, fmt))).toBe('Please select payment method');
    expect(messageOf(checkPayments([{ method: 'Cash', amountCents: 0 }], 1000, fmt))).toBe('Please enter amount paid');
    expect(messageOf(checkPayments([{ method: 'Cash', amountCents: 999 }], 1000, fmt))).toBe('Amount paid is less than total (or use Credit payment method)');
    expect(messageOf(checkPayments([{ method: 'MPESA', amountCents: 1500 }], 1000, fmt))).toBe('MPESA requires exact amount: KSh 10.00');
    expect(checkPayments([{ method: 'MPESA', amountCents: 1001 }], 1000, fmt)).toMatchObject({ changeCents: 0, amountPaidCents: 1001 });
    expect(checkPayments([{ method: 'Cash', amountCents: 2000 }], 1000, fmt)).toMatchObject({ changeCents: 1000, balanceDueCents: 0, method: 'Cash' });
    expect(checkPayments([{ method: 'Credit', amountCents: 300 }], 1000, fmt)).toMatchObject({ changeCents: 0, balanceDueCents: 700, isCredit: true });
    expect(checkPayments([{ method: 'Credit', amountCents: 0 }], 1000, fmt)).toMatchObject({ balanceDueCents: 1000 });
    // Split tender: the change comes only out of cash.
    expect(checkPayments([{ method: 'MPESA', amountCents: 600 }, { method: 'Cash', amountCents: 500 }], 1000, fmt)).toMatchObject({ changeCents: 100, amountPaidCents: 1100 });
    expect(messageOf(checkPayments([{ method: 'Card', amountCents: 500 }, { method: 'MPESA', amountCents: 600 }], 1000, fmt))).toBe('Card requires exact amount: KSh 4.00');
  });

  it('completion: empty cart first, then payment, stock, DDA', () => {
    const ok = [{ quantity: 1, available: 5, isDda: false }];
    const cash = [{ method: 'Cash', amountCents: 1000 }];
    const msg = (p: ReturnType<typeof checkCompletion>) => (isSaleProblem(p) ? ERRORS[p.code].message : null);
    expect(msg(checkCompletion([], [], 1000))).toBe('Cart is empty');
    expect(msg(checkCompletion(ok, [], 1000))).toBe('Please select payment method');
    expect(msg(checkCompletion([{ quantity: 6, available: 5, isDda: false }], cash, 1000))).toBe('Some items exceed available stock');
    expect(msg(checkCompletion([{ quantity: 1, available: 5, isDda: true, prescription: { doctorName: 'Dr A', hospitalName: '  ' } }], cash, 1000))).toBe(
      'DDA products need prescription information',
    );
    expect(isSaleProblem(checkCompletion([{ quantity: 1, available: 5, isDda: true, prescription: { doctorName: 'Dr A', hospitalName: 'KNH' } }], cash, 1000))).toBe(false);
  });
});

describe('dates, invoices, refills', () => {
  it('the sale date window', () => {
    expect(saleDateProblem('2026-03-10', '2026-03-10')).toBeNull();
    expect(saleDateProblem('2026-03-11', '2026-03-10')?.code).toBe('SALE_DATE_IN_FUTURE');
    expect(saleDateProblem('2026-02-08', '2026-03-10')).toBeNull();
    expect(saleDateProblem('2026-02-07', '2026-03-10')?.code).toBe('SALE_DATE_TOO_OLD');
    expect(ERRORS.SALE_DATE_IN_FUTURE.message).toBe('Sale date cannot be in the future. Only today and past dates are allowed.');
    expect(ERRORS.SALE_DATE_TOO_OLD.message).toBe('Sale date cannot be more than 30 days in the past');
  });

  it('invoice numbers and refill due dates', () => {
    expect(formatInvoiceNumber(1)).toBe('INV-000001');
    expect(formatInvoiceNumber(123_456)).toBe('INV-123456');
    expect(refillDueDate('2026-01-31', 30)).toBe('2026-03-02');
  });

  it('refill days 1-365 with the message', () => {
    const base = { id: '0190a0a0-0000-7000-8000-000000000001', lines: [], payments: [] };
    const bad = completeSaleSchema.safeParse({ ...base, lines: [{ productId: base.id, quantity: 1, needsRefill: true, refillDays: 366 }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('Please enter a valid number of days (1-365).');
    expect(completeSaleSchema.safeParse({ ...base, lines: [{ productId: base.id, quantity: 1.5 }] }).success).toBe(false);
    expect(completeSaleSchema.safeParse({ ...base, lines: Array.from({ length: 201 }, () => ({ productId: base.id, quantity: 1 })) }).success).toBe(false);
  });
});

describe('new clients', () => {
  it('name, phone, and location and address for DDA carts', () => {
    expect(newClientProblem({ name: ' ', phone: '0712345678' })).toBe('CONTACT_NAME_REQUIRED');
    expect(newClientProblem({ name: 'Jane', phone: '' })).toBe('CONTACT_PHONE_REQUIRED');
    expect(newClientProblem({ name: 'Jane', phone: '0712345678', forDda: true })).toBe('CONTACT_LOCATION_REQUIRED_DDA');
    expect(newClientProblem({ name: 'Jane', phone: '0712345678', forDda: true, location: 'Nairobi' })).toBe('CONTACT_ADDRESS_REQUIRED_DDA');
    expect(newClientProblem({ name: 'Jane', phone: '0712345678' })).toBeNull();
    expect(phoneSearchDigits('0712 345')).toBe('712345');
    expect(phoneSearchDigits('ab')).toBeNull();
    expect(phoneSearchDigits('+254 (712) 345-678')).toBe('254712345678');
    // Digits inside a name are not a phone: 'Grace-4x3k2' once found a client whose phone held 432.
    expect(phoneSearchDigits('Grace Chebet-mwy4srux-3xk2a')).toBeNull();
    expect(phoneSearchDigits('Ward 4, bed 32')).toBeNull();
  });
});
