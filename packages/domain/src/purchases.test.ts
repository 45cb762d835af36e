import { describe, expect, it } from 'vitest';
import {
  bulkDeleteMessage,
  bulkDeletePurchasesSchema,
  createPurchaseReturnSchema,
  displayPurchaseNumber,
  formTotals,
  lineMinimumSellingPriceCents,
  newPurchaseNumber,
  normalizePurchaseStatus,
  purchaseFormSchema,
  purchaseLineTotals,
  purchaseListQuerySchema,
  purchaseTotals,
  returnValueCents,
  savePurchaseSchema,
  targetReceivedQuantity,
} from './purchases.ts';

const SUPPLIER = '00000000-0000-4000-8000-000000000001';
const PRODUCT = '00000000-0000-4000-8000-000000000002';
const line = { productId: PRODUCT, quantity: 10, purchasePriceCents: 5_000, sellingPriceCents: 8_000 };

describe('purchases: constants and messages of seed 002', () => {
  it('numbers: PO- plus a timestamp, the fallback PO- plus the last 6 characters of the id', () => {
    expect(newPurchaseNumber(new Date(1_700_000_000_123))).toBe('PO-1700000000123');
    expect(displayPurchaseNumber({ id: 'abcdef123456', purchaseNumber: null })).toBe('PO-123456');
    expect(displayPurchaseNumber({ id: 'abcdef123456', purchaseNumber: ' ' })).toBe('PO-123456');
    expect(displayPurchaseNumber({ id: 'x', purchaseNumber: 'PO-9' })).toBe('PO-9');
  });
  it('an unknown or missing status falls back to pending', () => {
    expect(normalizePurchaseStatus('Received')).toBe('received');
    expect(normalizePurchaseStatus('lost')).toBe('pending');
    expect(normalizePurchaseStatus(undefined)).toBe('pending');
  });
  it('bulk delete sentences', () => {
    expect(bulkDeleteMessage(3, 0)).toBe('3 purchase(s) deleted successfully');
    expect(bulkDeleteMessage(2, 1)).toBe('2 deleted, 1 failed');
    expect(bulkDeleteMessage(0, 2)).toBe('Failed to delete purchases');
    expect(bulkDeletePurchasesSchema.safeParse({ ids: [] }).error?.issues[0]?.message).toBe('No purchases selected for deletion');
  });
});

describe('purchases: totals', () => {
  it('subtotal = quantity x price, tax at the rate when applied, rounded to the cent', () => {
    expect(purchaseLineTotals({ quantity: 3, purchasePriceCents: 333, applyTax: true, taxRateBasisPoints: 1600 })).toEqual({ subtotalCents: 999, taxCents: 160, totalCents: 1159 });
    expect(purchaseLineTotals({ quantity: 3, purchasePriceCents: 333, applyTax: false, taxRateBasisPoints: 1600 })).toEqual({ subtotalCents: 999, taxCents: 0, totalCents: 999 });
    expect(
      purchaseTotals([
        { quantity: 2, purchasePriceCents: 1000, applyTax: true, taxRateBasisPoints: 1600 },
        { quantity: 1, purchasePriceCents: 500, applyTax: false, taxRateBasisPoints: 1600 },
      ]),
    ).toEqual({ subtotalCents: 2500, taxCents: 320, totalCents: 2820 });
  });
  it('the form totals while typing ignore what does not parse yet', () => {
    expect(formTotals([{ quantity: '2', purchasePrice: '10.50', applyTax: true, taxRate: '16' }, { quantity: 'x', purchasePrice: '5', applyTax: false, taxRate: '' }])).toEqual({
      subtotalCents: 2100,
      taxCents: 336,
      totalCents: 2436,
    });
  });
  it('a return is worth its share of the line total; received pieces follow the status; minimum price from the margin', () => {
    expect(returnValueCents({ quantity: 3, totalCents: 1159 }, 1)).toBe(386);
    expect(targetReceivedQuantity('received', 10, 4)).toBe(10);
    expect(targetReceivedQuantity('cancelled', 10, 4)).toBe(0);
    expect(targetReceivedQuantity('ordered', 10, 4)).toBe(4);
    expect(targetReceivedQuantity('pending', 3, 4)).toBe(3);
    expect(lineMinimumSellingPriceCents({ purchasePriceCents: 7800, minMarginBasisPoints: 2200 })).toBe(10_000);
  });
});

