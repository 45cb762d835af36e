import { z } from 'zod';
import { refineReportRange, reportPageFields, reportRangeFields } from './report-period.ts';
import { daysFrom } from './sales-history.ts';
import { STOCK_VALUATION_METHODS } from './settings.ts';
import { ADJUSTMENT_REASON_TYPES, TRANSFER_STATUSES } from './stock.ts';
import { text } from './text.ts';

/**
 * The inventory reports: stock on hand and its value (at cost by the settings' valuation method, and at selling
 * price) per branch and category, reorder suggestions, and the value of stock that will expire before it sells at
 * the current rate of sale (GET /api/reports/inventory); the stock adjustments report and the stock transfers
 * summary (GET /api/reports/stock-adjustments, /api/reports/stock-transfers). All report:inventory. The rules are
 * pure functions here; the server loads rows and runs them.
 */

export type StockValuationMethod = (typeof STOCK_VALUATION_METHODS)[number];

/** The rate of sale is the quantity sold in this many days up to today. */
export const SALES_WINDOW_DAYS = 30;

// ------------------------------------------------------------------------------------------- rules

export interface BatchHolding {
  /** Pieces in the batch, reserved ones included. */
  quantity: number;
  unitCostCents: number;
  expiryDate: string | null;
  receivedAt: string;
}

/**
 * The value at cost of the pieces held. FIFO and FEFO: each batch's pieces at the batch's own cost (the ledger takes
 * stock out batch by batch, so the batches left are what either method leaves). Weighted average: every piece at the
 * average cost of the batches held, rounded to the cent.
 */
export function stockCostValue(batches: readonly BatchHolding[], method: StockValuationMethod): number {
  const pieces = batches.reduce((n, b) => n + b.quantity, 0);
  const cost = batches.reduce((n, b) => n + b.quantity * b.unitCostCents, 0);
  if (method === 'WEIGHTED_AVERAGE') return pieces === 0 ? 0 : pieces * Math.round(cost / pieces);
  return cost;
}

/** Whole days the stock lasts at the rate of the last 30 days; null when nothing sold (it does not run out by selling). */
export function daysOfStock(onHand: number, soldInWindow: number, windowDays = SALES_WINDOW_DAYS): number | null {
  if (soldInWindow <= 0) return null;
  return Math.floor((onHand * windowDays) / soldInWindow);
}

/** First expiry first, batches without expiry last, then by when received: the order the till sells in. */
export function fefoOrder<T extends BatchHolding>(batches: readonly T[]): T[] {
  return [...batches].sort((a, b) => {
    if (a.expiryDate !== b.expiryDate) {
      if (a.expiryDate === null) return 1;
      if (b.expiryDate === null) return -1;
      return a.expiryDate < b.expiryDate ? -1 : 1;
    }
    return a.receivedAt < b.receivedAt ? -1 : a.receivedAt > b.receivedAt ? 1 : 0;
  });
}

/**
 * The pieces (and their value at each batch's cost) that will expire before they sell at the current rate: the
 * batches sell in FEFO order at soldInWindow / windowDays pieces a day from today; by a batch's expiry date the
 * pieces sold so far can be at most rate × days until then, and what its batch has not sold by then expires. An
 * expired batch is all at risk; a batch without expiry never is. With no sales every batch with an expiry is at risk.
 */
export function expiringBeforeSold(
  batches: readonly BatchHolding[],
  soldInWindow: number,
  today: string,
  windowDays = SALES_WINDOW_DAYS,
): { quantity: number; valueCents: number } {
  const rate = Math.max(0, soldInWindow) / windowDays;
  let sold = 0;
  let quantity = 0;
  let valueCents = 0;
  for (const batch of fefoOrder(batches)) {
    if (batch.quantity <= 0) continue;
    if (batch.expiryDate === null) continue;
    const days = Math.max(0, daysFrom(today, batch.expiryDate));
    const sells = Math.min(batch.quantity, Math.max(0, Math.floor(rate * days + 1e-9) - sold));
    sold += sells;
    const left = batch.quantity - sells;
    quantity += left;
    valueCents += left * batch.unitCostCents;
  }
  return { quantity, valueCents };
}

/**
 * A product at or below its reorder level in a branch: order enough to sell for the next 30 days at the current rate
 * and still hold the reorder level (at least one piece). Above the reorder level: no suggestion (null).
 */
export function reorderSuggestion(onHand: number, reorderLevel: number, soldInWindow: number): number | null {
  if (onHand > reorderLevel) return null;
  return Math.max(reorderLevel + soldInWindow - onHand, 1);
}

// ------------------------------------------------------------------------------------------- the inventory report

