import { randomUUID } from 'node:crypto';
import {
  ADJUSTMENT_REASON_LABELS,
  businessDate,
  isExpired,
  type Adjustment,
  type AdjustmentItemInput,
  type AdjustmentListQuery,
  type AdjustmentListResponse,
  type CreateAdjustmentInput,
} from '@pharmapoint/domain/stock';
import { together, type Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { pharmacyTimeZone } from '../settings/settings.service.ts';
import * as repo from './adjustments.repository.ts';
import { applyStockChanges, lockStock, tryLockStock, type BatchTarget } from './ledger.service.ts';
import { checkBranch, resolveBranch } from './stock.service.ts';

/**
 * Stock adjustments: count corrections, damage, expiry write-offs and others, each line through the ledger
 * (kind 'adjustment', reference the adjustment). All lines or none: one refused line rolls everything back.
 */

/** POST /api/stock/adjustments. */
export async function createAdjustment(q: Queryable, ctx: RequestContext, input: CreateAdjustmentInput): Promise<Adjustment> {
  const productIds = [...new Set(input.items.map((i) => i.productId))];
  // The branch (resolveBranch's rules), the products and the user's name in one statement; a session without a branch
  // takes the default one first.
  const requested = input.branchId ?? ctx.branchId;
  const fallback = requested ? null : await resolveBranch(q, ctx, null);
  const stockKeys = (branchId: string) => input.items.map((item) => ({ branchId, productId: item.productId, create: item.delta > 0 }));
  // With them, the lock of the lines' stock rows and their batches, which need no answer of that statement: sent
  // together, one round trip (decision 0086), with the pharmacy's time zone (its business date decides what has
  // expired). The lock writes nothing (tryLockStock): a refusal below rolls it back, and when a row is missing
  // nothing is locked and the rows are created and locked once the input is checked.
  const [refs, tried, timeZone] = await together(
    repo.findAdjustmentRefs(q, ctx.pharmacyId, requested ?? fallback!.id, productIds, ctx.userId),
    tryLockStock(q, ctx.pharmacyId, stockKeys(requested ?? fallback!.id)),
    pharmacyTimeZone(q, ctx.pharmacyId),
  );
  const { id: branchId, name: branchName } = requested ? checkBranch(ctx, requested, refs.branch) : fallback!;
  const known = refs.products;
  const missing = productIds.find((id) => !known.some((k) => k.id === id));
  if (missing) throw new AppError('NOT_FOUND', { details: { productId: missing } });
  // Expired stock is never made sellable (decision 0033): a line that adds pieces to a batch it names by number and
  // expiry is refused when that date has passed, as receiving such a batch is (BATCH_EXPIRED). Write-offs of expired
  // batches (negative lines) and lines naming an existing batch by id are not new stock of an expired batch.
  const today = businessDate(ctx.now, timeZone);
  input.items.forEach((item, index) => {
    if (item.delta > 0 && !item.batchId && item.batchNumber && item.expiryDate && isExpired(item.expiryDate, today)) {
      throw new AppError('BATCH_EXPIRED', {
        values: { batch: item.batchNumber, expiryDate: item.expiryDate },
        details: { issues: [{ path: `items.${index}.expiryDate`, message: `This batch expired on ${item.expiryDate}: expired stock cannot be received as sellable stock.` }] },
      });
    }
  });
  // The adjustment's id is chosen here, so its lines go through the ledger first (their movements reference it) and
  // the adjustment and its lines are written in one statement afterwards; the answer is built from what this use
  // case has (the branch, the products, the batches the ledger touched) instead of read back (decision 0078).
  const adjustmentId = randomUUID();
  const batches = await Promise.all(input.items.map((item) => batchOf(q, ctx, branchId, item)));
  // Every line in one ledger call, on the rows locked above in the ledger's global order (or, when one was missing,
  // locked now, creating those of increases).
  const locked = tried ?? (await lockStock(q, ctx.pharmacyId, stockKeys(branchId)));
  const results = await applyStockChanges(
    q,
    { pharmacyId: ctx.pharmacyId, userId: ctx.userId, now: ctx.now, today },
    input.items.map((item, index) => {
      const batch = batches[index];
      return {
        kind: 'adjustment' as const,
        branchId,
        productId: item.productId,
        delta: item.delta,
        ...(batch ? { batch } : {}),
        reason: `Adjustment: ${ADJUSTMENT_REASON_LABELS[item.reasonType].toLowerCase()}${item.note ? ` (${item.note})` : ''}`,
        reference: { type: 'stock_adjustment', id: adjustmentId },
        includeExpired: true,
      };
    }),
    { locked },
  );
  const lines = input.items.map((i) => ({
    id: randomUUID(),
    productId: i.productId,
    batchId: i.batchId ?? null,
    delta: i.delta,
    reasonType: i.reasonType,
    note: i.note ?? null,
  }));
  repo.insertAdjustment(q, ctx.pharmacyId, { id: adjustmentId, branchId, reason: input.reason, userId: ctx.userId, at: ctx.now, items: lines });
  await audit(q, ctx, 'create', 'stock_adjustment', adjustmentId, null, input);
  const names = new Map(known.map((p) => [p.id, p.name]));
  // What GET /api/stock/adjustments/:id answers for it (a test compares the two).
  return {
    id: adjustmentId,
    branchId,
    branchName,
    reason: input.reason,
    userId: ctx.userId,
    userName: refs.userName,
    // As stored (timestamptz keeps the milliseconds of ctx.now) and read back by GET.
    createdAt: ctx.now.toISOString(),
    items: lines.map((line, index) => {
      const taken = results[index]!.batches;
      const sign = line.delta < 0 ? -1 : 1;
      return {
        id: line.id,
        productId: line.productId,
        productName: names.get(line.productId)!,
        batchId: line.batchId,
        batchNumber: line.batchId === null ? null : (taken.find((b) => b.batchId === line.batchId)?.batchNumber ?? null),
        delta: line.delta,
        reasonType: line.reasonType,
        note: line.note,
        batches: taken.map((b) => ({ batchId: b.batchId, batchNumber: b.batchNumber, expiryDate: b.expiryDate, delta: sign * b.quantity })),
      };
    }),
  };
}

/**
 * The batch a line names: an existing one by id, or (a positive line with number and expiry) a batch of that
 * number and expiry whose unit cost defaults to the branch purchase price; undefined lets the ledger choose.
 */
async function batchOf(q: Queryable, ctx: RequestContext, branchId: string, item: AdjustmentItemInput): Promise<BatchTarget | undefined> {
  if (item.batchId) return { batchId: item.batchId };
  if (!(item.delta > 0 && item.batchNumber && item.expiryDate)) return undefined;
  const unitCostCents = item.unitCostCents ?? (await repo.findBranchPurchasePrice(q, ctx.pharmacyId, branchId, item.productId));
  return { batchNumber: item.batchNumber, expiryDate: item.expiryDate, unitCostCents, source: 'adjustment' };
}

/** GET /api/stock/adjustments: newest first, of one branch or every branch the user may see. */
export async function listAdjustments(q: Queryable, ctx: RequestContext, query: AdjustmentListQuery): Promise<AdjustmentListResponse> {
  const branchIds = query.branchId ? [(await resolveBranch(q, ctx, query.branchId)).id] : ctx.visibleBranchIds;
  const filter: repo.AdjustmentFilter = {
    branchIds,
    productId: query.productId,
    reasonType: query.reasonType,
    from: query.from,
    to: query.to,
    timeZone: query.from || query.to ? await pharmacyTimeZone(q, ctx.pharmacyId) : undefined,
  };
  const items = await repo.findAdjustments(q, ctx.pharmacyId, filter, query);
  const total = await repo.countAdjustments(q, ctx.pharmacyId, filter);
  return { items, total, limit: query.limit, offset: query.offset };
}

/** GET /api/stock/adjustments/:id (404 for another tenant's id or a branch the user may not see). */
export async function getAdjustment(q: Queryable, ctx: RequestContext, id: string): Promise<Adjustment> {
  const [found] = await repo.findAdjustments(q, ctx.pharmacyId, { ids: [id], branchIds: ctx.visibleBranchIds }, { limit: 1, offset: 0 });
  if (!found) throw new AppError('NOT_FOUND');
  return found;
}
