import { describe, expect, it } from 'vitest';
import {
  branchStockStatus,
  createProductSchema,
  effectiveMinMarginBasisPoints,
  isOfferedInBranch,
  priceFigures,
  productListQuerySchema,
  touchesPrices,
  updateProductSchema,
} from './products.ts';

describe('price figures (seed 000 section 5)', () => {
  it('minimum selling price = purchase / (1 - margin/100), rounded up to the cent; margin and markup to 2 decimals', () => {
    // KSh 100.00 at the default 22 %: 100 / 0.78 = 128.2051... -> 128.21
    expect(priceFigures(15_000, 10_000, 2200)).toEqual({ minimumSellingPriceCents: 12_821, marginPercent: 33.33, markupPercent: 50 });
  });

  it('margin null at a selling price of 0, markup null at a purchase price of 0', () => {
    expect(priceFigures(0, 500, 2200).marginPercent).toBeNull();
    expect(priceFigures(500, 0, 2200).markupPercent).toBeNull();
    expect(priceFigures(500, 0, 2200).minimumSellingPriceCents).toBe(0);
  });

  it('the margin in force is the branch, else the product, else the settings default', () => {
    expect(effectiveMinMarginBasisPoints(3000, 2500, 22)).toBe(3000);
    expect(effectiveMinMarginBasisPoints(null, 2500, 22)).toBe(2500);
    expect(effectiveMinMarginBasisPoints(null, null, 22)).toBe(2200);
    expect(effectiveMinMarginBasisPoints(undefined, null, 30)).toBe(3000);
  });
});

describe('stock status usage', () => {
  it('uses the branch threshold, else the product threshold, else 5', () => {
    expect(branchStockStatus(0, 10, 3)).toBe('out');
    expect(branchStockStatus(10, 10, 3)).toBe('low');
    expect(branchStockStatus(4, null, 3)).toBe('good');
    expect(branchStockStatus(3, null, 3)).toBe('low');
    expect(branchStockStatus(5, null, null)).toBe('low');
    expect(branchStockStatus(6, null, null)).toBe('good');
  });
});

describe('product schemas', () => {
  it('fills the defaults of a new product', () => {
    const parsed = createProductSchema.parse({ name: '  Panadol 500mg  ' });
    expect(parsed).toMatchObject({
      name: 'Panadol 500mg',
      packageSize: 1,
      packageType: 'pieces',
      taxRateBasisPoints: 1600,
      lowStockThreshold: 5,
      reorderLevel: 2,
      isActive: true,
      sellingPriceCents: 0,
      barcodes: [],
    });
  });

  it('refuses negative prices, fractional quantities, margins outside (0, 100) and unknown fields', () => {
    expect(createProductSchema.safeParse({ name: 'A', sellingPriceCents: -1 }).success).toBe(false);
    expect(createProductSchema.safeParse({ name: 'A', sellingPriceCents: 10.5 }).success).toBe(false);
    expect(createProductSchema.safeParse({ name: 'A', packageSize: 0 }).success).toBe(false);
    expect(createProductSchema.safeParse({ name: 'A', lowStockThreshold: 1.5 }).success).toBe(false);
    expect(createProductSchema.safeParse({ name: 'A', minMarginBasisPoints: 0 }).success).toBe(false);
    expect(createProductSchema.safeParse({ name: 'A', minMarginBasisPoints: 10_000 }).success).toBe(false);
    expect(createProductSchema.safeParse({ name: 'A', colour: 'red' }).success).toBe(false);
    expect(createProductSchema.safeParse({ name: '' }).success).toBe(false);
  });

  it('knows which writes touch prices', () => {
    expect(touchesPrices(updateProductSchema.parse({ name: 'B' }))).toBe(false);
    expect(touchesPrices(updateProductSchema.parse({ sellingPriceCents: 100 }))).toBe(true);
    expect(touchesPrices(updateProductSchema.parse({ minMarginBasisPoints: null }))).toBe(true);
  });

  it('parses list queries: booleans as text, limit at most 200', () => {
    expect(productListQuerySchema.parse({ active: 'true', dda: 'false', limit: '20' })).toMatchObject({
      active: true,
      dda: false,
      limit: 20,
      offset: 0,
      sort: 'name',
      order: 'asc',
    });
    expect(productListQuerySchema.safeParse({ limit: '201' }).success).toBe(false);
    expect(productListQuerySchema.safeParse({ status: 'empty' }).success).toBe(false);
  });

  it('an empty restriction list offers the product everywhere', () => {
    expect(isOfferedInBranch([], 'b1')).toBe(true);
    expect(isOfferedInBranch(['b2'], 'b1')).toBe(false);
    expect(isOfferedInBranch(['b1'], 'b1')).toBe(true);
  });
});
