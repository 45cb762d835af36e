import { z } from 'zod';
import { dashboardSalesQuerySchema, dashboardSalesResponseSchema, marginPercent, periodStart, profitStatus, salesTotalsSchema, type Granularity } from './dashboard.ts';
import { text } from './text.ts';

/**
 * The sales report (/app/reports/sales, report:sales; decision 0096): the figures of a date filter and branch by
 * day, week, month and hour of day; by product, category, cashier, branch and payment method; revenue, cost, gross
 * profit, margin, discounts, returns and tax; top sellers and slow movers; and the VAT summary by tax type. The
 * server reads the per-day summaries; these functions decide what each figure is.
 */

/** Slow movers: in stock in a branch, not sold there in the last N days (N defaults to 30, at most 365). */
export const SLOW_MOVER_DEFAULT_DAYS = 30;
export const SLOW_MOVER_MAX_DAYS = 365;
/** Rows per page of the long lists (products, slow movers). */
export const SALES_REPORT_PAGE_SIZE = 25;
/** How many products the top sellers list shows. */
export const TOP_SELLERS = 10;

export const SALES_REPORT_MESSAGES = {
  loadFailed: 'Error Loading Sales Data',
  days: `Days without a sale must be a whole number from 1 to ${SLOW_MOVER_MAX_DAYS}.`,
} as const;

// ------------------------------------------------------------------------------------------- figures

/** What the summaries hold for any grouping: sales as made, and what returns and voids gave back. */
export interface SummaryFigures {
  saleCount: number;
  voidCount: number;
  revenueCents: number;
  returnedCents: number;
  costCents: number;
  returnedCostCents: number;
  discountCents: number;
  taxCents: number;
}

export const ZERO_FIGURES: SummaryFigures = { saleCount: 0, voidCount: 0, revenueCents: 0, returnedCents: 0, costCents: 0, returnedCostCents: 0, discountCents: 0, taxCents: 0 };

export function addFigures(a: SummaryFigures, b: SummaryFigures): SummaryFigures {
  return {
    saleCount: a.saleCount + b.saleCount,
    voidCount: a.voidCount + b.voidCount,
    revenueCents: a.revenueCents + b.revenueCents,
    returnedCents: a.returnedCents + b.returnedCents,
    costCents: a.costCents + b.costCents,
    returnedCostCents: a.returnedCostCents + b.returnedCostCents,
    discountCents: a.discountCents + b.discountCents,
    taxCents: a.taxCents + b.taxCents,
  };
}

export const reportFiguresSchema = z.object({
  /** Sales made, less the voided ones. */
  saleCount: z.number().int(),
  /** Net revenue: the sales' totals less what returns and voids refunded. */
  revenueCents: z.number().int(),
  /** What returns and voids refunded. */
  returnedCents: z.number().int(),
  /** Net cost: the cost of what was sold less the cost of the pieces given back. */
  costCents: z.number().int(),
  /** Gross profit: net revenue - net cost. */
  profitCents: z.number().int(),
  /** Gross profit as a percentage of net revenue, one decimal. */
  marginPercent: z.number(),
  status: z.enum(['Profitable', 'Loss', 'Break Even']),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
});
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

/** A grouping's figures: net of returns and voids, gross profit, margin and status. */
export function reportFigures(f: SummaryFigures): ReportFigures {
  const revenueCents = f.revenueCents - f.returnedCents;
  const costCents = f.costCents - f.returnedCostCents;
  const profitCents = revenueCents - costCents;
  return {
    saleCount: f.saleCount - f.voidCount,
    revenueCents,
    returnedCents: f.returnedCents,
    costCents,
    profitCents,
    marginPercent: marginPercent(profitCents, revenueCents),
    status: profitStatus(profitCents),
    discountCents: f.discountCents,
    taxCents: f.taxCents,
  };
}

/** Days grouped into their weeks (from Sunday) or months, in order; a day grouping keeps the days. */
export function groupByPeriod<T extends { day: string; figures: SummaryFigures }>(rows: readonly T[], granularity: Granularity): { period: string; figures: SummaryFigures }[] {
  const periods = new Map<string, SummaryFigures>();
  for (const row of rows) {
    const period = periodStart(row.day, granularity);
    periods.set(period, addFigures(periods.get(period) ?? ZERO_FIGURES, row.figures));
  }
  return [...periods.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([period, figures]) => ({ period, figures }));
}

