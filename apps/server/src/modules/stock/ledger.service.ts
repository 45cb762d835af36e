import { randomUUID } from 'node:crypto';
import type { StockEvent } from '@pharmapoint/domain/events';
import {
  allocateFefo,
  compareFefo,
  isExpired,
  SELLABLE_ONLY_KINDS,
  type Allocation,
  type StockMovementKind,
} from '@pharmapoint/domain/stock';
import { beforeCommit, together, type Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { notifyStockChange } from '../../platform/events.ts';
import * as repo from './ledger.repository.ts';
import type { LedgerBatch, StockKey } from './ledger.repository.ts';

/**
 * The stock ledger: the ONE way stock changes (sales, purchases, returns, adjustments, transfers, reservations,
 * opening stock). Each change, inside the caller's transaction:
 * - locks the branch_products row of the branch and product (SELECT ... FOR UPDATE), so concurrent changes of
 *   the same stock queue up and can never oversell; several changes lock all their rows first, in one global
 *   (branch, product) order (lockStockRows), so two multi-product changes never deadlock;
 * - for a decrease, takes from the batches first expiry first out (expired batches are not sellable: sale,
 *   transfer_out and reserve skip them; other kinds, such as an adjustment writing off, may take them or name
 *   a batch), and refuses to go below zero with 409 INSUFFICIENT_STOCK
 *   ('Insufficient stock for {product}. Available: {available}, Requested: {requested}');
 * - for an increase, adds to the named batch, to the batch of the same number, expiry and cost, or creates it;
 * - appends one stock_movements row per batch touched (delta; quantity_after = the branch's on-hand after it;
 *   batch_quantity_after = the batch's), numbered in ledger order by `sequence`, and updates the branch row;
 * - records the live event on the transaction (with the ledger sequence, so a browser can drop one that arrives
 *   after a later one); the transaction's events are packed into as few payloads as the size limit allows right
 *   before COMMIT and published once it has committed (never if it rolls back; db/database.ts notifyOnCommit).
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
  /** The pharmacy's business date (businessDate(now, its time zone)): it decides what is expired. */
  today: string;
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

// ------------------------------------------------------------------------------------------- live events

interface TransactionEvents {
  pharmacyId: string;
  events: StockEvent[];
}

const eventsByTransaction = new WeakMap<Queryable, TransactionEvents>();

/**
 * Records a change's live event on its transaction. The first one registers the flush that runs right before
 * COMMIT: every event of the transaction packed into as few payloads as the size limit allows, published on commit.
 */
function recordEvent(q: Queryable, pharmacyId: string, event: StockEvent): void {
  let pending = eventsByTransaction.get(q);
  if (!pending) {
    const created: TransactionEvents = { pharmacyId, events: [] };
    eventsByTransaction.set(q, (pending = created));
    beforeCommit(q, 'stock:events', async () => notifyStockChange(q, created.events.map((e) => ({ pharmacyId: created.pharmacyId, ...e }))));
  }
  pending.events.push(event);
}

/**
 * The stock events recorded on this transaction so far (one per change: the branch's stock after it), for
 * callers that want to answer with them. They are published once the transaction commits.
 */
export function stockEventsOf(q: Queryable): readonly StockEvent[] {
  return eventsByTransaction.get(q)?.events ?? [];
}

// ------------------------------------------------------------------------------------------- changes

const SOURCE_OF_KIND: Partial<Record<StockMovementKind, BatchSource>> = {
  opening: 'opening',
  import: 'import',
  purchase_receipt: 'purchase',
  purchase_edit: 'purchase',
  transfer_in: 'transfer',
  adjustment: 'adjustment',
  sale_return: 'return',
};

async function productName(q: Queryable, pharmacyId: string, productId: string): Promise<string> {
  const name = await repo.findProductName(q, pharmacyId, productId);
  if (name === undefined) throw new AppError('NOT_FOUND', { details: { productId } });
  return name;
}

async function insufficient(q: Queryable, pharmacyId: string, productId: string, available: number, requested: number): Promise<never> {
  const product = await productName(q, pharmacyId, productId);
  throw new AppError('INSUFFICIENT_STOCK', { values: { product, available, requested }, details: { productId, available, requested } });
}

/** Does this change add pieces (and so may create the branch row)? */
function isIncrease(change: StockChange): boolean {
  return 'delta' in change && change.delta > 0;
}

/**
 * Takes the row locks of several changes before any of them is applied, in the ledger's one global order
 * (branch, product): one statement locks them all when they all exist; otherwise (it then locks none) the missing rows
 * of increases are created in that order, then every row is locked in it.
 * applyStockChanges does it itself; a use case that reads stock before it decides its changes (a dispatch) calls
 * it first. Answers the locked rows by repo.stockKeyOf.
 */
export async function lockStockRows(
  q: Queryable,
  pharmacyId: string,
  changes: readonly (StockKey & { create?: boolean })[],
): Promise<Map<string, repo.BranchStock>> {
  const keys = new Map<string, StockKey & { create: boolean }>();
  for (const c of changes) {
    const id = repo.stockKeyOf(c);
    const known = keys.get(id);
    keys.set(id, { branchId: c.branchId, productId: c.productId, create: (known?.create ?? false) || c.create === true });
  }
  const all = [...keys.values()];
  // The common case, every row there: one statement locks them all in order. When some are missing it locks nothing,
  // so this transaction holds no later row while it creates (and may wait for) an earlier one; then it is as before.
  const locked = await repo.lockBranchStockRows(q, pharmacyId, all, { onlyIfAll: true });
  if (locked.size === all.length) return locked;
  await repo.createBranchStockRows(q, pharmacyId, all.filter((k) => k.create));
  return repo.lockBranchStockRows(q, pharmacyId, all);
}

/**
 * Branch rows a use case has locked (lockStock) and hands to applyStockChanges, so the ledger neither locks nor reads
 * them again (decision 0069): the lock order stays the one global (branch, product) order, taken once, before the use
 * case reads anything it decides on. The ledger keeps the rows and batches current as it applies changes on them, so
 * several applyStockChanges calls of one transaction may share it.
 */
export interface LockedStock {
  readonly pharmacyId: string;
  /** Every key asked for, by repo.stockKeyOf (a key without a branch row is absent from `rows`). */
  readonly keys: ReadonlySet<string>;
  /** The locked rows as they are now. */
  readonly rows: Map<string, repo.BranchStock>;
  /** Their batches once read (sellableStock, or the first change applied), by repo.stockKeyOf. */
  batches: Map<string, LedgerBatch[]> | null;
  /** False once a change applied on it failed part-way: its figures may be off (the transaction is rolling back). */
  usable: boolean;
}

/**
 * lockStockRows, answering the handle applyStockChanges takes instead of locking the same rows again. With `batches`
 * their batches are read too, sent right behind the lock in the same round trip (tryLockStock) when every row exists.
 */
export async function lockStock(
  q: Queryable,
  pharmacyId: string,
  keys: readonly (StockKey & { create?: boolean })[],
  options: { batches?: boolean } = {},
): Promise<LockedStock> {
  if (options.batches) {
    const tried = await tryLockStock(q, pharmacyId, keys);
    if (tried) return tried;
  }
  const rows = await lockStockRows(q, pharmacyId, keys);
  return { pharmacyId, keys: new Set(keys.map((k) => repo.stockKeyOf(k))), rows, batches: null, usable: true };
}

/**
 * The first step of lockStock, writing nothing: locks the rows when every one of them exists and reads their batches,
 * the two statements pipelined (decision 0086: one round trip). The batch read is a statement of its own, run after
 * the lock statement has its locks, so its snapshot sees what a transaction it waited for committed (READ COMMITTED).
 * Answers null, having locked nothing, when a row is missing (the batches it read then were read without locks and
 * are dropped): the caller then calls lockStock (creating the rows of increases), once it has checked its input, so a
 * refused request writes nothing. A use case sends it together with its own first reads (together()).
 */
export async function tryLockStock(q: Queryable, pharmacyId: string, keys: readonly StockKey[]): Promise<LockedStock | null> {
  const unique = [...new Map(keys.map((k) => [repo.stockKeyOf(k), { branchId: k.branchId, productId: k.productId }])).values()];
  const [rows, batches] = await together(repo.lockBranchStockRows(q, pharmacyId, unique, { onlyIfAll: true }), repo.findBatchesOf(q, pharmacyId, unique));
  if (rows.size !== unique.length) return null;
  return { pharmacyId, keys: new Set(unique.map((k) => repo.stockKeyOf(k))), rows, batches, usable: true };
}

/** The batches of locked rows, read once per handle (the rows' locks keep them from changing under it). */
async function batchesOfLocked(q: Queryable, locked: LockedStock): Promise<Map<string, LedgerBatch[]>> {
  if (!locked.batches) {
    const keys = [...locked.keys].map((key) => {
      const [branchId, productId] = key.split(':') as [string, string];
      return { branchId, productId };
    });
    locked.batches = await repo.findBatchesOf(q, locked.pharmacyId, keys);
  }
  return locked.batches;
}

/**
 * The sellable pieces of each locked row: the pieces of its batches that have not expired by `today` (what a sale or a
 * reservation may take; 0 without a row), by repo.stockKeyOf. Reads the batches once; applyStockChanges reuses them.
 */
export async function sellableStock(q: Queryable, locked: LockedStock, today: string): Promise<Map<string, number>> {
  const batches = await batchesOfLocked(q, locked);
  const sellable = new Map<string, number>();
  for (const key of locked.keys) {
    const pieces = locked.rows.has(key) ? (batches.get(key) ?? []).filter((b) => !isExpired(b.expiryDate, today)).reduce((a, b) => a + b.quantity, 0) : 0;
    sellable.set(key, pieces);
  }
  return sellable;
}

function toAllocatable(b: LedgerBatch, field: 'quantity' | 'reservedQuantity' = 'quantity') {
  return { id: b.id, expiryDate: b.expiryDate, quantity: b[field], receivedAt: b.receivedAt };
}

function take(batch: LedgerBatch, quantity: number): BatchTake {
  return { batchId: batch.id, batchNumber: batch.batchNumber, expiryDate: batch.expiryDate, unitCostCents: batch.unitCostCents, quantity };
}

/** The batch an increase goes into: named, found by number/expiry/cost, or created. */
async function batchForIncrease(
  q: Queryable,
  pharmacyId: string,
  change: StockChange,
  branch: repo.BranchStock,
  batches: LedgerBatch[],
  today: string,
  now: Date,
): Promise<LedgerBatch> {
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
    const live = batches.filter((b) => !isExpired(b.expiryDate, today) && b.expiryDate !== null);
    const latest = live.sort((a, b) => compareFefo(toAllocatable(b), toAllocatable(a)))[0];
    if (latest && (change.kind === 'adjustment' || change.kind === 'sale_return' || change.kind === 'release')) return latest;
    wanted = { batchNumber: null, expiryDate: null, unitCostCents: branch.purchasePriceCents };
  }
  const existing = batches.find((b) => b.batchNumber === wanted.batchNumber && b.expiryDate === wanted.expiryDate && b.unitCostCents === wanted.unitCostCents);
  if (existing) return existing;
  const created = await repo.insertBatch(q, pharmacyId, change, {
    batchNumber: wanted.batchNumber,
    expiryDate: wanted.expiryDate,
    unitCostCents: wanted.unitCostCents,
    source: wanted.source ?? SOURCE_OF_KIND[change.kind] ?? 'adjustment',
    receivedAt: now,
  });
  batches.push(created);
  return created;
}

