import { z } from 'zod';
import { SALE_LIMITS } from './sales.ts';
import { DATE_PRESETS, DATE_PRESET_LABELS, addDays, addMonths, dateRangeOf, daysFrom, type DatePreset } from './sales-history.ts';
import { calendarDate, text } from './text.ts';

/**
 * The dashboard's sales overview (seed 002 sections 2, 4, 9; decision 0094): the date filter of the Sales Filters
 * panel resolved on the pharmacy's business date, the chart's periods, the four cards' figures (profit, margin,
 * status), net profit after expenses, and the plan usage bar's level. The server answers from the per-day
 * summaries; the screens show what these functions decide.
 */

export { DATE_PRESETS, DATE_PRESET_LABELS, type DatePreset };

/** The longest range a custom filter may span. */
export const DASHBOARD_MAX_RANGE_YEARS = 5;
/** The yearly chart keeps the last 12 months. */
export const YEARLY_CHART_MONTHS = 12;
/** The chart's height in pixels; its y-axis is shown in thousands. */
export const CHART_HEIGHT = 400;
/** Expenses above this share of gross profit raise the High Expense Alert. */
export const HIGH_EXPENSE_SHARE = 0.5;
/** The fallback cost of a sale line that has none: 70 % of its price. */
export const ESTIMATED_COST_SHARE = 0.7;

export const DASHBOARD_MESSAGES = {
  endBeforeStart: 'The end date must be on or after the start date.',
  rangeTooLong: `Choose a range of at most ${DASHBOARD_MAX_RANGE_YEARS} years.`,
  customNeedsDates: 'Choose a start date and an end date.',
} as const;

export type Granularity = 'day' | 'week' | 'month';

export interface ResolvedRange {
  preset: DatePreset;
  start: string;
  end: string;
  granularity: Granularity;
}

export type RangeProblem = { message: string; path: 'startDate' | 'endDate' };

/** The preset a filter value names; any unknown value is today. */
export function presetOf(value: string | undefined): DatePreset {
  return (DATE_PRESETS as readonly string[]).includes(value ?? '') ? (value as DatePreset) : 'today';
}

/** The chart's step for a range: days up to a month, weeks up to three months, months beyond. */
export function granularityOf(start: string, end: string): Granularity {
  const days = daysFrom(start, end) + 1;
  if (days <= 31) return 'day';
  if (days <= 93) return 'week';
  return 'month';
}

/**
 * The range of a date filter on `today` (the pharmacy's business date): the nine presets of seed 002 section 4;
 * an unknown value is today; Custom Range needs both dates, the end not before the start, at most 5 years apart.
 */
export function resolveDateFilter(value: string | undefined, today: string, custom: { startDate?: string; endDate?: string } = {}): ResolvedRange | RangeProblem {
  const preset = presetOf(value);
  if (preset === 'custom') {
    if (!custom.startDate || !custom.endDate) return { message: DASHBOARD_MESSAGES.customNeedsDates, path: custom.startDate ? 'endDate' : 'startDate' };
    if (custom.endDate < custom.startDate) return { message: DASHBOARD_MESSAGES.endBeforeStart, path: 'endDate' };
    if (custom.endDate > addMonths(custom.startDate, DASHBOARD_MAX_RANGE_YEARS * 12)) return { message: DASHBOARD_MESSAGES.rangeTooLong, path: 'endDate' };
    return { preset, start: custom.startDate, end: custom.endDate, granularity: granularityOf(custom.startDate, custom.endDate) };
  }
  const range = dateRangeOf(preset, today);
  const start = range.from ?? today;
  const end = range.to ?? today;
  return { preset, start, end, granularity: granularityOf(start, end) };
}

export function isRangeProblem(r: ResolvedRange | RangeProblem): r is RangeProblem {
  return 'message' in r;
}

/** The first day of the period a day falls in: itself, its week's Sunday, or its month's first. */
export function periodStart(day: string, granularity: Granularity): string {
  if (granularity === 'day') return day;
  if (granularity === 'month') return `${day.slice(0, 8)}01`;
  return addDays(day, -new Date(`${day}T00:00:00Z`).getUTCDay());
}

/** Every period of a range, in order (the chart shows empty periods as zero). */
export function periodsOf(start: string, end: string, granularity: Granularity): string[] {
  const periods: string[] = [];
  let p = periodStart(start, granularity);
  while (p <= end) {
    periods.push(p);
    p = granularity === 'day' ? addDays(p, 1) : granularity === 'week' ? addDays(p, 7) : addMonths(p, 1);
  }
  return periods;
}

/** The yearly chart's range: the first of the month 11 months back to today (12 months). */
export function yearlyRange(today: string): { start: string; end: string } {
  return { start: addMonths(`${today.slice(0, 8)}01`, -(YEARLY_CHART_MONTHS - 1)), end: today };
}

/** Period label (seed 002 section 9): 1 day Today, up to 7 days 'N Days', up to 31 This Month, up to 90 Last 3 Months, else Extended Period. */
export function periodLabel(start: string, end: string): string {
  const days = daysFrom(start, end) + 1;
  if (days <= 1) return 'Today';
  if (days <= 7) return `${days} Days`;
  if (days <= 31) return 'This Month';
  if (days <= 90) return 'Last 3 Months';
  return 'Extended Period';
}

export type ProfitStatus = 'Profitable' | 'Loss' | 'Break Even';

