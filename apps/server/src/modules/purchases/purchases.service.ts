import { randomUUID } from 'node:crypto';
import {
  bulkDeleteMessage,
  DEFAULT_PURCHASE_MIN_MARGIN_PERCENT,
  DEFAULT_PURCHASE_TAX_RATE_PERCENT,
  newPurchaseNumber,
  newPurchaseReturnNumber,
  PURCHASE_MESSAGES,
  PURCHASE_RETURN_MESSAGES,
  purchaseLineTotals,
  purchaseTotals,
  returnValueCents,
  SUPPLIER_REQUIRED,
  targetReceivedQuantity,
  type BulkDeletePurchases,
  type BulkDeleteResult,
  type CreatePurchaseReturn,
  type Purchase,
  type PurchaseDefaults,
  type PurchaseItem,
  type PurchaseListQuery,
  type PurchaseListResponse,
  type PurchaseResult,
  type PurchaseReturn,
  type PurchaseReturnListQuery,
  type PurchaseReturnListResponse,
  type ReceivePurchase,
  type SavePurchase,
} from '@pharmapoint/domain/purchases';
import { isExpired } from '@pharmapoint/domain/stock';
import { formatMessage } from '@pharmapoint/domain/errors';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { applyPurchasePrices } from '../products/products.service.ts';
import { loadSettings, pharmacyToday } from '../settings/settings.service.ts';
import { applyStockChange, lockStockRows, resolveBranch, type StockChange } from '../stock/stock.service.ts';
import { applySupplierCredit, lockSupplierAccounts, syncSupplierAccounts } from '../supplier-payments/supplier-payments.service.ts';
import * as repo from './purchases.repository.ts';
import type { ItemValues, PurchaseHead } from './purchases.repository.ts';

/**
 * Purchases (issue 10 items 1-3; seed 002 sections 3-5, 8, 9; decisions 0034-0036). Every use case runs in the
 * request's one transaction and takes the purchase's row lock first, so receiving, editing, deleting and returning
 * the same purchase queue up; stock moves only through the stock ledger (kinds purchase_receipt, purchase_edit,
 * purchase_delete, purchase_return), each line's pieces into and out of the batch they were received into.
 */

const PURCHASE_REF = 'purchase';

async function today(q: Queryable, ctx: RequestContext): Promise<string> {
  return pharmacyToday(q, ctx);
}

/** The settings' default minimum margin and tax rate (basis points), else 22 % and 16 % (seed 002 section 3). */
async function lineDefaults(q: Queryable, ctx: RequestContext): Promise<{ minMarginBasisPoints: number; taxRateBasisPoints: number }> {
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const s = settings as Record<string, unknown>;
  const margin = Number(s.defaultMinMargin);
  const taxSetting = s.defaultTaxRate ?? s.taxRate;
  const tax = Number(taxSetting);
  return {
    minMarginBasisPoints: Math.round((margin > 0 && margin < 100 ? margin : DEFAULT_PURCHASE_MIN_MARGIN_PERCENT) * 100),
    taxRateBasisPoints: Math.round((taxSetting !== undefined && taxSetting !== null && tax >= 0 && tax <= 100 ? tax : DEFAULT_PURCHASE_TAX_RATE_PERCENT) * 100),
  };
}

/** GET /api/purchases/defaults. */
export async function purchaseDefaults(q: Queryable, ctx: RequestContext): Promise<PurchaseDefaults> {
  const defaults = await lineDefaults(q, ctx);
  const branch = await resolveBranch(q, ctx, null).catch(() => null);
  return { ...defaults, branchId: branch?.id ?? null, today: await today(q, ctx) };
}

function notFound(id: string): AppError {
  return new AppError('NOT_FOUND', { message: PURCHASE_MESSAGES.notFound, details: { purchaseId: id } });
}

/**
 * The purchase (not deleted) in a branch the caller may see, locked when asked; 404 'Purchase not found' otherwise.
 * Before locking it, its supplier's row (and `alsoSuppliers`') is locked, the order supplier payments take too (the
 * supplier, then its purchases), as the kept balances are written under the supplier's lock (migration 0028).
 */