/**
 * The stock alert of a branch row with this sellable quantity (stock_alerts, migration 0015): 'out' at or below 0,
 * 'low' at or below the threshold (the branch's, else the product's), none above it or for an inactive product.
 */
export function alertOf(quantity: number, inputs: repo.StockAlertInputs): 'out' | 'low' | null {
  if (!inputs.productActive || quantity > inputs.threshold) return null;
  return quantity <= 0 ? 'out' : 'low';
}

/** Applies one stock change (see the module comment); applyStockChanges with one change. */
export async function applyStockChange(q: Queryable, ctx: LedgerContext, change: StockChange): Promise<StockChangeResult> {
  const [result] = await applyStockChanges(q, ctx, [change]);
  return result!;
}

/** A branch row and its batches while changes are applied to them in memory. */
interface RowState {
  branch: repo.BranchStock;
  batches: LedgerBatch[];
  reason: string;
  /** The sale of the row's last change, when a sale made it: reads show its invoice number (decision 0087). */
  saleId: string | null;
}

/**
 * Applies several changes (see the module comment), set-based: one statement locks every branch row in the global
 * (branch, product) order, so two multi-product changes never deadlock, and reads them; one reads their batches;
 * the changes are applied in memory in the given order (a later change of the same stock sees the earlier one);
 * then ONE statement writes the batches, the ledger rows and the branch rows (repo.writeLedger). A 3-item sale
 * sends 3 statements here instead of 16. Throws INSUFFICIENT_STOCK (409) or NOT_FOUND (404: unknown product, branch
 * or batch) having written nothing (a batch an increase created is rolled back with the caller's transaction).
 */