export const INVENTORY_VIEWS = ['stock', 'reorder', 'expiring'] as const;
export type InventoryView = (typeof INVENTORY_VIEWS)[number];

/** GET /api/reports/inventory: one table at a time (stock on hand, reorder suggestions, expiring before sold), paged. */
export const inventoryReportQuerySchema = z.strictObject({
  branchId: z.uuid().optional(),
  category: text(100, 'Category').optional(),
  view: z.enum(INVENTORY_VIEWS, { error: 'Choose a view.' }).default('stock'),
  ...reportPageFields,
});
export type InventoryReportQueryInput = z.input<typeof inventoryReportQuerySchema>;
export type InventoryReportQuery = z.output<typeof inventoryReportQuerySchema>;

/** One product in one branch as loaded: its prices, level, sales of the window and batches. */
export interface InventoryHolding {
  productId: string;
  productName: string;
  sku: string | null;
  category: string | null;
  branchId: string;
  branchName: string;
  /** Pieces held, reserved ones included. */
  onHand: number;
  sellingPriceCents: number;
  reorderLevel: number;
  soldInWindow: number;
  batches: readonly BatchHolding[];
}

export const inventoryLineSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  sku: z.string().nullable(),
  category: z.string().nullable(),
  branchId: z.string(),
  branchName: z.string(),
  onHand: z.number().int(),
  costValueCents: z.number().int(),
  sellingPriceCents: z.number().int(),
  retailValueCents: z.number().int(),
  reorderLevel: z.number().int(),
  soldLast30Days: z.number().int(),
  daysOfStock: z.number().int().nullable(),
  earliestExpiry: z.string().nullable(),
  atRiskQuantity: z.number().int(),
  atRiskValueCents: z.number().int(),
  /** At or below the reorder level: the quantity to order. */
  suggestedQuantity: z.number().int().nullable(),
});
export type InventoryLine = z.infer<typeof inventoryLineSchema>;

export function inventoryLine(h: InventoryHolding, method: StockValuationMethod, today: string): InventoryLine {
  const risk = expiringBeforeSold(h.batches, h.soldInWindow, today);
  const expiries = h.batches.filter((b) => b.quantity > 0 && b.expiryDate !== null).map((b) => b.expiryDate!);
  return {
    productId: h.productId,
    productName: h.productName,
    sku: h.sku,
    category: h.category && h.category.trim() !== '' ? h.category : null,
    branchId: h.branchId,
    branchName: h.branchName,
    onHand: h.onHand,
    costValueCents: stockCostValue(h.batches, method),
    sellingPriceCents: h.sellingPriceCents,
    retailValueCents: h.onHand * h.sellingPriceCents,
    reorderLevel: h.reorderLevel,
    soldLast30Days: h.soldInWindow,
    daysOfStock: daysOfStock(h.onHand, h.soldInWindow),
    earliestExpiry: expiries.length ? expiries.sort()[0]! : null,
    atRiskQuantity: risk.quantity,
    atRiskValueCents: risk.valueCents,
    suggestedQuantity: reorderSuggestion(h.onHand, h.reorderLevel, h.soldInWindow),
  };
}

const totalsShape = {
  lines: z.number().int(),
  onHand: z.number().int(),
  costValueCents: z.number().int(),
  retailValueCents: z.number().int(),
  atRiskQuantity: z.number().int(),
  atRiskValueCents: z.number().int(),
  reorderLines: z.number().int(),
};
export const inventoryTotalsSchema = z.object(totalsShape);
export type InventoryTotals = z.infer<typeof inventoryTotalsSchema>;