async function requirePurchase(q: Queryable, ctx: RequestContext, id: string, forUpdate: boolean, alsoSuppliers: readonly string[] = []): Promise<PurchaseHead> {
  const peek = forUpdate ? await repo.findPurchaseHead(q, ctx.pharmacyId, id, false) : undefined;
  if (peek) await lockSupplierAccounts(q, ctx, [peek.supplierId, ...alsoSuppliers]);
  const head = await repo.findPurchaseHead(q, ctx.pharmacyId, id, forUpdate);
  if (!head || !canSeeBranch(ctx, head.branchId)) throw notFound(id);
  // Moved to another supplier in between (rare): that supplier's row too.
  if (peek && peek.supplierId !== head.supplierId) await lockSupplierAccounts(q, ctx, [head.supplierId]);
  return head;
}

async function requireSupplier(q: Queryable, ctx: RequestContext, supplierId: string): Promise<void> {
  const contact = await repo.findContact(q, ctx.pharmacyId, supplierId);
  if (!contact) throw new AppError('NOT_FOUND', { message: SUPPLIER_REQUIRED, details: { issues: [{ path: 'supplierId', message: SUPPLIER_REQUIRED }] } });
  if (contact.type !== 'supplier') {
    const message = `${contact.name} is not a supplier: choose a supplier.`;
    throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: 'supplierId', message }] } });
  }
}

/** The lines as they will be stored: product names from the catalogue, defaults filled in, totals computed here. */
async function buildLines(q: Queryable, ctx: RequestContext, input: SavePurchase): Promise<(Omit<ItemValues, 'receivedQuantity' | 'batchId'> & { id?: string })[]> {
  const products = await repo.findProducts(q, ctx.pharmacyId, [...new Set(input.items.map((i) => i.productId))]);
  const defaults = await lineDefaults(q, ctx);
  return input.items.map((item, index) => {
    const product = products.get(item.productId);
    if (!product) {
      throw new AppError('NOT_FOUND', { message: 'This product does not exist. Choose another one.', details: { issues: [{ path: `items.${index}.productId`, message: 'This product does not exist.' }] } });
    }
    const taxRateBasisPoints = item.taxRateBasisPoints ?? defaults.taxRateBasisPoints;
    const totals = purchaseLineTotals({ quantity: item.quantity, purchasePriceCents: item.purchasePriceCents, applyTax: item.applyTax, taxRateBasisPoints });
    return {
      ...(item.id ? { id: item.id } : {}),
      productId: product.id,
      name: product.name,
      sku: product.sku,
      category: product.category,
      quantity: item.quantity,
      purchasePriceCents: item.purchasePriceCents,
      sellingPriceCents: item.sellingPriceCents,
      maxDiscountBasisPoints: item.maxDiscountBasisPoints ?? null,
      minMarginBasisPoints: item.minMarginBasisPoints ?? defaults.minMarginBasisPoints,
      expiryDate: item.expiryDate ?? null,
      batchNumber: item.batchNumber?.trim() ? item.batchNumber.trim() : null,
      applyTax: item.applyTax,
      taxRateBasisPoints,
      ...totals,
    };
  });
}

export async function getPurchase(q: Queryable, ctx: RequestContext, id: string): Promise<Purchase> {
  await requirePurchase(q, ctx, id, false);
  const summary = (await repo.findPurchaseSummary(q, ctx.pharmacyId, id))!;
  return { ...summary, items: await repo.findItems(q, ctx.pharmacyId, id) };
}

