import {
  allocateFefo,
  isSameBranchTransfer,
  nextTransferStatus,
  type CreateTransferInput,
  type ReceiveTransferInput,
  type Transfer,
  type TransferAction,
  type TransferListQuery,
  type TransferListResponse,
  type TransferStatus,
} from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { pharmacyToday } from '../settings/settings.service.ts';
import { applyStockChange, lockStockRows } from './ledger.service.ts';
import { resolveBranch } from './stock.service.ts';
import { findActiveBranch, findProducts } from './stock.repository.ts';
import * as repo from './transfers.repository.ts';

/**
 * Stock transfers between branches of a pharmacy, following the state machine of domain stock.ts:
 * requested -> approved -> dispatched (the source branch loses the stock, FEFO; each line becomes one line per
 * batch taken, with its number, expiry and cost) -> partially_received / received (the destination gains
 * batches of the same number, expiry and cost). Cancel before dispatch moves nothing; cancel after dispatch
 * returns what has not arrived to the source branch, into the batches it left.
 */

const PAST: Record<TransferAction, string> = { approve: 'approved', dispatch: 'dispatched', receive: 'received', cancel: 'cancelled' };

/** The ledger's caller: who, when, and the pharmacy's business date then (what has expired). */
const ledgerOf = async (q: Queryable, ctx: RequestContext) => ({ pharmacyId: ctx.pharmacyId, userId: ctx.userId, now: ctx.now, today: await pharmacyToday(q, ctx) });

/** A transfer the user may see (either end visible), optionally locked for a state change; 404 otherwise. */
async function loadTransfer(q: Queryable, ctx: RequestContext, id: string, lock = false): Promise<Transfer> {
  const transfer = await repo.findTransfer(q, ctx.pharmacyId, id, lock);
  if (!transfer || !(canSeeBranch(ctx, transfer.fromBranchId) || canSeeBranch(ctx, transfer.toBranchId))) throw new AppError('NOT_FOUND');
  return transfer;
}

function nextStatusOrThrow(transfer: Transfer, action: TransferAction, progress?: { dispatched: number; received: number }): TransferStatus {
  const next = nextTransferStatus(transfer.status, action, progress);
  if (!next) {
    throw new AppError('TRANSFER_INVALID_STATE', {
      values: { action: PAST[action], status: transfer.status.replace('_', ' ') },
      details: { status: transfer.status, action },
    });
  }
  return next;
}

/** POST /api/stock/transfers: checks branches, products and that the source holds the stock now (409 otherwise). */
export async function createTransfer(q: Queryable, ctx: RequestContext, input: CreateTransferInput): Promise<Transfer> {
  if (isSameBranchTransfer(input)) throw new AppError('SAME_BRANCH_TRANSFER');
  const from = await resolveBranch(q, ctx, input.fromBranchId);
  const to = await findActiveBranch(q, ctx.pharmacyId, input.toBranchId);
  if (!to) throw new AppError('NOT_FOUND', { details: { branchId: input.toBranchId } });
  const productIds = [...new Set(input.items.map((i) => i.productId))];
  const products = await findProducts(q, ctx.pharmacyId, productIds);
  const missing = productIds.find((id) => !products.some((p) => p.id === id));
  if (missing) throw new AppError('NOT_FOUND', { details: { productId: missing } });
  // Early answer for the user: the source must hold the sellable (unexpired) stock asked for now. Dispatch checks again.
  const today = await pharmacyToday(q, ctx);
  const batches = await repo.findBranchBatches(q, ctx.pharmacyId, from.id, productIds);
  const wanted = new Map<string, number>();
  for (const item of input.items) {
    const key = `${item.productId}:${item.batchId ?? ''}`;
    wanted.set(key, (wanted.get(key) ?? 0) + item.quantity);
  }
  for (const [key, quantity] of wanted) {
    const [productId, batchId] = key.split(':') as [string, string];
    const pool = batches.filter((b) => b.productId === productId && (!batchId || b.id === batchId));
    if (batchId && pool.length === 0) throw new AppError('NOT_FOUND', { details: { batchId } });
    const { shortfall, available } = allocateFefo(pool, quantity, { today });
    if (shortfall > 0) {
      const name = products.find((p) => p.id === productId)!.name;
      throw new AppError('INSUFFICIENT_STOCK', { values: { product: name, available, requested: quantity }, details: { productId, available, requested: quantity } });
    }
  }
  const id = await repo.insertTransfer(q, ctx.pharmacyId, {
    fromBranchId: from.id,
    toBranchId: to.id,
    note: input.note ?? null,
    userId: ctx.userId,
    at: ctx.now,
    items: input.items.map((i) => ({ productId: i.productId, batchId: i.batchId ?? null, quantity: i.quantity })),
  });
  await audit(q, ctx, 'create', 'stock_transfer', id, null, input);
  return loadTransfer(q, ctx, id);
}

