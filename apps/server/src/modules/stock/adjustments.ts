import {
  ADJUSTMENT_REASON_LABELS,
  type Adjustment,
  type AdjustmentReasonType,
  type CreateAdjustmentInput,
} from '@pharmapoint/domain/stock';
import type { Database, Queryable } from '../../db/database.ts';
import type { RequestAuth, RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { applyStockChange, lockStockRows } from './ledger.ts';
import { iso, resolveBranch, visibleBranchIds } from './scope.ts';

/**
 * Stock adjustments: count corrections, damage, expiry write-offs and others, each line through the ledger
 * (kind 'adjustment', reference the adjustment). All lines or none: one refused line rolls everything back.
 */

const scope = (ctx: RequestContext) => ({ pharmacyId: ctx.pharmacyId, userId: ctx.userId });

/** POST /api/stock/adjustments. */
export async function createAdjustment(db: Database, ctx: RequestContext, auth: RequestAuth | null, input: CreateAdjustmentInput, now = new Date()): Promise<Adjustment> {
  return db.transaction(scope(ctx), async (q) => {
    const branch = await resolveBranch(q, ctx, auth, input.branchId);
    const productIds = [...new Set(input.items.map((i) => i.productId))];
    const known = await q.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND id = ANY($2::uuid[])`, [ctx.pharmacyId, productIds]);
    const missing = productIds.find((id) => !known.some((k) => k.id === id));
    if (missing) throw new AppError('NOT_FOUND', { details: { productId: missing } });
    const [adjustment] = await q.query<{ id: string }>(
      `INSERT INTO stock_adjustments (pharmacy_id, branch_id, reason, user_id, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [ctx.pharmacyId, branch.id, input.reason, ctx.userId, now],
    );
    const adjustmentId = adjustment!.id;
    await lockStockRows(q, ctx.pharmacyId, productIds.map((productId) => ({ branchId: branch.id, productId })));
    for (const [position, item] of input.items.entries()) {
      const batch = item.batchId
        ? { batchId: item.batchId }
        : item.delta > 0 && item.batchNumber && item.expiryDate
          ? await newBatchTarget(q, ctx, branch.id, item.productId, item.batchNumber, item.expiryDate, item.unitCostCents)
          : undefined;
      await applyStockChange(q, { ...scope(ctx), now }, {
        kind: 'adjustment',
        branchId: branch.id,
        productId: item.productId,
        delta: item.delta,
        ...(batch ? { batch } : {}),
        reason: `Adjustment: ${ADJUSTMENT_REASON_LABELS[item.reasonType].toLowerCase()}${item.note ? ` (${item.note})` : ''}`,
        reference: { type: 'stock_adjustment', id: adjustmentId },
        includeExpired: true,
      });
      await q.query(
        `INSERT INTO stock_adjustment_items (pharmacy_id, adjustment_id, position, product_id, batch_id, delta, reason_type, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [ctx.pharmacyId, adjustmentId, position, item.productId, item.batchId ?? null, item.delta, item.reasonType, item.note ?? null],
      );
    }
    await audit(q, scope(ctx), 'create', 'stock_adjustment', adjustmentId, null, input);
    const [result] = await loadAdjustments(q, ctx.pharmacyId, { ids: [adjustmentId], branchIds: null, limit: 1, offset: 0 });
    return result!;
  });
}

/** A new batch of a positive adjustment; the unit cost defaults to the branch purchase price. */
async function newBatchTarget(
  q: Queryable,
  ctx: RequestContext,
  branchId: string,
  productId: string,
  batchNumber: string,
  expiryDate: string,
  unitCostCents: number | undefined,
) {
  let cost = unitCostCents;
  if (cost === undefined) {
    const [row] = await q.query<{ purchase_price_cents: string | number }>(
      `SELECT purchase_price_cents FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
      [ctx.pharmacyId, branchId, productId],
    );
    cost = Number(row?.purchase_price_cents ?? 0);
  }
  return { batchNumber, expiryDate, unitCostCents: cost, source: 'adjustment' as const };
}

export interface AdjustmentFilter {
  ids?: string[];
  branchIds: readonly string[] | null;
  productId?: string;
  reasonType?: AdjustmentReasonType;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

function adjustmentWhere(filter: AdjustmentFilter): { where: string; params: unknown[] } {
  return {
    where: `a.pharmacy_id = $1 AND ($2::uuid[] IS NULL OR a.id = ANY($2::uuid[])) AND ($3::uuid[] IS NULL OR a.branch_id = ANY($3::uuid[]))
      AND ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM stock_adjustment_items i WHERE i.pharmacy_id = a.pharmacy_id AND i.adjustment_id = a.id AND i.product_id = $4::uuid))
      AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM stock_adjustment_items i WHERE i.pharmacy_id = a.pharmacy_id AND i.adjustment_id = a.id AND i.reason_type = $5::text))
      AND ($6::date IS NULL OR (a.created_at AT TIME ZONE 'Africa/Nairobi')::date >= $6::date)
      AND ($7::date IS NULL OR (a.created_at AT TIME ZONE 'Africa/Nairobi')::date <= $7::date)`,
    params: [filter.ids ?? null, filter.branchIds, filter.productId ?? null, filter.reasonType ?? null, filter.from ?? null, filter.to ?? null],
  };
}

/** Adjustments with their lines, newest first. */
export async function loadAdjustments(q: Queryable, pharmacyId: string, filter: AdjustmentFilter): Promise<Adjustment[]> {
  const { where, params } = adjustmentWhere(filter);
  const heads = await q.query<{
    id: string;
    branch_id: string;
    branch_name: string;
    reason: string;
    user_id: string | null;
    user_name: string | null;
    created_at: Date | string;
  }>(
    `SELECT a.id, a.branch_id, b.name AS branch_name, a.reason, a.user_id, u.name AS user_name, a.created_at
       FROM stock_adjustments a
       JOIN branches b ON b.pharmacy_id = a.pharmacy_id AND b.id = a.branch_id
       LEFT JOIN users u ON u.id = a.user_id
      WHERE ${where}
      ORDER BY a.created_at DESC, a.id
      LIMIT ${filter.limit} OFFSET ${filter.offset}`,
    [pharmacyId, ...params],
  );
  if (heads.length === 0) return [];
  const items = await q.query<{
    id: string;
    adjustment_id: string;
    product_id: string;
    product_name: string;
    batch_id: string | null;
    batch_number: string | null;
    delta: number;
    reason_type: AdjustmentReasonType;
    note: string | null;
  }>(
    `SELECT i.id, i.adjustment_id, i.product_id, p.name AS product_name, i.batch_id, bt.batch_number, i.delta, i.reason_type, i.note
       FROM stock_adjustment_items i
       JOIN products p ON p.pharmacy_id = i.pharmacy_id AND p.id = i.product_id
       LEFT JOIN batches bt ON bt.pharmacy_id = i.pharmacy_id AND bt.id = i.batch_id
      WHERE i.pharmacy_id = $1 AND i.adjustment_id = ANY($2::uuid[])
      ORDER BY i.adjustment_id, i.position`,
    [pharmacyId, heads.map((h) => h.id)],
  );
  return heads.map((h) => ({
    id: h.id,
    branchId: h.branch_id,
    branchName: h.branch_name,
    reason: h.reason,
    userId: h.user_id,
    userName: h.user_name,
    createdAt: iso(h.created_at)!,
    items: items
      .filter((i) => i.adjustment_id === h.id)
      .map((i) => ({
        id: i.id,
        productId: i.product_id,
        productName: i.product_name,
        batchId: i.batch_id,
        batchNumber: i.batch_number,
        delta: Number(i.delta),
        reasonType: i.reason_type,
        note: i.note,
      })),
  }));
}

/** GET /api/stock/adjustments. */
export async function listAdjustments(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  query: Omit<AdjustmentFilter, 'branchIds' | 'ids'> & { branchId?: string },
) {
  return db.transaction(scope(ctx), async (q) => {
    let branchIds = visibleBranchIds(ctx, auth);
    if (query.branchId) branchIds = [(await resolveBranch(q, ctx, auth, query.branchId)).id];
    const filter: AdjustmentFilter = { ...query, branchIds };
    const items = await loadAdjustments(q, ctx.pharmacyId, filter);
    const { where, params } = adjustmentWhere(filter);
    const [count] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM stock_adjustments a WHERE ${where}`, [ctx.pharmacyId, ...params]);
    return { items, total: count?.total ?? 0, limit: query.limit, offset: query.offset };
  });
}

/** GET /api/stock/adjustments/:id (404 for another tenant's id or a branch the user may not see). */
export async function getAdjustment(db: Database, ctx: RequestContext, auth: RequestAuth | null, id: string): Promise<Adjustment> {
  return db.transaction(scope(ctx), async (q) => {
    const [found] = await loadAdjustments(q, ctx.pharmacyId, { ids: [id], branchIds: visibleBranchIds(ctx, auth), limit: 1, offset: 0 });
    if (!found) throw new AppError('NOT_FOUND');
    return found;
  });
}
