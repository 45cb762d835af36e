import { describe, expect, it } from 'vitest';
import {
  isLowMargin,
  marginPercent,
  marginWarning,
  markupPercent,
  minimumAllowedPriceCents,
  minimumSellingPriceCents,
} from './margins.ts';

describe('minimum selling price (seed 000 section 5: "purchase price divided by (1 minus margin/100)")', () => {
  it('divides the purchase price by 1 - margin/100', () => {
    expect(minimumSellingPriceCents(7_800, 22)).toBe(10_000);
  });

  it('rounds up to the cent', () => {
    expect(minimumSellingPriceCents(10_000, 22)).toBe(12_821); // 12,820.51...
  });

  it('returns the purchase price when the margin is 0 or less', () => {
    expect(minimumSellingPriceCents(10_000, 0)).toBe(10_000);
    expect(minimumSellingPriceCents(10_000, -5)).toBe(10_000);
  });

  it('returns the purchase price when the margin is 100 or more', () => {
    expect(minimumSellingPriceCents(10_000, 100)).toBe(10_000);
    expect(minimumSellingPriceCents(10_000, 150)).toBe(10_000);
  });

  it('accepts a fractional margin', () => {
    expect(minimumSellingPriceCents(10_000, 12.5)).toBe(11_429); // 11,428.57...
  });
});

describe('margin and markup (seed 000 section 5: "shown as percentages with 2 decimals")', () => {
  it('computes margin as (sell - buy) / sell', () => {
    expect(marginPercent(15_000, 10_000)).toBe(33.33);
  });

  it('computes markup as (sell - buy) / buy', () => {
    expect(markupPercent(15_000, 10_000)).toBe(50);
  });

  it('rounds to 2 decimals', () => {
    expect(markupPercent(10_000, 3_000)).toBe(233.33);
    expect(marginPercent(20_000, 10_001)).toBe(50); // 49.995 rounds away from zero
  });

  it('gives a negative margin when selling below cost', () => {
    expect(marginPercent(8_000, 10_000)).toBe(-25);
  });

  it('has no margin when the selling price is 0', () => {
    expect(marginPercent(0, 10_000)).toBeNull();
  });

  it('has no markup when the buying price is 0', () => {
    expect(markupPercent(10_000, 0)).toBeNull();
  });
});

describe('minimum allowed price (seed 001 section 5: "the highest of the item\'s minimum price, cost / (1 - minimum margin), and cost")', () => {
  it('uses the 22 % default margin', () => {
    expect(minimumAllowedPriceCents({ costCents: 7_800 })).toBe(10_000);
  });

  it("uses the item's minimum price when it is higher", () => {
    expect(minimumAllowedPriceCents({ costCents: 7_800, minimumPriceCents: 12_000 })).toBe(12_000);
  });

  it("uses the item's own minimum margin", () => {
    expect(minimumAllowedPriceCents({ costCents: 8_000, minMarginPercent: 50 })).toBe(16_000);
  });

  it('never goes below cost, even with no margin', () => {
    expect(minimumAllowedPriceCents({ costCents: 8_000, minMarginPercent: 0, minimumPriceCents: 100 })).toBe(8_000);
  });
});

describe('low margin flag (seed 001 section 5: "below it by more than 0.01")', () => {
  it('flags a price more than one cent below the minimum', () => {
    expect(isLowMargin(9_998, 10_000)).toBe(true);
  });

  it('does not flag a price exactly one cent below the minimum', () => {
    expect(isLowMargin(9_999, 10_000)).toBe(false);
  });

  it('does not flag a price at or above the minimum', () => {
    expect(isLowMargin(10_000, 10_000)).toBe(false);
    expect(isLowMargin(12_000, 10_000)).toBe(false);
  });
});

describe('margin warning (seed 001 section 5: "below the minimum minus the tolerance (5 points)")', () => {
  it('warns below minimum minus tolerance', () => {
    expect(marginWarning(16.99, 22)).toBe(true);
  });

  it('does not warn at exactly minimum minus tolerance', () => {
    expect(marginWarning(17, 22)).toBe(false);
  });

  it('uses the given tolerance', () => {
    expect(marginWarning(20, 22, 1)).toBe(true);
  });

  it('warns when there is no margin at all', () => {
    expect(marginWarning(null, 22)).toBe(true);
  });
});