/** GET /api/purchases: the branches the caller may see, filtered and paged on the server. */
export async function listPurchases(q: Queryable, ctx: RequestContext, query: PurchaseListQuery): Promise<PurchaseListResponse> {
  if (query.branchId && !canSeeBranch(ctx, query.branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
  const { items, total, totalCents } = await repo.listPurchases(q, ctx.pharmacyId, query, ctx.visibleBranchIds);
  return { items, total, totalCents, limit: query.limit, offset: query.offset };
}

// ------------------------------------------------------------------------------------------- stock

/** One line's stock move of a use case, and what to record on the line once the ledger has applied it. */
interface LineMove {
  change: StockChange;
  /** The line whose batch_id to set from the change's batch (increases into a batch not yet known). */
  lineKey?: string;
}

function expiredError(batchNumber: string | null, expiryDate: string, index: number): AppError {
  return new AppError('BATCH_EXPIRED', {
    values: { batch: batchNumber ?? '(no number)', expiryDate },
    details: { issues: [{ path: `items.${index}.expiryDate`, message: `This batch expired on ${expiryDate}: expired stock cannot be received as sellable stock.` }] },
  });
}

/** Applies the moves in the ledger's lock order; returns the batch each keyed increase went into. */
async function applyMoves(q: Queryable, ctx: RequestContext, moves: readonly LineMove[]): Promise<Map<string, string>> {
  const batches = new Map<string, string>();
  if (moves.length === 0) return batches;
  await lockStockRows(
    q,
    ctx,
    moves.map((m) => ({ branchId: m.change.branchId, productId: m.change.productId, create: 'delta' in m.change && m.change.delta > 0 })),
  );
  // Decreases first: an edit moving pieces between batches of the same product never needs them twice.
  const ordered = [...moves].sort((a, b) => Number('delta' in a.change && a.change.delta > 0) - Number('delta' in b.change && b.change.delta > 0));
  const ledgerCtx = { ...ctx, today: await today(q, ctx) };
  for (const move of ordered) {
    const result = await applyStockChange(q, ledgerCtx, move.change);
    if (move.lineKey && result.batches[0]) batches.set(move.lineKey, result.batches[0].batchId);
  }
  return batches;
}

function receiptChange(
  kind: 'purchase_receipt' | 'purchase_edit',
  head: { id: string; purchaseNumber: string; branchId: string },
  line: { productId: string | null; batchId: string | null; batchNumber: string | null; expiryDate: string | null; purchasePriceCents: number },
  delta: number,
  reason: string,
): StockChange {
  return {
    kind,
    branchId: head.branchId,
    productId: line.productId!,
    delta,
    batch: line.batchId
      ? { batchId: line.batchId }
      : { batchNumber: line.batchNumber, expiryDate: line.expiryDate, unitCostCents: line.purchasePriceCents, source: 'purchase' },
    reason,
    reference: { type: PURCHASE_REF, id: head.id },
  };
}

/** The product's purchase price, selling price and minimum margin in the branch follow the received line. */
async function updatePrices(q: Queryable, ctx: RequestContext, branchId: string, purchaseNumber: string, lines: readonly PurchaseItem[]): Promise<void> {
  const byProduct = new Map<string, PurchaseItem>();
  for (const line of lines) if (line.productId) byProduct.set(line.productId, line);
  for (const line of [...byProduct.values()].sort((a, b) => a.productId!.localeCompare(b.productId!))) {
    await applyPurchasePrices(q, ctx, {
      productId: line.productId!,
      branchId,
      purchasePriceCents: line.purchasePriceCents,
      sellingPriceCents: line.sellingPriceCents,
      minMarginBasisPoints: line.minMarginBasisPoints,
      reason: `Purchase: ${purchaseNumber}`,
    });
  }
}

// ------------------------------------------------------------------------------------------- create and edit

/** POST /api/purchases: the purchase, and its stock when it is created as received. */
export async function createPurchase(q: Queryable, ctx: RequestContext, input: SavePurchase): Promise<PurchaseResult> {
  const branch = await resolveBranch(q, ctx, input.branchId ?? null);
  await requireSupplier(q, ctx, input.supplierId);
  const lines = await buildLines(q, ctx, input);
  const totals = purchaseTotals(lines);
  // 'PO-' + the time in ms; when another purchase of the pharmacy has that number, the next millisecond's (0024).
  const { id, purchaseNumber } = await repo.insertPurchase(
    q,
    ctx.pharmacyId,
    ctx.userId,
    { supplierId: input.supplierId, branchId: branch.id, date: input.date, reference: input.reference ?? null, notes: input.notes ?? null, status: input.status, ...totals },
    (attempt) => newPurchaseNumber(new Date(ctx.now.getTime() + attempt)),
    ctx.now,
  );
  const day = await today(q, ctx);
  const head = { id, purchaseNumber, branchId: branch.id };
  const moves: LineMove[] = [];
  const stored: { id: string; line: (typeof lines)[number]; received: number }[] = [];
  for (const [index, line] of lines.entries()) {
    const received = targetReceivedQuantity(input.status, line.quantity, 0);
    if (received > 0 && isExpired(line.expiryDate, day)) throw expiredError(line.batchNumber, line.expiryDate!, index);
    const lineId = await repo.insertItem(q, ctx.pharmacyId, id, index, { ...line, receivedQuantity: received, batchId: null });
    stored.push({ id: lineId, line, received });
    if (received > 0) moves.push({ change: receiptChange('purchase_receipt', head, { ...line, batchId: null }, received, `Purchase: ${purchaseNumber}`), lineKey: lineId });
  }
  const batches = await applyMoves(q, ctx, moves);
  for (const s of stored) if (s.received > 0) await repo.setItemReceived(q, ctx.pharmacyId, s.id, s.received, batches.get(s.id) ?? null);
  if (moves.length > 0) await updatePrices(q, ctx, branch.id, purchaseNumber, await repo.findItems(q, ctx.pharmacyId, id));
  // What the pharmacy overpaid this supplier before pays the new invoice at once (seed 002 section 4, decision 0041).
  await applySupplierCredit(q, ctx, input.supplierId, [id]);
  const purchase = await getPurchase(q, ctx, id);
  await audit(q, ctx, 'purchase.create', 'purchase', id, null, purchase);
  return { purchase, message: PURCHASE_MESSAGES.created };
}

/**
 * PUT /api/purchases/:id: the whole purchase again. A received line's stock is corrected by the difference in the
 * batch it went into (purchase_edit); a line whose product, batch number, expiry or cost changed moves its pieces to
 * the new batch; a removed line takes its pieces out. Refused (409 INSUFFICIENT_STOCK, nothing written) when the
 * pieces to take out are no longer in their batch (sold, transferred).
 */
export async function updatePurchase(q: Queryable, ctx: RequestContext, id: string, input: SavePurchase): Promise<PurchaseResult> {
  const head = await requirePurchase(q, ctx, id, true, [input.supplierId]);
  const oldItems = await repo.findItems(q, ctx.pharmacyId, id, true);
  const branch = await resolveBranch(q, ctx, input.branchId ?? head.branchId);
  await requireSupplier(q, ctx, input.supplierId);
  const lines = await buildLines(q, ctx, input);
  const byId = new Map(oldItems.map((i) => [i.id, i]));
  for (const line of lines) if (line.id && !byId.has(line.id)) throw new AppError('NOT_FOUND', { message: 'A line of this purchase no longer exists. Reload and try again.', details: { itemId: line.id } });
  const received = oldItems.some((i) => i.receivedQuantity > 0);
  if (branch.id !== head.branchId && received) {
    const message = 'The branch of a purchase with received stock cannot change: return or delete it instead.';
    throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: 'branchId', message }] } });
  }
  const day = await today(q, ctx);
  const reason = `Purchase edited: ${head.purchaseNumber}`;
  const target = { id, purchaseNumber: head.purchaseNumber, branchId: branch.id };
  const moves: LineMove[] = [];
  const plans: { key: string; old?: PurchaseItem; line: (typeof lines)[number]; received: number; batchId: string | null; position: number }[] = [];
  const kept = new Set<string>();

  for (const [index, line] of lines.entries()) {
    const old = line.id ? byId.get(line.id) : undefined;
    if (old) kept.add(old.id);
    const was = old?.receivedQuantity ?? 0;
    const returned = old?.returnedQuantity ?? 0;
    const now = Math.max(targetReceivedQuantity(input.status, line.quantity, was), returned);
    if (returned > 0 && line.quantity < returned) {
      const message = `${line.name}: ${returned} pieces were already returned to the supplier; the quantity cannot be less.`;
      throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: `items.${index}.quantity`, message }] } });
    }
    const sameBatch =
      old !== undefined &&
      old.batchId !== null &&
      old.productId === line.productId &&
      old.batchNumber === line.batchNumber &&
      old.expiryDate === line.expiryDate &&
      old.purchasePriceCents === line.purchasePriceCents;
    const key = old?.id ?? `new:${index}`;
    let batchId: string | null = sameBatch ? old.batchId : null;
    if (old && old.batchId && was - returned > 0 && !sameBatch) {
      if (returned > 0) {
        const message = `${line.name}: pieces were already returned from its batch; its product, batch, expiry and cost cannot change.`;
        throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: `items.${index}`, message }] } });
      }
      if (old.productId) moves.push({ change: receiptChange('purchase_edit', target, old, -was, reason) });
      if (now > 0) {
        if (isExpired(line.expiryDate, day)) throw expiredError(line.batchNumber, line.expiryDate!, index);
        moves.push({ change: receiptChange('purchase_edit', target, { ...line, batchId: null }, now, reason), lineKey: key });
      }
    } else if (now !== was) {
      if (now > was && isExpired(line.expiryDate, day)) throw expiredError(line.batchNumber, line.expiryDate!, index);
      moves.push({ change: receiptChange(old ? 'purchase_edit' : 'purchase_receipt', target, { ...line, batchId }, now - was, reason), lineKey: batchId ? undefined : key });
    }
    if (now === 0 && !(old && was > 0 && sameBatch)) batchId = null;
    plans.push({ key, old, line, received: now, batchId, position: index });
  }
  for (const old of oldItems) {
    if (kept.has(old.id)) continue;
    if (old.returnedQuantity > 0) {
      const message = `${old.name}: pieces were already returned to the supplier; the line cannot be removed.`;
      throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: 'items', message }] } });
    }
    if (old.receivedQuantity > 0 && old.productId && old.batchId) moves.push({ change: receiptChange('purchase_edit', target, old, -old.receivedQuantity, reason) });
  }

  const batches = await applyMoves(q, ctx, moves);
  const totals = purchaseTotals(lines);
  await repo.updatePurchaseHead(
    q,
    ctx.pharmacyId,
    id,
    ctx.userId,
    { supplierId: input.supplierId, branchId: branch.id, date: input.date, reference: input.reference ?? null, notes: input.notes ?? null, status: input.status, ...totals },
    ctx.now,
  );
  for (const old of oldItems) if (!kept.has(old.id)) await repo.markItemRemoved(q, ctx.pharmacyId, old.id, ctx.now);
  const priced: string[] = [];
  for (const plan of plans) {
    const batchId = batches.get(plan.key) ?? plan.batchId;
    const values: ItemValues = { ...plan.line, receivedQuantity: plan.received, batchId: plan.received > 0 ? batchId : null };
    const lineId = plan.old ? plan.old.id : await repo.insertItem(q, ctx.pharmacyId, id, plan.position, values);
    if (plan.old) await repo.updateItem(q, ctx.pharmacyId, plan.old.id, plan.position, values);
    const was = plan.old?.receivedQuantity ?? 0;
    const pricesMoved =
      plan.old !== undefined &&
      (plan.old.purchasePriceCents !== plan.line.purchasePriceCents ||
        plan.old.sellingPriceCents !== plan.line.sellingPriceCents ||
        plan.old.minMarginBasisPoints !== plan.line.minMarginBasisPoints);
    if (plan.received > was || (plan.received > 0 && pricesMoved)) priced.push(lineId);
  }
  if (priced.length > 0) {
    const items = await repo.findItems(q, ctx.pharmacyId, id);
    await updatePrices(q, ctx, branch.id, head.purchaseNumber, items.filter((i) => priced.includes(i.id)));
  }
  await syncSupplierAccounts(q, ctx, [head.supplierId, input.supplierId], [id]);
  const purchase = await getPurchase(q, ctx, id);
  await audit(q, ctx, 'purchase.update', 'purchase', id, { status: head.status, items: oldItems }, purchase);
  return { purchase, message: PURCHASE_MESSAGES.updated };
}

