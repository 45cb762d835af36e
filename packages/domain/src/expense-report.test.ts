import { describe, expect, it } from 'vitest';
import { decideExpenseVoid, decideExpenseWrite, defaultExpensePeriod, expenseBreakdown, expenseReportQuerySchema, periodStart, type ExpenseGroup } from './expense-report.ts';
import { createExpenseSchema } from './expenses.ts';
import { resolveReportRange } from './report-period.ts';

const g = (over: Partial<ExpenseGroup>): ExpenseGroup => ({
  date: '2026-03-02',
  branchId: 'b1',
  branchName: 'Main',
  category: 'Rent',
  paymentMethod: 'Cash',
  source: 'POS',
  isTransport: false,
  transportType: null,
  voided: false,
  count: 1,
  totalCents: 1_000,
  amountCents: 1_000,
  fuelCents: 0,
  tollCents: 0,
  parkingCents: 0,
  mealAllowanceCents: 0,
  distanceKm: 0,
  ...over,
});

describe('expense breakdown', () => {
  const groups = [
    g({}),
    g({ category: 'Bank Charges', branchId: 'b2', branchName: 'West', paymentMethod: 'M-Pesa', source: 'manual', totalCents: 2_500, amountCents: 2_500, date: '2026-03-10' }),
    g({ category: 'Transport - Taxi', isTransport: true, transportType: 'Taxi', totalCents: 1_750, amountCents: 1_000, fuelCents: 500, parkingCents: 250, distanceKm: 12.3 }),
    g({ category: 'Transport - Taxi', isTransport: true, transportType: null, totalCents: 300, amountCents: 300, distanceKm: 0.1 }),
    g({ category: 'Rent', voided: true, totalCents: 9_999 }),
  ];
  const s = expenseBreakdown(groups, 'week');
  it('totals leave voided expenses out and count them apart', () => {
    expect(s).toMatchObject({ count: 4, totalCents: 5_550, voidedCount: 1, voidedTotalCents: 9_999 });
  });
  it('buckets by category, branch, method and source, largest first; periods oldest first', () => {
    expect(s.byCategory.map((b) => [b.key, b.totalCents])).toEqual([['Bank Charges', 2_500], ['Transport - Taxi', 2_050], ['Rent', 1_000]]);
    expect(s.byBranch).toEqual([{ key: 'b1', branchName: 'Main', count: 3, totalCents: 3_050 }, { key: 'b2', branchName: 'West', count: 1, totalCents: 2_500 }]);
    expect(s.byPaymentMethod.map((b) => b.key)).toEqual(['Cash', 'M-Pesa']);
    expect(s.bySource.map((b) => [b.key, b.totalCents])).toEqual([['POS', 3_050], ['manual', 2_500]]);
    // 2 March 2026 is a Monday: its week starts on Sunday 1 March; 10 March's on 8 March.
    expect(s.byPeriod.map((b) => [b.key, b.totalCents])).toEqual([['2026-03-01', 3_050], ['2026-03-08', 2_500]]);
  });
  it('the transport breakdown: base and each cost, by type with the distance', () => {
    expect(s.transport).toMatchObject({ count: 2, baseCents: 1_300, fuelCents: 500, parkingCents: 250, tollCents: 0, totalCents: 2_050, distanceKm: 12.4 });
    expect(s.transport.byType).toEqual([{ key: 'Taxi', count: 1, totalCents: 1_750, distanceKm: 12.3 }, { key: '', count: 1, totalCents: 300, distanceKm: 0.1 }]);
  });
  it('nothing is an empty breakdown', () => {
    expect(expenseBreakdown([], 'day')).toMatchObject({ count: 0, totalCents: 0, byCategory: [], byPeriod: [], transport: { count: 0, byType: [] } });
  });
});

describe('periods and ranges', () => {
  it('days up to a month, weeks up to a quarter, months up to two years, else years', () => {
    expect(defaultExpensePeriod('2026-03-01', '2026-03-31')).toBe('day');
    expect(defaultExpensePeriod('2026-01-01', '2026-03-31')).toBe('week');
    expect(defaultExpensePeriod('2025-01-01', '2026-03-31')).toBe('month');
    expect(defaultExpensePeriod('2022-01-01', '2026-03-31')).toBe('year');
    expect(periodStart('2026-03-17', 'month')).toBe('2026-03-01');
    expect(periodStart('2026-03-17', 'year')).toBe('2026-01-01');
  });
  it('a report without a range covers the last 30 days; a start alone runs to today', () => {
    expect(resolveReportRange({}, '2026-03-31')).toEqual({ from: '2026-03-02', to: '2026-03-31' });
    expect(resolveReportRange({ from: '2026-01-01' }, '2026-03-31')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(resolveReportRange({ to: '2026-02-28' }, '2026-03-31')).toEqual({ from: '2026-01-30', to: '2026-02-28' });
  });
  it('the query refuses an end before the start and more than five years', () => {
    expect(expenseReportQuerySchema.safeParse({ from: '2026-03-02', to: '2026-03-01' }).error?.issues[0]?.message).toBe('The end date must be on or after the start date.');
    expect(expenseReportQuerySchema.safeParse({ from: '2019-01-01', to: '2025-01-02' }).error?.issues[0]?.message).toBe('Choose a date range of at most 5 years.');
    expect(expenseReportQuerySchema.parse({})).toMatchObject({ status: 'all', page: 1, pageSize: 25 });
  });
});

describe('writing an expense by hand', () => {
  const input = createExpenseSchema.parse({ description: ' Fuel ', category: 'Transport - Fuel', amountCents: 1_000, transport: { destination: 'Karen', reason: 'Delivery', fuelCents: 200 } });
  it('today by default, never later; the transport total; the current date kept on edit', () => {
    const d = decideExpenseWrite(null, input, 'b1', '2026-03-01');
    expect(d).toMatchObject({ ok: true, value: { date: '2026-03-01', description: 'Fuel', totalCents: 1_200, branchId: 'b1', transport: { destination: 'Karen', fuelCents: 200 } } });
    expect(decideExpenseWrite(null, { ...input, date: '2026-03-02' }, 'b1', '2026-03-01')).toEqual({ ok: false, code: 'EXPENSE_DATE_IN_FUTURE' });
    expect(decideExpenseWrite({ voidedAt: null, date: '2026-02-01' }, input, 'b1', '2026-03-01')).toMatchObject({ ok: true, value: { date: '2026-02-01' } });
  });
  it('a voided expense is neither edited nor voided again', () => {
    expect(decideExpenseWrite({ voidedAt: '2026-03-01T10:00:00Z', date: '2026-02-01' }, input, 'b1', '2026-03-01')).toEqual({ ok: false, code: 'EXPENSE_VOIDED' });
    expect(decideExpenseVoid({ voidedAt: '2026-03-01T10:00:00Z' }, { reason: 'x' })).toEqual({ ok: false, code: 'EXPENSE_VOIDED' });
    expect(decideExpenseVoid({ voidedAt: null }, { reason: ' typo ' })).toEqual({ ok: true, value: { reason: 'typo' } });
  });
});