export async function applyStockChanges(
  q: Queryable,
  ctx: LedgerContext,
  changes: readonly StockChange[],
  options: { locked?: LockedStock } = {},
): Promise<StockChangeResult[]> {
  if (changes.length === 0) return [];
  const held = options.locked;
  if (!held) return applyChanges(q, ctx, changes, undefined);
  if (!held.usable) throw new Error('applyStockChanges: a change on these locked rows failed earlier in this transaction');
  try {
    return await applyChanges(q, ctx, changes, held);
  } catch (error) {
    held.usable = false;
    throw error;
  }
}

async function applyChanges(q: Queryable, ctx: LedgerContext, changes: readonly StockChange[], held: LockedStock | undefined): Promise<StockChangeResult[]> {
  const now = ctx.now ?? new Date();
  const { today } = ctx;
  const { pharmacyId } = ctx;
  for (const change of changes) {
    const isReservation = change.kind === 'reserve' || change.kind === 'release';
    const amount = 'quantity' in change ? change.quantity : change.delta;
    if (!Number.isInteger(amount) || amount === 0 || (isReservation && amount < 0)) {
      throw new AppError('VALIDATION_FAILED', { message: 'A stock change must be a whole number of pieces other than 0.' });
    }
    if (change.kind === 'reserved_sold' && amount > 0) {
      throw new AppError('VALIDATION_FAILED', { message: 'reserved_sold takes stock out: its delta must be negative.' });
    }
  }
  let locked: Map<string, repo.BranchStock>;
  if (held) {
    // The caller locked these rows (lockStock) earlier in this transaction, in the global order: no second lock.
    if (held.pharmacyId !== pharmacyId) throw new Error('applyStockChanges: the locked rows are another pharmacy\'s');
    for (const change of changes) {
      const key = repo.stockKeyOf(change);
      if (!held.keys.has(key) || (isIncrease(change) && !held.rows.has(key))) {
        throw new Error(`applyStockChanges: the row ${key} was not locked by the caller${held.keys.has(key) ? ' with create' : ''}`);
      }
    }
    locked = held.rows;
  } else {
    locked = await lockStockRows(
      q,
      pharmacyId,
      changes.map((c) => ({ branchId: c.branchId, productId: c.productId, create: isIncrease(c) })),
    );
  }
  // A change of stock that has no branch row: an unknown product or branch (404), or nothing to take (409).
  for (const change of changes) {
    if (locked.has(repo.stockKeyOf(change))) continue;
    await productName(q, pharmacyId, change.productId);
    if (!(await repo.branchExists(q, pharmacyId, change.branchId))) throw new AppError('NOT_FOUND', { details: { branchId: change.branchId } });
    const amount = 'quantity' in change ? change.quantity : change.delta;
    return insufficient(q, pharmacyId, change.productId, 0, Math.abs(amount));
  }
  const batchesByKey = held
    ? await batchesOfLocked(q, held)
    : await repo.findBatchesOf(q, pharmacyId, [...new Map(changes.map((c) => [repo.stockKeyOf(c), { branchId: c.branchId, productId: c.productId }])).values()]);
  const states = new Map<string, RowState>();
  for (const [key, branch] of locked) {
    let batches = batchesByKey.get(key);
    if (!batches) batchesByKey.set(key, (batches = []));
    states.set(key, { branch: { ...branch }, batches, reason: '', saleId: null });
  }

  const batchDeltas = new Map<string, { batchId: string; dq: number; dr: number }>();
  const movements: (Omit<repo.MovementHead, 'userId' | 'at'> & repo.MovementLine)[] = [];
  const results: StockChangeResult[] = [];
  for (const change of changes) {
    const state = states.get(repo.stockKeyOf(change))!;
    const { branch, batches } = state;
    const amount = 'quantity' in change ? change.quantity : change.delta;
    const target = change.batch;
    const named = target && 'batchId' in target ? batches.find((b) => b.id === target.batchId) : undefined;
    if (target && 'batchId' in target && !named) throw new AppError('NOT_FOUND', { details: { batchId: target.batchId } });

    // The pieces per batch, and which column they move: dq = sellable, dr = reserved.
    const moves: { batch: LedgerBatch; dq: number; dr: number; delta: number }[] = [];
    const includeExpired = change.includeExpired ?? !SELLABLE_ONLY_KINDS.includes(change.kind);
    const allocate = async (field: 'quantity' | 'reservedQuantity', requested: number, expired: boolean): Promise<Allocation[]> => {
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
      for (const a of await allocate('reservedQuantity', amount, true)) moves.push({ batch: byId(a.batchId), dq: a.quantity, dr: -a.quantity, delta: 0 });
    } else if (change.kind === 'reserved_sold') {
      for (const a of await allocate('reservedQuantity', -amount, true)) moves.push({ batch: byId(a.batchId), dq: 0, dr: -a.quantity, delta: -a.quantity });
    } else if (amount < 0) {
      for (const a of await allocate('quantity', -amount, includeExpired)) moves.push({ batch: byId(a.batchId), dq: -a.quantity, dr: 0, delta: -a.quantity });
    } else {
      const batch = await batchForIncrease(q, pharmacyId, change, branch, batches, today, now);
      moves.push({ batch, dq: amount, dr: 0, delta: amount });
    }

    const takes: BatchTake[] = [];
    for (const move of moves) {
      move.batch.quantity += move.dq;
      move.batch.reservedQuantity += move.dr;
      branch.quantity += move.dq;
      branch.reservedQuantity += move.dr;
      takes.push(take(move.batch, Math.abs(move.dq !== 0 ? move.dq : move.dr)));
      const sum = batchDeltas.get(move.batch.id) ?? { batchId: move.batch.id, dq: 0, dr: 0 };
      sum.dq += move.dq;
      sum.dr += move.dr;
      batchDeltas.set(move.batch.id, sum);
      movements.push({
        branchId: change.branchId,
        productId: change.productId,
        kind: change.kind,
        reason: change.reason,
        referenceType: change.reference?.type ?? null,
        referenceId: change.reference?.id ?? null,
        batchId: move.batch.id,
        delta: move.delta,
        quantityAfter: branch.quantity + branch.reservedQuantity,
        batchQuantityAfter: move.batch.quantity + move.batch.reservedQuantity,
      });
    }
    state.reason = change.reason;
    state.saleId = change.reference?.type === 'sale' ? change.reference.id : null;
    results.push({ branchId: change.branchId, productId: change.productId, quantity: branch.quantity, reservedQuantity: branch.reservedQuantity, batches: takes });
  }

  const touched = [...new Set(changes.map((c) => repo.stockKeyOf(c)))];
  // The stock alerts of the rows whose alert changes (decision 0078): the ledger keeps stock_alerts itself, by primary
  // key in its write statement, instead of a trigger recomputing them after every UPDATE of branch_products.
  const alerts = { set: [] as (repo.StockKey & { status: 'out' | 'low'; productName: string })[], clear: [] as repo.StockKey[] };
  for (const key of touched) {
    const row = locked.get(key)!;
    const before = alertOf(row.quantity, row.alert);
    const after = alertOf(states.get(key)!.branch.quantity, row.alert);
    if (after === before) continue;
    const [branchId, productId] = key.split(':') as [string, string];
    if (after) alerts.set.push({ branchId, productId, status: after, productName: row.alert.productName });
    else alerts.clear.push({ branchId, productId });
  }
  const sequences = await repo.writeLedger(q, pharmacyId, {
    alerts,
    userId: ctx.userId,
    at: now,
    batches: [...batchDeltas.values()],
    movements,
    branchRows: touched.map((key) => {
      const state = states.get(key)!;
      const [branchId, productId] = key.split(':') as [string, string];
      return { branchId, productId, quantity: state.branch.quantity, reservedQuantity: state.branch.reservedQuantity, reason: state.reason, saleId: state.saleId, at: now };
    }),
  });
  // A caller's locked rows follow what was written (a later applyStockChanges on them starts from here).
  if (held) for (const key of touched) Object.assign(held.rows.get(key)!, { quantity: states.get(key)!.branch.quantity, reservedQuantity: states.get(key)!.branch.reservedQuantity });
  changes.forEach((change, i) => {
    const result = results[i]!;
    recordEvent(q, pharmacyId, {
      productId: change.productId,
      branchId: change.branchId,
      quantity: result.quantity,
      reservedQuantity: result.reservedQuantity,
      reason: change.reason,
      at: now.toISOString(),
      seq: sequences.get(repo.stockKeyOf(change)),
    });
  });
  return results;
}