export const inventoryReportResponseSchema = z.object({
  today: z.string(),
  valuationMethod: z.enum(STOCK_VALUATION_METHODS),
  salesWindowDays: z.number().int(),
  view: z.enum(INVENTORY_VIEWS),
  totals: inventoryTotalsSchema,
  byBranch: z.array(z.object({ branchId: z.string(), branchName: z.string(), ...totalsShape })),
  /** '' = no category. */
  byCategory: z.array(z.object({ category: z.string(), ...totalsShape })),
  items: z.array(inventoryLineSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type InventoryReportResponse = z.infer<typeof inventoryReportResponseSchema>;

const emptyTotals = (): InventoryTotals => ({ lines: 0, onHand: 0, costValueCents: 0, retailValueCents: 0, atRiskQuantity: 0, atRiskValueCents: 0, reorderLines: 0 });
function addLine(t: InventoryTotals, l: InventoryLine): void {
  t.lines += 1;
  t.onHand += l.onHand;
  t.costValueCents += l.costValueCents;
  t.retailValueCents += l.retailValueCents;
  t.atRiskQuantity += l.atRiskQuantity;
  t.atRiskValueCents += l.atRiskValueCents;
  if (l.suggestedQuantity !== null) t.reorderLines += 1;
}

/** Totals over every line, per branch (by name) and per category (largest value at cost first). */
export function inventorySummary(lines: readonly InventoryLine[]): Pick<InventoryReportResponse, 'totals' | 'byBranch' | 'byCategory'> {
  const totals = emptyTotals();
  const branches = new Map<string, InventoryReportResponse['byBranch'][number]>();
  const categories = new Map<string, InventoryReportResponse['byCategory'][number]>();
  for (const l of lines) {
    addLine(totals, l);
    const b = branches.get(l.branchId) ?? { branchId: l.branchId, branchName: l.branchName, ...emptyTotals() };
    addLine(b, l);
    branches.set(l.branchId, b);
    const key = l.category ?? '';
    const c = categories.get(key) ?? { category: key, ...emptyTotals() };
    addLine(c, l);
    categories.set(key, c);
  }
  return {
    totals,
    byBranch: [...branches.values()].sort((a, b) => a.branchName.localeCompare(b.branchName)),
    byCategory: [...categories.values()].sort((a, b) => b.costValueCents - a.costValueCents || a.category.localeCompare(b.category)),
  };
}

/** The lines of a view in its order: stock by product and branch; reorder the fewest days of stock first; expiring the most value at risk first. */
export function inventoryViewLines(lines: readonly InventoryLine[], view: InventoryView): InventoryLine[] {
  const byName = (a: InventoryLine, b: InventoryLine) => a.productName.localeCompare(b.productName) || a.branchName.localeCompare(b.branchName) || a.productId.localeCompare(b.productId);
  switch (view) {
    case 'stock':
      return [...lines].sort(byName);
    case 'reorder':
      return lines
        .filter((l) => l.suggestedQuantity !== null)
        .sort((a, b) => (a.daysOfStock ?? Number.MAX_SAFE_INTEGER) - (b.daysOfStock ?? Number.MAX_SAFE_INTEGER) || a.onHand - b.onHand || byName(a, b));
    case 'expiring':
      return lines.filter((l) => l.atRiskQuantity > 0).sort((a, b) => b.atRiskValueCents - a.atRiskValueCents || byName(a, b));
  }
}

// ------------------------------------------------------------------------------------------- stock adjustments report

/** GET /api/reports/stock-adjustments: the lines of adjustments made in the range, newest first, with totals by reason type and branch. */
export const stockAdjustmentReportQuerySchema = z
  .strictObject({
    ...reportRangeFields,
    branchId: z.uuid().optional(),
    reasonType: z.enum(ADJUSTMENT_REASON_TYPES, { error: 'Choose an adjustment type.' }).optional(),
    ...reportPageFields,
  })
  .superRefine(refineReportRange);
export type StockAdjustmentReportQueryInput = z.input<typeof stockAdjustmentReportQuerySchema>;
export type StockAdjustmentReportQuery = z.output<typeof stockAdjustmentReportQuerySchema>;

const adjustmentTotalsShape = {
  lines: z.number().int(),
  piecesAdded: z.number().int(),
  piecesRemoved: z.number().int(),
  /** Pieces added × their unit cost, minus pieces removed × theirs. */
  netValueCents: z.number().int(),
};

export const stockAdjustmentLineSchema = z.object({
  adjustmentId: z.string(),
  line: z.number().int(),
  date: z.string(),
  at: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  productId: z.string(),
  productName: z.string(),
  sku: z.string().nullable(),
  batchNumber: z.string().nullable(),
  delta: z.number().int(),
  reasonType: z.enum(ADJUSTMENT_REASON_TYPES),
  reason: z.string(),
  note: z.string().nullable(),
  userName: z.string().nullable(),
  unitCostCents: z.number().int(),
  valueCents: z.number().int(),
});
export type StockAdjustmentLine = z.infer<typeof stockAdjustmentLineSchema>;

export const stockAdjustmentReportResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.object({ adjustments: z.number().int(), ...adjustmentTotalsShape }),
  byReason: z.array(z.object({ reasonType: z.enum(ADJUSTMENT_REASON_TYPES), ...adjustmentTotalsShape })),
  byBranch: z.array(z.object({ branchId: z.string(), branchName: z.string(), ...adjustmentTotalsShape })),
  items: z.array(stockAdjustmentLineSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type StockAdjustmentReportResponse = z.infer<typeof stockAdjustmentReportResponseSchema>;

// ------------------------------------------------------------------------------------------- stock transfers summary

/** The transfer's states, in their order. */
export const TRANSFER_STATUSES_REPORTED = TRANSFER_STATUSES;

/** GET /api/reports/stock-transfers: transfers requested in the range, by branch pair and status. */
export const stockTransferReportQuerySchema = z
  .strictObject({
    ...reportRangeFields,
    branchId: z.uuid().optional(),
    status: z.enum(TRANSFER_STATUSES_REPORTED, { error: 'Choose a status.' }).optional(),
    ...reportPageFields,
  })
  .superRefine(refineReportRange);
export type StockTransferReportQueryInput = z.input<typeof stockTransferReportQuerySchema>;
export type StockTransferReportQuery = z.output<typeof stockTransferReportQuerySchema>;

const transferTotalsShape = {
  transfers: z.number().int(),
  piecesRequested: z.number().int(),
  piecesDispatched: z.number().int(),
  piecesReceived: z.number().int(),
  /** Pieces dispatched × their batch cost. */
  valueDispatchedCents: z.number().int(),
};

export const stockTransferPairSchema = z.object({
  fromBranchId: z.string(),
  fromBranchName: z.string(),
  toBranchId: z.string(),
  toBranchName: z.string(),
  status: z.enum(TRANSFER_STATUSES_REPORTED),
  ...transferTotalsShape,
});
export type StockTransferPair = z.infer<typeof stockTransferPairSchema>;

export const stockTransferReportResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.object(transferTotalsShape),
  byStatus: z.array(z.object({ status: z.enum(TRANSFER_STATUSES_REPORTED), ...transferTotalsShape })),
  items: z.array(stockTransferPairSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type StockTransferReportResponse = z.infer<typeof stockTransferReportResponseSchema>;

type TransferTotals = z.infer<z.ZodObject<typeof transferTotalsShape>>;
const emptyTransferTotals = (): TransferTotals => ({ transfers: 0, piecesRequested: 0, piecesDispatched: 0, piecesReceived: 0, valueDispatchedCents: 0 });

/** The totals over every pair row, and per status (in the transfer's order of states). */
export function transferSummary(rows: readonly StockTransferPair[]): Pick<StockTransferReportResponse, 'totals' | 'byStatus'> {
  const totals = emptyTransferTotals();
  const byStatus = new Map<StockTransferPair['status'], TransferTotals>();
  for (const r of rows) {
    const s = byStatus.get(r.status) ?? emptyTransferTotals();
    for (const t of [totals, s]) {
      t.transfers += r.transfers;
      t.piecesRequested += r.piecesRequested;
      t.piecesDispatched += r.piecesDispatched;
      t.piecesReceived += r.piecesReceived;
      t.valueDispatchedCents += r.valueDispatchedCents;
    }
    byStatus.set(r.status, s);
  }
  return { totals, byStatus: TRANSFER_STATUSES_REPORTED.filter((s) => byStatus.has(s)).map((status) => ({ status, ...byStatus.get(status)! })) };
}

/** Adjustment lines summed per branch and reason type, as the database reads them. */
export interface AdjustmentGroup {
  branchId: string;
  branchName: string;
  reasonType: StockAdjustmentLine['reasonType'];
  adjustments: number;
  lines: number;
  piecesAdded: number;
  piecesRemoved: number;
  netValueCents: number;
}

/** The totals, per reason type (in the catalogue's order) and per branch (by name) of the groups. */
export function adjustmentSummary(groups: readonly AdjustmentGroup[], adjustments: number): Pick<StockAdjustmentReportResponse, 'totals' | 'byReason' | 'byBranch'> {
  const zero = () => ({ lines: 0, piecesAdded: 0, piecesRemoved: 0, netValueCents: 0 });
  const totals = { adjustments, ...zero() };
  const reasons = new Map<AdjustmentGroup['reasonType'], ReturnType<typeof zero>>();
  const branches = new Map<string, { branchId: string; branchName: string } & ReturnType<typeof zero>>();
  for (const g of groups) {
    const r = reasons.get(g.reasonType) ?? zero();
    const b = branches.get(g.branchId) ?? { branchId: g.branchId, branchName: g.branchName, ...zero() };
    for (const t of [totals, r, b]) {
      t.lines += g.lines;
      t.piecesAdded += g.piecesAdded;
      t.piecesRemoved += g.piecesRemoved;
      t.netValueCents += g.netValueCents;
    }
    reasons.set(g.reasonType, r);
    branches.set(g.branchId, b);
  }
  return {
    totals,
    byReason: ADJUSTMENT_REASON_TYPES.filter((t) => reasons.has(t)).map((reasonType) => ({ reasonType, ...reasons.get(reasonType)! })),
    byBranch: [...branches.values()].sort((a, b) => a.branchName.localeCompare(b.branchName)),
  };
}
