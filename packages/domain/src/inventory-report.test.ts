import { describe, expect, it } from 'vitest';
import {
  adjustmentSummary,
  daysOfStock,
  expiringBeforeSold,
  fefoOrder,
  inventoryLine,
  inventorySummary,
  inventoryViewLines,
  reorderSuggestion,
  stockCostValue,
  stockTransferReportQuerySchema,
  transferSummary,
  type BatchHolding,
  type StockTransferPair,
} from './inventory-report.ts';

const b = (quantity: number, unitCostCents: number, expiryDate: string | null, receivedAt = '2026-01-01T00:00:00Z'): BatchHolding => ({ quantity, unitCostCents, expiryDate, receivedAt });

describe('stock value at cost', () => {
  it('FIFO and FEFO: each batch at its own cost', () => {
    const batches = [b(3, 4_000, '2026-02-01'), b(20, 6_000, '2027-01-01')];
    expect(stockCostValue(batches, 'FIFO')).toBe(132_000);
    expect(stockCostValue(batches, 'FEFO')).toBe(132_000);
  });
  it('weighted average: every piece at the average cost, rounded to the cent', () => {
    expect(stockCostValue([b(3, 4_000, null), b(20, 6_000, null)], 'WEIGHTED_AVERAGE')).toBe(23 * 5_739);
    expect(stockCostValue([], 'WEIGHTED_AVERAGE')).toBe(0);
  });
});

describe('days of stock and reorder suggestion', () => {
  it('days at the rate of the last 30 days, none without sales', () => {
    expect(daysOfStock(23, 6)).toBe(115);
    expect(daysOfStock(0, 6)).toBe(0);
    expect(daysOfStock(10, 0)).toBeNull();
  });
  it('at or below the reorder level: enough for 30 days of sales plus the level, at least one', () => {
    expect(reorderSuggestion(11, 10, 30)).toBeNull();
    expect(reorderSuggestion(10, 10, 30)).toBe(30);
    expect(reorderSuggestion(3, 10, 0)).toBe(7);
    expect(reorderSuggestion(0, 0, 0)).toBe(1);
  });
});

describe('value expiring before it sells', () => {
  const today = '2026-03-01';
  it('sells in FEFO order at the current rate; what a batch has not sold by its expiry is at risk', () => {
    // 1 a day: the batch expiring in 10 days sells 10 of 100; the later one sells days 10..40 = 30 of 20 (all).
    expect(expiringBeforeSold([b(20, 500, '2026-04-10'), b(100, 100, '2026-03-11')], 30, today)).toEqual({ quantity: 90, valueCents: 9_000 });
  });
  it('a batch that expired unsold does not use the later batches\' selling time', () => {
    // 1 a day: A (5, in 2 days) sells 2, 3 expire; B (10, in 12 days) sells 10 (12 - 2 sold so far).
    expect(expiringBeforeSold([b(5, 100, '2026-03-03'), b(10, 200, '2026-03-13')], 30, today)).toEqual({ quantity: 3, valueCents: 300 });
  });
  it('expired batches are all at risk; batches without expiry never are; nothing sold means every dated batch is at risk', () => {
    expect(expiringBeforeSold([b(4, 100, '2026-02-01'), b(9, 100, null)], 300, today)).toEqual({ quantity: 4, valueCents: 400 });
    expect(expiringBeforeSold([b(3, 5_000, '2028-01-01')], 0, today)).toEqual({ quantity: 3, valueCents: 15_000 });
  });
  it('FEFO order: earliest expiry first, no expiry last, then by when received', () => {
    const order = fefoOrder([b(1, 1, null), b(2, 1, '2026-05-01', '2026-01-02'), b(3, 1, '2026-05-01', '2026-01-01'), b(4, 1, '2026-04-01')]);
    expect(order.map((x) => x.quantity)).toEqual([4, 3, 2, 1]);
  });
});

