import { describe, expect, it } from 'vitest';
import { searchCatalogue, type PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import { applyUpdate, type PendingMap } from '../../../lib/live-stock/optimistic-stock';
import { applyStockChange, overlayPending, positionsOf, stockValueAfter } from './catalogue-state';

const B = '22222222-2222-4222-8222-222222222222';
const OTHER_BRANCH = '33333333-3333-4333-8333-333333333333';

function item(id: string, name: string, overrides: Partial<PosCatalogueItem> = {}): PosCatalogueItem {
  return {
    id,
    name,
    sku: null,
    barcodes: [],
    category: null,
    packageSize: 1,
    packageType: 'pieces',
    isDda: false,
    isActive: true,
    isAvailable: true,
    taxApplied: false,
    taxRateBasisPoints: null,
    priceCents: 500,
    costCents: 300,
    minMarginBasisPoints: 2200,
    minimumPriceCents: null,
    quantity: 8,
    reservedQuantity: 0,
    expiredQuantity: 0,
    lowStockThreshold: 5,
    nearestExpiry: null,
    ...overrides,
  };
}

const items = [item('p1', 'Amoxil'), item('p2', 'Ampiclox', { expiredQuantity: 4 }), item('p3', 'Aspirin')];
const positions = positionsOf(items);
const empty: PendingMap = new Map();

describe("the till catalogue follows another till's sale (a 'stock' event)", () => {
  it('replaces the quantity and reserved quantity of the product in this branch', () => {
    const { items: next, unknown } = applyStockChange(items, positions, B, { productId: 'p1', branchId: B, quantity: 3, reservedQuantity: 2 });
    expect(unknown).toBe(false);
    expect(next[0]).toMatchObject({ quantity: 3, reservedQuantity: 2 });
    expect(next[1]).toBe(items[1]);
    expect(items[0]!.quantity).toBe(8);
  });

  it('leaves pieces of expired batches out of the sellable quantity', () => {
    const { items: next } = applyStockChange(items, positions, B, { productId: 'p2', branchId: B, quantity: 10, reservedQuantity: 0 });
    expect(next[1]!.quantity).toBe(6);
  });

  it('a sold-out product drops below the in-stock ones in the search', () => {
    const { items: next } = applyStockChange(items, positions, B, { productId: 'p1', branchId: B, quantity: 0, reservedQuantity: 0 });
    expect(searchCatalogue(next, 'am').map((r) => [r.item.name, r.selectable])).toEqual([
      ['Ampiclox', true],
      ['Amoxil', false],
    ]);
  });

  it('ignores another branch, and tells the caller when the product is unknown here', () => {
    expect(applyStockChange(items, positions, B, { productId: 'p1', branchId: OTHER_BRANCH, quantity: 0, reservedQuantity: 0 })).toEqual({ items, unknown: false });
    expect(applyStockChange(items, positions, B, { productId: 'new', branchId: B, quantity: 5, reservedQuantity: 0 })).toEqual({ items, unknown: true });
  });

  it('returns the same array when nothing changes', () => {
    expect(applyStockChange(items, positions, B, { productId: 'p3', branchId: B, quantity: 8, reservedQuantity: 0 }).items).toBe(items);
  });
});

describe("the till catalogue shows the other tabs' optimistic values ('STOCK_UPDATE')", () => {
  it('lays a live value of this branch over the quantity', () => {
    const pending = applyUpdate(empty, { productId: 'p3', branch: B, stockValue: 1, reason: 'Sale' }, 1000);
    const next = overlayPending(items, positions, B, pending, 2000);
    expect(next[2]!.quantity).toBe(1);
    expect(next[0]).toBe(items[0]);
  });

  it('drops a value after its 10 seconds, and ignores other branches', () => {
    const pending = applyUpdate(empty, { productId: 'p3', branch: B, stockValue: 1, reason: 'Sale' }, 1000);
    expect(overlayPending(items, positions, B, pending, 11_000)).toBe(items);
    const other = applyUpdate(empty, { productId: 'p3', branch: OTHER_BRANCH, stockValue: 1, reason: 'Sale' }, 1000);
    expect(overlayPending(items, positions, B, other, 2000)).toBe(items);
  });

  it('stockValueAfter gives the branch quantity a sale leaves (expired pieces included, as events carry it)', () => {
    expect(stockValueAfter(items[1]!, 3)).toBe(8 - 3 + 4);
    const pending = applyUpdate(empty, { productId: 'p2', branch: B, stockValue: stockValueAfter(items[1]!, 3), reason: 'Sale' }, 0);
    expect(overlayPending(items, positions, B, pending, 1)[1]!.quantity).toBe(5);
  });
});