/** The hour of day as shown: '08:00 - 08:59'. */
export function hourLabel(hour: number): string {
  const h = String(hour).padStart(2, '0');
  return `${h}:00 - ${h}:59`;
}

// ------------------------------------------------------------------------------------------- VAT by tax type

/**
 * The tax types of KRA's eTIMS by the rate a sale line was charged: 0 % is Exempt (A) — medicines are VAT-exempt
 * in Kenya —, 16 % the standard rate (B), 8 % (E); any other rate is named by its percentage.
 */
export type TaxTypeCode = 'A' | 'B' | 'E' | 'other';

export function taxTypeOf(rateBasisPoints: number): { code: TaxTypeCode; label: string } {
  if (rateBasisPoints === 0) return { code: 'A', label: 'Exempt' };
  if (rateBasisPoints === 1600) return { code: 'B', label: 'VAT 16%' };
  if (rateBasisPoints === 800) return { code: 'E', label: 'VAT 8%' };
  return { code: 'other', label: `VAT ${rateBasisPoints / 100}%` };
}

export interface TaxRateFigures {
  rateBasisPoints: number;
  lineCount: number;
  /** Line totals, tax included. */
  revenueCents: number;
  taxCents: number;
  returnedCents: number;
  returnedTaxCents: number;
}

export const vatRowSchema = z.object({
  taxType: z.enum(['A', 'B', 'E', 'other']),
  label: z.string(),
  rateBasisPoints: z.number().int(),
  lineCount: z.number().int(),
  /** Net sales with tax: line totals less refunds. */
  grossCents: z.number().int(),
  /** Net sales without tax (the taxable value; for exempt lines the exempt value). */
  taxableCents: z.number().int(),
  /** Net tax: the lines' tax less the tax refunds gave back. */
  taxCents: z.number().int(),
});
export type VatRow = z.infer<typeof vatRowSchema>;

/** The VAT summary: one row per rate, exempt first then by rate, net of returns; and its total. */
export function vatSummary(rows: readonly TaxRateFigures[]): { rows: VatRow[]; total: { grossCents: number; taxableCents: number; taxCents: number } } {
  const byRate = new Map<number, TaxRateFigures>();
  for (const r of rows) {
    const seen = byRate.get(r.rateBasisPoints);
    byRate.set(
      r.rateBasisPoints,
      seen
        ? {
            rateBasisPoints: r.rateBasisPoints,
            lineCount: seen.lineCount + r.lineCount,
            revenueCents: seen.revenueCents + r.revenueCents,
            taxCents: seen.taxCents + r.taxCents,
            returnedCents: seen.returnedCents + r.returnedCents,
            returnedTaxCents: seen.returnedTaxCents + r.returnedTaxCents,
          }
        : { ...r },
    );
  }
  const out = [...byRate.values()]
    .sort((a, b) => a.rateBasisPoints - b.rateBasisPoints)
    .map((r): VatRow => {
      const type = taxTypeOf(r.rateBasisPoints);
      const grossCents = r.revenueCents - r.returnedCents;
      const taxCents = r.taxCents - r.returnedTaxCents;
      return { taxType: type.code, label: type.label, rateBasisPoints: r.rateBasisPoints, lineCount: r.lineCount, grossCents, taxableCents: grossCents - taxCents, taxCents };
    });
  return {
    rows: out,
    total: out.reduce((a, r) => ({ grossCents: a.grossCents + r.grossCents, taxableCents: a.taxableCents + r.taxableCents, taxCents: a.taxCents + r.taxCents }), { grossCents: 0, taxableCents: 0, taxCents: 0 }),
  };
}

// ------------------------------------------------------------------------------------------- GET /api/reports/sales

/** The date filter (unknown values are today), the custom range, a branch (all visible when missing), the period step. */
export const salesReportQuerySchema = z.strictObject({
  dateFilter: dashboardSalesQuerySchema.shape.dateFilter,
  startDate: dashboardSalesQuerySchema.shape.startDate,
  endDate: dashboardSalesQuerySchema.shape.endDate,
  branchId: dashboardSalesQuerySchema.shape.branchId,
  /** The period table's step; by default the range's (days up to a month, weeks up to three, months beyond). */
  groupBy: z.enum(['day', 'week', 'month'], 'Group by day, week or month.').optional(),
});
export type SalesReportQuery = z.infer<typeof salesReportQuerySchema>;

