import {
  isRangeProblem,
  netProfitOf,
  periodLabel,
  periodsOf,
  resolveDateFilter,
  salesFigures,
  yearlyRange,
  type DashboardSalesQuery,
  type DashboardSalesResponse,
  type Granularity,
  type SalesSeriesPoint,
} from '@pharmapoint/domain/dashboard';
import { businessDate } from '@pharmapoint/domain/stock';
import { together, type Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { loadSettings, settingsTimeZone } from '../settings/settings.service.ts';
import { branchExists, expensesByCategory, salesByPeriod, usedPaymentMethods, type PeriodRow, type SummaryFilter } from './dashboard.repository.ts';

/**
 * The dashboard's sales overview (decision 0094): the Sales totals object, the chart's series (period mode by day,
 * week or month; yearly mode the last 12 months) and the top expense categories of a filter, all read from the
 * per-day summaries. The date filter is resolved on the pharmacy's business date in its time zone.
 */

function seriesOf(rows: readonly PeriodRow[], periods: readonly string[]): SalesSeriesPoint[] {
  const byPeriod = new Map(rows.map((r) => [r.period, r]));
  return periods.map((period) => {
    const r = byPeriod.get(period);
    const revenueCents = r ? r.revenue_cents - r.returned_cents : 0;
    const costCents = r ? r.cost_cents - r.returned_cost_cents : 0;
    return { period, revenueCents, costCents, profitCents: revenueCents - costCents, saleCount: r ? r.sale_count - r.void_count : 0 };
  });
}

/** GET /api/dashboard/sales. */
export async function getDashboardSales(q: Queryable, ctx: RequestContext, query: DashboardSalesQuery): Promise<DashboardSalesResponse> {
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const today = businessDate(ctx.now, settingsTimeZone(settings));
  const range = resolveDateFilter(query.dateFilter, today, query);
  if (isRangeProblem(range)) {
    throw new AppError('VALIDATION_FAILED', { message: range.message, details: { context: 'querystring', issues: [{ path: range.path, message: range.message }] } });
  }
  if (query.branchId) {
    if (!(await branchExists(q, ctx.pharmacyId, query.branchId))) throw new AppError('NOT_FOUND');
    if (!canSeeBranch(ctx, query.branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
  }
  const filter: SummaryFilter = {
    start: range.start,
    end: range.end,
    branchId: query.branchId ?? null,
    paymentMethod: query.paymentMethod ?? null,
    visibleBranchIds: ctx.visibleBranchIds,
  };
  const yearly = yearlyRange(today);
  // Four reads of the summaries that need no answer of one another: one round trip on PostgreSQL (pipelined).
  const [rows, yearRows, expenses, used] = await together(
    salesByPeriod(q, ctx.pharmacyId, filter, range.granularity),
    salesByPeriod(q, ctx.pharmacyId, { ...filter, ...yearly }, 'month'),
    expensesByCategory(q, ctx.pharmacyId, filter),
    usedPaymentMethods(q, ctx.pharmacyId),
  );
  const sum = (key: keyof Omit<PeriodRow, 'period'>) => rows.reduce((a, r) => a + r[key], 0);
  const revenue = sum('revenue_cents') - sum('returned_cents');
  const cost = sum('cost_cents') - sum('returned_cost_cents');
  const figures = salesFigures(revenue, cost);
  const expensesCents = expenses.reduce((a, e) => a + e.amount_cents, 0);
  const estimatedCostCents = sum('estimated_cost_cents');
  return {
    today,
    range: { preset: range.preset, start: range.start, end: range.end, granularity: range.granularity, label: periodLabel(range.start, range.end) },
    branchId: filter.branchId,
    paymentMethod: filter.paymentMethod,
    totals: {
      ...figures,
      saleCount: sum('sale_count') - sum('void_count'),
      discountCents: sum('discount_cents'),
      taxCents: sum('tax_cents'),
      returnedCents: sum('returned_cents'),
      estimatedCostCents,
      costEstimated: estimatedCostCents > 0,
      expensesCents,
      ...netProfitOf(revenue, figures.totalProfit, expensesCents),
    },
    series: seriesOf(rows, periodsOf(range.start, range.end, range.granularity as Granularity)),
    yearly: seriesOf(yearRows, periodsOf(yearly.start, yearly.end, 'month')),
    topExpenseCategories: expenses.slice(0, 3).map((e) => ({ category: e.category, amountCents: e.amount_cents, count: e.count })),
    paymentMethods: [...new Set([...settings.paymentMethods, ...used])],
  };
}