/** POST /api/stock/transfers/:id/approve. */
export async function approveTransfer(q: Queryable, ctx: RequestContext, id: string): Promise<Transfer> {
  const transfer = await loadTransfer(q, ctx, id, true);
  const next = nextStatusOrThrow(transfer, 'approve');
  await repo.setTransferStatus(q, ctx.pharmacyId, id, next, 'approved', ctx.userId, ctx.now);
  await audit(q, ctx, 'approve', 'stock_transfer', id, { status: transfer.status }, { status: next });
  return loadTransfer(q, ctx, id);
}

/** POST /api/stock/transfers/:id/dispatch: the source branch gives the stock (FEFO, or the named batch). */
export async function dispatchTransfer(q: Queryable, ctx: RequestContext, id: string): Promise<Transfer> {
  const transfer = await loadTransfer(q, ctx, id, true);
  const next = nextStatusOrThrow(transfer, 'dispatch');
  await resolveBranch(q, ctx, transfer.fromBranchId);
  await lockStockRows(q, ctx.pharmacyId, transfer.items.map((i) => ({ branchId: transfer.fromBranchId, productId: i.productId })));
  const ledgerCtx = await ledgerOf(q, ctx);
  for (const item of transfer.items) {
    const result = await applyStockChange(q, ledgerCtx, {
      kind: 'transfer_out',
      branchId: transfer.fromBranchId,
      productId: item.productId,
      delta: -item.quantityRequested,
      ...(item.batchId ? { batch: { batchId: item.batchId } } : {}),
      reason: `Transfer to ${transfer.toBranchName}`,
      reference: { type: 'stock_transfer', id },
    });
    // One line per batch taken: the first take updates the line, further takes are new lines after it.
    for (const [n, take] of result.batches.entries()) {
      if (n === 0) await repo.markItemDispatched(q, ctx.pharmacyId, item.id, take);
      else await repo.insertSplitItem(q, ctx.pharmacyId, id, item.id, n, take);
    }
  }
  await repo.setTransferStatus(q, ctx.pharmacyId, id, next, 'dispatched', ctx.userId, ctx.now);
  await audit(q, ctx, 'dispatch', 'stock_transfer', id, { status: transfer.status }, { status: next });
  return loadTransfer(q, ctx, id);
}

