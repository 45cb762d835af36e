import type { Queryable } from '../../db/database.ts';
import type { SummaryFilter } from './dashboard.repository.ts';

/**
 * All SQL of the sales report (decision 0096). Reads ONLY the per-day summaries (daily_sales, daily_product_sales of
 * migration 0050; daily_hour_sales, daily_tax_sales of migration 0054), with the names of products, branches and
 * cashiers, and the branches' stock for slow movers — never the sale lines.
 */

export type ReportFilter = Omit<SummaryFilter, 'paymentMethod'>;

const FIGURES = `sum(sale_count)::int AS sale_count, sum(void_count)::int AS void_count, sum(return_count)::int AS return_count,
  sum(revenue_cents)::bigint AS revenue_cents, sum(returned_cents)::bigint AS returned_cents, sum(cost_cents)::bigint AS cost_cents,
  sum(returned_cost_cents)::bigint AS returned_cost_cents, sum(discount_cents)::bigint AS discount_cents, sum(tax_cents)::bigint AS tax_cents,
  sum(estimated_cost_cents)::bigint AS estimated_cost_cents`;

const WHERE = `pharmacy_id = $1 AND business_day BETWEEN $2 AND $3 AND ($4::uuid IS NULL OR branch_id = $4) AND ($5::uuid[] IS NULL OR branch_id = ANY ($5::uuid[]))`;

function params(pharmacyId: string, f: ReportFilter): unknown[] {
  return [pharmacyId, f.start, f.end, f.branchId, f.visibleBranchIds];
}

export interface FigureRow {
  sale_count: number;
  void_count: number;
  return_count: number;
  revenue_cents: number;
  returned_cents: number;
  cost_cents: number;
  returned_cost_cents: number;
  discount_cents: number;
  tax_cents: number;
  estimated_cost_cents: number;
}

export interface GroupedRow extends FigureRow {
  /** Which grouping the row is: day, branch, cashier or method. */
  grouping: 'day' | 'branch' | 'cashier' | 'method';
  key: string;
  name: string | null;
}

/** daily_sales of a range by day, by branch, by cashier and by payment method, in one statement (grouping sets). */
export async function salesGroupings(q: Queryable, pharmacyId: string, f: ReportFilter): Promise<GroupedRow[]> {
  return q.query<GroupedRow>(
    `WITH g AS (
       SELECT CASE WHEN GROUPING(business_day) = 0 THEN 'day' WHEN GROUPING(branch_id) = 0 THEN 'branch'
                   WHEN GROUPING(cashier_id) = 0 THEN 'cashier' ELSE 'method' END AS grouping,
              coalesce(business_day::text, branch_id::text, cashier_id::text, payment_method) AS key, branch_id, cashier_id, ${FIGURES}
         FROM daily_sales
        WHERE ${WHERE}
        GROUP BY GROUPING SETS ((business_day), (branch_id), (cashier_id), (payment_method)))
     SELECT g.*, CASE g.grouping WHEN 'branch' THEN b.name WHEN 'cashier' THEN u.name END AS name
       FROM g
       LEFT JOIN branches b ON g.grouping = 'branch' AND b.pharmacy_id = $1 AND b.id = g.branch_id
       LEFT JOIN memberships m ON g.grouping = 'cashier' AND m.pharmacy_id = $1 AND m.user_id = g.cashier_id
       LEFT JOIN users u ON u.id = m.user_id
      ORDER BY g.grouping, g.key`,
    params(pharmacyId, f),
  );
}

export interface HourRow {
  hour: number;
  sale_count: number;
  void_count: number;
  revenue_cents: number;
  returned_cents: number;
}

export async function salesByHour(q: Queryable, pharmacyId: string, f: ReportFilter): Promise<HourRow[]> {
  return q.query<HourRow>(
    `SELECT hour::int AS hour, sum(sale_count)::int AS sale_count, sum(void_count)::int AS void_count, sum(revenue_cents)::bigint AS revenue_cents,
            sum(returned_cents)::bigint AS returned_cents
       FROM daily_hour_sales WHERE ${WHERE} GROUP BY 1 ORDER BY 1`,
    params(pharmacyId, f),
  );
}

export interface TaxRow {
  rate: number;
  line_count: number;
  revenue_cents: number;
  tax_cents: number;
  returned_cents: number;
  returned_tax_cents: number;
}

export async function salesByTaxRate(q: Queryable, pharmacyId: string, f: ReportFilter): Promise<TaxRow[]> {
  return q.query<TaxRow>(
    `SELECT tax_rate_basis_points AS rate, sum(line_count)::int AS line_count, sum(revenue_cents)::bigint AS revenue_cents, sum(tax_cents)::bigint AS tax_cents,
            sum(returned_cents)::bigint AS returned_cents, sum(returned_tax_cents)::bigint AS returned_tax_cents
       FROM daily_tax_sales WHERE ${WHERE} GROUP BY 1 HAVING sum(line_count) > 0 ORDER BY 1`,
    params(pharmacyId, f),
  );
}

export interface ProductFigureRow {
  quantity: number;
  returned_quantity: number;
  line_count: number;
  revenue_cents: number;
  returned_cents: number;
  cost_cents: number;
  returned_cost_cents: number;
  discount_cents: number;
  tax_cents: number;
}

