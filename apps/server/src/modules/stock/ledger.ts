import type { StockEvent } from '@pharmapoint/domain/events';
import {
  allocateFefo,
  businessDate,
  compareFefo,
  isExpired,
  SELLABLE_ONLY_KINDS,
  type Allocation,
  type StockMovementKind,
} from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { notifyStockChange } from '../../platform/events.ts';

/**
 * The stock ledger: the ONE way stock changes (sales, purchases, returns, adjustments, transfers, reservations,
 * opening stock). Each change, inside the caller's transaction:
 * - locks the branch_products row of the branch and product (SELECT ... FOR UPDATE), so concurrent changes of
 *   the same stock queue up and can never oversell;
 * - for a decrease, takes from the batches first expiry first out (expired batches are not sellable: sale,
 *   transfer_out and reserve skip them; other kinds, such as an adjustment writing off, may take them or name
 *   a batch), and refuses to go below zero with 409 INSUFFICIENT_STOCK
 *   ('Insufficient stock for {product}. Available: {available}, Requested: {requested}');
 * - for an increase, adds to the named batch, to the batch of the same number, expiry and cost, or creates it;
 * - writes one stock_movements row per batch touched (delta, quantity_after = the on-hand total after it),
 *   updates the branch row and its stamps;
 * - announces the new stock through NOTIFY (delivered to every server instance when, and only if, the
 *   transaction commits) and records the event on the transaction's list (stockEventsOf(q)).
 *
 * Quantities: branch_products.quantity is sellable stock, reserved_quantity what reservations hold. 'reserve'
 * moves pieces from quantity to reserved, 'release' back (both with movement delta 0), 'reserved_sold' takes
 * from reserved; every other kind changes quantity by delta. Invariant: quantity + reserved = sum of the
 * batches' quantity + reserved = sum of the movements' deltas.
 */

/** Who and when: the tenant, the user stamped on the movements, and the clock (tests pin it). */
export interface LedgerContext {
  pharmacyId: string;
  userId: string | null;
  now?: Date;
  /** The business date deciding what is expired; default today in Africa/Nairobi. */
  today?: string;
}

export type BatchSource = 'opening' | 'purchase' | 'transfer' | 'adjustment' | 'import' | 'return';

/** Which batch a change touches: an existing one by id, or one identified by number, expiry and cost (created if new). */
export type BatchTarget =
  | { batchId: string }
  | { batchNumber: string | null; expiryDate: string | null; unitCostCents: number; source?: BatchSource };

interface ChangeBase {
  branchId: string;
  productId: string;
  batch?: BatchTarget;
  /** Shown in the product history and sent with the live event ('Sale: INV-000001', 'Adjustment: damage'). */
  reason: string;
  reference?: { type: string; id: string } | null;
  /**
   * For decreases: may expired batches be taken? Default: no for sale, transfer_out and reserve, yes otherwise.
   */
  includeExpired?: boolean;
}

/** One stock change. delta is the signed change of the on-hand total; reserve and release move `quantity` pieces instead. */
export type StockChange =
  | (ChangeBase & { kind: Exclude<StockMovementKind, 'reserve' | 'release'>; delta: number })
  | (ChangeBase & { kind: 'reserve' | 'release'; quantity: number });

/** A batch touched by a change, with the pieces taken from or added to it (always positive). */
export interface BatchTake {
  batchId: string;
  batchNumber: string | null;
  expiryDate: string | null;
  unitCostCents: number;
  quantity: number;
}

export interface StockChangeResult {
  branchId: string;
  productId: string;
  /** Sellable pieces after the change. */
  quantity: number;
  reservedQuantity: number;
  batches: BatchTake[];
}

interface BranchRow {
  quantity: number;
  reserved_quantity: number;
  purchase_price_cents: string | number;
}

interface BatchRow {
  id: string;
  batch_number: string | null;
  expiry_date: string | null;
  quantity: number;
  reserved_quantity: number;
  unit_cost_cents: string | number;
  received_at: string;
}

const eventsByTransaction = new WeakMap<Queryable, StockEvent[]>();

