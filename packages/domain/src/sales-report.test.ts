import { describe, expect, it } from 'vitest';
import { ZERO_FIGURES, groupByPeriod, hourLabel, reportFigures, salesReportProductsQuerySchema, salesReportQuerySchema, slowMoverSince, slowMoversQuerySchema, taxTypeOf, vatSummary } from './sales-report.ts';

describe('sales report figures', () => {
  it('are net of returns and voids, with gross profit, margin to one decimal and status', () => {
    const f = reportFigures({ ...ZERO_FIGURES, saleCount: 5, voidCount: 1, revenueCents: 100_000, returnedCents: 10_000, costCents: 60_000, returnedCostCents: 6_000, discountCents: 500, taxCents: 1_600 });
    expect(f).toEqual({ saleCount: 4, revenueCents: 90_000, returnedCents: 10_000, costCents: 54_000, profitCents: 36_000, marginPercent: 40, status: 'Profitable', discountCents: 500, taxCents: 1_600 });
    expect(reportFigures({ ...ZERO_FIGURES, revenueCents: 3_000, costCents: 4_000 })).toMatchObject({ profitCents: -1_000, marginPercent: -33.3, status: 'Loss' });
    expect(reportFigures(ZERO_FIGURES)).toMatchObject({ profitCents: 0, marginPercent: 0, status: 'Break Even' });
  });

  it('group days into weeks from Sunday and into months, in order', () => {
    const day = (d: string, revenue: number) => ({ day: d, figures: { ...ZERO_FIGURES, saleCount: 1, revenueCents: revenue } });
    // 2026-11-28 is a Saturday; 2026-11-29 a Sunday.
    const rows = [day('2026-11-29', 5), day('2026-11-28', 10), day('2026-11-22', 20), day('2026-10-31', 40)];
    expect(groupByPeriod(rows, 'week').map((p) => [p.period, p.figures.revenueCents, p.figures.saleCount])).toEqual([
      ['2026-10-25', 40, 1],
      ['2026-11-22', 30, 2],
      ['2026-11-29', 5, 1],
    ]);
    expect(groupByPeriod(rows, 'month').map((p) => [p.period, p.figures.revenueCents])).toEqual([
      ['2026-10-01', 40],
      ['2026-11-01', 35],
    ]);
    expect(groupByPeriod(rows, 'day').map((p) => p.period)).toEqual(['2026-10-31', '2026-11-22', '2026-11-28', '2026-11-29']);
  });

  it('label hours of the day', () => {
    expect(hourLabel(8)).toBe('08:00 - 08:59');
    expect(hourLabel(23)).toBe('23:00 - 23:59');
  });
});

describe('VAT summary by tax type', () => {
  it('names exempt medicines apart from 16 % VAT and other rates', () => {
    expect(taxTypeOf(0)).toEqual({ code: 'A', label: 'Exempt' });
    expect(taxTypeOf(1600)).toEqual({ code: 'B', label: 'VAT 16%' });
    expect(taxTypeOf(800)).toEqual({ code: 'E', label: 'VAT 8%' });
    expect(taxTypeOf(1250)).toEqual({ code: 'other', label: 'VAT 12.5%' });
  });

  it('adds the days of a rate, nets off returns, splits taxable value from tax, exempt first', () => {
    const summary = vatSummary([
      { rateBasisPoints: 1600, lineCount: 2, revenueCents: 11_600, taxCents: 1_600, returnedCents: 5_800, returnedTaxCents: 800 },
      { rateBasisPoints: 0, lineCount: 3, revenueCents: 30_000, taxCents: 0, returnedCents: 0, returnedTaxCents: 0 },
      { rateBasisPoints: 1600, lineCount: 1, revenueCents: 2_320, taxCents: 320, returnedCents: 0, returnedTaxCents: 0 },
    ]);
    expect(summary.rows).toEqual([
      { taxType: 'A', label: 'Exempt', rateBasisPoints: 0, lineCount: 3, grossCents: 30_000, taxableCents: 30_000, taxCents: 0 },
      { taxType: 'B', label: 'VAT 16%', rateBasisPoints: 1600, lineCount: 3, grossCents: 8_120, taxableCents: 7_000, taxCents: 1_120 },
    ]);
    expect(summary.total).toEqual({ grossCents: 38_120, taxableCents: 37_000, taxCents: 1_120 });
    expect(vatSummary([])).toEqual({ rows: [], total: { grossCents: 0, taxableCents: 0, taxCents: 0 } });
  });
});

describe('sales report queries', () => {
  it('accept the filters and refuse bad paging, grouping and days with a sentence', () => {
    expect(salesReportQuerySchema.parse({ dateFilter: 'nonsense', groupBy: 'week' })).toEqual({ dateFilter: 'nonsense', groupBy: 'week' });
    expect(salesReportQuerySchema.safeParse({ groupBy: 'year' }).error?.issues[0]?.message).toBe('Group by day, week or month.');
    expect(salesReportProductsQuerySchema.safeParse({ page: '0' }).error?.issues[0]?.message).toBe('The page must be a whole number from 1.');
    expect(slowMoversQuerySchema.parse({ days: '45' })).toEqual({ days: 45 });
    expect(slowMoversQuerySchema.safeParse({ days: '400' }).error?.issues[0]?.message).toBe('Days without a sale must be a whole number from 1 to 365.');
    expect(slowMoversQuerySchema.safeParse({ days: 'x' }).error?.issues[0]?.message).toBe('Days without a sale must be a whole number from 1 to 365.');
  });

  it('start the slow-mover window N - 1 days before today', () => {
    expect(slowMoverSince('2026-11-28', 30)).toBe('2026-10-30');
    expect(slowMoverSince('2026-11-28', 1)).toBe('2026-11-28');
  });
});