describe('purchases: requests', () => {
  const message = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }, path: string) =>
    r.error?.issues.find((i) => i.path.join('.') === path)?.message;
  it("supplier, items and date: '{field} is required'", () => {
    const r = savePurchaseSchema.safeParse({ items: [] });
    expect(message(r, 'supplierId')).toBe('Supplier is required');
    expect(message(r, 'items')).toBe('At least one item is required');
    expect(message(r, 'date')).toBe('Date is required');
  });
  it('refuses negative or fractional quantities and negative prices; defaults status to pending', () => {
    const base = { supplierId: SUPPLIER, date: '2026-01-31' };
    expect(message(savePurchaseSchema.safeParse({ ...base, items: [{ ...line, quantity: -1 }] }), 'items.0.quantity')).toBe('Quantity must be between 1 and 1,000,000.');
    expect(message(savePurchaseSchema.safeParse({ ...base, items: [{ ...line, quantity: 1.5 }] }), 'items.0.quantity')).toBe('Quantity must be a whole number.');
    expect(message(savePurchaseSchema.safeParse({ ...base, items: [{ ...line, purchasePriceCents: -1 }] }), 'items.0.purchasePriceCents')).toMatch(/^Purchase price must be between 0/);
    const ok = savePurchaseSchema.parse({ ...base, items: [line] });
    expect(ok.status).toBe('pending');
    expect(ok.items[0]!.applyTax).toBe(false);
  });
  it("list filters: 'all' turns a filter off", () => {
    expect(purchaseListQuerySchema.parse({ status: 'all', branchId: 'all', supplierId: 'all' })).toMatchObject({ status: undefined, branchId: undefined, supplierId: undefined, limit: 25 });
    expect(purchaseListQuerySchema.safeParse({ status: 'lost' }).success).toBe(false);
  });
  it('the form: typed text to the request, with the field sentences', () => {
    const item = { id: '', productId: PRODUCT, name: 'X', quantity: '2', purchasePrice: '10.50', sellingPrice: '15', maxDiscount: '', minMargin: '25', expiryDate: '', batchNumber: ' B1 ', applyTax: true, taxRate: '16' };
    const out = purchaseFormSchema.parse({ supplierId: SUPPLIER, branchId: '', date: '2026-01-31', reference: '', notes: '', status: 'received', items: [item] });
    expect(out.items[0]).toEqual({ productId: PRODUCT, quantity: 2, purchasePriceCents: 1050, sellingPriceCents: 1500, maxDiscountBasisPoints: null, minMarginBasisPoints: 2500, expiryDate: null, batchNumber: 'B1', applyTax: true, taxRateBasisPoints: 1600 });
    const bad = purchaseFormSchema.safeParse({ supplierId: '', branchId: '', date: '', reference: '', notes: '', status: 'pending', items: [{ ...item, quantity: '1.5', purchasePrice: '-3' }] });
    expect(message(bad, 'supplierId')).toBe('Supplier is required');
    expect(message(bad, 'date')).toBe('Date is required');
    expect(message(bad, 'items.0.quantity')).toBe('Quantity must be a whole number.');
    expect(message(bad, 'items.0.purchasePrice')).toBe('Purchase price must be an amount in KSh of 0 or more with at most 2 decimals.');
  });
  it('a return needs a reason and items', () => {
    const r = createPurchaseReturnSchema.safeParse({ purchaseId: SUPPLIER, reason: ' ', items: [] });
    expect(message(r, 'reason')).toBe('Reason is required');
    expect(message(r, 'items')).toBe('At least one item to return is required');
  });
});