// ------------------------------------------------------------------------------------------- receiving

/**
 * POST /api/purchases/:id/receive: the pieces named (partial receiving), or every piece not yet received, into the
 * line's batch; once every line is complete the purchase becomes received (decision 0034).
 */
export async function receivePurchase(q: Queryable, ctx: RequestContext, id: string, input: ReceivePurchase): Promise<PurchaseResult> {
  const head = await requirePurchase(q, ctx, id, true);
  if (head.status === 'cancelled') throw new AppError('CONFLICT', { message: 'A cancelled purchase cannot be received.' });
  const items = await repo.findItems(q, ctx.pharmacyId, id, true);
  const wanted = new Map<string, number>();
  if (input.items && input.items.length > 0) {
    for (const w of input.items) wanted.set(w.itemId, (wanted.get(w.itemId) ?? 0) + w.quantity);
    for (const itemId of wanted.keys()) if (!items.some((i) => i.id === itemId)) throw new AppError('NOT_FOUND', { message: 'A line of this purchase no longer exists. Reload and try again.', details: { itemId } });
  } else {
    for (const item of items) if (item.quantity > item.receivedQuantity) wanted.set(item.id, item.quantity - item.receivedQuantity);
  }
  const day = await today(q, ctx);
  const moves: LineMove[] = [];
  const receiving: { item: PurchaseItem; quantity: number }[] = [];
  for (const [index, item] of items.entries()) {
    const quantity = wanted.get(item.id);
    if (!quantity) continue;
    const remaining = item.quantity - item.receivedQuantity;
    if (quantity > remaining) {
      const message = `Cannot receive ${quantity} of ${item.name}: only ${remaining} not yet received.`;
      throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: `items.${index}.quantity`, message }] } });
    }
    if (!item.productId) continue;
    if (isExpired(item.expiryDate, day)) throw expiredError(item.batchNumber, item.expiryDate!, index);
    moves.push({ change: receiptChange('purchase_receipt', head, item, quantity, `Purchase: ${head.purchaseNumber}`), lineKey: item.id });
    receiving.push({ item, quantity });
  }
  const batches = await applyMoves(q, ctx, moves);
  for (const r of receiving) await repo.setItemReceived(q, ctx.pharmacyId, r.item.id, r.item.receivedQuantity + r.quantity, batches.get(r.item.id) ?? r.item.batchId);
  const after = await repo.findItems(q, ctx.pharmacyId, id);
  if (after.every((i) => i.receivedQuantity >= i.quantity) && head.status !== 'received') {
    await repo.setPurchaseStatus(q, ctx.pharmacyId, id, ctx.userId, 'received', ctx.now);
  }
  if (receiving.length > 0) await updatePrices(q, ctx, head.branchId, head.purchaseNumber, after.filter((i) => receiving.some((r) => r.item.id === i.id)));
  await syncSupplierAccounts(q, ctx, [head.supplierId], [id]);
  const purchase = await getPurchase(q, ctx, id);
  await audit(q, ctx, 'purchase.receive', 'purchase', id, null, { items: receiving.map((r) => ({ itemId: r.item.id, quantity: r.quantity })) });
  return { purchase, message: PURCHASE_MESSAGES.updated };
}

