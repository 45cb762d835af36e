import { businessDate } from '@pharmapoint/domain/stock';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '@pharmapoint/domain/stock-status';
import type { ExpiringResponse, LowStockResponse, expiringQuerySchema, lowStockQuerySchema } from '@pharmapoint/domain/stock-reports';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/database.ts';
import type { RequestAuth, RequestContext } from '../../platform/access.ts';
import { resolveBranch, stockSettings, visibleBranchIds } from './scope.ts';

/**
 * The inventory reports (issue 3): the expiry report (batches holding stock that are expired or expire within a
 * window) and the low stock report (active products at or below their threshold per branch). Both count exactly
 * as GET /api/stock/branch-summary does, so the dashboard's numbers lead to the same rows: active branches the
 * user may see, sellable pieces (`quantity`), products without a row in a branch count as out there.
 */

/** The branches to report on: the one asked for (404 when not the pharmacy's, 403 when not visible), else every visible one (null = all). */
async function reportBranches(q: Queryable, ctx: RequestContext, auth: RequestAuth | null, branchId: string | undefined): Promise<readonly string[] | null> {
  if (branchId) return [(await resolveBranch(q, ctx, auth, branchId)).id];
  return visibleBranchIds(ctx, auth);
}

/** GET /api/stock/expiring: sorted by expiry date (then product, branch), paged, with totals over every row. */
export async function expiringBatches(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  query: z.output<typeof expiringQuerySchema>,
  now = new Date(),
): Promise<ExpiringResponse> {
  return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
    const today = businessDate(now);
    const { expiryAlertDays } = await stockSettings(q, ctx.pharmacyId);
    const days = query.days ?? expiryAlertDays;
    const branches = await reportBranches(q, ctx, auth, query.branchId);
    const from = `FROM batches b
         JOIN branches br ON br.pharmacy_id = b.pharmacy_id AND br.id = b.branch_id AND br.is_active
         JOIN products p ON p.pharmacy_id = b.pharmacy_id AND p.id = b.product_id
        WHERE b.pharmacy_id = $1 AND b.quantity > 0 AND b.expiry_date IS NOT NULL
          AND b.expiry_date <= $2::date + $3::int
          AND ($4::uuid[] IS NULL OR b.branch_id = ANY($4::uuid[]))`;
    const params = [ctx.pharmacyId, today, days, branches];
    const [totals] = await q.query<Record<string, number | string>>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE b.expiry_date < $2::date)::int AS expired_batches,
              COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date < $2::date), 0)::bigint AS expired_quantity,
              COALESCE(sum(b.quantity * b.unit_cost_cents) FILTER (WHERE b.expiry_date < $2::date), 0)::bigint AS expired_value,
              count(*) FILTER (WHERE b.expiry_date >= $2::date)::int AS near_batches,
              COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date >= $2::date), 0)::bigint AS near_quantity,
              COALESCE(sum(b.quantity * b.unit_cost_cents) FILTER (WHERE b.expiry_date >= $2::date), 0)::bigint AS near_value
         ${from}`,
      params,
    );
    const offset = (query.page - 1) * query.pageSize;
    const rows = await q.query<{
      batch_id: string;
      product_id: string;
      product_name: string;
      sku: string | null;
      branch_id: string;
      branch_name: string;
      batch_number: string | null;
      expiry_date: string | Date;
      days_left: number;
      quantity: number;
      unit_cost_cents: number | string;
    }>(
      `SELECT b.id AS batch_id, p.id AS product_id, p.name AS product_name, p.sku, br.id AS branch_id, br.name AS branch_name,
              b.batch_number, to_char(b.expiry_date, 'YYYY-MM-DD') AS expiry_date, (b.expiry_date - $2::date)::int AS days_left,
              b.quantity, b.unit_cost_cents
         ${from}
        ORDER BY b.expiry_date, p.name, br.name, b.batch_number NULLS LAST, b.id
        LIMIT $5 OFFSET $6`,
      [...params, query.pageSize, offset],
    );
    return {
      today,
      days,
      expiryAlertDays,
      items: rows.map((r) => {
        const quantity = Number(r.quantity);
        const unitCostCents = Number(r.unit_cost_cents);
        const daysLeft = Number(r.days_left);
        return {
          batchId: r.batch_id,
          productId: r.product_id,
          productName: r.product_name,
          sku: r.sku,
          branchId: r.branch_id,
          branchName: r.branch_name,
          batchNumber: r.batch_number,
          expiryDate: String(r.expiry_date),
          daysLeft,
          isExpired: daysLeft < 0,
          quantity,
          unitCostCents,
          valueCents: quantity * unitCostCents,
        };
      }),
      total: Number(totals?.total ?? 0),
      page: query.page,
      pageSize: query.pageSize,
      totals: {
        expiredBatches: Number(totals?.expired_batches ?? 0),
        expiredQuantity: Number(totals?.expired_quantity ?? 0),
        expiredValueCents: Number(totals?.expired_value ?? 0),
        nearBatches: Number(totals?.near_batches ?? 0),
        nearQuantity: Number(totals?.near_quantity ?? 0),
        nearValueCents: Number(totals?.near_value ?? 0),
      },
    };
  });
}

/** GET /api/stock/low-stock: out of stock first, then low; by product name and branch; paged, with counts over every row. */
export async function lowStockProducts(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  query: z.output<typeof lowStockQuerySchema>,
): Promise<LowStockResponse> {
  return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
    const branches = await reportBranches(q, ctx, auth, query.branchId);
    const base = `WITH stock AS (
         SELECT p.id AS product_id, p.name AS product_name, p.sku, p.category, br.id AS branch_id, br.name AS branch_name,
                br.is_default, COALESCE(bp.quantity, 0) AS quantity,
                COALESCE(bp.low_stock_threshold, p.low_stock_threshold, ${DEFAULT_LOW_STOCK_THRESHOLD}) AS threshold,
                p.reorder_level
           FROM branches br
           JOIN products p ON p.pharmacy_id = br.pharmacy_id AND p.is_active
           LEFT JOIN branch_products bp ON bp.pharmacy_id = br.pharmacy_id AND bp.branch_id = br.id AND bp.product_id = p.id
          WHERE br.pharmacy_id = $1 AND br.is_active AND ($2::uuid[] IS NULL OR br.id = ANY($2::uuid[]))),
       flagged AS (
         SELECT *, CASE WHEN quantity <= 0 THEN 'out' ELSE 'low' END AS status FROM stock WHERE quantity <= 0 OR quantity <= threshold)`;
    const [counts] = await q.query<{ low: number; out: number }>(
      `${base} SELECT count(*) FILTER (WHERE status = 'low')::int AS low, count(*) FILTER (WHERE status = 'out')::int AS out FROM flagged`,
      [ctx.pharmacyId, branches],
    );
    const offset = (query.page - 1) * query.pageSize;
    const rows = await q.query<{
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
    }>(
      `${base}
       SELECT product_id, product_name, sku, category, branch_id, branch_name, quantity, threshold, reorder_level, status
         FROM flagged
        WHERE ($3::text IS NULL OR status = $3::text)
        ORDER BY CASE status WHEN 'out' THEN 0 ELSE 1 END, product_name, is_default DESC, branch_name, product_id
        LIMIT $4 OFFSET $5`,
      [ctx.pharmacyId, branches, query.status ?? null, query.pageSize, offset],
    );
    const low = Number(counts?.low ?? 0);
    const out = Number(counts?.out ?? 0);
    return {
      items: rows.map((r) => ({
        productId: r.product_id,
        productName: r.product_name,
        sku: r.sku,
        category: r.category,
        branchId: r.branch_id,
        branchName: r.branch_name,
        quantity: Number(r.quantity),
        lowStockThreshold: Number(r.threshold),
        reorderLevel: Number(r.reorder_level),
        status: r.status,
      })),
      total: query.status === 'low' ? low : query.status === 'out' ? out : low + out,
      page: query.page,
      pageSize: query.pageSize,
      counts: { low, out },
    };
  });
}
