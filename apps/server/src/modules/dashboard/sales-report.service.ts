import { isRangeProblem, netProfitOf, periodLabel, resolveDateFilter, salesFigures, type ResolvedRange } from '@pharmapoint/domain/dashboard';
import {
  SALES_REPORT_PAGE_SIZE,
  SLOW_MOVER_DEFAULT_DAYS,
  TOP_SELLERS,
  ZERO_FIGURES,
  addFigures,
  groupByPeriod,
  hourLabel,
  reportFigures,
  slowMoverSince,
  vatSummary,
  type SalesReportProduct,
  type SalesReportProductsQuery,
  type SalesReportProductsResponse,
  type SalesReportQuery,
  type SalesReportResponse,
  type SlowMoversQuery,
  type SlowMoversResponse,
  type SummaryFigures,
} from '@pharmapoint/domain/sales-report';
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { branchExists, expensesByCategory } from './dashboard.repository.ts';
import { loadSettings, settingsTimeZone } from '../settings/settings.service.ts';
import {
  salesByCategory,
  salesByHour,
  salesByProduct,
  salesByTaxRate,
  salesGroupings,
  slowMovers,
  type FigureRow,
  type ProductFigureRow,
  type ProductRow,
  type ReportFilter,
} from './sales-report.repository.ts';

/**
 * The sales report (decision 0096): the date filter resolved on the pharmacy's business date like the dashboard's,
 * every grouping read from the per-day summaries and turned into figures by the domain's rules.
 */

const NIL = '00000000-0000-0000-0000-000000000000';

async function todayOf(q: Queryable, ctx: RequestContext): Promise<string> {
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  return businessDate(ctx.now, settingsTimeZone(settings));
}