// ------------------------------------------------------------------------------------------- deletion

/**
 * Deletes one purchase (seed 002 section 4): its stock comes out of the purchase's branch (from the line's batch
 * first, then the others earliest expiry first), never below zero; lines without a product are skipped; the ledger's
 * movement ('Purchase deleted: PO-...') is the deletion note in the product's history. A purchase with returns
 * cannot be deleted (decision 0034).
 */
async function deleteOne(q: Queryable, ctx: RequestContext, id: string): Promise<void> {
  const head = await requirePurchase(q, ctx, id, true);
  if ((await repo.countReturnsOf(q, ctx.pharmacyId, id)) > 0) {
    throw new AppError('CONFLICT', { message: 'This purchase has returns to the supplier: it cannot be deleted.' });
  }
  const items = await repo.findItems(q, ctx.pharmacyId, id, true);
  const inStock = items.filter((i) => i.productId && i.receivedQuantity - i.returnedQuantity > 0);
  await lockStockRows(q, ctx, inStock.map((i) => ({ branchId: head.branchId, productId: i.productId! })));
  const reason = `Purchase deleted: ${head.purchaseNumber}`;
  const ledgerCtx = { ...ctx, today: await today(q, ctx) };
  for (const item of inStock) {
    let left = item.receivedQuantity - item.returnedQuantity;
    const tryTake = async (batch: StockChange['batch'] | undefined, wanted: number): Promise<number> => {
      const change = (delta: number): StockChange => ({
        kind: 'purchase_delete',
        branchId: head.branchId,
        productId: item.productId!,
        delta: -delta,
        ...(batch ? { batch } : {}),
        reason,
        reference: { type: PURCHASE_REF, id },
      });
      try {
        await applyStockChange(q, ledgerCtx, change(wanted));
        return wanted;
      } catch (error) {
        // The ledger refuses having written nothing: take what is there instead (never below zero).
        if (!(error instanceof AppError) || (error.code !== 'INSUFFICIENT_STOCK' && error.code !== 'NOT_FOUND')) throw error;
        const available = Number((error.details as { available?: number } | undefined)?.available ?? 0);
        if (available <= 0) return 0;
        await applyStockChange(q, ledgerCtx, change(Math.min(available, wanted)));
        return Math.min(available, wanted);
      }
    };
    if (item.batchId) left -= await tryTake({ batchId: item.batchId }, left);
    if (left > 0) left -= await tryTake(undefined, left);
  }
  await repo.markPurchaseDeleted(q, ctx.pharmacyId, id, ctx.userId, ctx.now);
  await syncSupplierAccounts(q, ctx, [head.supplierId], [id]);
  await audit(q, ctx, 'purchase.delete', 'purchase', id, { purchaseNumber: head.purchaseNumber, items }, null);
}