/**
 * The stock events collected on this transaction's Queryable so far (one per change: the branch's stock after
 * it). The ledger has already NOTIFYed them (sent on commit); this list is for callers that want to answer
 * with them or publish elsewhere.
 */
export function stockEventsOf(q: Queryable): readonly StockEvent[] {
  return eventsByTransaction.get(q) ?? [];
}

const SOURCE_OF_KIND: Partial<Record<StockMovementKind, BatchSource>> = {
  opening: 'opening',
  import: 'import',
  purchase_receipt: 'purchase',
  purchase_edit: 'purchase',
  transfer_in: 'transfer',
  adjustment: 'adjustment',
  sale_return: 'return',
};

const BATCH_COLUMNS = `id, batch_number, to_char(expiry_date, 'YYYY-MM-DD') AS expiry_date, quantity, reserved_quantity,
  unit_cost_cents, received_at::text AS received_at`;

async function productName(q: Queryable, pharmacyId: string, productId: string): Promise<string> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM products WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, productId]);
  if (!row) throw new AppError('NOT_FOUND', { details: { productId } });
  return row.name;
}

async function insufficient(q: Queryable, pharmacyId: string, productId: string, available: number, requested: number): Promise<never> {
  const product = await productName(q, pharmacyId, productId);
  throw new AppError('INSUFFICIENT_STOCK', { values: { product, available, requested }, details: { productId, available, requested } });
}

