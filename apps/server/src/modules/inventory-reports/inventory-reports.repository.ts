import type { AdjustmentGroup, BatchHolding, StockAdjustmentLine, StockTransferPair } from '@pharmapoint/domain/inventory-report';
import type { Queryable } from '../../db/database.ts';

/**
 * The reads of the inventory reports. Each names the pharmacy and reads what one pharmacy holds: its branch rows
 * and batches (small per pharmacy), the sales of the last 30 days through sales_date and each sale's lines by key,
 * adjustments through stock_adjustments_at and transfers through stock_transfers_at within the range.
 */

export interface HoldingRow {
  branchId: string;
  branchName: string;
  productId: string;
  productName: string;
  sku: string | null;
  category: string | null;
  onHand: number;
  sellingPriceCents: number;
  reorderLevel: number;
}

/** Active products' rows in the active branches among branchIds (null = every branch), optionally of one category. */
export async function findHoldings(q: Queryable, pharmacyId: string, branchIds: readonly string[] | null, category: string | null): Promise<HoldingRow[]> {
  const rows = await q.query<{
    branch_id: string;
    branch_name: string;
    product_id: string;
    product_name: string;
    sku: string | null;
    category: string | null;
    on_hand: number;
    selling_price_cents: number;
    reorder_level: number;
  }>(
    `SELECT bp.branch_id, br.name AS branch_name, bp.product_id, p.name AS product_name, p.sku, p.category,
            (bp.quantity + bp.reserved_quantity)::int AS on_hand, bp.selling_price_cents, p.reorder_level
       FROM branch_products bp
       JOIN branches br ON br.pharmacy_id = bp.pharmacy_id AND br.id = bp.branch_id AND br.is_active
       JOIN products p ON p.pharmacy_id = bp.pharmacy_id AND p.id = bp.product_id AND p.is_active
      WHERE bp.pharmacy_id = $1 AND ($2::uuid[] IS NULL OR bp.branch_id = ANY ($2::uuid[]))
        AND ($3::text IS NULL OR lower(coalesce(p.category, '')) = lower($3::text))`,
    [pharmacyId, branchIds, category],
  );
  return rows.map((r) => ({
    branchId: r.branch_id,
    branchName: r.branch_name,
    productId: r.product_id,
    productName: r.product_name,
    sku: r.sku,
    category: r.category,
    onHand: r.on_hand,
    sellingPriceCents: r.selling_price_cents,
    reorderLevel: r.reorder_level,
  }));
}

/** The batches holding pieces (reserved ones included) in branchIds, keyed by `branchId:productId`. */
export async function findHeldBatches(q: Queryable, pharmacyId: string, branchIds: readonly string[] | null): Promise<Map<string, BatchHolding[]>> {
  const rows = await q.query<{ branch_id: string; product_id: string; quantity: number; unit_cost_cents: number; expiry_date: string | null; received_at: string }>(
    `SELECT b.branch_id, b.product_id, (b.quantity + b.reserved_quantity)::int AS quantity, b.unit_cost_cents, b.expiry_date, b.received_at
       FROM batches b
      WHERE b.pharmacy_id = $1 AND b.quantity + b.reserved_quantity > 0 AND ($2::uuid[] IS NULL OR b.branch_id = ANY ($2::uuid[]))`,
    [pharmacyId, branchIds],
  );
  const map = new Map<string, BatchHolding[]>();
  for (const r of rows) {
    const key = `${r.branch_id}:${r.product_id}`;
    const list = map.get(key) ?? [];
    list.push({ quantity: r.quantity, unitCostCents: r.unit_cost_cents, expiryDate: r.expiry_date, receivedAt: r.received_at });
    map.set(key, list);
  }
  return map;
}

/**
 * Pieces sold per branch and product on the sale dates from..to: lines of sales not voided, less what was returned
 * from those sales. Keyed by `branchId:productId`.
 */