const productFields = {
  productId: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  category: z.string().nullable(),
  /** Pieces sold less pieces returned. */
  quantity: z.number().int(),
  returnedQuantity: z.number().int(),
};

export const salesReportProductSchema = reportFiguresSchema.omit({ saleCount: true }).extend({ ...productFields, lineCount: z.number().int() });
export type SalesReportProduct = z.infer<typeof salesReportProductSchema>;

export const salesReportResponseSchema = z.object({
  range: dashboardSalesResponseSchema.shape.range,
  groupBy: z.enum(['day', 'week', 'month']),
  branchId: z.string().nullable(),
  totals: salesTotalsSchema.extend({ voidCount: z.number().int(), returnCount: z.number().int() }),
  byPeriod: z.array(reportFiguresSchema.extend({ period: z.string() })),
  byHour: z.array(z.object({ hour: z.number().int(), label: z.string(), saleCount: z.number().int(), revenueCents: z.number().int(), returnedCents: z.number().int() })),
  byBranch: z.array(reportFiguresSchema.extend({ branchId: z.string(), name: z.string() })),
  byCashier: z.array(reportFiguresSchema.extend({ cashierId: z.string().nullable(), name: z.string() })),
  byPaymentMethod: z.array(reportFiguresSchema.extend({ method: z.string() })),
  byCategory: z.array(reportFiguresSchema.omit({ saleCount: true }).extend({ category: z.string(), quantity: z.number().int(), lineCount: z.number().int() })),
  vat: z.object({ rows: z.array(vatRowSchema), total: z.object({ grossCents: z.number().int(), taxableCents: z.number().int(), taxCents: z.number().int() }) }),
  topSellers: z.array(salesReportProductSchema),
});
export type SalesReportResponse = z.infer<typeof salesReportResponseSchema>;

// ------------------------------------------------------------------------------------------- products, slow movers

export const SALES_REPORT_PRODUCT_SORTS = ['revenue', 'quantity', 'profit', 'name'] as const;

export const salesReportProductsQuerySchema = salesReportQuerySchema.omit({ groupBy: true }).extend({
  sort: z.enum(SALES_REPORT_PRODUCT_SORTS, 'Sort by revenue, quantity, profit or name.').optional(),
  search: text(100, 'The search').optional(),
  page: z.coerce.number('The page must be a whole number from 1.').int('The page must be a whole number from 1.').min(1, 'The page must be a whole number from 1.').max(100_000).optional(),
});
export type SalesReportProductsQuery = z.infer<typeof salesReportProductsQuerySchema>;

export const salesReportProductsResponseSchema = z.object({
  rows: z.array(salesReportProductSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type SalesReportProductsResponse = z.infer<typeof salesReportProductsResponseSchema>;

export const slowMoversQuerySchema = z.strictObject({
  branchId: dashboardSalesQuerySchema.shape.branchId,
  days: z.coerce.number(SALES_REPORT_MESSAGES.days).int(SALES_REPORT_MESSAGES.days).min(1, SALES_REPORT_MESSAGES.days).max(SLOW_MOVER_MAX_DAYS, SALES_REPORT_MESSAGES.days).optional(),
  page: salesReportProductsQuerySchema.shape.page,
});
export type SlowMoversQuery = z.infer<typeof slowMoversQuerySchema>;

export const slowMoverSchema = z.object({
  productId: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  category: z.string().nullable(),
  branchId: z.string(),
  branchName: z.string(),
  /** Pieces on hand in the branch. */
  stock: z.number().int(),
  /** Pieces on hand at the branch's purchase price. */
  stockValueCents: z.number().int(),
  /** The last business day the branch sold it; null when never. */
  lastSoldOn: z.string().nullable(),
});
export type SlowMover = z.infer<typeof slowMoverSchema>;

export const slowMoversResponseSchema = z.object({
  days: z.number().int(),
  /** The first day of the window: a sale on or after it makes a product not slow. */
  since: z.string(),
  rows: z.array(slowMoverSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type SlowMoversResponse = z.infer<typeof slowMoversResponseSchema>;

/** The first day of a slow-mover window of N days ending today. */
export function slowMoverSince(today: string, days: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - (days - 1));
  return d.toISOString().slice(0, 10);
}
