import { describe, expect, it } from 'vitest';
import { stockStatus } from './stock-status.ts';

describe('stock status (seed 000 section 4: "\'out\' (quantity 0, not sellable), \'low\' (quantity at or below the threshold), \'good\'")', () => {
  it('is out at quantity 0', () => {
    expect(stockStatus(0)).toBe('out');
  });

  it('is out below 0', () => {
    expect(stockStatus(-2)).toBe('out');
  });

  it('is low at the default threshold of 5', () => {
    expect(stockStatus(5)).toBe('low');
  });

  it('is low just above 0', () => {
    expect(stockStatus(1)).toBe('low');
  });

  it('is good above the threshold', () => {
    expect(stockStatus(6)).toBe('good');
  });

  it("uses the product's own threshold", () => {
    expect(stockStatus(10, 10)).toBe('low');
    expect(stockStatus(10, 9)).toBe('good');
  });
});