describe('inventory lines, summary and views', () => {
  const holding = (over: Partial<Parameters<typeof inventoryLine>[0]> = {}) =>
    inventoryLine(
      { productId: 'p1', productName: 'Amoxicillin', sku: null, category: 'Medicine', branchId: 'b1', branchName: 'Main', onHand: 23, sellingPriceCents: 10_000, reorderLevel: 10, soldInWindow: 6, batches: [b(3, 4_000, '2026-03-21'), b(20, 6_000, '2027-03-01')], ...over },
      'FIFO',
      '2026-03-01',
    );
  it('a line: value at cost and at selling price, days of stock, earliest expiry, risk and suggestion', () => {
    expect(holding()).toMatchObject({ costValueCents: 132_000, retailValueCents: 230_000, daysOfStock: 115, earliestExpiry: '2026-03-21', atRiskQuantity: 0, suggestedQuantity: null });
    expect(holding({ category: ' ' }).category).toBeNull();
  });
  it('totals per branch and category; views filter and order', () => {
    const a = holding();
    const c = holding({ productId: 'p2', productName: 'Gloves', category: null, branchId: 'b2', branchName: 'Westlands', onHand: 2, soldInWindow: 0, batches: [b(2, 1_000, '2026-12-01')] });
    const s = inventorySummary([a, c]);
    expect(s.totals).toMatchObject({ lines: 2, onHand: 25, costValueCents: 134_000, atRiskQuantity: 2, reorderLines: 1 });
    expect(s.byBranch.map((x) => x.branchName)).toEqual(['Main', 'Westlands']);
    expect(s.byCategory.map((x) => x.category)).toEqual(['Medicine', '']);
    expect(inventoryViewLines([a, c], 'reorder').map((l) => l.productId)).toEqual(['p2']);
    expect(inventoryViewLines([a, c], 'expiring').map((l) => l.productId)).toEqual(['p2']);
    expect(inventoryViewLines([c, a], 'stock').map((l) => l.productId)).toEqual(['p1', 'p2']);
  });
});

describe('adjustments and transfers summaries', () => {
  it('sums adjustment groups per reason (catalogue order) and branch', () => {
    const s = adjustmentSummary(
      [
        { branchId: 'b2', branchName: 'West', reasonType: 'damage', adjustments: 1, lines: 1, piecesAdded: 0, piecesRemoved: 5, netValueCents: -500 },
        { branchId: 'b1', branchName: 'Main', reasonType: 'count_correction', adjustments: 1, lines: 2, piecesAdded: 3, piecesRemoved: 1, netValueCents: 200 },
      ],
      2,
    );
    expect(s.totals).toEqual({ adjustments: 2, lines: 3, piecesAdded: 3, piecesRemoved: 6, netValueCents: -300 });
    expect(s.byReason.map((r) => r.reasonType)).toEqual(['count_correction', 'damage']);
    expect(s.byBranch.map((r) => r.branchName)).toEqual(['Main', 'West']);
  });
  it('sums transfer pairs per status in the order of states', () => {
    const pair = (status: StockTransferPair['status'], n: number): StockTransferPair => ({ fromBranchId: 'a', fromBranchName: 'A', toBranchId: 'b', toBranchName: 'B', status, transfers: n, piecesRequested: n * 2, piecesDispatched: n, piecesReceived: 0, valueDispatchedCents: n * 100 });
    const s = transferSummary([pair('cancelled', 1), pair('requested', 2)]);
    expect(s.totals).toEqual({ transfers: 3, piecesRequested: 6, piecesDispatched: 3, piecesReceived: 0, valueDispatchedCents: 300 });
    expect(s.byStatus.map((x) => x.status)).toEqual(['requested', 'cancelled']);
  });
  it('the range rules of a report query', () => {
    expect(stockTransferReportQuerySchema.safeParse({ from: '2026-03-02', to: '2026-03-01' }).error?.issues[0]?.message).toBe('The end date must be on or after the start date.');
    expect(stockTransferReportQuerySchema.safeParse({ from: '2020-01-01', to: '2025-01-01' }).success).toBe(true);
    expect(stockTransferReportQuerySchema.safeParse({ from: '2020-01-01', to: '2025-01-02' }).error?.issues[0]?.message).toBe('Choose a date range of at most 5 years.');
  });
});
