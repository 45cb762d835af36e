import { describe, expect, it } from 'vitest';
import { formatCountdown, formatDate, formatDateTime, formatMoney, formatNumber, setFormatLocale, DEFAULT_FORMAT_LOCALE } from './format.ts';

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

describe('formatting in the pharmacy locale settings', () => {
  it('shows times in the pharmacy time zone, not the browser one', () => {
    setFormatLocale(DEFAULT_FORMAT_LOCALE);
    expect(formatDateTime('2026-03-05T21:30:00Z')).toBe('06 Mar 2026, 00:30');
    setFormatLocale({ timezone: 'Europe/London' });
    expect(formatDateTime('2026-03-05T21:30:00Z')).toBe('05 Mar 2026, 21:30');
    setFormatLocale(DEFAULT_FORMAT_LOCALE);
  });
  it('keeps a calendar date on its day in every zone', () => {
    setFormatLocale({ timezone: 'America/Los_Angeles' });
    expect(formatDate('2026-03-05')).toBe('05 Mar 2026');
    setFormatLocale(DEFAULT_FORMAT_LOCALE);
  });
  it('follows the date and number locale tags, and falls back on one the browser does not know', () => {
    setFormatLocale({ dateFormat: 'en-US', numberFormat: 'de-DE' });
    expect(formatDate('2026-03-05T10:00:00Z')).toBe('Mar 05, 2026');
    expect(formatNumber(1234567)).toBe('1.234.567');
    setFormatLocale({ timezone: 'Not/AZone' });
    expect(formatDate('2026-03-05T10:00:00Z')).toBe('05 Mar 2026');
    setFormatLocale(DEFAULT_FORMAT_LOCALE);
  });
});
