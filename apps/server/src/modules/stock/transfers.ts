import {
  allocateFefo,
  businessDate,
  isSameBranchTransfer,
  nextTransferStatus,
  type CreateTransferInput,
  type ReceiveTransferInput,
  type Transfer,
  type TransferAction,
  type TransferStatus,
} from '@pharmapoint/domain/stock';
import type { Database, Queryable } from '../../db/database.ts';
import type { RequestAuth, RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { applyStockChange, lockStockRows } from './ledger.ts';
import { iso, resolveBranch, visibleBranchIds } from './scope.ts';

/**
 * Stock transfers between branches of a pharmacy, following the state machine of domain stock.ts:
 * requested -> approved -> dispatched (the source branch loses the stock, FEFO; each line becomes one line per
 * batch taken, with its number, expiry and cost) -> partially_received / received (the destination gains
 * batches of the same number, expiry and cost). Cancel before dispatch moves nothing; cancel after dispatch
 * returns what has not arrived to the source branch, into the batches it left.
 */

const scope = (ctx: RequestContext) => ({ pharmacyId: ctx.pharmacyId, userId: ctx.userId });

const PAST: Record<TransferAction, string> = { approve: 'approved', dispatch: 'dispatched', receive: 'received', cancel: 'cancelled' };

interface TransferHead {
  id: string;
  from_branch_id: string;
  from_branch_name: string;
  to_branch_id: string;
  to_branch_name: string;
  status: TransferStatus;
  note: string | null;
  requested_by: string | null;
  requested_by_name: string | null;
  requested_at: Date | string;
  approved_by: string | null;
  approved_by_name: string | null;
  approved_at: Date | string | null;
  dispatched_by: string | null;
  dispatched_by_name: string | null;
  dispatched_at: Date | string | null;
  received_by: string | null;
  received_by_name: string | null;
  received_at: Date | string | null;
  cancelled_by: string | null;
  cancelled_by_name: string | null;
  cancelled_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

interface ItemRow {
  id: string;
  transfer_id: string;
  position: number;
  product_id: string;
  product_name: string;
  batch_id: string | null;
  batch_number: string | null;
  expiry_date: string | null;
  unit_cost_cents: string | number | null;
  quantity_requested: number;
  quantity_dispatched: number;
  quantity_received: number;
  quantity_returned: number;
}

const HEAD_SELECT = `SELECT t.*, fb.name AS from_branch_name, tb.name AS to_branch_name,
    ru.name AS requested_by_name, au.name AS approved_by_name, du.name AS dispatched_by_name, rcu.name AS received_by_name,
    cu.name AS cancelled_by_name
  FROM stock_transfers t
  JOIN branches fb ON fb.pharmacy_id = t.pharmacy_id AND fb.id = t.from_branch_id
  JOIN branches tb ON tb.pharmacy_id = t.pharmacy_id AND tb.id = t.to_branch_id
  LEFT JOIN users ru ON ru.id = t.requested_by
  LEFT JOIN users au ON au.id = t.approved_by
  LEFT JOIN users du ON du.id = t.dispatched_by
  LEFT JOIN users rcu ON rcu.id = t.received_by
  LEFT JOIN users cu ON cu.id = t.cancelled_by`;

async function loadItems(q: Queryable, pharmacyId: string, transferIds: string[]): Promise<ItemRow[]> {
  if (transferIds.length === 0) return [];
  return q.query<ItemRow>(
    `SELECT i.id, i.transfer_id, i.position, i.product_id, p.name AS product_name, i.batch_id, i.batch_number,
            to_char(i.expiry_date, 'YYYY-MM-DD') AS expiry_date, i.unit_cost_cents, i.quantity_requested, i.quantity_dispatched,
            i.quantity_received, i.quantity_returned
       FROM stock_transfer_items i JOIN products p ON p.pharmacy_id = i.pharmacy_id AND p.id = i.product_id
      WHERE i.pharmacy_id = $1 AND i.transfer_id = ANY($2::uuid[])
      ORDER BY i.transfer_id, i.position, i.id`,
    [pharmacyId, transferIds],
  );
}

function toTransfer(h: TransferHead, items: ItemRow[]): Transfer {
  const person = (userId: string | null, userName: string | null, at: Date | string | null) => ({ userId, userName, at: iso(at) });
  return {
    id: h.id,
    fromBranchId: h.from_branch_id,
    fromBranchName: h.from_branch_name,
    toBranchId: h.to_branch_id,
    toBranchName: h.to_branch_name,
    status: h.status,
    note: h.note,
    requested: person(h.requested_by, h.requested_by_name, h.requested_at),
    approved: person(h.approved_by, h.approved_by_name, h.approved_at),
    dispatched: person(h.dispatched_by, h.dispatched_by_name, h.dispatched_at),
    received: person(h.received_by, h.received_by_name, h.received_at),
    cancelled: person(h.cancelled_by, h.cancelled_by_name, h.cancelled_at),
    createdAt: iso(h.created_at)!,
    updatedAt: iso(h.updated_at)!,
    items: items
      .filter((i) => i.transfer_id === h.id)
      .map((i) => ({
        id: i.id,
        productId: i.product_id,
        productName: i.product_name,
        batchId: i.batch_id,
        batchNumber: i.batch_number,
        expiryDate: i.expiry_date,
        unitCostCents: i.unit_cost_cents === null ? null : Number(i.unit_cost_cents),
        quantityRequested: i.quantity_requested,
        quantityDispatched: i.quantity_dispatched,
        quantityReceived: i.quantity_received,
        quantityReturned: i.quantity_returned,
      })),
  };
}

/** A transfer the user may see (either end visible), optionally locked for a state change; 404 otherwise. */
async function loadTransfer(q: Queryable, ctx: RequestContext, auth: RequestAuth | null, id: string, lock = false): Promise<Transfer> {
  if (lock) {
    const [locked] = await q.query(`SELECT 1 FROM stock_transfers WHERE pharmacy_id = $1 AND id = $2 FOR UPDATE`, [ctx.pharmacyId, id]);
    if (!locked) throw new AppError('NOT_FOUND');
  }
  const [head] = await q.query<TransferHead>(`${HEAD_SELECT} WHERE t.pharmacy_id = $1 AND t.id = $2`, [ctx.pharmacyId, id]);
  if (!head) throw new AppError('NOT_FOUND');
  const visible = visibleBranchIds(ctx, auth);
  if (visible && !visible.includes(head.from_branch_id) && !visible.includes(head.to_branch_id)) throw new AppError('NOT_FOUND');
  return toTransfer(head, await loadItems(q, ctx.pharmacyId, [id]));
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
export async function createTransfer(db: Database, ctx: RequestContext, auth: RequestAuth | null, input: CreateTransferInput, now = new Date()): Promise<Transfer> {
  if (isSameBranchTransfer(input)) throw new AppError('SAME_BRANCH_TRANSFER');
  return db.transaction(scope(ctx), async (q) => {
    const from = await resolveBranch(q, ctx, auth, input.fromBranchId);
    const [to] = await q.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 AND id = $2 AND is_active`, [ctx.pharmacyId, input.toBranchId]);
    if (!to) throw new AppError('NOT_FOUND', { details: { branchId: input.toBranchId } });
    const productIds = [...new Set(input.items.map((i) => i.productId))];
    const products = await q.query<{ id: string; name: string }>(`SELECT id, name FROM products WHERE pharmacy_id = $1 AND id = ANY($2::uuid[])`, [
      ctx.pharmacyId,
      productIds,
    ]);
    const missing = productIds.find((id) => !products.some((p) => p.id === id));
    if (missing) throw new AppError('NOT_FOUND', { details: { productId: missing } });
    // Early answer for the user: the source must hold the sellable (unexpired) stock asked for now. Dispatch checks again.
    const today = businessDate(now);
    const batches = await q.query<{ id: string; product_id: string; expiry_date: string | null; quantity: number }>(
      `SELECT id, product_id, to_char(expiry_date, 'YYYY-MM-DD') AS expiry_date, quantity FROM batches
        WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = ANY($3::uuid[])`,
      [ctx.pharmacyId, from.id, productIds],
    );
    const wanted = new Map<string, number>();
    for (const item of input.items) {
      const key = `${item.productId}:${item.batchId ?? ''}`;
      wanted.set(key, (wanted.get(key) ?? 0) + item.quantity);
    }
    for (const [key, quantity] of wanted) {
      const [productId, batchId] = key.split(':') as [string, string];
      const pool = batches.filter((b) => b.product_id === productId && (!batchId || b.id === batchId));
      if (batchId && pool.length === 0) throw new AppError('NOT_FOUND', { details: { batchId } });
      const { shortfall, available } = allocateFefo(
        pool.map((b) => ({ id: b.id, expiryDate: b.expiry_date, quantity: b.quantity })),
        quantity,
        { today },
      );
      if (shortfall > 0) {
        const name = products.find((p) => p.id === productId)!.name;
        throw new AppError('INSUFFICIENT_STOCK', { values: { product: name, available, requested: quantity }, details: { productId, available, requested: quantity } });
      }
    }
    const [created] = await q.query<{ id: string }>(
      `INSERT INTO stock_transfers (pharmacy_id, from_branch_id, to_branch_id, status, note, requested_by, requested_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'requested', $4, $5, $6, $6, $6) RETURNING id`,
      [ctx.pharmacyId, from.id, to.id, input.note ?? null, ctx.userId, now],
    );
    const id = created!.id;
    for (const [position, item] of input.items.entries()) {
      await q.query(
        `INSERT INTO stock_transfer_items (pharmacy_id, transfer_id, position, product_id, batch_id, quantity_requested) VALUES ($1, $2, $3, $4, $5, $6)`,
        [ctx.pharmacyId, id, position * 1000, item.productId, item.batchId ?? null, item.quantity],
      );
    }
    await audit(q, scope(ctx), 'create', 'stock_transfer', id, null, input);
    return loadTransfer(q, ctx, auth, id);
  });
}

/** POST /api/stock/transfers/:id/approve. */
export async function approveTransfer(db: Database, ctx: RequestContext, auth: RequestAuth | null, id: string, now = new Date()): Promise<Transfer> {
  return db.transaction(scope(ctx), async (q) => {
    const transfer = await loadTransfer(q, ctx, auth, id, true);
    const next = nextStatusOrThrow(transfer, 'approve');
    await q.query(`UPDATE stock_transfers SET status = $3, approved_by = $4, approved_at = $5, updated_at = $5 WHERE pharmacy_id = $1 AND id = $2`, [
      ctx.pharmacyId,
      id,
      next,
      ctx.userId,
      now,
    ]);
    await audit(q, scope(ctx), 'approve', 'stock_transfer', id, { status: transfer.status }, { status: next });
    return loadTransfer(q, ctx, auth, id);
  });
}

/** POST /api/stock/transfers/:id/dispatch: the source branch gives the stock (FEFO, or the named batch). */
export async function dispatchTransfer(db: Database, ctx: RequestContext, auth: RequestAuth | null, id: string, now = new Date()): Promise<Transfer> {
  return db.transaction(scope(ctx), async (q) => {
    const transfer = await loadTransfer(q, ctx, auth, id, true);
    const next = nextStatusOrThrow(transfer, 'dispatch');
    await resolveBranch(q, ctx, auth, transfer.fromBranchId);
    await lockStockRows(q, ctx.pharmacyId, transfer.items.map((i) => ({ branchId: transfer.fromBranchId, productId: i.productId })));
    const ledger = { ...scope(ctx), now };
    for (const item of transfer.items) {
      const result = await applyStockChange(q, ledger, {
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
        const values = [take.batchId, take.batchNumber, take.expiryDate, take.unitCostCents, take.quantity];
        if (n === 0) {
          await q.query(
            `UPDATE stock_transfer_items SET batch_id = $3, batch_number = $4, expiry_date = $5, unit_cost_cents = $6,
                    quantity_requested = $7, quantity_dispatched = $7
              WHERE pharmacy_id = $1 AND id = $2`,
            [ctx.pharmacyId, item.id, ...values],
          );
        } else {
          await q.query(
            `INSERT INTO stock_transfer_items (pharmacy_id, transfer_id, position, product_id, batch_id, batch_number, expiry_date, unit_cost_cents,
                                               quantity_requested, quantity_dispatched)
             SELECT $1, $2, position + $4, product_id, $5, $6, $7, $8, $9, $9 FROM stock_transfer_items WHERE pharmacy_id = $1 AND id = $3`,
            [ctx.pharmacyId, id, item.id, n, ...values],
          );
        }
      }
    }
    await q.query(`UPDATE stock_transfers SET status = $3, dispatched_by = $4, dispatched_at = $5, updated_at = $5 WHERE pharmacy_id = $1 AND id = $2`, [
      ctx.pharmacyId,
      id,
      next,
      ctx.userId,
      now,
    ]);
    await audit(q, scope(ctx), 'dispatch', 'stock_transfer', id, { status: transfer.status }, { status: next });
    return loadTransfer(q, ctx, auth, id);
  });
}

/** POST /api/stock/transfers/:id/receive: the destination gains batches of the same number, expiry and cost. */
export async function receiveTransfer(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  id: string,
  input: ReceiveTransferInput,
  now = new Date(),
): Promise<Transfer> {
  return db.transaction(scope(ctx), async (q) => {
    const transfer = await loadTransfer(q, ctx, auth, id, true);
    nextStatusOrThrow(transfer, 'receive');
    await resolveBranch(q, ctx, auth, transfer.toBranchId);
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
    await lockStockRows(q, ctx.pharmacyId, transfer.items.map((i) => ({ branchId: transfer.toBranchId, productId: i.productId })));
    const ledger = { ...scope(ctx), now };
    for (const item of transfer.items) {
      const quantity = receipts.get(item.id) ?? 0;
      if (quantity === 0) continue;
      await applyStockChange(q, ledger, {
        kind: 'transfer_in',
        branchId: transfer.toBranchId,
        productId: item.productId,
        delta: quantity,
        batch: { batchNumber: item.batchNumber, expiryDate: item.expiryDate, unitCostCents: item.unitCostCents ?? 0, source: 'transfer' },
        reason: `Transfer from ${transfer.fromBranchName}`,
        reference: { type: 'stock_transfer', id },
      });
      await q.query(`UPDATE stock_transfer_items SET quantity_received = quantity_received + $3 WHERE pharmacy_id = $1 AND id = $2`, [
        ctx.pharmacyId,
        item.id,
        quantity,
      ]);
      item.quantityReceived += quantity;
    }
    const dispatched = transfer.items.reduce((s, i) => s + i.quantityDispatched - i.quantityReturned, 0);
    const received = transfer.items.reduce((s, i) => s + i.quantityReceived, 0);
    const next = nextStatusOrThrow(transfer, 'receive', { dispatched, received });
    await q.query(`UPDATE stock_transfers SET status = $3, received_by = $4, received_at = $5, updated_at = $5 WHERE pharmacy_id = $1 AND id = $2`, [
      ctx.pharmacyId,
      id,
      next,
      ctx.userId,
      now,
    ]);
    await audit(q, scope(ctx), 'receive', 'stock_transfer', id, { status: transfer.status }, { status: next, items: [...receipts] });
    return loadTransfer(q, ctx, auth, id);
  });
}

/** POST /api/stock/transfers/:id/cancel: after dispatch, what has not arrived goes back into its source batches. */
export async function cancelTransfer(db: Database, ctx: RequestContext, auth: RequestAuth | null, id: string, now = new Date()): Promise<Transfer> {
  return db.transaction(scope(ctx), async (q) => {
    const transfer = await loadTransfer(q, ctx, auth, id, true);
    const next = nextStatusOrThrow(transfer, 'cancel');
    if (transfer.status === 'dispatched' || transfer.status === 'partially_received') {
      await lockStockRows(q, ctx.pharmacyId, transfer.items.map((i) => ({ branchId: transfer.fromBranchId, productId: i.productId })));
      const ledger = { ...scope(ctx), now };
      for (const item of transfer.items) {
        const back = item.quantityDispatched - item.quantityReceived - item.quantityReturned;
        if (back <= 0) continue;
        await applyStockChange(q, ledger, {
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
        await q.query(`UPDATE stock_transfer_items SET quantity_returned = quantity_returned + $3 WHERE pharmacy_id = $1 AND id = $2`, [
          ctx.pharmacyId,
          item.id,
          back,
        ]);
      }
    }
    await q.query(`UPDATE stock_transfers SET status = $3, cancelled_by = $4, cancelled_at = $5, updated_at = $5 WHERE pharmacy_id = $1 AND id = $2`, [
      ctx.pharmacyId,
      id,
      next,
      ctx.userId,
      now,
    ]);
    await audit(q, scope(ctx), 'cancel', 'stock_transfer', id, { status: transfer.status }, { status: next });
    return loadTransfer(q, ctx, auth, id);
  });
}

/** GET /api/stock/transfers/:id. */
export async function getTransfer(db: Database, ctx: RequestContext, auth: RequestAuth | null, id: string): Promise<Transfer> {
  return db.transaction(scope(ctx), (q) => loadTransfer(q, ctx, auth, id));
}

/** GET /api/stock/transfers: newest first; from or to branchId, else from or to any branch the user may see. */
export async function listTransfers(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  query: { status?: TransferStatus; branchId?: string; limit: number; offset: number },
) {
  return db.transaction(scope(ctx), async (q) => {
    let branchIds = visibleBranchIds(ctx, auth);
    if (query.branchId) branchIds = [(await resolveBranch(q, ctx, auth, query.branchId)).id];
    const where = `t.pharmacy_id = $1 AND ($2::text IS NULL OR t.status = $2)
      AND ($3::uuid[] IS NULL OR t.from_branch_id = ANY($3::uuid[]) OR t.to_branch_id = ANY($3::uuid[]))`;
    const params = [ctx.pharmacyId, query.status ?? null, branchIds];
    const heads = await q.query<TransferHead>(`${HEAD_SELECT} WHERE ${where} ORDER BY t.created_at DESC, t.id LIMIT ${query.limit} OFFSET ${query.offset}`, params);
    const items = await loadItems(q, ctx.pharmacyId, heads.map((h) => h.id));
    const [count] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM stock_transfers t WHERE ${where}`, params);
    return { items: heads.map((h) => toTransfer(h, items)), total: count?.total ?? 0, limit: query.limit, offset: query.offset };
  });
}
