import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_MESSAGES,
  granularityOf,
  greetingOf,
  isRangeProblem,
  marginPercent,
  netProfitOf,
  periodLabel,
  periodsOf,
  presetOf,
  profitStatus,
  resolveDateFilter,
  salesFigures,
  usageLevel,
  yearlyRange,
} from './dashboard.ts';

// 2026-11-26 is a Thursday.
const TODAY = '2026-11-26';

describe('dashboard date filter', () => {
  const range = (value: string | undefined, custom = {}) => {
    const r = resolveDateFilter(value, TODAY, custom);
    if (isRangeProblem(r)) throw new Error(r.message);
    return [r.preset, r.start, r.end, r.granularity];
  };

  it('resolves the nine presets on the business date; weeks start on Sunday', () => {
    expect(range('today')).toEqual(['today', TODAY, TODAY, 'day']);
    expect(range('yesterday')).toEqual(['yesterday', '2026-11-25', '2026-11-25', 'day']);
    expect(range('thisWeek')).toEqual(['thisWeek', '2026-11-22', TODAY, 'day']);
    expect(range('lastWeek')).toEqual(['lastWeek', '2026-11-15', '2026-11-21', 'day']);
    expect(range('thisMonth')).toEqual(['thisMonth', '2026-11-01', TODAY, 'day']);
    expect(range('lastMonth')).toEqual(['lastMonth', '2026-10-01', '2026-10-31', 'day']);
    expect(range('last30Days')).toEqual(['last30Days', '2026-10-27', TODAY, 'day']);
    expect(range('last3Months')).toEqual(['last3Months', '2026-08-26', TODAY, 'week']);
    expect(range('custom', { startDate: '2025-01-01', endDate: '2026-06-30' })).toEqual(['custom', '2025-01-01', '2026-06-30', 'month']);
  });

  it('an unknown or missing value is today', () => {
    expect(presetOf('nextYear')).toBe('today');
    expect(presetOf(undefined)).toBe('today');
    expect(range('fortnight')).toEqual(['today', TODAY, TODAY, 'day']);
  });

  it('Custom Range: both dates, the end not before the start, at most 5 years', () => {
    expect(resolveDateFilter('custom', TODAY, { startDate: '2026-01-01' })).toEqual({ message: DASHBOARD_MESSAGES.customNeedsDates, path: 'endDate' });
    expect(resolveDateFilter('custom', TODAY, { startDate: '2026-02-01', endDate: '2026-01-31' })).toEqual({ message: DASHBOARD_MESSAGES.endBeforeStart, path: 'endDate' });
    expect(resolveDateFilter('custom', TODAY, { startDate: '2020-01-01', endDate: '2025-01-02' })).toEqual({ message: DASHBOARD_MESSAGES.rangeTooLong, path: 'endDate' });
    expect(isRangeProblem(resolveDateFilter('custom', TODAY, { startDate: '2020-01-01', endDate: '2025-01-01' }))).toBe(false);
    expect(DASHBOARD_MESSAGES.rangeTooLong).toBe('Choose a range of at most 5 years.');
  });

  it('the chart steps by day up to a month, by week up to three months, by month beyond', () => {
    expect(granularityOf('2026-11-01', '2026-12-01')).toBe('day');
    expect(granularityOf('2026-11-01', '2026-12-02')).toBe('week');
    expect(granularityOf('2026-01-01', '2026-04-03')).toBe('week');
    expect(granularityOf('2026-01-01', '2026-04-04')).toBe('month');
    expect(periodsOf('2026-11-20', '2026-11-23', 'day')).toEqual(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    expect(periodsOf('2026-11-04', '2026-11-26', 'week')).toEqual(['2026-11-01', '2026-11-08', '2026-11-15', '2026-11-22']);
    expect(periodsOf('2026-01-31', '2026-04-02', 'month')).toEqual(['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01']);
  });

  it('the yearly chart keeps the last 12 months', () => {
    const y = yearlyRange(TODAY);
    expect(y).toEqual({ start: '2025-12-01', end: TODAY });
    expect(periodsOf(y.start, y.end, 'month')).toHaveLength(12);
  });

  it('period labels: Today, N Days, This Month, Last 3 Months, Extended Period', () => {
    expect(periodLabel(TODAY, TODAY)).toBe('Today');
    expect(periodLabel('2026-11-22', TODAY)).toBe('5 Days');
    expect(periodLabel('2026-11-20', TODAY)).toBe('7 Days');
    expect(periodLabel('2026-11-19', TODAY)).toBe('This Month');
    expect(periodLabel('2026-10-27', TODAY)).toBe('This Month');
    expect(periodLabel('2026-08-29', TODAY)).toBe('Last 3 Months');
    expect(periodLabel('2026-08-28', TODAY)).toBe('Extended Period');
  });
});

describe('dashboard figures', () => {
  it('profit, margin to one decimal and the status line', () => {
    expect(salesFigures(150_000, 100_000)).toEqual({ totalRevenue: 150_000, totalCost: 100_000, totalProfit: 50_000, profitMargin: 33.3, status: 'Profitable' });
    expect(salesFigures(100_000, 120_000)).toMatchObject({ totalProfit: -20_000, profitMargin: -20, status: 'Loss' });
    expect(salesFigures(0, 0)).toMatchObject({ totalProfit: 0, profitMargin: 0, status: 'Break Even' });
    expect(profitStatus(1)).toBe('Profitable');
    expect(marginPercent(2, 3)).toBe(66.7);
  });

  it('net profit is gross profit minus expenses; the High Expense Alert above half the gross profit', () => {
    expect(netProfitOf(200_000, 80_000, 40_000)).toEqual({ netProfit: 40_000, netMargin: 20, highExpense: false });
    expect(netProfitOf(200_000, 80_000, 40_001)).toMatchObject({ netProfit: 39_999, highExpense: true });
    expect(netProfitOf(0, 0, 0)).toEqual({ netProfit: 0, netMargin: 0, highExpense: false });
  });

  it('the usage bar: red above 90 %, yellow above 70 %, -1 unlimited', () => {
    expect(usageLevel(5, -1)).toEqual({ level: 'unlimited', percent: 0 });
    expect(usageLevel(7, 10)).toEqual({ level: 'normal', percent: 70 });
    expect(usageLevel(71, 100)).toEqual({ level: 'warning', percent: 71 });
    expect(usageLevel(91, 100)).toEqual({ level: 'danger', percent: 91 });
    expect(usageLevel(12, 10)).toEqual({ level: 'danger', percent: 100 });
  });

  it('greets by the hour: before 12, before 17, otherwise evening', () => {
    expect(greetingOf(11)).toBe('Good morning');
    expect(greetingOf(12)).toBe('Good afternoon');
    expect(greetingOf(16)).toBe('Good afternoon');
    expect(greetingOf(17)).toBe('Good evening');
  });
});
