import { OPTIMISTIC_STOCK_EXPIRY_MS, type StockUpdateMessage } from '@pharmapoint/domain/events';
import { stockStatus, type StockStatus } from '@pharmapoint/domain/stock-status';

/**
 * Optimistic stock updates (seed 000 section 4, seed 001 section 4): a stock change made in this browser shows
 * at once, is shared with the other tabs by a 'STOCK_UPDATE' message { productId, stockValue, branch, reason },
 * and is dropped when the write fails or after 10 seconds without confirmation (the server's 'stock' event or
 * the write's own success confirm it). Pure: no timers, no I/O; the clock is passed in.
 */

/** The name of the cross-tab BroadcastChannel. */
export const STOCK_UPDATE_CHANNEL = 'STOCK_UPDATE';

/** A second message on the channel: this tab's write failed, drop its optimistic value. */
export interface StockRollbackMessage {
  type: 'STOCK_ROLLBACK';
  productId: string;
  branch: string;
}

export type StockChannelMessage = StockUpdateMessage | StockRollbackMessage;

/** One optimistic value of a product in a branch. */
export interface PendingStock {
  productId: string;
  branchId: string;
  stockValue: number;
  reason: string;
  /** When it stops being shown (epoch ms). */
  expiresAt: number;
}

/** Pending values by key. */
export type PendingMap = ReadonlyMap<string, PendingStock>;

export const stockKey = (productId: string, branchId: string) => `${productId}:${branchId}`;

/** Adds (or replaces) the optimistic value of a product in a branch; it expires after 10 s. */
export function applyUpdate(
  pending: PendingMap,
  message: Pick<StockUpdateMessage, 'productId' | 'stockValue' | 'branch' | 'reason'>,
  now: number,
  ttlMs: number = OPTIMISTIC_STOCK_EXPIRY_MS,
): PendingMap {
  const next = new Map(pending);
  next.set(stockKey(message.productId, message.branch), {
    productId: message.productId,
    branchId: message.branch,
    stockValue: message.stockValue,
    reason: message.reason,
    expiresAt: now + ttlMs,
  });
  return next;
}

/** Drops the value of a product in a branch (confirmed by the server, or its write failed). */
export function removeUpdate(pending: PendingMap, productId: string, branchId: string): PendingMap {
  const key = stockKey(productId, branchId);
  if (!pending.has(key)) return pending;
  const next = new Map(pending);
  next.delete(key);
  return next;
}

/** Drops every value whose 10 seconds are over. Returns the same map when nothing expired. */
export function expireUpdates(pending: PendingMap, now: number): PendingMap {
  let next: Map<string, PendingStock> | null = null;
  for (const [key, entry] of pending) {
    if (entry.expiresAt <= now) {
      next ??= new Map(pending);
      next.delete(key);
    }
  }
  return next ?? pending;
}

/** When the next value expires (epoch ms), or null when none is pending. */
export function nextExpiry(pending: PendingMap): number | null {
  let soonest: number | null = null;
  for (const entry of pending.values()) if (soonest === null || entry.expiresAt < soonest) soonest = entry.expiresAt;
  return soonest;
}

/** The quantity to show: the optimistic value while it lives, else the server's. */
export function displayedQuantity(pending: PendingMap, productId: string, branchId: string, serverQuantity: number, now: number): number {
  const entry = pending.get(stockKey(productId, branchId));
  return entry && entry.expiresAt > now ? entry.stockValue : serverQuantity;
}

/** The message another tab receives, built from a change made here. */
export function stockUpdateMessage(input: { productId: string; branchId: string; stockValue: number; reason: string }): StockUpdateMessage {
  return { type: 'STOCK_UPDATE', productId: input.productId, stockValue: input.stockValue, branch: input.branchId, reason: input.reason };
}

/** Reads a BroadcastChannel message; null for anything that is not one of ours or is malformed. */
export function parseChannelMessage(data: unknown): StockChannelMessage | null {
  if (!data || typeof data !== 'object') return null;
  const message = data as Record<string, unknown>;
  if (typeof message.productId !== 'string' || typeof message.branch !== 'string' || !message.productId || !message.branch) return null;
  if (message.type === 'STOCK_ROLLBACK') return { type: 'STOCK_ROLLBACK', productId: message.productId, branch: message.branch };
  if (message.type !== 'STOCK_UPDATE') return null;
  const stockValue = message.stockValue;
  if (typeof stockValue !== 'number' || !Number.isInteger(stockValue) || stockValue < 0) return null;
  return {
    type: 'STOCK_UPDATE',
    productId: message.productId,
    stockValue,
    branch: message.branch,
    reason: typeof message.reason === 'string' ? message.reason : '',
  };
}

/** What a product list row needs to be patched by a stock event. */
export interface StockRow {
  id: string;
  branchId: string;
  quantity: number;
  reservedQuantity: number;
  lowStockThreshold: number;
  status: StockStatus;
}

/**
 * A list's rows with one product's stock in one branch replaced (from a server 'stock' event): quantity,
 * reserved and the status recomputed with the row's threshold. The same array when no row matches.
 */
export function patchStockRows<T extends StockRow>(rows: readonly T[], event: { productId: string; branchId: string; quantity: number; reservedQuantity: number }): T[] {
  let changed = false;
  const next = rows.map((row) => {
    if (row.id !== event.productId || row.branchId !== event.branchId) return row;
    changed = true;
    return { ...row, quantity: event.quantity, reservedQuantity: event.reservedQuantity, status: stockStatus(event.quantity, row.lowStockThreshold) };
  });
  return changed ? next : (rows as T[]);
}

/**
 * The stock a change will leave: the branch quantity plus the delta (never below 0). Used to show an
 * adjustment at once, before the server answers.
 */
export function expectedQuantity(currentQuantity: number, delta: number): number {
  return Math.max(0, currentQuantity + delta);
}

/**
 * Should a stock event be applied? Events reach a tab through different server instances, so one can arrive after a
 * later change of the same stock: its ledger sequence (seq) tells. Records the sequence of an event it accepts in
 * `applied` (per branch and product); an event without one (an older server) is always applied.
 */
export function acceptInOrder(applied: Map<string, number>, event: { productId: string; branchId: string; seq?: number }): boolean {
  if (event.seq === undefined) return true;
  const key = `${event.branchId}:${event.productId}`;
  const last = applied.get(key);
  if (last !== undefined && event.seq < last) return false;
  applied.set(key, event.seq);
  return true;
}