/** Profitable above zero, Loss below, Break Even at zero. */
export function profitStatus(profitCents: number): ProfitStatus {
  return profitCents > 0 ? 'Profitable' : profitCents < 0 ? 'Loss' : 'Break Even';
}

/** A share of revenue in percent to one decimal (0 with no revenue). */
export function marginPercent(partCents: number, revenueCents: number): number {
  if (revenueCents === 0) return 0;
  return Math.round((partCents / revenueCents) * 1000) / 10;
}

/** The four cards: revenue, cost, profit and margin of net sales. */
export function salesFigures(revenueCents: number, costCents: number): { totalRevenue: number; totalCost: number; totalProfit: number; profitMargin: number; status: ProfitStatus } {
  const totalProfit = revenueCents - costCents;
  return { totalRevenue: revenueCents, totalCost: costCents, totalProfit, profitMargin: marginPercent(totalProfit, revenueCents), status: profitStatus(totalProfit) };
}

/** Net profit after expenses and its margin (one decimal); the High Expense Alert when expenses exceed half the gross profit. */
export function netProfitOf(revenueCents: number, grossProfitCents: number, expensesCents: number): { netProfit: number; netMargin: number; highExpense: boolean } {
  const netProfit = grossProfitCents - expensesCents;
  return { netProfit, netMargin: marginPercent(netProfit, revenueCents), highExpense: expensesCents > grossProfitCents * HIGH_EXPENSE_SHARE };
}

export type UsageLevel = 'unlimited' | 'normal' | 'warning' | 'danger';

/** The usage bar: red above 90 %, yellow above 70 %; a limit of -1 (or null) is unlimited. */
export function usageLevel(used: number, limit: number | null): { level: UsageLevel; percent: number } {
  if (limit === null || limit < 0) return { level: 'unlimited', percent: 0 };
  const percent = limit === 0 ? 100 : Math.min(100, Math.round((used / limit) * 100));
  return { level: percent > 90 ? 'danger' : percent > 70 ? 'warning' : 'normal', percent };
}

/** The greeting by the pharmacy's hour: before 12 Good morning, before 17 Good afternoon, otherwise Good evening. */
export function greetingOf(hour: number): 'Good morning' | 'Good afternoon' | 'Good evening' {
  return hour < 12 ? 'Good morning' : hour < 17 ? 'Good afternoon' : 'Good evening';
}

// ------------------------------------------------------------------------------------------- GET /api/dashboard/sales

/**
 * GET /api/dashboard/sales: a date filter value (unknown values are today), the custom range's dates, a branch (all
 * visible branches when missing) and a payment method (all when missing).
 */
export const dashboardSalesQuerySchema = z.strictObject({
  dateFilter: z.string().max(40).optional(),
  startDate: calendarDate('The start date').optional(),
  endDate: calendarDate('The end date').optional(),
  branchId: z.uuid('Choose a branch.').optional(),
  paymentMethod: text(SALE_LIMITS.method, 'The payment method').optional(),
});
export type DashboardSalesQuery = z.infer<typeof dashboardSalesQuerySchema>;

/** One period of the chart. */
export const salesSeriesPointSchema = z.object({
  /** The period's first day (YYYY-MM-DD). */
  period: z.string(),
  revenueCents: z.number().int(),
  costCents: z.number().int(),
  profitCents: z.number().int(),
  saleCount: z.number().int(),
});
export type SalesSeriesPoint = z.infer<typeof salesSeriesPointSchema>;

/** The Sales totals object of seed 002 section 3, in cents, with what the summaries also know. */
export const salesTotalsSchema = z.object({
  totalRevenue: z.number().int(),
  totalCost: z.number().int(),
  totalProfit: z.number().int(),
  /** Percent, one decimal. */
  profitMargin: z.number(),
  status: z.enum(['Profitable', 'Loss', 'Break Even']),
  saleCount: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  /** What returns and voids gave back (already taken off totalRevenue). */
  returnedCents: z.number().int(),
  /** The part of totalCost estimated at 70 % of price, for lines with no cost recorded. */
  estimatedCostCents: z.number().int(),
  costEstimated: z.boolean(),
  expensesCents: z.number().int(),
  netProfit: z.number().int(),
  netMargin: z.number(),
  highExpense: z.boolean(),
});
export type SalesTotals = z.infer<typeof salesTotalsSchema>;

export const dashboardSalesResponseSchema = z.object({
  /** The pharmacy's business date the presets were resolved on. */
  today: z.string(),
  range: z.object({
    preset: z.enum(DATE_PRESETS),
    start: z.string(),
    end: z.string(),
    granularity: z.enum(['day', 'week', 'month']),
    label: z.string(),
  }),
  branchId: z.string().nullable(),
  paymentMethod: z.string().nullable(),
  totals: salesTotalsSchema,
  /** The period mode: one point per day, week or month of the range. */
  series: z.array(salesSeriesPointSchema),
  /** The yearly mode: the last 12 months. */
  yearly: z.array(salesSeriesPointSchema),
  /** The top 3 expense categories of the range. */
  topExpenseCategories: z.array(z.object({ category: z.string(), amountCents: z.number().int(), count: z.number().int() })),
  /** The payment methods the pharmacy sells with (settings, then what its sales used). */
  paymentMethods: z.array(z.string()),
});
export type DashboardSalesResponse = z.infer<typeof dashboardSalesResponseSchema>;