export async function findQuantitiesSold(q: Queryable, pharmacyId: string, from: string, to: string, branchIds: readonly string[] | null): Promise<Map<string, number>> {
  const rows = await q.query<{ branch_id: string; product_id: string; sold: number }>(
    `WITH s AS (
       SELECT id, branch_id FROM sales
        WHERE pharmacy_id = $1 AND sale_date BETWEEN $2::date AND $3::date AND status <> 'voided'
          AND ($4::uuid[] IS NULL OR branch_id = ANY ($4::uuid[])))
     SELECT s.branch_id, i.product_id,
            (sum(i.quantity) - coalesce(sum((SELECT sum(r.quantity) FROM sale_return_items r
                                              WHERE r.pharmacy_id = $1 AND r.sale_id = i.sale_id AND r.line = i.line)), 0))::int AS sold
       FROM s JOIN sale_items i ON i.pharmacy_id = $1 AND i.sale_id = s.id
      GROUP BY s.branch_id, i.product_id`,
    [pharmacyId, from, to, branchIds],
  );
  return new Map(rows.map((r) => [`${r.branch_id}:${r.product_id}`, Math.max(0, r.sold)]));
}

// ------------------------------------------------------------------------------------------- adjustments

export interface AdjustmentFilter {
  from: string;
  to: string;
  timeZone: string;
  branchIds: readonly string[] | null;
  reasonType: string | null;
}

const ADJUSTMENT_FROM = `FROM stock_adjustments a
       JOIN stock_adjustment_items i ON i.pharmacy_id = a.pharmacy_id AND i.adjustment_id = a.id
       JOIN branches br ON br.pharmacy_id = a.pharmacy_id AND br.id = a.branch_id
       JOIN products p ON p.pharmacy_id = i.pharmacy_id AND p.id = i.product_id
       LEFT JOIN users u ON u.id = a.user_id
       LEFT JOIN batches b ON b.pharmacy_id = i.pharmacy_id AND b.id = i.batch_id
       LEFT JOIN branch_products bp ON bp.pharmacy_id = a.pharmacy_id AND bp.branch_id = a.branch_id AND bp.product_id = i.product_id
      WHERE a.pharmacy_id = $1
        AND a.created_at >= ($2::date::timestamp AT TIME ZONE $4::text)
        AND a.created_at < (($3::date + 1)::timestamp AT TIME ZONE $4::text)
        AND ($5::uuid[] IS NULL OR a.branch_id = ANY ($5::uuid[]))
        AND ($6::text IS NULL OR i.reason_type = $6::text)`;
const UNIT_COST = `coalesce(b.unit_cost_cents, bp.purchase_price_cents, 0)`;
const adjustmentParams = (pharmacyId: string, f: AdjustmentFilter) => [pharmacyId, f.from, f.to, f.timeZone, f.branchIds, f.reasonType];

/** The range's adjustment lines summed per branch and reason type, and how many adjustments they belong to. */
export async function findAdjustmentGroups(q: Queryable, pharmacyId: string, f: AdjustmentFilter): Promise<{ groups: AdjustmentGroup[]; adjustments: number; lines: number }> {
  const rows = await q.query<{ branch_id: string | null; branch_name: string | null; reason_type: AdjustmentGroup['reasonType'] | null; adjustments: number; lines: number; added: number; removed: number; value: number }>(
    `SELECT a.branch_id, br.name AS branch_name, i.reason_type, count(DISTINCT a.id)::int AS adjustments, count(*)::int AS lines,
            coalesce(sum(i.delta) FILTER (WHERE i.delta > 0), 0)::bigint AS added,
            coalesce(-sum(i.delta) FILTER (WHERE i.delta < 0), 0)::bigint AS removed,
            coalesce(sum(i.delta * ${UNIT_COST}), 0)::bigint AS value
       ${ADJUSTMENT_FROM}
      GROUP BY GROUPING SETS ((a.branch_id, br.name, i.reason_type), ())`,
    adjustmentParams(pharmacyId, f),
  );
  const all = rows.find((r) => r.reason_type === null);
  return {
    adjustments: all?.adjustments ?? 0,
    lines: all?.lines ?? 0,
    groups: rows
      .filter((r) => r.reason_type !== null)
      .map((r) => ({
        branchId: r.branch_id!,
        branchName: r.branch_name!,
        reasonType: r.reason_type!,
        adjustments: r.adjustments,
        lines: r.lines,
        piecesAdded: r.added,
        piecesRemoved: r.removed,
        netValueCents: r.value,
      })),
  };
}

