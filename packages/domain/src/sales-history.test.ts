import { describe, expect, it } from 'vitest';
import { addMonths, ageInvoice, agingBucket, allocateOldestFirst, dateRangeOf, saleHistoryQuerySchema } from './sales-history.ts';

describe('date filter values (seed 002 section 4)', () => {
  // 2026-11-24 is a Tuesday.
  const today = '2026-11-24';
  it.each([
    ['today', '2026-11-24', '2026-11-24'],
    ['yesterday', '2026-11-23', '2026-11-23'],
    ['thisWeek', '2026-11-22', '2026-11-24'],
    ['lastWeek', '2026-11-15', '2026-11-21'],
    ['thisMonth', '2026-11-01', '2026-11-24'],
    ['lastMonth', '2026-10-01', '2026-10-31'],
    ['last30Days', '2026-10-25', '2026-11-24'],
    ['last3Months', '2026-08-24', '2026-11-24'],
    ['nonsense', '2026-11-24', '2026-11-24'],
  ])('%s is %s to %s', (preset, from, to) => {
    expect(dateRangeOf(preset, today)).toEqual({ from, to });
  });
  it('a week starts on Sunday: on a Sunday, this week is that day alone', () => {
    expect(dateRangeOf('thisWeek', '2026-11-22')).toEqual({ from: '2026-11-22', to: '2026-11-22' });
    expect(dateRangeOf('lastWeek', '2026-11-22')).toEqual({ from: '2026-11-15', to: '2026-11-21' });
  });
  it('custom takes the given dates; last month across a year; months clamp to their last day', () => {
    expect(dateRangeOf('custom', today, { from: '2026-01-01', to: '2026-01-31' })).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(dateRangeOf('custom', today, {})).toEqual({});
    expect(dateRangeOf('lastMonth', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(addMonths('2026-05-31', -3)).toBe('2026-02-28');
  });
  it('the list query refuses a range that ends before it starts and an unknown value', () => {
    expect(saleHistoryQuerySchema.safeParse({ from: '2026-02-10', to: '2026-02-01' }).success).toBe(false);
    expect(saleHistoryQuerySchema.safeParse({ preset: 'someday' }).success).toBe(false);
    expect(saleHistoryQuerySchema.parse({ preset: 'today' })).toMatchObject({ preset: 'today', limit: 50, offset: 0 });
  });
});

describe('credit aging and allocation', () => {
  it('buckets: not yet due is Current; then 1-30, 31-60, 60+ days overdue', () => {
    expect([0, 1, 30, 31, 60, 61].map(agingBucket)).toEqual(['current', 'days1to30', 'days1to30', 'days31to60', 'days31to60', 'days60plus']);
    expect(ageInvoice('2026-10-01', 30, '2026-11-24')).toEqual({ dueDate: '2026-10-31', daysOverdue: 24, bucket: 'days1to30' });
    expect(ageInvoice('2026-11-20', 30, '2026-11-24')).toEqual({ dueDate: '2026-12-20', daysOverdue: 0, bucket: 'current' });
  });
  it('allocates oldest first until the payment is used up, never more than an invoice owes', () => {
    const invoices = [{ id: 'a', balanceCents: 4000 }, { id: 'b', balanceCents: 2000 }, { id: 'c', balanceCents: 500 }];
    const { allocations, leftCents } = allocateOldestFirst(invoices, 4500);
    expect(allocations.map((a) => [a.invoice.id, a.amountCents])).toEqual([['a', 4000], ['b', 500]]);
    expect(leftCents).toBe(0);
    expect(allocateOldestFirst(invoices, 10_000).leftCents).toBe(3500);
    for (let amount = 1; amount <= 6500; amount += 97) {
      const result = allocateOldestFirst(invoices, amount);
      expect(result.allocations.reduce((x, a) => x + a.amountCents, 0) + result.leftCents).toBe(amount);
      for (const a of result.allocations) expect(a.amountCents).toBeLessThanOrEqual(a.invoice.balanceCents);
    }
  });
});
