import { describe, expect, it } from 'vitest';
import type { PosCatalogueItem } from './pos-catalogue.ts';
import {
  addToCart,
  followStock,
  isTillLineLowMargin,
  isTillProblem,
  lineUnits,
  linesOverStock,
  saleLinesOf,
  setLinePrice,
  setLineUnits,
  switchUnitMode,
  tillMessage,
  type TillLine,
  type TillResult,
} from './till-cart.ts';

function item(overrides: Partial<PosCatalogueItem> = {}): PosCatalogueItem {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Panadol 500mg',
    sku: 'PAN-500',
    barcodes: ['6001234567890'],
    category: 'Analgesics',
    packageSize: 10,
    packageType: 'box',
    isDda: false,
    isActive: true,
    isAvailable: true,
    taxApplied: false,
    taxRateBasisPoints: null,
    priceCents: 1000,
    costCents: 600,
    minMarginBasisPoints: 2200,
    minimumPriceCents: null,
    quantity: 25,
    reservedQuantity: 0,
    lowStockThreshold: 5,
    nearestExpiry: null,
    ...overrides,
  };
}

const walkIn = { hasRegisteredClient: false };

function linesOf(result: TillResult): TillLine[] {
  if (isTillProblem(result)) throw new Error(tillMessage(result));
  return result.lines;
}

describe('adding to the cart', () => {
  it('adds one piece, then increases the same line', () => {
    const first = addToCart([], item(), walkIn);
    expect(isTillProblem(first) ? null : first.outcome).toBe('added');
    const second = addToCart(linesOf(first), item(), walkIn);
    expect(isTillProblem(second) ? null : second.outcome).toBe('increased');
    expect(linesOf(second)).toHaveLength(1);
    expect(linesOf(second)[0]!.quantity).toBe(2);
  });

  it('refuses with the specification messages', () => {
    const refuse = (i: PosCatalogueItem | undefined, hasRegisteredClient = false) => {
      const result = addToCart([], i, { hasRegisteredClient });
      return isTillProblem(result) ? tillMessage(result) : 'added';
    };
    expect(refuse(undefined)).toBe('Invalid product selected');
    expect(refuse(item({ priceCents: 0 }))).toBe('Cannot add Panadol 500mg: No selling price set');
    expect(refuse(item({ quantity: 0 }))).toBe('Cannot add Panadol 500mg: Out of stock');
    expect(refuse(item({ isActive: false }))).toBe('Cannot add Panadol 500mg: Product is inactive');
    expect(refuse(item({ isDda: true }))).toBe('DDA products require a registered customer to be selected');
    expect(refuse(item({ isDda: true }), true)).toBe('added');
  });

  it('will not increase beyond the stock', () => {
    const lines = linesOf(addToCart([], item({ quantity: 1 }), walkIn));
    const result = addToCart(lines, item({ quantity: 1 }), walkIn);
    expect(isTillProblem(result) && tillMessage(result)).toBe('Only 1 units available for Panadol 500mg');
  });
});

describe('editing quantity and price', () => {
  const one = () => linesOf(addToCart([], item(), walkIn));

  it('sets units, at least 1, never above the stock', () => {
    const id = item().id;
    expect(linesOf(setLineUnits(one(), id, 5))[0]!.quantity).toBe(5);
    const zero = setLineUnits(one(), id, 0);
    expect(isTillProblem(zero) && zero.problem).toBe('quantityMin');
    const over = setLineUnits(one(), id, 26);
    expect(isTillProblem(over) && tillMessage(over)).toBe('Stock shortage');
  });

  it('sets a price of 0 or more and flags Low Margin', () => {
    const id = item().id;
    const negative = setLinePrice(one(), id, -1);
    expect(isTillProblem(negative)).toBe(true);
    // cost 600 at 22 % margin: minimum 769.23 -> 770 cents.
    expect(isTillLineLowMargin(linesOf(setLinePrice(one(), id, 769))[0]!)).toBe(false);
    expect(isTillLineLowMargin(linesOf(setLinePrice(one(), id, 700))[0]!)).toBe(true);
  });
});

describe('unit mode', () => {
  const id = item().id;

  it('to W multiplies the price and keeps the units; back to P divides', () => {
    const lines = linesOf(setLineUnits(linesOf(addToCart([], item(), walkIn)), id, 2));
    const whole = linesOf(switchUnitMode(lines, id, 'W'))[0]!;
    expect(whole).toMatchObject({ unitMode: 'W', quantity: 20, unitPriceCents: 10_000 });
    expect(lineUnits(whole)).toBe(2);
    const back = linesOf(switchUnitMode([whole], id, 'P'))[0]!;
    expect(back).toMatchObject({ unitMode: 'P', quantity: 2, unitPriceCents: 1000 });
  });

  it('offers the most whole packages, and refuses when there is none', () => {
    const lines = linesOf(setLineUnits(linesOf(addToCart([], item(), walkIn)), id, 3));
    const short = switchUnitMode(lines, id, 'W');
    expect(isTillProblem(short) && short).toMatchObject({ problem: 'wholePackagesReduce', values: { max: 2 } });
    expect(linesOf(switchUnitMode(lines, id, 'W', { reduceToMax: true }))[0]!.quantity).toBe(20);
    const few = linesOf(addToCart([], item({ quantity: 9 }), walkIn));
    const refused = switchUnitMode(few, id, 'W');
    expect(isTillProblem(refused) && tillMessage(refused)).toBe('Cannot switch to whole packages. Not enough stock.');
  });
});

describe('following the stock', () => {
  it('flags lines another till sold out, and keeps the array when nothing moved', () => {
    const lines = linesOf(setLineUnits(linesOf(addToCart([], item(), walkIn)), item().id, 4));
    expect(followStock(lines, () => item())).toBe(lines);
    const after = followStock(lines, () => item({ quantity: 2 }));
    expect(linesOverStock(after)).toHaveLength(1);
    expect(saleLinesOf(after)[0]).toMatchObject({ productId: item().id, quantity: 4, unitMode: 'P', unitPriceCents: 1000 });
  });

  it('sends the price of every line, or only the changed ones for a user who may override prices', () => {
    const lines = linesOf(addToCart(linesOf(addToCart([], item(), walkIn)), item({ id: '00000000-0000-4000-8000-000000000002', name: 'Other' }), walkIn));
    const changed = linesOf(setLinePrice(lines, item().id, 900));
    expect(saleLinesOf(changed).map((l) => l.unitPriceCents)).toEqual([900, 1000]);
    expect(saleLinesOf(changed, { prices: 'overridden' }).map((l) => l.unitPriceCents)).toEqual([900, undefined]);
  });

  it('follows a new list price, but not over a price the cashier changed', () => {
    const lines = linesOf(addToCart([], item(), walkIn));
    expect(followStock(lines, () => item({ priceCents: 1200 }))[0]!.unitPriceCents).toBe(1200);
    const changed = linesOf(setLinePrice(lines, item().id, 900));
    expect(followStock(changed, () => item({ priceCents: 1200 }))[0]!.unitPriceCents).toBe(900);
  });
});