/**
 * The opening stock of products that have none yet in their branches (an import), set-based: the same rows
 * applyStockChange would write — for each change one batch (merged with an identical one of the same call), one
 * movement with the running on-hand after it, the branch row's quantity, the live event — in four statements
 * whatever the number of rows, instead of six per change. Every change must be an increase naming its batch by
 * number, expiry and cost, with one kind, reason and reference; every branch row must exist and hold no stock.
 * Anything else is a programming error (throws; the caller's transaction rolls back).
 */
export async function applyOpeningStock(q: Queryable, ctx: Omit<LedgerContext, 'today'>, changes: readonly StockChange[]): Promise<void> {
  if (changes.length === 0) return;
  const now = ctx.now ?? new Date();
  const first = changes[0]!;
  const batches = new Map<string, repo.OpeningBatchRow>();
  const onHand = new Map<string, number>();
  const movements: repo.OpeningMovementRow[] = [];
  for (const change of changes) {
    const target = change.batch;
    if (
      !('delta' in change) ||
      !Number.isInteger(change.delta) ||
      change.delta <= 0 ||
      !target ||
      'batchId' in target ||
      change.kind !== first.kind ||
      change.reason !== first.reason ||
      change.reference?.type !== first.reference?.type ||
      change.reference?.id !== first.reference?.id
    ) {
      throw new Error('applyOpeningStock takes increases of one kind, reason and reference, each naming a new batch');
    }
    const pair = `${change.branchId}:${change.productId}`;
    const batchKey = `${pair}:${target.batchNumber ?? ''}:${target.expiryDate ?? ''}:${target.unitCostCents}`;
    let batch = batches.get(batchKey);
    if (!batch) {
      batch = {
        id: randomUUID(),
        branchId: change.branchId,
        productId: change.productId,
        batchNumber: target.batchNumber,
        expiryDate: target.expiryDate,
        unitCostCents: target.unitCostCents,
        quantity: 0,
        source: target.source ?? SOURCE_OF_KIND[change.kind] ?? 'adjustment',
      };
      batches.set(batchKey, batch);
    }
    batch.quantity += change.delta;
    const after = (onHand.get(pair) ?? 0) + change.delta;
    onHand.set(pair, after);
    movements.push({ branchId: change.branchId, productId: change.productId, batchId: batch.id, delta: change.delta, quantityAfter: after, batchQuantityAfter: batch.quantity });
  }
  const keys = [...onHand].map(([pair, quantity]) => {
    const [branchId, productId] = pair.split(':') as [string, string];
    return { branchId, productId, quantity };
  });
  const written = await repo.insertOpeningStock(q, ctx.pharmacyId, {
    keys,
    batches: [...batches.values()],
    movements,
    head: {
      kind: first.kind,
      reason: first.reason,
      referenceType: first.reference?.type ?? null,
      referenceId: first.reference?.id ?? null,
      userId: ctx.userId,
      at: now,
    },
  });
  if (written !== keys.length) throw new Error(`applyOpeningStock: ${keys.length - written} branch rows are missing or already hold stock`);
  for (const k of keys) {
    recordEvent(q, ctx.pharmacyId, { productId: k.productId, branchId: k.branchId, quantity: k.quantity, reservedQuantity: 0, reason: first.reason, at: now.toISOString() });
  }
}