/** DELETE /api/purchases/:id. */
export async function deletePurchase(q: Queryable, ctx: RequestContext, id: string): Promise<{ id: string; message: string }> {
  await deleteOne(q, ctx, id);
  return { id, message: PURCHASE_MESSAGES.deleted };
}

/**
 * POST /api/purchases/bulk-delete: each purchase deleted as deletePurchase does; one that cannot be (not found, has
 * returns) is counted as failed and the others still go: '{n} purchase(s) deleted successfully' or '{n} deleted, {m} failed'.
 */
export async function bulkDeletePurchases(q: Queryable, ctx: RequestContext, input: BulkDeletePurchases): Promise<BulkDeleteResult> {
  const results: BulkDeleteResult['results'] = [];
  // One order for every caller, so two bulk deletes of overlapping lists never deadlock.
  for (const id of [...new Set(input.ids)].sort()) {
    try {
      await deleteOne(q, ctx, id);
      results.push({ id, ok: true, message: null });
    } catch (error) {
      // Refusals are raised before anything of that purchase is written; anything else fails the whole request.
      if (!(error instanceof AppError) || (error.code !== 'NOT_FOUND' && error.code !== 'CONFLICT')) throw error;
      results.push({ id, ok: false, message: error.message });
    }
  }
  const deleted = results.filter((r) => r.ok).length;
  const failed = results.length - deleted;
  return { deleted, failed, message: bulkDeleteMessage(deleted, failed), results };
}

