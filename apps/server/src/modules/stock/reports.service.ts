import { businessDate, type BranchSummaryResponse } from '@pharmapoint/domain/stock';
import type { ExpiringQuery, ExpiringResponse, LowStockQuery, LowStockResponse } from '@pharmapoint/domain/stock-reports';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import * as repo from './reports.repository.ts';
import { resolveBranch, stockSettings } from './stock.service.ts';

/**
 * The dashboard's stock health (GET /api/stock/branch-summary) and the inventory reports (issue 3): the expiry
 * report (batches holding stock that are expired or expire within a window) and the low stock report (active
 * products at or below their threshold per branch). They count alike, so the dashboard's numbers lead to the
 * same rows.
 */

/** The branches to report on: the one asked for (404 when not the pharmacy's, 403 when not visible), else every visible one (null = all). */
async function reportBranches(q: Queryable, ctx: RequestContext, branchId: string | undefined): Promise<readonly string[] | null> {
  if (branchId) return [(await resolveBranch(q, ctx, branchId)).id];
  return ctx.visibleBranchIds;
}

/**
 * GET /api/stock/branch-summary: per visible active branch, active products by stock status (a product without
 * a row in the branch counts as out) and batches holding stock that are expired or expire within the settings'
 * expiry alert days (30 by default): the expiry alerts across branches.
 */
export async function branchSummary(q: Queryable, ctx: RequestContext): Promise<BranchSummaryResponse> {
  const { expiryAlertDays, timeZone } = await stockSettings(q, ctx);
  const today = businessDate(ctx.now, timeZone);
  const branches = await repo.findBranchSummaries(q, ctx.pharmacyId, today, expiryAlertDays, ctx.visibleBranchIds);
  return { today, expiryAlertDays, branches };
}

/** GET /api/stock/expiring: sorted by expiry date (then product, branch), paged, with totals over every row. */
export async function expiringBatches(q: Queryable, ctx: RequestContext, query: ExpiringQuery): Promise<ExpiringResponse> {
  const { expiryAlertDays, timeZone } = await stockSettings(q, ctx);
  const today = businessDate(ctx.now, timeZone);
  const window: repo.ExpiringWindow = { today, days: query.days ?? expiryAlertDays, branchIds: await reportBranches(q, ctx, query.branchId) };
  const { total, totals } = await repo.findExpiringTotals(q, ctx.pharmacyId, window);
  const items = await repo.findExpiringBatches(q, ctx.pharmacyId, window, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
  return { today, days: window.days, expiryAlertDays, items, total, page: query.page, pageSize: query.pageSize, totals };
}

/** GET /api/stock/low-stock: out of stock first, then low; by product name and branch; paged, with counts over every row. */
export async function lowStockProducts(q: Queryable, ctx: RequestContext, query: LowStockQuery): Promise<LowStockResponse> {
  const branchIds = await reportBranches(q, ctx, query.branchId);
  const counts = await repo.countLowStock(q, ctx.pharmacyId, branchIds);
  const items = await repo.findLowStock(
    q,
    ctx.pharmacyId,
    { branchIds, status: query.status ?? null },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  const total = query.status === 'low' ? counts.low : query.status === 'out' ? counts.out : counts.low + counts.out;
  return { items, total, page: query.page, pageSize: query.pageSize, counts };
}
