import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import * as ledger from './ledger.ts';
import * as scope from './scope.ts';

/**
 * The stock module's public use cases for other modules (products, import, and later sales and purchases):
 * other modules call these, never the stock repository. Every function takes the caller's open transaction and
 * request context, so a sale's stock change commits or rolls back with the rest of the sale.
 */
export type { BatchSource, BatchTake, BatchTarget, StockChange, StockChangeResult } from './ledger.ts';

/** Applies one stock change through the ordered ledger (FEFO for decreases), with its live event on commit. */
export function applyStockChange(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId' | 'userId' | 'now'>, change: ledger.StockChange): Promise<ledger.StockChangeResult> {
  return ledger.applyStockChange(q, { pharmacyId: ctx.pharmacyId, userId: ctx.userId, now: ctx.now }, change);
}

/** Applies several stock changes in one step (rows locked in one order, so concurrent callers never deadlock). */
export function applyStockChanges(
  q: Queryable,
  ctx: Pick<RequestContext, 'pharmacyId' | 'userId' | 'now'>,
  changes: readonly ledger.StockChange[],
): Promise<ledger.StockChangeResult[]> {
  return ledger.applyStockChanges(q, { pharmacyId: ctx.pharmacyId, userId: ctx.userId, now: ctx.now }, changes);
}

/** The branch a request works on: the one asked for, else the session's, else the default; 404 / 403 otherwise. */
export function resolveBranch(q: Queryable, ctx: RequestContext, requested: string | null | undefined): Promise<{ id: string; name: string }> {
  return scope.resolveBranch(q, ctx, null, requested);
}

/** The settings the stock screens use: default minimum margin (percent), expiry alert days and categories. */
export function stockSettings(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId'>): ReturnType<typeof scope.stockSettings> {
  return scope.stockSettings(q, ctx.pharmacyId);
}
