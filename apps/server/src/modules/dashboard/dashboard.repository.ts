import type { Queryable } from '../../db/database.ts';

/**
 * All SQL of the dashboard (decision 0094). Reads ONLY the per-day summaries of migration 0050 (daily_sales,
 * daily_expenses), never the sale lines: a period is at most one row per branch, day, payment method and cashier.
 */

export interface SummaryFilter {
  start: string;
  end: string;
  branchId: string | null;
  paymentMethod: string | null;
  /** null: every branch of the pharmacy. */
  visibleBranchIds: readonly string[] | null;
}

export interface PeriodRow {
  period: string;
  sale_count: number;
  void_count: number;
  revenue_cents: number;
  discount_cents: number;
  tax_cents: number;
  cost_cents: number;
  estimated_cost_cents: number;
  returned_cents: number;
  returned_cost_cents: number;
}

const PERIOD_SQL = {
  day: 'business_day',
  week: `(business_day - extract(dow FROM business_day)::int)`,
  month: `date_trunc('month', business_day)::date`,
} as const;

/** The sales summaries of a range grouped by day, week (from Sunday) or month. */
export async function salesByPeriod(q: Queryable, pharmacyId: string, f: SummaryFilter, granularity: keyof typeof PERIOD_SQL): Promise<PeriodRow[]> {
  return q.query<PeriodRow>(
    `SELECT ${PERIOD_SQL[granularity]} AS period, sum(sale_count)::int AS sale_count, sum(void_count)::int AS void_count,
            sum(revenue_cents)::bigint AS revenue_cents, sum(discount_cents)::bigint AS discount_cents, sum(tax_cents)::bigint AS tax_cents,
            sum(cost_cents)::bigint AS cost_cents, sum(estimated_cost_cents)::bigint AS estimated_cost_cents,
            sum(returned_cents)::bigint AS returned_cents, sum(returned_cost_cents)::bigint AS returned_cost_cents
       FROM daily_sales
      WHERE pharmacy_id = $1 AND business_day BETWEEN $2 AND $3
        AND ($4::uuid IS NULL OR branch_id = $4) AND ($5::text IS NULL OR payment_method = $5)
        AND ($6::uuid[] IS NULL OR branch_id = ANY ($6::uuid[]))
      GROUP BY 1 ORDER BY 1`,
    [pharmacyId, f.start, f.end, f.branchId, f.paymentMethod, f.visibleBranchIds],
  );
}

/** Approved expenses of a range per category, largest first. */
export async function expensesByCategory(q: Queryable, pharmacyId: string, f: SummaryFilter): Promise<{ category: string; amount_cents: number; count: number }[]> {
  return q.query(
    `SELECT category, sum(amount_cents)::bigint AS amount_cents, sum(expense_count)::int AS count
       FROM daily_expenses
      WHERE pharmacy_id = $1 AND business_day BETWEEN $2 AND $3
        AND ($4::uuid IS NULL OR branch_id = $4) AND ($5::uuid[] IS NULL OR branch_id = ANY ($5::uuid[]))
      GROUP BY 1 HAVING sum(expense_count) > 0 ORDER BY 2 DESC, 1`,
    [pharmacyId, f.start, f.end, f.branchId, f.visibleBranchIds],
  );
}

/** The payment methods the pharmacy's sales used. */
export async function usedPaymentMethods(q: Queryable, pharmacyId: string): Promise<string[]> {
  const rows = await q.query<{ payment_method: string }>(`SELECT DISTINCT payment_method FROM daily_sales WHERE pharmacy_id = $1 ORDER BY 1 LIMIT 50`, [pharmacyId]);
  return rows.map((r) => r.payment_method);
}

/** Whether a branch is the pharmacy's (row-level security hides every other pharmacy's). */
export async function branchExists(q: Queryable, pharmacyId: string, branchId: string): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM branches WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, branchId]);
  return rows.length > 0;
}
