import { describe, expect, it } from 'vitest';
import { formatCountdown, formatDate, formatMoney } from './format.ts';

describe('formatMoney', () => {
  it('shows integer cents as KSh with two decimals and thousands separators', () => {
    expect(formatMoney(123450)).toBe('KSh 1,234.50');
    expect(formatMoney(5)).toBe('KSh 0.05');
    expect(formatMoney(-250)).toBe('-KSh 2.50');
    expect(formatMoney(null)).toBe('KSh 0.00');
  });
});

describe('formatCountdown (auto-logout m:ss)', () => {
  it('pads seconds and never goes negative', () => {
    expect(formatCountdown(1800)).toBe('30:00');
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});

describe('formatDate', () => {
  it('uses en-GB day month year and is empty for nothing', () => {
    expect(formatDate('2026-03-05T10:00:00Z')).toBe('05 Mar 2026');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
