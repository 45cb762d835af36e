import { describe, expect, it } from 'vitest';
import { WHOLE_UNIT_CURRENCIES, formatMoney, parseMoneyToCents, percentOfCents, roundForCurrency, roundHalfAwayFromZero } from './money.ts';

describe('formatting money (seed 002 section 9: "exactly 2 decimals and locale thousands separators")', () => {
  it("shows KSh with thousands separators and 2 decimals: 'KSh 1,234.50'", () => {
    expect(formatMoney(123_450)).toBe('KSh 1,234.50');
  });

  it('shows zero as KSh 0.00', () => {
    expect(formatMoney(0)).toBe('KSh 0.00');
  });

  it('shows a few cents with a leading zero', () => {
    expect(formatMoney(5)).toBe('KSh 0.05');
  });

  it('shows millions with two separators', () => {
    expect(formatMoney(123_456_789)).toBe('KSh 1,234,567.89');
  });

  it('puts the minus sign before the symbol', () => {
    expect(formatMoney(-123_450)).toBe('-KSh 1,234.50');
  });

  it('uses the symbol, separators and decimals of the settings', () => {
    expect(formatMoney(123_450, { currencySymbol: '€', thousandsSeparator: '.', decimalSeparator: ',' })).toBe('€ 1.234,50');
  });

  it('rounds half away from zero when shown without decimals', () => {
    expect(formatMoney(123_450, { decimalPlaces: 0 })).toBe('KSh 1,235');
    expect(formatMoney(-123_450, { decimalPlaces: 0 })).toBe('-KSh 1,235');
  });

  it('pads with zeros when more than 2 decimals are asked for', () => {
    expect(formatMoney(123_450, { decimalPlaces: 3 })).toBe('KSh 1,234.500');
  });

  it('uses KSh for the KES currency and the code for others', () => {
    expect(formatMoney(100, { currency: 'KES' })).toBe('KSh 1.00');
    expect(formatMoney(100, { currency: 'USD' })).toBe('USD 1.00');
  });
});

describe('rounding per currency (seed 001 section 9)', () => {
  it('rounds KES, UGX, TZS, NGN, JPY and KRW to whole units', () => {
    expect(WHOLE_UNIT_CURRENCIES).toEqual(['KES', 'UGX', 'TZS', 'NGN', 'JPY', 'KRW']);
    for (const currency of WHOLE_UNIT_CURRENCIES) expect(roundForCurrency(12_345, currency)).toBe(12_300);
  });

  it('rounds half a unit away from zero', () => {
    expect(roundForCurrency(12_350, 'KES')).toBe(12_400);
    expect(roundForCurrency(-12_350, 'KES')).toBe(-12_400);
  });

  it('keeps cents for other currencies', () => {
    expect(roundForCurrency(12_345, 'USD')).toBe(12_345);
  });

  it('rounds a number half away from zero', () => {
    expect(roundHalfAwayFromZero(2.5)).toBe(3);
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
  });
});

describe('reading typed amounts', () => {
  it("reads '1,234.5' as 123450 cents", () => {
    expect(parseMoneyToCents('1,234.5')).toBe(123_450);
  });

  it("reads '1234' as 123400 cents", () => {
    expect(parseMoneyToCents('1234')).toBe(123_400);
  });

  it('reads two decimals and ignores surrounding spaces', () => {
    expect(parseMoneyToCents(' 0.05 ')).toBe(5);
  });

  it('rejects negative amounts', () => {
    expect(parseMoneyToCents('-5')).toBeNull();
  });

  it('rejects garbage', () => {
    for (const text of ['', 'abc', '12abc', '1,23', '1.234', '1..2', '.', 'KSh']) expect(parseMoneyToCents(text)).toBeNull();
  });
});

describe('percent of an amount (half away from zero)', () => {
  it('takes 16 % of 1,005 cents as 161 cents', () => {
    expect(percentOfCents(1_005, 16)).toBe(161);
  });

  it('rounds an exact half cent up', () => {
    expect(percentOfCents(50, 1)).toBe(1);
  });

  it('rounds an exact half cent of a negative amount down', () => {
    expect(percentOfCents(-50, 1)).toBe(-1);
  });

  it('handles fractional percentages exactly', () => {
    expect(percentOfCents(10_000, 7.5)).toBe(750);
    expect(percentOfCents(333, 33.3333)).toBe(111);
  });
});