// ------------------------------------------------------------------------------------------- returns

/**
 * POST /api/purchase-returns: received pieces back to the supplier, each line from the batch it was received into
 * (purchase_return); the return's value (the lines' share of their totals, tax included) lowers the supplier's
 * balance (decision 0036).
 */
export async function createPurchaseReturn(q: Queryable, ctx: RequestContext, input: CreatePurchaseReturn): Promise<{ purchaseReturn: PurchaseReturn; message: string }> {
  const head = await requirePurchase(q, ctx, input.purchaseId, true);
  const items = await repo.findItems(q, ctx.pharmacyId, head.id, true);
  const wanted = new Map<string, number>();
  for (const w of input.items) wanted.set(w.purchaseItemId, (wanted.get(w.purchaseItemId) ?? 0) + w.quantity);
  const day = await today(q, ctx);
  const date = input.date ?? day;
  if (date > day) {
    const message = 'The return date cannot be in the future.';
    throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: 'date', message }] } });
  }
  const lines: repo.NewReturn['items'] = [];
  const returnId = randomUUID();
  const moves: LineMove[] = [];
  for (const [itemId, quantity] of wanted) {
    const index = input.items.findIndex((i) => i.purchaseItemId === itemId);
    const item = items.find((i) => i.id === itemId);
    if (!item) throw new AppError('NOT_FOUND', { message: 'A line of this purchase no longer exists. Reload and try again.', details: { itemId } });
    const available = item.receivedQuantity - item.returnedQuantity;
    if (available <= 0 || !item.productId || !item.batchId) {
      const message = PURCHASE_RETURN_MESSAGES.notReceived;
      throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: `items.${index}.quantity`, message }] } });
    }
    if (quantity > available) {
      const message = formatMessage(PURCHASE_RETURN_MESSAGES.tooMany, { requested: quantity, product: item.name, available });
      throw new AppError('VALIDATION_FAILED', { message, details: { issues: [{ path: `items.${index}.quantity`, message }] } });
    }
    lines.push({
      purchaseItemId: item.id,
      productId: item.productId,
      batchId: item.batchId,
      name: item.name,
      quantity,
      unitCostCents: item.purchasePriceCents,
      totalCents: returnValueCents(item, quantity),
    });
    moves.push({
      change: {
        kind: 'purchase_return',
        branchId: head.branchId,
        productId: item.productId,
        delta: -quantity,
        batch: { batchId: item.batchId },
        reason: `Purchase return: ${head.purchaseNumber} (${input.reason})`.slice(0, 200),
        reference: { type: 'purchase_return', id: returnId },
      },
    });
  }
  await repo.insertReturn(
    q,
    ctx.pharmacyId,
    ctx.userId,
    {
      id: returnId,
      purchaseId: head.id,
      supplierId: head.supplierId,
      branchId: head.branchId,
      date,
      reason: input.reason,
      totalCents: lines.reduce((sum, l) => sum + l.totalCents, 0),
      items: lines,
    },
    (attempt) => newPurchaseReturnNumber(new Date(ctx.now.getTime() + attempt)),
    ctx.now,
  );
  await applyMoves(q, ctx, moves);
  for (const line of lines) await repo.addReturned(q, ctx.pharmacyId, line.purchaseItemId, line.quantity);
  await syncSupplierAccounts(q, ctx, [head.supplierId], [head.id]);
  const purchaseReturn = (await repo.findReturn(q, ctx.pharmacyId, returnId))!;
  await audit(q, ctx, 'purchase_return.create', 'purchase_return', returnId, null, purchaseReturn);
  return { purchaseReturn, message: PURCHASE_RETURN_MESSAGES.created };
}

export async function listPurchaseReturns(q: Queryable, ctx: RequestContext, query: PurchaseReturnListQuery): Promise<PurchaseReturnListResponse> {
  const { items, total } = await repo.listReturns(q, ctx.pharmacyId, query, ctx.visibleBranchIds);
  return { items, total, limit: query.limit, offset: query.offset };
}

export async function getPurchaseReturn(q: Queryable, ctx: RequestContext, id: string): Promise<PurchaseReturn> {
  const found = await repo.findReturn(q, ctx.pharmacyId, id);
  if (!found || !canSeeBranch(ctx, found.branchId)) throw new AppError('NOT_FOUND', { details: { purchaseReturnId: id } });
  return found;
}
