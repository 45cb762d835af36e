import {
  adjustmentSummary,
  inventoryLine,
  inventorySummary,
  inventoryViewLines,
  SALES_WINDOW_DAYS,
  transferSummary,
  type InventoryReportQuery,
  type InventoryReportResponse,
  type StockAdjustmentReportQuery,
  type StockAdjustmentReportResponse,
  type StockTransferReportQuery,
  type StockTransferReportResponse,
} from '@pharmapoint/domain/inventory-report';
import { resolveReportRange } from '@pharmapoint/domain/report-period';
import { addDays } from '@pharmapoint/domain/sales-history';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { loadSettings, pharmacyToday, settingsTimeZone } from '../settings/settings.service.ts';
import { resolveBranch } from '../stock/stock.service.ts';
import * as repo from './inventory-reports.repository.ts';

/**
 * The inventory reports (report:inventory): stock on hand and its value, reorder suggestions and the stock that will
 * expire before it sells (GET /api/reports/inventory), the stock adjustments report and the stock transfers summary.
 * Each reads one pharmacy's rows and runs the domain's rules on them.
 */

/** The branches to report on: the one asked for (404 when not the pharmacy's, 403 when not visible), else every visible one (null = all). */
async function reportBranches(q: Queryable, ctx: RequestContext, branchId: string | undefined): Promise<readonly string[] | null> {
  if (branchId) return [(await resolveBranch(q, ctx, branchId)).id];
  return ctx.visibleBranchIds;
}

/**
 * GET /api/reports/inventory: every active product's row in the branches reported on, valued at cost by the settings'
 * valuation method and at its selling price, with the pieces sold in the last 30 days (today included), the days of
 * stock, the value expiring before it sells and the reorder suggestion; totals over all rows, per branch and per
 * category; one page of the chosen view.
 */
export async function inventoryReport(q: Queryable, ctx: RequestContext, query: InventoryReportQuery): Promise<InventoryReportResponse> {
  const today = await pharmacyToday(q, ctx);
  const branchIds = await reportBranches(q, ctx, query.branchId);
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const method = settings.stockValuationMethod;
  const holdings = await repo.findHoldings(q, ctx.pharmacyId, branchIds, query.category?.trim() || null);
  const batches = await repo.findHeldBatches(q, ctx.pharmacyId, branchIds);
  const sold = await repo.findQuantitiesSold(q, ctx.pharmacyId, addDays(today, -(SALES_WINDOW_DAYS - 1)), today, branchIds);
  const lines = holdings.map((h) => {
    const key = `${h.branchId}:${h.productId}`;
    return inventoryLine({ ...h, soldInWindow: sold.get(key) ?? 0, batches: batches.get(key) ?? [] }, method, today);
  });
  const view = inventoryViewLines(lines, query.view);
  const offset = (query.page - 1) * query.pageSize;
  return {
    today,
    valuationMethod: method,
    salesWindowDays: SALES_WINDOW_DAYS,
    view: query.view,
    ...inventorySummary(lines),
    items: view.slice(offset, offset + query.pageSize),
    total: view.length,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The range and time zone of a dated report (the last 30 days by default, in the pharmacy's business dates). */
async function dated(q: Queryable, ctx: RequestContext, range: { from?: string | undefined; to?: string | undefined }) {
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  return { ...resolveReportRange(range, await pharmacyToday(q, ctx)), timeZone: settingsTimeZone(settings) };
}

/** GET /api/reports/stock-adjustments: the lines of adjustments made in the range, newest first, with totals by reason type and branch. */
export async function stockAdjustmentReport(q: Queryable, ctx: RequestContext, query: StockAdjustmentReportQuery): Promise<StockAdjustmentReportResponse> {
  const range = await dated(q, ctx, query);
  const filter = { ...range, branchIds: await reportBranches(q, ctx, query.branchId), reasonType: query.reasonType ?? null };
  const { groups, adjustments, lines } = await repo.findAdjustmentGroups(q, ctx.pharmacyId, filter);
  const items = lines === 0 ? [] : await repo.findAdjustmentLines(q, ctx.pharmacyId, filter, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
  return { from: range.from, to: range.to, ...adjustmentSummary(groups, adjustments), items, total: lines, page: query.page, pageSize: query.pageSize };
}

/** GET /api/reports/stock-transfers: transfers requested in the range by branch pair and status, with totals per status. */
export async function stockTransferReport(q: Queryable, ctx: RequestContext, query: StockTransferReportQuery): Promise<StockTransferReportResponse> {
  const range = await dated(q, ctx, query);
  const pairs = await repo.findTransferPairs(q, ctx.pharmacyId, { ...range, branchIds: await reportBranches(q, ctx, query.branchId), status: query.status ?? null });
  const offset = (query.page - 1) * query.pageSize;
  return { from: range.from, to: range.to, ...transferSummary(pairs), items: pairs.slice(offset, offset + query.pageSize), total: pairs.length, page: query.page, pageSize: query.pageSize };
}
