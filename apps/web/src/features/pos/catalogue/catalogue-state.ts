import { sellableQuantity, type PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
// Relative: this pure module is tested in the 'web' vitest project, which has no '@' alias.
import { stockKey, type PendingMap } from '../../../lib/live-stock/optimistic-stock';

/**
 * The pure parts of the till's catalogue store (no I/O, no React): where each product sits, a committed stock
 * event applied, and the optimistic cross-tab values laid over the server's quantities.
 */

/** id → position in the items array. */
export function positionsOf(items: readonly PosCatalogueItem[]): Map<string, number> {
  const positions = new Map<string, number>();
  for (let i = 0; i < items.length; i++) positions.set(items[i]!.id, i);
  return positions;
}

export interface StockChange {
  productId: string;
  branchId: string;
  /** The branch's unreserved pieces on hand (expired batches included), as the 'stock' event carries them. */
  quantity: number;
  reservedQuantity: number;
}

/**
 * The items after a committed stock change of this branch: the product's sellable quantity (the event's less its
 * expired pieces) and reserved quantity replaced. The same array when the change is of another branch, of an
 * unknown product, or changes nothing; `unknown` tells the caller a product of this branch is missing (refetch).
 */
export function applyStockChange(
  items: readonly PosCatalogueItem[],
  positions: ReadonlyMap<string, number>,
  branchId: string,
  change: StockChange,
): { items: readonly PosCatalogueItem[]; unknown: boolean } {
  if (change.branchId !== branchId) return { items, unknown: false };
  const at = positions.get(change.productId);
  if (at === undefined) return { items, unknown: true };
  const item = items[at]!;
  const quantity = sellableQuantity(change.quantity, item.expiredQuantity);
  if (item.quantity === quantity && item.reservedQuantity === change.reservedQuantity) return { items, unknown: false };
  const next = items.slice();
  next[at] = { ...item, quantity, reservedQuantity: change.reservedQuantity };
  return { items: next, unknown: false };
}

/**
 * The items with the optimistic values of this branch laid over them (seed 001: 'STOCK_UPDATE' { productId,
 * stockValue, branch }, shown until confirmed or for 10 seconds). stockValue is the branch's unreserved quantity,
 * like a 'stock' event's. The same array when no live value concerns this branch's products.
 */
export function overlayPending(
  items: readonly PosCatalogueItem[],
  positions: ReadonlyMap<string, number>,
  branchId: string,
  pending: PendingMap,
  now: number,
): readonly PosCatalogueItem[] {
  let next: PosCatalogueItem[] | null = null;
  for (const entry of pending.values()) {
    if (entry.branchId !== branchId || entry.expiresAt <= now) continue;
    const at = positions.get(entry.productId);
    if (at === undefined) continue;
    const item = items[at]!;
    const quantity = sellableQuantity(entry.stockValue, item.expiredQuantity);
    if (quantity === item.quantity) continue;
    next ??= items.slice();
    next[at] = { ...item, quantity };
  }
  return next ?? items;
}

/** True when a live value is pending for this product in this branch. */
export function isPending(pending: PendingMap, productId: string, branchId: string): boolean {
  return pending.has(stockKey(productId, branchId));
}

/** The 'stockValue' to post for a product after selling `pieces` of it here (the branch quantity, as events carry it). */
export function stockValueAfter(item: Pick<PosCatalogueItem, 'quantity' | 'expiredQuantity'>, pieces: number): number {
  return Math.max(0, item.quantity - pieces) + Math.max(0, item.expiredQuantity ?? 0);
}