const PRODUCT_FIGURES = `sum(d.quantity)::bigint AS quantity, sum(d.returned_quantity)::bigint AS returned_quantity, sum(d.line_count)::int AS line_count,
  sum(d.revenue_cents)::bigint AS revenue_cents, sum(d.returned_cents)::bigint AS returned_cents, sum(d.cost_cents)::bigint AS cost_cents,
  sum(d.returned_cost_cents)::bigint AS returned_cost_cents, sum(d.discount_cents)::bigint AS discount_cents, sum(d.tax_cents)::bigint AS tax_cents`;

const PRODUCT_WHERE = `d.pharmacy_id = $1 AND d.business_day BETWEEN $2 AND $3 AND ($4::uuid IS NULL OR d.branch_id = $4)
  AND ($5::uuid[] IS NULL OR d.branch_id = ANY ($5::uuid[]))`;

/** daily_product_sales of a range by the products' category (no category: null). */
export async function salesByCategory(q: Queryable, pharmacyId: string, f: ReportFilter): Promise<(ProductFigureRow & { category: string | null })[]> {
  return q.query(
    `SELECT nullif(btrim(p.category), '') AS category, ${PRODUCT_FIGURES}
       FROM daily_product_sales d JOIN products p ON p.pharmacy_id = d.pharmacy_id AND p.id = d.product_id
      WHERE ${PRODUCT_WHERE}
      GROUP BY 1 ORDER BY sum(d.revenue_cents) - sum(d.returned_cents) DESC, 1 NULLS LAST`,
    params(pharmacyId, f),
  );
}

export interface ProductRow extends ProductFigureRow {
  product_id: string;
  name: string;
  sku: string | null;
  category: string | null;
  total: number;
}

const PRODUCT_ORDER = {
  revenue: 's.revenue_cents - s.returned_cents DESC',
  quantity: 's.quantity - s.returned_quantity DESC',
  profit: 's.revenue_cents - s.returned_cents - s.cost_cents + s.returned_cost_cents DESC',
  name: 'p.name',
} as const;

/**
 * One page of the products sold in a range, with how many there are in all. The range's rows are summed by product
 * alone first (a hash of at most the catalogue's size), and only the sums meet the products: a year of a grown
 * pharmacy is hundreds of thousands of rows, which sorted by name spilled to disk (docs/benchmarks.md).
 */
export async function salesByProduct(
  q: Queryable,
  pharmacyId: string,
  f: ReportFilter,
  options: { sort: keyof typeof PRODUCT_ORDER; search: string | null; limit: number; offset: number },
): Promise<ProductRow[]> {
  return q.query<ProductRow>(
    `WITH s AS (SELECT d.product_id, ${PRODUCT_FIGURES} FROM daily_product_sales d WHERE ${PRODUCT_WHERE} GROUP BY d.product_id)
     SELECT s.*, p.name, p.sku, nullif(btrim(p.category), '') AS category, count(*) OVER ()::int AS total
       FROM s JOIN products p ON p.pharmacy_id = $1 AND p.id = s.product_id
      WHERE ($6::text IS NULL OR p.search_text LIKE '%' || lower($6) || '%')
      ORDER BY ${PRODUCT_ORDER[options.sort]}, p.name, s.product_id
      LIMIT $7 OFFSET $8`,
    [...params(pharmacyId, f), options.search, options.limit, options.offset],
  );
}

export interface SlowMoverRow {
  product_id: string;
  name: string;
  sku: string | null;
  category: string | null;
  branch_id: string;
  branch_name: string;
  stock: number;
  stock_value_cents: number;
  last_sold_on: string | null;
  total: number;
}

/**
 * One page of the products a branch holds stock of and has not sold since `since` (no daily_product_sales row of
 * the branch and product on or after it), most money tied up first.
 */
export async function slowMovers(
  q: Queryable,
  pharmacyId: string,
  f: { since: string; branchId: string | null; visibleBranchIds: readonly string[] | null; limit: number; offset: number },
): Promise<SlowMoverRow[]> {
  return q.query<SlowMoverRow>(
    `SELECT bp.product_id, p.name, p.sku, nullif(btrim(p.category), '') AS category, bp.branch_id, b.name AS branch_name, bp.quantity AS stock,
            (bp.quantity * bp.purchase_price_cents)::bigint AS stock_value_cents, last.day AS last_sold_on, count(*) OVER ()::int AS total
       FROM branch_products bp
       JOIN products p ON p.pharmacy_id = bp.pharmacy_id AND p.id = bp.product_id
       JOIN branches b ON b.pharmacy_id = bp.pharmacy_id AND b.id = bp.branch_id
       LEFT JOIN LATERAL (SELECT max(d.business_day) AS day FROM daily_product_sales d
                           WHERE d.pharmacy_id = bp.pharmacy_id AND d.branch_id = bp.branch_id AND d.product_id = bp.product_id) last ON true
      WHERE bp.pharmacy_id = $1 AND bp.quantity > 0
        AND ($2::uuid IS NULL OR bp.branch_id = $2) AND ($3::uuid[] IS NULL OR bp.branch_id = ANY ($3::uuid[]))
        AND (last.day IS NULL OR last.day < $4)
      ORDER BY stock_value_cents DESC, p.name, bp.branch_id
      LIMIT $5 OFFSET $6`,
    [pharmacyId, f.branchId, f.visibleBranchIds, f.since, f.limit, f.offset],
  );
}