/** One page of the range's adjustment lines, newest first. */
export async function findAdjustmentLines(q: Queryable, pharmacyId: string, f: AdjustmentFilter, page: { limit: number; offset: number }): Promise<StockAdjustmentLine[]> {
  const rows = await q.query<{
    adjustment_id: string;
    position: number;
    day: string;
    created_at: string;
    branch_id: string;
    branch_name: string;
    product_id: string;
    product_name: string;
    sku: string | null;
    batch_number: string | null;
    delta: number;
    reason_type: StockAdjustmentLine['reasonType'];
    reason: string;
    note: string | null;
    user_name: string | null;
    unit_cost_cents: number;
  }>(
    `SELECT a.id AS adjustment_id, i.position, (a.created_at AT TIME ZONE $4::text)::date AS day, a.created_at, a.branch_id,
            br.name AS branch_name, i.product_id, p.name AS product_name, p.sku, b.batch_number, i.delta, i.reason_type, a.reason,
            i.note, u.name AS user_name, ${UNIT_COST}::bigint AS unit_cost_cents
       ${ADJUSTMENT_FROM}
      ORDER BY a.created_at DESC, a.id, i.position
      LIMIT $7 OFFSET $8`,
    [...adjustmentParams(pharmacyId, f), page.limit, page.offset],
  );
  return rows.map((r) => ({
    adjustmentId: r.adjustment_id,
    line: r.position,
    date: r.day,
    at: r.created_at,
    branchId: r.branch_id,
    branchName: r.branch_name,
    productId: r.product_id,
    productName: r.product_name,
    sku: r.sku,
    batchNumber: r.batch_number,
    delta: r.delta,
    reasonType: r.reason_type,
    reason: r.reason,
    note: r.note,
    userName: r.user_name,
    unitCostCents: r.unit_cost_cents,
    valueCents: r.delta * r.unit_cost_cents,
  }));
}

// ------------------------------------------------------------------------------------------- transfers

export interface TransferFilter {
  from: string;
  to: string;
  timeZone: string;
  /** Transfers from or to one of these (null = any). */
  branchIds: readonly string[] | null;
  status: string | null;
}

/** Transfers requested in the range summed per branch pair and status, ordered by source, destination and state. */
export async function findTransferPairs(q: Queryable, pharmacyId: string, f: TransferFilter): Promise<StockTransferPair[]> {
  const rows = await q.query<{
    from_branch_id: string;
    from_branch_name: string;
    to_branch_id: string;
    to_branch_name: string;
    status: StockTransferPair['status'];
    transfers: number;
    requested: number;
    dispatched: number;
    received: number;
    value: number;
  }>(
    `SELECT t.from_branch_id, fb.name AS from_branch_name, t.to_branch_id, tb.name AS to_branch_name, t.status,
            count(DISTINCT t.id)::int AS transfers, coalesce(sum(i.quantity_requested), 0)::bigint AS requested,
            coalesce(sum(i.quantity_dispatched), 0)::bigint AS dispatched, coalesce(sum(i.quantity_received), 0)::bigint AS received,
            coalesce(sum(i.quantity_dispatched * coalesce(i.unit_cost_cents, 0)), 0)::bigint AS value
       FROM stock_transfers t
       JOIN branches fb ON fb.pharmacy_id = t.pharmacy_id AND fb.id = t.from_branch_id
       JOIN branches tb ON tb.pharmacy_id = t.pharmacy_id AND tb.id = t.to_branch_id
       LEFT JOIN stock_transfer_items i ON i.pharmacy_id = t.pharmacy_id AND i.transfer_id = t.id
      WHERE t.pharmacy_id = $1
        AND t.created_at >= ($2::date::timestamp AT TIME ZONE $4::text)
        AND t.created_at < (($3::date + 1)::timestamp AT TIME ZONE $4::text)
        AND ($5::uuid[] IS NULL OR t.from_branch_id = ANY ($5::uuid[]) OR t.to_branch_id = ANY ($5::uuid[]))
        AND ($6::text IS NULL OR t.status = $6::text)
      GROUP BY t.from_branch_id, fb.name, t.to_branch_id, tb.name, t.status
      ORDER BY fb.name, tb.name, array_position(ARRAY['requested', 'approved', 'dispatched', 'partially_received', 'received', 'cancelled'], t.status)`,
    [pharmacyId, f.from, f.to, f.timeZone, f.branchIds, f.status],
  );
  return rows.map((r) => ({
    fromBranchId: r.from_branch_id,
    fromBranchName: r.from_branch_name,
    toBranchId: r.to_branch_id,
    toBranchName: r.to_branch_name,
    status: r.status,
    transfers: r.transfers,
    piecesRequested: r.requested,
    piecesDispatched: r.dispatched,
    piecesReceived: r.received,
    valueDispatchedCents: r.value,
  }));
}