/** Locks (creating it for an increase) the branch row of the product. */
async function lockBranchRow(q: Queryable, pharmacyId: string, branchId: string, productId: string, create: boolean): Promise<BranchRow | null> {
  const select = () =>
    q.query<BranchRow>(
      `SELECT quantity, reserved_quantity, purchase_price_cents FROM branch_products
        WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3 FOR UPDATE`,
      [pharmacyId, branchId, productId],
    );
  const [row] = await select();
  if (row) return row;
  await productName(q, pharmacyId, productId);
  const [branch] = await q.query(`SELECT 1 FROM branches WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, branchId]);
  if (!branch) throw new AppError('NOT_FOUND', { details: { branchId } });
  if (!create) return null;
  await q.query(
    `INSERT INTO branch_products (pharmacy_id, branch_id, product_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [pharmacyId, branchId, productId],
  );
  const [created] = await select();
  return created ?? null;
}

/**
 * Locks the branch rows of several changes in (product id, branch id) order, so two transactions touching the
 * same products can never deadlock. applyStockChanges calls it; a caller applying changes one by one (a sale
 * with several items) should call it first.
 */
export async function lockStockRows(q: Queryable, pharmacyId: string, keys: readonly { branchId: string; productId: string }[]): Promise<void> {
  if (keys.length === 0) return;
  await q.query(
    `SELECT 1 FROM branch_products bp
       JOIN unnest($2::uuid[], $3::uuid[]) AS k(branch_id, product_id) ON k.branch_id = bp.branch_id AND k.product_id = bp.product_id
      WHERE bp.pharmacy_id = $1
      ORDER BY bp.product_id, bp.branch_id
      FOR UPDATE OF bp`,
    [pharmacyId, keys.map((k) => k.branchId), keys.map((k) => k.productId)],
  );
}

function take(batch: BatchRow, quantity: number): BatchTake {
  return {
    batchId: batch.id,
    batchNumber: batch.batch_number,
    expiryDate: batch.expiry_date,
    unitCostCents: Number(batch.unit_cost_cents),
    quantity,
  };
}

/** The batch an increase goes into: named, found by number/expiry/cost, or created. */
async function batchForIncrease(
  q: Queryable,
  ctx: LedgerContext,
  change: StockChange,
  branch: BranchRow,
  batches: BatchRow[],
  today: string,
  now: Date,
): Promise<BatchRow> {
  const target = change.batch;
  if (target && 'batchId' in target) {
    const found = batches.find((b) => b.id === target.batchId);
    if (!found) throw new AppError('NOT_FOUND', { details: { batchId: target.batchId } });
    return found;
  }
  let wanted: { batchNumber: string | null; expiryDate: string | null; unitCostCents: number; source?: BatchSource };
  if (target) {
    wanted = target;
  } else {
    // No batch named: a positive adjustment or return goes to the latest-expiring unexpired batch; otherwise
    // (or when there is none) to the unbatched remainder.
    const live = batches.filter((b) => !isExpired(b.expiry_date, today) && b.expiry_date !== null);
    const latest = live.sort((a, b) => compareFefo(toAllocatable(b), toAllocatable(a)))[0];
    if (latest && (change.kind === 'adjustment' || change.kind === 'sale_return' || change.kind === 'release')) return latest;
    wanted = { batchNumber: null, expiryDate: null, unitCostCents: Number(branch.purchase_price_cents) };
  }
  const existing = batches.find(
    (b) => b.batch_number === wanted.batchNumber && b.expiry_date === wanted.expiryDate && Number(b.unit_cost_cents) === wanted.unitCostCents,
  );
  if (existing) return existing;
  const source = wanted.source ?? SOURCE_OF_KIND[change.kind] ?? 'adjustment';
  const [created] = await q.query<BatchRow>(
    `INSERT INTO batches (pharmacy_id, branch_id, product_id, batch_number, expiry_date, quantity, reserved_quantity, unit_cost_cents,
                          received_at, source)
     VALUES ($1, $2, $3, $4, $5, 0, 0, $6, $7, $8) RETURNING ${BATCH_COLUMNS}`,
    [ctx.pharmacyId, change.branchId, change.productId, wanted.batchNumber, wanted.expiryDate, wanted.unitCostCents, now, source],
  );
  if (!created) throw new Error('batch insert returned nothing');
  batches.push(created);
  return created;
}

function toAllocatable(b: BatchRow, field: 'quantity' | 'reserved_quantity' = 'quantity') {
  return { id: b.id, expiryDate: b.expiry_date, quantity: b[field], receivedAt: b.received_at };
}

/**
 * Applies one stock change (see the module comment). Throws INSUFFICIENT_STOCK (409) or NOT_FOUND (404,
 * unknown product, branch or batch) having written nothing of this change; the caller's transaction then
 * rolls back the rest.
 */
export async function applyStockChange(q: Queryable, ctx: LedgerContext, change: StockChange): Promise<StockChangeResult> {
  const now = ctx.now ?? new Date();
  const today = ctx.today ?? businessDate(now);
  const { pharmacyId } = ctx;
  const isReservation = change.kind === 'reserve' || change.kind === 'release';
  const amount = 'quantity' in change ? change.quantity : change.delta;
  if (!Number.isInteger(amount) || amount === 0 || (isReservation && amount < 0)) {
    throw new AppError('VALIDATION_FAILED', { message: 'A stock change must be a whole number of pieces other than 0.' });
  }
  const increase = !isReservation && amount > 0;
  const branch = await lockBranchRow(q, pharmacyId, change.branchId, change.productId, increase);
  if (!branch) return insufficient(q, pharmacyId, change.productId, 0, Math.abs(amount));

  const batches = await q.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM batches WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
    [pharmacyId, change.branchId, change.productId],
  );
  const named = change.batch && 'batchId' in change.batch ? batches.find((b) => b.id === (change.batch as { batchId: string }).batchId) : undefined;
  if (change.batch && 'batchId' in change.batch && !named) throw new AppError('NOT_FOUND', { details: { batchId: change.batch.batchId } });

  // The pieces per batch, and which column they move: q = sellable, r = reserved.
  const moves: { batch: BatchRow; dq: number; dr: number; delta: number }[] = [];
  const includeExpired = change.includeExpired ?? !SELLABLE_ONLY_KINDS.includes(change.kind);

  const allocate = async (field: 'quantity' | 'reserved_quantity', requested: number, expired: boolean): Promise<Allocation[]> => {
    const pool = named ? [named] : batches;
    const result = allocateFefo(
      pool.map((b) => toAllocatable(b, field)),
      requested,
      { today, includeExpired: expired },
    );
    if (result.shortfall > 0) await insufficient(q, pharmacyId, change.productId, result.available, requested);
    return result.allocations;
  };
  const byId = (id: string) => batches.find((b) => b.id === id)!;

  if (change.kind === 'reserve') {
    for (const a of await allocate('quantity', amount, false)) moves.push({ batch: byId(a.batchId), dq: -a.quantity, dr: a.quantity, delta: 0 });
  } else if (change.kind === 'release') {
    for (const a of await allocate('reserved_quantity', amount, true)) moves.push({ batch: byId(a.batchId), dq: a.quantity, dr: -a.quantity, delta: 0 });
  } else if (change.kind === 'reserved_sold') {
    if (amount > 0) throw new AppError('VALIDATION_FAILED', { message: 'reserved_sold takes stock out: its delta must be negative.' });
    for (const a of await allocate('reserved_quantity', -amount, true)) moves.push({ batch: byId(a.batchId), dq: 0, dr: -a.quantity, delta: -a.quantity });
  } else if (amount < 0) {
    for (const a of await allocate('quantity', -amount, includeExpired)) moves.push({ batch: byId(a.batchId), dq: -a.quantity, dr: 0, delta: -a.quantity });
  } else {
    const batch = await batchForIncrease(q, ctx, change, branch, batches, today, now);
    moves.push({ batch, dq: amount, dr: 0, delta: amount });
  }

  let quantity = branch.quantity;
  let reserved = branch.reserved_quantity;
  const takes: BatchTake[] = [];
  const movementRows: { batchId: string; delta: number; after: number }[] = [];
  for (const move of moves) {
    await q.query(
      `UPDATE batches SET quantity = quantity + $3, reserved_quantity = reserved_quantity + $4 WHERE pharmacy_id = $1 AND id = $2`,
      [pharmacyId, move.batch.id, move.dq, move.dr],
    );
    move.batch.quantity += move.dq;
    move.batch.reserved_quantity += move.dr;
    quantity += move.dq;
    reserved += move.dr;
    takes.push(take(move.batch, Math.abs(move.dq !== 0 ? move.dq : move.dr)));
    movementRows.push({ batchId: move.batch.id, delta: move.delta, after: quantity + reserved });
  }
  await q.query(
    `INSERT INTO stock_movements (pharmacy_id, branch_id, product_id, batch_id, kind, delta, quantity_after, reason, reference_type,
                                  reference_id, user_id, at)
     SELECT $1, $2, $3, m.batch_id, $4, m.delta, m.after, $5, $6, $7, $8, $9
       FROM unnest($10::uuid[], $11::int[], $12::int[]) WITH ORDINALITY AS m(batch_id, delta, after, n)
      ORDER BY m.n`,
    [
      pharmacyId,
      change.branchId,
      change.productId,
      change.kind,
      change.reason,
      change.reference?.type ?? null,
      change.reference?.id ?? null,
      ctx.userId,
      now,
      movementRows.map((m) => m.batchId),
      movementRows.map((m) => m.delta),
      movementRows.map((m) => m.after),
    ],
  );
  await q.query(
    `UPDATE branch_products SET quantity = $4, reserved_quantity = $5, last_stock_update_at = $6, last_stock_update_reason = $7, updated_at = $6
      WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
    [pharmacyId, change.branchId, change.productId, quantity, reserved, now, change.reason],
  );

  const event: StockEvent = {
    productId: change.productId,
    branchId: change.branchId,
    quantity,
    reservedQuantity: reserved,
    reason: change.reason,
    at: now.toISOString(),
  };
  let list = eventsByTransaction.get(q);
  if (!list) eventsByTransaction.set(q, (list = []));
  list.push(event);
  await notifyStockChange(q, { pharmacyId, ...event });

  return { branchId: change.branchId, productId: change.productId, quantity, reservedQuantity: reserved, batches: takes };
}

/**
 * Applies several changes in one go: locks every branch row first in product-id order (no deadlocks between
 * two multi-product changes), then applies them in the given order. All or nothing within the caller's
 * transaction.
 */
export async function applyStockChanges(q: Queryable, ctx: LedgerContext, changes: readonly StockChange[]): Promise<StockChangeResult[]> {
  await lockStockRows(q, ctx.pharmacyId, changes);
  const results: StockChangeResult[] = [];
  for (const change of changes) results.push(await applyStockChange(q, ctx, change));
  return results;
}
