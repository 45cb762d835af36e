import { businessDate, type BranchSummaryResponse } from '@pharmapoint/domain/stock';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '@pharmapoint/domain/stock-status';
import type { Database } from '../../db/database.ts';
import type { RequestAuth, RequestContext } from '../../platform/access.ts';
import { stockSettings, visibleBranchIds } from './scope.ts';

/**
 * GET /api/stock/branch-summary: per visible active branch, active products by stock status (a product without
 * a row in the branch counts as out) and batches holding stock that are expired or expire within the settings'
 * expiry alert days (30 by default): the expiry alerts across branches.
 */
export async function branchSummary(db: Database, ctx: RequestContext, auth: RequestAuth | null, now = new Date()): Promise<BranchSummaryResponse> {
  return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
    const today = businessDate(now);
    const { expiryAlertDays } = await stockSettings(q, ctx.pharmacyId);
    const rows = await q.query<{
      branch_id: string;
      branch_name: string;
      out: number;
      low: number;
      good: number;
      expired_batches: number;
      expired_quantity: number;
      near_batches: number;
      near_quantity: number;
    }>(
      `WITH status AS (
         SELECT br.id AS branch_id,
                count(*) FILTER (WHERE COALESCE(bp.quantity, 0) <= 0)::int AS out,
                count(*) FILTER (WHERE COALESCE(bp.quantity, 0) > 0
                                   AND bp.quantity <= COALESCE(bp.low_stock_threshold, p.low_stock_threshold, ${DEFAULT_LOW_STOCK_THRESHOLD}))::int AS low,
                count(*) FILTER (WHERE COALESCE(bp.quantity, 0) > COALESCE(bp.low_stock_threshold, p.low_stock_threshold, ${DEFAULT_LOW_STOCK_THRESHOLD}))::int AS good
           FROM branches br
           JOIN products p ON p.pharmacy_id = br.pharmacy_id AND p.is_active
           LEFT JOIN branch_products bp ON bp.pharmacy_id = br.pharmacy_id AND bp.branch_id = br.id AND bp.product_id = p.id
          WHERE br.pharmacy_id = $1
          GROUP BY br.id),
       expiry AS (
         SELECT b.branch_id,
                count(*) FILTER (WHERE b.expiry_date < $2::date)::int AS expired_batches,
                COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date < $2::date), 0)::int AS expired_quantity,
                count(*) FILTER (WHERE b.expiry_date >= $2::date AND b.expiry_date <= $2::date + $3::int)::int AS near_batches,
                COALESCE(sum(b.quantity) FILTER (WHERE b.expiry_date >= $2::date AND b.expiry_date <= $2::date + $3::int), 0)::int AS near_quantity
           FROM batches b
          WHERE b.pharmacy_id = $1 AND b.quantity > 0
          GROUP BY b.branch_id)
       SELECT br.id AS branch_id, br.name AS branch_name, COALESCE(s.out, 0) AS out, COALESCE(s.low, 0) AS low, COALESCE(s.good, 0) AS good,
              COALESCE(e.expired_batches, 0) AS expired_batches, COALESCE(e.expired_quantity, 0) AS expired_quantity,
              COALESCE(e.near_batches, 0) AS near_batches, COALESCE(e.near_quantity, 0) AS near_quantity
         FROM branches br
         LEFT JOIN status s ON s.branch_id = br.id
         LEFT JOIN expiry e ON e.branch_id = br.id
        WHERE br.pharmacy_id = $1 AND br.is_active AND ($4::uuid[] IS NULL OR br.id = ANY($4::uuid[]))
        ORDER BY br.is_default DESC, br.name`,
      [ctx.pharmacyId, today, expiryAlertDays, visibleBranchIds(ctx, auth)],
    );
    return {
      today,
      expiryAlertDays,
      branches: rows.map((r) => ({
        branchId: r.branch_id,
        branchName: r.branch_name,
        out: Number(r.out),
        low: Number(r.low),
        good: Number(r.good),
        expiredBatches: Number(r.expired_batches),
        expiredQuantity: Number(r.expired_quantity),
        nearExpiryBatches: Number(r.near_batches),
        nearExpiryQuantity: Number(r.near_quantity),
      })),
    };
  });
}
