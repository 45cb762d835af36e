import { DEFAULT_MIN_MARGIN_PERCENT } from '@pharmapoint/domain/margins';
import { EXPIRY_ALERT_DAYS } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { settingsTimeZone } from '../settings/settings.service.ts';
import * as ledger from './ledger.service.ts';
import { findBranch, findFallbackBranchId, findSettingsDocument, type BranchRef } from './stock.repository.ts';

/**
 * The stock module's public use cases for other modules (products, import, and later sales and purchases):
 * other modules call these, never the stock repositories. Every function takes the caller's open transaction and
 * request context, so a sale's stock change commits or rolls back with the rest of the sale, and the transaction's
 * live stock events go out in one NOTIFY right before it commits.
 */
export type { BatchSource, BatchTake, BatchTarget, LockedStock, StockChange, StockChangeResult } from './ledger.service.ts';

type OpeningCaller = Pick<RequestContext, 'pharmacyId' | 'userId' | 'now'>;
/** Who and when, and the pharmacy's business date at `now` (businessDate in its time zone): it decides what has expired. */
type LedgerCaller = OpeningCaller & { today: string };

const ledgerContext = (ctx: LedgerCaller) => ({ pharmacyId: ctx.pharmacyId, userId: ctx.userId, now: ctx.now, today: ctx.today });

/** Applies one stock change through the ordered ledger (FEFO for decreases), with its live event on commit. */
export function applyStockChange(q: Queryable, ctx: LedgerCaller, change: ledger.StockChange): Promise<ledger.StockChangeResult> {
  return ledger.applyStockChange(q, ledgerContext(ctx), change);
}

/**
 * Applies several stock changes in one step (rows locked in one global order, so concurrent callers never deadlock).
 * With `locked` (what lockStockRows answered earlier in this transaction, covering every change's row) the rows are
 * not locked and read again.
 */
export function applyStockChanges(
  q: Queryable,
  ctx: LedgerCaller,
  changes: readonly ledger.StockChange[],
  locked?: ledger.LockedStock,
): Promise<ledger.StockChangeResult[]> {
  return ledger.applyStockChanges(q, ledgerContext(ctx), changes, { locked });
}

/**
 * The opening stock of new products in their branches (an import's chunk), set-based: the same batches, ledger
 * rows, branch quantities and live events as applyStockChanges, in four statements. The branch rows must exist and
 * hold no stock yet.
 */
export function applyOpeningStock(q: Queryable, ctx: OpeningCaller, changes: readonly ledger.StockChange[]): Promise<void> {
  return ledger.applyOpeningStock(q, { pharmacyId: ctx.pharmacyId, userId: ctx.userId, now: ctx.now }, changes);
}

/**
 * Locks the stock rows a caller will change, in the ledger's global order (creating the rows of increases): call it
 * first, so a multi-product change never deadlocks with another. Answers the locked rows: pass them to
 * applyStockChanges (and sellableStock), which then neither lock nor read them again. With `batches` (a caller that
 * reads them: sellableStock) the rows' batches are read in the lock's round trip when every row exists (decision 0086).
 */
export function lockStockRows(
  q: Queryable,
  ctx: Pick<RequestContext, 'pharmacyId'>,
  keys: readonly { branchId: string; productId: string; create?: boolean }[],
  options: { batches?: boolean } = {},
): Promise<ledger.LockedStock> {
  return ledger.lockStock(q, ctx.pharmacyId, keys, options);
}

/**
 * The sellable pieces (in batches not expired by `today`) of each locked row, by product: what a sale or a
 * reservation may take there. Reads the rows' batches once; applyStockChanges with the same rows reuses them.
 */
export async function sellableStock(q: Queryable, locked: ledger.LockedStock, today: string): Promise<Map<string, number>> {
  const byKey = await ledger.sellableStock(q, locked, today);
  return new Map([...byKey].map(([key, pieces]) => [key.split(':')[1]!, pieces]));
}

/** The live stock events this transaction has recorded so far (they are published when it commits). */
export const stockEventsOf = ledger.stockEventsOf;

/**
 * Gives the live events still to be sent of the changes this transaction made with a provisional reason their final
 * one, once it is known (a sale's 'Sale: INV-…', whose number is taken last so the invoice counter is held only for
 * the end of the sale). The database's rows keep what they were written with: the ledger's movements and the branch
 * rows name their sale by reference, and reads show its invoice number through it (decision 0087: no second write).
 */
export function restampReason(q: Queryable, keys: readonly { branchId: string; productId: string }[], from: string, to: string): void {
  for (const event of ledger.stockEventsOf(q)) {
    if (event.reason === from && keys.some((k) => k.branchId === event.branchId && k.productId === event.productId)) event.reason = to;
  }
}

/**
 * The branch a request works on: the one asked for, else the session's, else the default branch. 404 for a
 * branch that does not exist in the pharmacy, 403 BRANCH_NOT_ALLOWED for one the user may not see.
 */
export async function resolveBranch(q: Queryable, ctx: RequestContext, requested: string | null | undefined): Promise<{ id: string; name: string }> {
  const id = requested ?? ctx.branchId ?? (await findFallbackBranchId(q, ctx.pharmacyId)) ?? null;
  if (!id) throw new AppError('NOT_FOUND', { details: { branchId: null } });
  return checkBranch(ctx, id, await findBranch(q, ctx.pharmacyId, id));
}

/**
 * resolveBranch's checks of the branch `id` (asked for, or the session's) that a use case read itself, with other
 * things in one statement: 404 when it does not exist in the pharmacy, 403 BRANCH_NOT_ALLOWED when the user may not
 * see it.
 */
export function checkBranch(ctx: Pick<RequestContext, 'visibleBranchIds'>, id: string, branch: BranchRef | null | undefined): { id: string; name: string } {
  if (!branch) throw new AppError('NOT_FOUND', { details: { branchId: id } });
  if (!canSeeBranch(ctx, branch.id)) throw new AppError('BRANCH_NOT_ALLOWED');
  return { id: branch.id, name: branch.name };
}

export interface StockSettings {
  /** Percent, above 0 and below 100. */
  defaultMinMarginPercent: number;
  expiryAlertDays: number;
  categories: string[];
  /** The pharmacy's time zone (a usable IANA name): its business date is businessDate(now, timeZone). */
  timeZone: string;
}

/** The settings the stock screens use: default minimum margin (percent), expiry alert days, categories and time zone. */
export async function stockSettings(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId'>): Promise<StockSettings> {
  return stockSettingsOf(await findSettingsDocument(q, ctx.pharmacyId));
}

/** stockSettings of a settings document a use case read itself (with other things, in one statement). */
export function stockSettingsOf(doc: Record<string, unknown>): StockSettings {
  const margin = Number(doc.defaultMinMargin);
  const alert = Number(doc.expiryAlertDays);
  const categories = Array.isArray(doc.categories) ? doc.categories.filter((c): c is string => typeof c === 'string' && c.trim() !== '') : [];
  return {
    defaultMinMarginPercent: margin > 0 && margin < 100 ? margin : DEFAULT_MIN_MARGIN_PERCENT,
    expiryAlertDays: Number.isInteger(alert) && alert >= 0 ? alert : EXPIRY_ALERT_DAYS,
    categories,
    timeZone: settingsTimeZone({ timezone: typeof doc.timezone === 'string' ? doc.timezone : '' }),
  };
}
