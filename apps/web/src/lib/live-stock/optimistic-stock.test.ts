import { describe, expect, it } from 'vitest';
import {
  acceptInOrder,
  applyUpdate,
  displayedQuantity,
  expectedQuantity,
  expireUpdates,
  nextExpiry,
  parseChannelMessage,
  patchStockRows,
  removeUpdate,
  stockKey,
  stockUpdateMessage,
  type PendingMap,
} from './optimistic-stock';

const P = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const B2 = '33333333-3333-4333-8333-333333333333';
const empty: PendingMap = new Map();

describe('optimistic stock updates', () => {
  it('shows a change at once and drops it after exactly 10 seconds', () => {
    const pending = applyUpdate(empty, { productId: P, branch: B, stockValue: 7, reason: 'Adjustment' }, 1_000);
    expect(displayedQuantity(pending, P, B, 10, 1_000)).toBe(7);
    expect(displayedQuantity(pending, P, B, 10, 10_999)).toBe(7);
    expect(displayedQuantity(pending, P, B, 10, 11_000)).toBe(10);
    expect(nextExpiry(pending)).toBe(11_000);
    expect(expireUpdates(pending, 10_999)).toBe(pending);
    const expired = expireUpdates(pending, 11_000);
    expect(expired.size).toBe(0);
    expect(nextExpiry(expired)).toBeNull();
  });

  it('keeps branches apart and a newer change replaces the older one', () => {
    let pending = applyUpdate(empty, { productId: P, branch: B, stockValue: 7, reason: 'a' }, 0);
    pending = applyUpdate(pending, { productId: P, branch: B2, stockValue: 3, reason: 'b' }, 0);
    pending = applyUpdate(pending, { productId: P, branch: B, stockValue: 5, reason: 'c' }, 5_000);
    expect(displayedQuantity(pending, P, B, 99, 12_000)).toBe(5);
    expect(displayedQuantity(pending, P, B2, 99, 12_000)).toBe(99);
    expect(pending.get(stockKey(P, B))?.reason).toBe('c');
  });

  it('rolls back (removes) one value and leaves the map alone when there is nothing to remove', () => {
    const pending = applyUpdate(empty, { productId: P, branch: B, stockValue: 7, reason: 'a' }, 0);
    const rolled = removeUpdate(pending, P, B);
    expect(displayedQuantity(rolled, P, B, 10, 1)).toBe(10);
    expect(removeUpdate(rolled, P, B)).toBe(rolled);
    // The original is not mutated.
    expect(pending.size).toBe(1);
  });

  it('builds and reads the STOCK_UPDATE message of the specification', () => {
    const message = stockUpdateMessage({ productId: P, branchId: B, stockValue: 4, reason: 'Adjustment: damage' });
    expect(message).toEqual({ type: 'STOCK_UPDATE', productId: P, stockValue: 4, branch: B, reason: 'Adjustment: damage' });
    expect(parseChannelMessage(message)).toEqual(message);
    expect(parseChannelMessage({ type: 'STOCK_ROLLBACK', productId: P, branch: B })).toEqual({ type: 'STOCK_ROLLBACK', productId: P, branch: B });
    expect(parseChannelMessage({ ...message, stockValue: -1 })).toBeNull();
    expect(parseChannelMessage({ ...message, stockValue: 1.5 })).toBeNull();
    expect(parseChannelMessage({ ...message, type: 'OTHER' })).toBeNull();
    expect(parseChannelMessage({ ...message, productId: '' })).toBeNull();
    expect(parseChannelMessage('STOCK_UPDATE')).toBeNull();
    expect(parseChannelMessage(null)).toBeNull();
  });

  it('patches the matching list row with the server stock and recomputes its status', () => {
    const rows = [
      { id: P, branchId: B, quantity: 20, reservedQuantity: 0, lowStockThreshold: 5, status: 'good' as const, name: 'A' },
      { id: P, branchId: B2, quantity: 20, reservedQuantity: 0, lowStockThreshold: 5, status: 'good' as const, name: 'A' },
    ];
    const low = patchStockRows(rows, { productId: P, branchId: B, quantity: 5, reservedQuantity: 1 });
    expect(low[0]).toMatchObject({ quantity: 5, reservedQuantity: 1, status: 'low', name: 'A' });
    expect(low[1]).toBe(rows[1]);
    expect(patchStockRows(rows, { productId: P, branchId: B, quantity: 0, reservedQuantity: 0 })[0]?.status).toBe('out');
    expect(patchStockRows(rows, { productId: 'other', branchId: B, quantity: 0, reservedQuantity: 0 })).toBe(rows);
  });

  it('never expects negative stock', () => {
    expect(expectedQuantity(10, -3)).toBe(7);
    expect(expectedQuantity(2, -5)).toBe(0);
    expect(expectedQuantity(2, 5)).toBe(7);
  });
});

describe('acceptInOrder', () => {
  it('drops a stock event older than the last one applied for the same product and branch', () => {
    const applied = new Map<string, number>();
    const event = (seq: number | undefined, productId = 'p1', branchId = 'b1') => ({ productId, branchId, seq });
    expect(acceptInOrder(applied, event(10))).toBe(true);
    expect(acceptInOrder(applied, event(12))).toBe(true);
    // Arrived late through another server instance.
    expect(acceptInOrder(applied, event(11))).toBe(false);
    // Two changes of one transaction share its sequence.
    expect(acceptInOrder(applied, event(12))).toBe(true);
    // Other stock keeps its own order; an event without a sequence is always applied.
    expect(acceptInOrder(applied, event(3, 'p2'))).toBe(true);
    expect(acceptInOrder(applied, event(3, 'p1', 'b2'))).toBe(true);
    expect(acceptInOrder(applied, event(undefined))).toBe(true);
  });
});
