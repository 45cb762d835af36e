import type { BranchSummaryResponse } from '@pharmapoint/domain/stock';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '@pharmapoint/domain/stock-status';
import type { ExpiringBatch, ExpiringResponse, LowStockItem, LowStockResponse } from '@pharmapoint/domain/stock-reports';
import type { Queryable } from '../../db/database.ts';

/**
 * The stock reads of the dashboard and the inventory reports. All of them count the same way: active branches
 * among `branchIds` (null = every branch), sellable pieces (`quantity`), a product without a row in a branch
 * counts as out there.
 */

type BranchSummary = BranchSummaryResponse['branches'][number];

interface BranchSummaryRow {
  branch_id: string;
  branch_name: string;
  out: number;
  low: number;
  good: number;
  expired_batches: number;
  expired_quantity: number;
  near_batches: number;
  near_quantity: number;
}

function toBranchSummary(r: BranchSummaryRow): BranchSummary {
  return {
    branchId: r.branch_id,
    branchName: r.branch_name,
    out: r.out,
    low: r.low,
    good: r.good,
    expiredBatches: r.expired_batches,
    expiredQuantity: r.expired_quantity,
    nearExpiryBatches: r.near_batches,
    nearExpiryQuantity: r.near_quantity,
  };
}

/** Per active branch: products by stock status, and batches with stock expired or expiring within alertDays of today. */
export async function findBranchSummaries(
  q: Queryable,
  pharmacyId: string,
  today: string,
  alertDays: number,
  branchIds: readonly string[] | null,
): Promise<BranchSummary[]> {
  // Low and out pairs come from stock_alerts (kept by triggers, migration 0015); good = active products - low - out.
  // Batches: only those expired or expiring within the window (batches_expiry, a partial index on stock > 0).
  const rows = await q.query<BranchSummaryRow>(
    `WITH alerts AS (
       SELECT a.branch_id, count(*) FILTER (WHERE a.status = 'out')::int AS out, count(*) FILTER (WHERE a.status = 'low')::int AS low
         FROM stock_alerts a
        WHERE a.pharmacy_id = $1 AND ($4::uuid[] IS NULL OR a.branch_id = ANY($4::uuid[]))
        GROUP BY a.branch_id),
     active AS (SELECT count(*)::int AS n FROM products p WHERE p.pharmacy_id = $1 AND p.is_active),
     expiry AS (
       SELECT b.branch_id,
              count(*) FILTER (WHERE b.expiry_date < $2::date)::int AS expired_batches,
              COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date < $2::date), 0)::int AS expired_quantity,
              count(*) FILTER (WHERE b.expiry_date >= $2::date)::int AS near_batches,
              COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date >= $2::date), 0)::int AS near_quantity
         FROM batches b
        WHERE b.pharmacy_id = $1 AND b.quantity > 0 AND b.expiry_date <= $2::date + $3::int
        GROUP BY b.branch_id)
     SELECT br.id AS branch_id, br.name AS branch_name, COALESCE(s.out, 0) AS out, COALESCE(s.low, 0) AS low,
            active.n - COALESCE(s.out, 0) - COALESCE(s.low, 0) AS good,
            COALESCE(e.expired_batches, 0) AS expired_batches, COALESCE(e.expired_quantity, 0) AS expired_quantity,
            COALESCE(e.near_batches, 0) AS near_batches, COALESCE(e.near_quantity, 0) AS near_quantity
       FROM branches br
       CROSS JOIN active
       LEFT JOIN alerts s ON s.branch_id = br.id
       LEFT JOIN expiry e ON e.branch_id = br.id
      WHERE br.pharmacy_id = $1 AND br.is_active AND ($4::uuid[] IS NULL OR br.id = ANY($4::uuid[]))
      ORDER BY br.is_default DESC, br.name`,
    [pharmacyId, today, alertDays, branchIds],
  );
  return rows.map(toBranchSummary);
}

// ------------------------------------------------------------------------------------------- expiry report

const EXPIRING_FROM = `FROM batches b
     JOIN branches br ON br.pharmacy_id = b.pharmacy_id AND br.id = b.branch_id AND br.is_active
     JOIN products p ON p.pharmacy_id = b.pharmacy_id AND p.id = b.product_id
    WHERE b.pharmacy_id = $1 AND b.quantity > 0 AND b.expiry_date IS NOT NULL
      AND b.expiry_date <= $2::date + $3::int
      AND ($4::uuid[] IS NULL OR b.branch_id = ANY($4::uuid[]))`;

export interface ExpiringWindow {
  today: string;
  days: number;
  branchIds: readonly string[] | null;
}

interface ExpiringTotalsRow {
  total: number;
  expired_batches: number;
  expired_quantity: number;
  expired_value: number;
  near_batches: number;
  near_quantity: number;
  near_value: number;
}