/** Another pharmacy's branch (or none) is 404; a branch the member may not see is refused. */
async function checkBranch(q: Queryable, ctx: RequestContext, branchId: string | undefined): Promise<void> {
  if (!branchId) return;
  if (!(await branchExists(q, ctx.pharmacyId, branchId))) throw new AppError('NOT_FOUND');
  if (!canSeeBranch(ctx, branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
}

async function resolveFilter(q: Queryable, ctx: RequestContext, query: Pick<SalesReportQuery, 'dateFilter' | 'startDate' | 'endDate' | 'branchId'>): Promise<{ range: ResolvedRange; filter: ReportFilter }> {
  const range = resolveDateFilter(query.dateFilter, await todayOf(q, ctx), query);
  if (isRangeProblem(range)) {
    throw new AppError('VALIDATION_FAILED', { message: range.message, details: { context: 'querystring', issues: [{ path: range.path, message: range.message }] } });
  }
  await checkBranch(q, ctx, query.branchId);
  return { range, filter: { start: range.start, end: range.end, branchId: query.branchId ?? null, visibleBranchIds: ctx.visibleBranchIds } };
}

function figuresOf(r: FigureRow): SummaryFigures {
  return {
    saleCount: r.sale_count,
    voidCount: r.void_count,
    revenueCents: r.revenue_cents,
    returnedCents: r.returned_cents,
    costCents: r.cost_cents,
    returnedCostCents: r.returned_cost_cents,
    discountCents: r.discount_cents,
    taxCents: r.tax_cents,
  };
}

function productFigures(r: ProductFigureRow) {
  const { saleCount: _sales, ...figures } = reportFigures({
    ...ZERO_FIGURES,
    revenueCents: r.revenue_cents,
    returnedCents: r.returned_cents,
    costCents: r.cost_cents,
    returnedCostCents: r.returned_cost_cents,
    discountCents: r.discount_cents,
    taxCents: r.tax_cents,
  });
  return { ...figures, quantity: r.quantity - r.returned_quantity, returnedQuantity: r.returned_quantity, lineCount: r.line_count };
}

function productOf(r: ProductRow): SalesReportProduct {
  return { productId: r.product_id, name: r.name, sku: r.sku, category: r.category, ...productFigures(r) };
}

/** GET /api/reports/sales. */
export async function getSalesReport(q: Queryable, ctx: RequestContext, query: SalesReportQuery): Promise<SalesReportResponse> {
  const { range, filter } = await resolveFilter(q, ctx, query);
  const groupBy = query.groupBy ?? range.granularity;
  const [groups, hours, taxes, categories, top, expenses] = [
    await salesGroupings(q, ctx.pharmacyId, filter),
    await salesByHour(q, ctx.pharmacyId, filter),
    await salesByTaxRate(q, ctx.pharmacyId, filter),
    await salesByCategory(q, ctx.pharmacyId, filter),
    await salesByProduct(q, ctx.pharmacyId, filter, { sort: 'quantity', search: null, limit: TOP_SELLERS, offset: 0 }),
    await expensesByCategory(q, ctx.pharmacyId, { ...filter, paymentMethod: null }),
  ];
  const of = (grouping: string) => groups.filter((g) => g.grouping === grouping);
  const days = of('day');
  const all = days.reduce((a, r) => addFigures(a, figuresOf(r)), ZERO_FIGURES);
  const estimatedCostCents = days.reduce((a, r) => a + r.estimated_cost_cents, 0);
  const totals = reportFigures(all);
  const figures = salesFigures(totals.revenueCents, totals.costCents);
  const expensesCents = expenses.reduce((a, e) => a + e.amount_cents, 0);
  const byHour = new Map(hours.map((h) => [h.hour, h]));
  return {
    range: { preset: range.preset, start: range.start, end: range.end, granularity: range.granularity, label: periodLabel(range.start, range.end) },
    groupBy,
    branchId: filter.branchId,
    totals: {
      ...figures,
      saleCount: totals.saleCount,
      discountCents: totals.discountCents,
      taxCents: totals.taxCents,
      returnedCents: totals.returnedCents,
      estimatedCostCents,
      costEstimated: estimatedCostCents > 0,
      expensesCents,
      ...netProfitOf(totals.revenueCents, figures.totalProfit, expensesCents),
      voidCount: all.voidCount,
      returnCount: days.reduce((a, r) => a + r.return_count, 0),
    },
    byPeriod: groupByPeriod(
      days.map((r) => ({ day: r.key, figures: figuresOf(r) })),
      groupBy,
    ).map((p) => ({ period: p.period, ...reportFigures(p.figures) })),
    byHour: Array.from({ length: 24 }, (_, hour) => {
      const h = byHour.get(hour);
      return { hour, label: hourLabel(hour), saleCount: h ? h.sale_count - h.void_count : 0, revenueCents: h ? h.revenue_cents - h.returned_cents : 0, returnedCents: h?.returned_cents ?? 0 };
    }),
    byBranch: of('branch').map((r) => ({ branchId: r.key, name: r.name ?? r.key, ...reportFigures(figuresOf(r)) })),
    byCashier: of('cashier').map((r) => ({ cashierId: r.key === NIL ? null : r.key, name: r.key === NIL ? 'No cashier' : (r.name ?? 'Former member'), ...reportFigures(figuresOf(r)) })),
    byPaymentMethod: of('method').map((r) => ({ method: r.key, ...reportFigures(figuresOf(r)) })),
    byCategory: categories.map((r) => ({ category: r.category ?? 'Uncategorized', ...productFigures(r) })),
    vat: vatSummary(
      taxes.map((t) => ({
        rateBasisPoints: t.rate,
        lineCount: t.line_count,
        revenueCents: t.revenue_cents,
        taxCents: t.tax_cents,
        returnedCents: t.returned_cents,
        returnedTaxCents: t.returned_tax_cents,
      })),
    ),
    topSellers: top.filter((r) => r.quantity - r.returned_quantity > 0).map(productOf),
  };
}

/** GET /api/reports/sales/products: one page of the products sold, with the filter of the report. */
export async function getSalesReportProducts(q: Queryable, ctx: RequestContext, query: SalesReportProductsQuery): Promise<SalesReportProductsResponse> {
  const { filter } = await resolveFilter(q, ctx, query);
  const page = query.page ?? 1;
  const rows = await salesByProduct(q, ctx.pharmacyId, filter, {
    sort: query.sort ?? 'revenue',
    search: query.search || null,
    limit: SALES_REPORT_PAGE_SIZE,
    offset: (page - 1) * SALES_REPORT_PAGE_SIZE,
  });
  return { rows: rows.map(productOf), total: rows[0]?.total ?? 0, page, pageSize: SALES_REPORT_PAGE_SIZE };
}

/** GET /api/reports/sales/slow-movers: one page of what is in stock and not sold in the last N days. */
export async function getSlowMovers(q: Queryable, ctx: RequestContext, query: SlowMoversQuery): Promise<SlowMoversResponse> {
  await checkBranch(q, ctx, query.branchId);
  const days = query.days ?? SLOW_MOVER_DEFAULT_DAYS;
  const since = slowMoverSince(await todayOf(q, ctx), days);
  const page = query.page ?? 1;
  const rows = await slowMovers(q, ctx.pharmacyId, {
    since,
    branchId: query.branchId ?? null,
    visibleBranchIds: ctx.visibleBranchIds,
    limit: SALES_REPORT_PAGE_SIZE,
    offset: (page - 1) * SALES_REPORT_PAGE_SIZE,
  });
  return {
    days,
    since,
    rows: rows.map((r) => ({
      productId: r.product_id,
      name: r.name,
      sku: r.sku,
      category: r.category,
      branchId: r.branch_id,
      branchName: r.branch_name,
      stock: r.stock,
      stockValueCents: r.stock_value_cents,
      lastSoldOn: r.last_sold_on,
    })),
    total: rows[0]?.total ?? 0,
    page,
    pageSize: SALES_REPORT_PAGE_SIZE,
  };
}