/** POST /api/stock/transfers/:id/receive: the destination gains batches of the same number, expiry and cost. */
export async function receiveTransfer(q: Queryable, ctx: RequestContext, id: string, input: ReceiveTransferInput): Promise<Transfer> {
  const transfer = await loadTransfer(q, ctx, id, true);
  nextStatusOrThrow(transfer, 'receive');
  await resolveBranch(q, ctx, transfer.toBranchId);
  const inTransit = (i: Transfer['items'][number]) => i.quantityDispatched - i.quantityReceived - i.quantityReturned;
  const lines = input.items ?? transfer.items.map((i) => ({ itemId: i.id, quantityReceived: inTransit(i) }));
  const receipts = new Map<string, number>();
  for (const line of lines) receipts.set(line.itemId, (receipts.get(line.itemId) ?? 0) + line.quantityReceived);
  for (const [itemId, quantity] of receipts) {
    const item = transfer.items.find((i) => i.id === itemId);
    if (!item) throw new AppError('NOT_FOUND', { details: { itemId } });
    if (quantity > inTransit(item)) {
      throw new AppError('TRANSFER_RECEIVE_TOO_MANY', {
        values: { requested: quantity, product: item.productName, remaining: inTransit(item) },
        details: { itemId, requested: quantity, remaining: inTransit(item) },
      });
    }
  }
  if ([...receipts.values()].every((n) => n === 0)) {
    throw new AppError('VALIDATION_FAILED', { message: 'Enter the quantities received.', details: { issues: [{ path: 'items', message: 'Nothing received' }] } });
  }
  const arriving = transfer.items.filter((i) => (receipts.get(i.id) ?? 0) > 0);
  await lockStockRows(q, ctx.pharmacyId, arriving.map((i) => ({ branchId: transfer.toBranchId, productId: i.productId, create: true })));
  const ledgerCtx = await ledgerOf(q, ctx);
  for (const item of arriving) {
    const quantity = receipts.get(item.id)!;
    await applyStockChange(q, ledgerCtx, {
      kind: 'transfer_in',
      branchId: transfer.toBranchId,
      productId: item.productId,
      delta: quantity,
      batch: { batchNumber: item.batchNumber, expiryDate: item.expiryDate, unitCostCents: item.unitCostCents ?? 0, source: 'transfer' },
      reason: `Transfer from ${transfer.fromBranchName}`,
      reference: { type: 'stock_transfer', id },
    });
    await repo.addItemReceived(q, ctx.pharmacyId, item.id, quantity);
    item.quantityReceived += quantity;
  }
  const dispatched = transfer.items.reduce((s, i) => s + i.quantityDispatched - i.quantityReturned, 0);
  const received = transfer.items.reduce((s, i) => s + i.quantityReceived, 0);
  const next = nextStatusOrThrow(transfer, 'receive', { dispatched, received });
  await repo.setTransferStatus(q, ctx.pharmacyId, id, next, 'received', ctx.userId, ctx.now);
  await audit(q, ctx, 'receive', 'stock_transfer', id, { status: transfer.status }, { status: next, items: [...receipts] });
  return loadTransfer(q, ctx, id);
}

/** POST /api/stock/transfers/:id/cancel: after dispatch, what has not arrived goes back into its source batches. */
export async function cancelTransfer(q: Queryable, ctx: RequestContext, id: string): Promise<Transfer> {
  const transfer = await loadTransfer(q, ctx, id, true);
  const next = nextStatusOrThrow(transfer, 'cancel');
  if (transfer.status === 'dispatched' || transfer.status === 'partially_received') {
    const returning = transfer.items.filter((i) => i.quantityDispatched - i.quantityReceived - i.quantityReturned > 0);
    await lockStockRows(q, ctx.pharmacyId, returning.map((i) => ({ branchId: transfer.fromBranchId, productId: i.productId, create: true })));
    const ledgerCtx = await ledgerOf(q, ctx);
    for (const item of returning) {
      const back = item.quantityDispatched - item.quantityReceived - item.quantityReturned;
      await applyStockChange(q, ledgerCtx, {
        kind: 'transfer_in',
        branchId: transfer.fromBranchId,
        productId: item.productId,
        delta: back,
        batch: item.batchId
          ? { batchId: item.batchId }
          : { batchNumber: item.batchNumber, expiryDate: item.expiryDate, unitCostCents: item.unitCostCents ?? 0, source: 'transfer' },
        reason: `Transfer to ${transfer.toBranchName} cancelled: returned`,
        reference: { type: 'stock_transfer', id },
      });
      await repo.addItemReturned(q, ctx.pharmacyId, item.id, back);
    }
  }
  await repo.setTransferStatus(q, ctx.pharmacyId, id, next, 'cancelled', ctx.userId, ctx.now);
  await audit(q, ctx, 'cancel', 'stock_transfer', id, { status: transfer.status }, { status: next });
  return loadTransfer(q, ctx, id);
}

/** GET /api/stock/transfers/:id. */
export function getTransfer(q: Queryable, ctx: RequestContext, id: string): Promise<Transfer> {
  return loadTransfer(q, ctx, id);
}

/** GET /api/stock/transfers: newest first; from or to branchId, else from or to any branch the user may see. */
export async function listTransfers(q: Queryable, ctx: RequestContext, query: TransferListQuery): Promise<TransferListResponse> {
  const branchIds = query.branchId ? [(await resolveBranch(q, ctx, query.branchId)).id] : ctx.visibleBranchIds;
  const filter: repo.TransferFilter = { status: query.status, branchIds };
  const items = await repo.findTransfers(q, ctx.pharmacyId, filter, query);
  const total = await repo.countTransfers(q, ctx.pharmacyId, filter);
  return { items, total, limit: query.limit, offset: query.offset };
}