/** The number of batches in the window and the expired / near-expiry totals over all of them. */
export async function findExpiringTotals(
  q: Queryable,
  pharmacyId: string,
  window: ExpiringWindow,
): Promise<{ total: number; totals: ExpiringResponse['totals'] }> {
  const [row] = await q.query<ExpiringTotalsRow>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE b.expiry_date < $2::date)::int AS expired_batches,
            COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date < $2::date), 0)::bigint AS expired_quantity,
            COALESCE(sum(b.quantity * b.unit_cost_cents) FILTER (WHERE b.expiry_date < $2::date), 0)::bigint AS expired_value,
            count(*) FILTER (WHERE b.expiry_date >= $2::date)::int AS near_batches,
            COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date >= $2::date), 0)::bigint AS near_quantity,
            COALESCE(sum(b.quantity * b.unit_cost_cents) FILTER (WHERE b.expiry_date >= $2::date), 0)::bigint AS near_value
       ${EXPIRING_FROM}`,
    [pharmacyId, window.today, window.days, window.branchIds],
  );
  return {
    total: row?.total ?? 0,
    totals: {
      expiredBatches: row?.expired_batches ?? 0,
      expiredQuantity: row?.expired_quantity ?? 0,
      expiredValueCents: row?.expired_value ?? 0,
      nearBatches: row?.near_batches ?? 0,
      nearQuantity: row?.near_quantity ?? 0,
      nearValueCents: row?.near_value ?? 0,
    },
  };
}

interface ExpiringRow {
  batch_id: string;
  product_id: string;
  product_name: string;
  sku: string | null;
  branch_id: string;
  branch_name: string;
  batch_number: string | null;
  expiry_date: string;
  days_left: number;
  quantity: number;
  unit_cost_cents: number;
}

function toExpiringBatch(r: ExpiringRow): ExpiringBatch {
  return {
    batchId: r.batch_id,
    productId: r.product_id,
    productName: r.product_name,
    sku: r.sku,
    branchId: r.branch_id,
    branchName: r.branch_name,
    batchNumber: r.batch_number,
    expiryDate: r.expiry_date,
    daysLeft: r.days_left,
    isExpired: r.days_left < 0,
    quantity: r.quantity,
    unitCostCents: r.unit_cost_cents,
    valueCents: r.quantity * r.unit_cost_cents,
  };
}

/** One page of the window's batches: by expiry date, then product, branch and batch number. */
export async function findExpiringBatches(
  q: Queryable,
  pharmacyId: string,
  window: ExpiringWindow,
  page: { limit: number; offset: number },
): Promise<ExpiringBatch[]> {
  const rows = await q.query<ExpiringRow>(
    `SELECT b.id AS batch_id, p.id AS product_id, p.name AS product_name, p.sku, br.id AS branch_id, br.name AS branch_name,
            b.batch_number, b.expiry_date, (b.expiry_date - $2::date)::int AS days_left, b.quantity, b.unit_cost_cents
       ${EXPIRING_FROM}
      ORDER BY b.expiry_date, p.name, br.name, b.batch_number NULLS LAST, b.id
      LIMIT $5 OFFSET $6`,
    [pharmacyId, window.today, window.days, window.branchIds, page.limit, page.offset],
  );
  return rows.map(toExpiringBatch);
}

// ------------------------------------------------------------------------------------------- low stock report

/**
 * The low and out pairs of active branches, from stock_alerts (migration 0015: kept by triggers in the transaction
 * of every change, so the report reads only the flagged pairs, in the order of its index).
 */
const LOW_STOCK_FROM = `FROM stock_alerts a
       JOIN branches br ON br.pharmacy_id = a.pharmacy_id AND br.id = a.branch_id AND br.is_active
      WHERE a.pharmacy_id = $1 AND ($2::uuid[] IS NULL OR a.branch_id = ANY($2::uuid[]))`;

/** How many product-branch pairs are low and out. */
export async function countLowStock(q: Queryable, pharmacyId: string, branchIds: readonly string[] | null): Promise<LowStockResponse['counts']> {
  const [row] = await q.query<{ low: number; out: number }>(
    `SELECT count(*) FILTER (WHERE a.status = 'low')::int AS low, count(*) FILTER (WHERE a.status = 'out')::int AS out ${LOW_STOCK_FROM}`,
    [pharmacyId, branchIds],
  );
  return { low: row?.low ?? 0, out: row?.out ?? 0 };
}

interface LowStockRow {
  product_id: string;
  product_name: string;
  sku: string | null;
  category: string | null;
  branch_id: string;
  branch_name: string;
  quantity: number;
  threshold: number;
  reorder_level: number;
  status: 'low' | 'out';
}

function toLowStockItem(r: LowStockRow): LowStockItem {
  return {
    productId: r.product_id,
    productName: r.product_name,
    sku: r.sku,
    category: r.category,
    branchId: r.branch_id,
    branchName: r.branch_name,
    quantity: r.quantity,
    lowStockThreshold: r.threshold,
    reorderLevel: r.reorder_level,
    status: r.status,
  };
}

/** One page of low and out pairs: out first, then low; by product name (then product) and branch. */
export async function findLowStock(
  q: Queryable,
  pharmacyId: string,
  filter: { branchIds: readonly string[] | null; status: 'low' | 'out' | null },
  page: { limit: number; offset: number },
): Promise<LowStockItem[]> {
  const rows = await q.query<LowStockRow>(
    `WITH page AS (
       SELECT a.product_id, a.product_name, a.branch_id, br.name AS branch_name, br.is_default, a.status
         ${LOW_STOCK_FROM} AND ($3::text IS NULL OR a.status = $3::text)
        ORDER BY a.status DESC, a.product_name, a.product_id, br.is_default DESC, br.name
        LIMIT $4 OFFSET $5)
     SELECT page.product_id, page.product_name, p.sku, p.category, page.branch_id, page.branch_name, COALESCE(bp.quantity, 0) AS quantity,
            COALESCE(bp.low_stock_threshold, p.low_stock_threshold, ${DEFAULT_LOW_STOCK_THRESHOLD}) AS threshold, p.reorder_level, page.status
       FROM page
       JOIN products p ON p.pharmacy_id = $1 AND p.id = page.product_id
       LEFT JOIN branch_products bp ON bp.pharmacy_id = $1 AND bp.branch_id = page.branch_id AND bp.product_id = page.product_id
      ORDER BY page.status DESC, page.product_name, page.product_id, page.is_default DESC, page.branch_name`,
    [pharmacyId, filter.branchIds, filter.status, page.limit, page.offset],
  );
  return rows.map(toLowStockItem);
}
