import type { PosCatalogueItem } from './pos-catalogue.ts';
import type { SaleCheckLine } from './sale-checks.ts';
import {
  DEFAULT_REFILL_DAYS,
  lineMinimumAllowedCents,
  isLineLowMargin,
  maxWholePackages,
  unitPriceForMode,
  unitsOfLine,
  type CartLineInput,
  type Prescription,
  type SaleLineInput,
  type UnitMode,
} from './sales.ts';

/**
 * The till's cart as state (issue 9 item 4, seed 001 sections 3-5 and 8, decision 0026): adding and increasing,
 * quantity and price edits, the unit-mode switch, removing, and following the branch's stock — pure functions over
 * an array of lines, each answering the new lines or a problem with the specification's message. The arithmetic
 * (totals, discount, tax, payment checks) stays in sales.ts; this file only decides what the cart may become.
 *
 * Quantities are pieces, as in the sale request; a line in W holds whole packages' worth of pieces and its unit
 * price is the package price. The cashier types units of the line's mode.
 */

export interface TillLine {
  productId: string;
  name: string;
  sku: string | null;
  category: string | null;
  /** Pieces. */
  quantity: number;
  unitMode: UnitMode;
  packageSize: number;
  packageType: string;
  /** The price of one unit of the mode (one package in W). */
  unitPriceCents: number;
  /** The branch's list price of one piece when the line was added (or last refreshed). */
  listPriceCents: number;
  costCents: number;
  minMarginBasisPoints: number;
  minimumPriceCents: number | null;
  /** Sellable pieces in the branch, as the catalogue last said. */
  available: number;
  isDda: boolean;
  prescription: Prescription | null;
  needsRefill: boolean;
  refillDays: number;
  taxApplied: boolean;
  taxRateBasisPoints: number | null;
  /** ISO time the line was first added. */
  addedAt: string;
}

/** The problems of the cart, with the specification's words (seed 001 section 8). */
export const TILL_MESSAGES = {
  invalidProduct: 'Invalid product selected',
  noPrice: 'Cannot add {product}: No selling price set',
  outOfStock: 'Cannot add {product}: Out of stock',
  inactive: 'Cannot add {product}: Product is inactive',
  needMore: 'Cannot add {product}: Need {n}, only {m} available',
  ddaClientRequired: 'DDA products require a registered customer to be selected',
  onlyAvailable: 'Only {n} units available for {product}',
  stockShortage: 'Stock shortage',
  quantityMin: 'The quantity must be at least 1.',
  priceMin: 'The price cannot be below 0.',
  wholePackagesShort: 'Cannot switch to whole packages. Not enough stock.',
  wholePackagesReduce: 'Only {max} whole packages of {product} are in stock. Reduce the quantity to {max}?',
  stockIssues: 'Warning: Some items may have stock issues. Check quantities before completing.',
} as const;
export type TillMessageKey = keyof typeof TILL_MESSAGES;

export interface TillProblem {
  problem: TillMessageKey;
  values?: Record<string, string | number>;
}

export type TillResult = { lines: TillLine[]; outcome: 'added' | 'increased' | 'updated' | 'removed' } | TillProblem;

export function isTillProblem(result: TillResult | TillProblem): result is TillProblem {
  return 'problem' in result;
}

/** The English sentence of a problem with its values (the web translates the key and falls back to this). */
export function tillMessage(problem: TillProblem): string {
  return TILL_MESSAGES[problem.problem].replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    problem.values && name in problem.values ? String(problem.values[name]) : placeholder,
  );
}

/** The name shown for a product without one (seed 001 section 8). */
export const UNKNOWN_PRODUCT = 'Unknown Product';

const nameOf = (item: { name: string }) => (item.name.trim() === '' ? UNKNOWN_PRODUCT : item.name);

/** A new line of one piece (P) from a catalogue item. */
export function lineFromCatalogue(item: PosCatalogueItem, now: Date = new Date(), prescription: Prescription | null = null): TillLine {
  return {
    productId: item.id,
    name: nameOf(item),
    sku: item.sku,
    category: item.category,
    quantity: 1,
    unitMode: 'P',
    packageSize: Math.max(1, item.packageSize),
    packageType: item.packageType,
    unitPriceCents: item.priceCents,
    listPriceCents: item.priceCents,
    costCents: item.costCents,
    minMarginBasisPoints: item.minMarginBasisPoints,
    minimumPriceCents: item.minimumPriceCents,
    available: item.quantity,
    isDda: item.isDda,
    prescription,
    needsRefill: false,
    refillDays: DEFAULT_REFILL_DAYS,
    taxApplied: item.taxApplied,
    taxRateBasisPoints: item.taxRateBasisPoints,
    addedAt: now.toISOString(),
  };
}

/** Pieces in one unit of the line's mode. */
export function piecesPerUnit(line: Pick<TillLine, 'unitMode' | 'packageSize'>): number {
  return line.unitMode === 'W' ? Math.max(1, line.packageSize) : 1;
}

/** The units of its mode the line shows (pieces in P, packages in W). */
export function lineUnits(line: Pick<TillLine, 'quantity' | 'unitMode' | 'packageSize'>): number {
  return unitsOfLine(line.quantity, line.unitMode, line.packageSize);
}

/** How many units of its mode the branch's stock allows for this line. */
export function availableUnits(line: Pick<TillLine, 'available' | 'unitMode' | 'packageSize'>): number {
  return Math.floor(Math.max(0, line.available) / piecesPerUnit(line));
}

/**
 * Why a catalogue item cannot go into the cart, or null (seed 001 section 5, 'Adding to cart fails when'): no id,
 * no selling price, inactive or not sold in the branch, out of stock, a DDA product without a registered customer.
 */
export function addProblem(item: PosCatalogueItem | undefined, options: { hasRegisteredClient: boolean }): TillProblem | null {
  if (!item || !item.id) return { problem: 'invalidProduct' };
  const product = nameOf(item);
  if (item.priceCents <= 0) return { problem: 'noPrice', values: { product } };
  if (!item.isActive || !item.isAvailable) return { problem: 'inactive', values: { product } };
  if (item.quantity <= 0) return { problem: 'outOfStock', values: { product } };
  if (item.isDda && !options.hasRegisteredClient) return { problem: 'ddaClientRequired' };
  return null;
}

/**
 * Adds a catalogue item: a new line of one piece, or one more unit of the line already in the cart (seed 001
 * section 4, 'Adding to cart'). An increase beyond the stock answers 'Only {n} units available for {product}'.
 */
export function addToCart(
  lines: readonly TillLine[],
  item: PosCatalogueItem | undefined,
  options: { hasRegisteredClient: boolean; prescription?: Prescription | null; now?: Date },
): TillResult {
  const refused = addProblem(item, options);
  if (refused) return refused;
  const found = item!;
  const existing = lines.find((l) => l.productId === found.id);
  if (!existing) {
    return { lines: [...lines, lineFromCatalogue(found, options.now, options.prescription ?? null)], outcome: 'added' };
  }
  const step = piecesPerUnit(existing);
  const available = Math.max(0, found.quantity);
  if (existing.quantity + step > available) {
    return { problem: 'onlyAvailable', values: { n: availableUnits({ ...existing, available }), product: existing.name } };
  }
  return {
    lines: lines.map((l) =>
      l.productId === found.id ? { ...l, quantity: l.quantity + step, available, prescription: options.prescription ?? l.prescription } : l,
    ),
    outcome: 'increased',
  };
}

/** Sets the quantity in units of the line's mode: at least 1; above the stock is 'Stock shortage' and nothing changes. */
export function setLineUnits(lines: readonly TillLine[], productId: string, units: number): TillResult {
  const line = lines.find((l) => l.productId === productId);
  if (!line) return { problem: 'invalidProduct' };
  if (!Number.isFinite(units) || units < 1) return { problem: 'quantityMin' };
  const whole = Math.floor(units);
  const pieces = whole * piecesPerUnit(line);
  if (pieces > line.available) return { problem: 'stockShortage', values: { n: availableUnits(line), product: line.name } };
  return { lines: lines.map((l) => (l.productId === productId ? { ...l, quantity: pieces } : l)), outcome: 'updated' };
}

/** Sets the unit price (cents, of one unit of the mode): at least 0. Whether it is allowed is the caller's permission check. */
export function setLinePrice(lines: readonly TillLine[], productId: string, unitPriceCents: number): TillResult {
  const line = lines.find((l) => l.productId === productId);
  if (!line) return { problem: 'invalidProduct' };
  if (!Number.isFinite(unitPriceCents) || unitPriceCents < 0) return { problem: 'priceMin' };
  return { lines: lines.map((l) => (l.productId === productId ? { ...l, unitPriceCents: Math.round(unitPriceCents) } : l)), outcome: 'updated' };
}

/**
 * Switches a line between pieces (P) and whole packages (W), keeping the number of units the cashier sees: to W
 * the unit price is multiplied by the package size and each unit becomes a package; back to P it is divided again.
 * When the stock holds fewer whole packages than the line's units, the switch answers 'wholePackagesReduce' with
 * the maximum (the till offers it; `reduceToMax` applies it); when it holds none, it is refused with 'Cannot switch
 * to whole packages. Not enough stock.' (seed 001 sections 4 and 8).
 */
export function switchUnitMode(lines: readonly TillLine[], productId: string, mode: UnitMode, options: { reduceToMax?: boolean } = {}): TillResult {
  const line = lines.find((l) => l.productId === productId);
  if (!line) return { problem: 'invalidProduct' };
  if (line.unitMode === mode) return { lines: [...lines], outcome: 'updated' };
  const size = Math.max(1, line.packageSize);
  const units = lineUnits(line);
  let next: TillLine;
  if (mode === 'W') {
    const max = maxWholePackages(line.available, size);
    if (max < 1) return { problem: 'wholePackagesShort' };
    let packages = Math.max(1, Math.round(units));
    if (packages > max) {
      if (!options.reduceToMax) return { problem: 'wholePackagesReduce', values: { max, product: line.name } };
      packages = max;
    }
    next = { ...line, unitMode: 'W', quantity: packages * size, unitPriceCents: unitPriceForMode(line.unitPriceCents, 'W', size) };
  } else {
    next = { ...line, unitMode: 'P', quantity: Math.max(1, Math.round(units)), unitPriceCents: Math.round(line.unitPriceCents / size) };
  }
  return { lines: lines.map((l) => (l.productId === productId ? next : l)), outcome: 'updated' };
}

export function removeLine(lines: readonly TillLine[], productId: string): TillResult {
  return { lines: lines.filter((l) => l.productId !== productId), outcome: 'removed' };
}

/** Updates one line's fields that are not quantity or price (prescription, refill reminder). */
export function updateLine(lines: readonly TillLine[], productId: string, patch: Partial<Pick<TillLine, 'prescription' | 'needsRefill' | 'refillDays'>>): TillLine[] {
  return lines.map((l) => (l.productId === productId ? { ...l, ...patch } : l));
}

/**
 * Follows the branch's catalogue: each line's sellable stock as the catalogue says now (another till may just have
 * sold it), and — for a line whose price the cashier did not change — the branch's current price and cost (a price
 * changed on the product screen, or read again after the server answered 'The price of {product} is now ...').
 * Lines whose product is gone keep their last figures. Answers the same array when nothing changed.
 */
export function followStock(
  lines: readonly TillLine[],
  lookup: (productId: string) => Pick<PosCatalogueItem, 'quantity' | 'priceCents' | 'costCents' | 'minMarginBasisPoints' | 'minimumPriceCents'> | undefined,
): readonly TillLine[] {
  let changed = false;
  const next = lines.map((l) => {
    const item = lookup(l.productId);
    if (!item) return l;
    const follows = !isPriceOverridden(l);
    const priceMoved = follows && item.priceCents !== l.listPriceCents;
    if (item.quantity === l.available && !priceMoved && item.costCents === l.costCents) return l;
    changed = true;
    return {
      ...l,
      available: item.quantity,
      costCents: item.costCents,
      minMarginBasisPoints: item.minMarginBasisPoints,
      minimumPriceCents: item.minimumPriceCents,
      ...(priceMoved ? { listPriceCents: item.priceCents, unitPriceCents: unitPriceForMode(item.priceCents, l.unitMode, l.packageSize) } : {}),
    };
  });
  return changed ? next : lines;
}

/** Lines whose quantity is above the stock the till last heard of (flagged before payment). */
export function linesOverStock(lines: readonly TillLine[]): TillLine[] {
  return lines.filter((l) => l.quantity > l.available);
}

/** The minimum allowed price of a line per unit of its mode (sales.ts: item minimum, cost / (1 - margin), cost). */
export function tillLineMinimumCents(line: TillLine): number {
  return lineMinimumAllowedCents({
    costCents: line.costCents,
    minMarginPercent: line.minMarginBasisPoints / 100,
    minimumPriceCents: line.minimumPriceCents,
    unitMode: line.unitMode,
    packageSize: line.packageSize,
  });
}

/** Low Margin: the line's price is below its minimum allowed by more than 0.01. */
export function isTillLineLowMargin(line: TillLine): boolean {
  return isLineLowMargin(line.unitPriceCents, tillLineMinimumCents(line));
}

/** Has the cashier changed the line's price from the branch's list price? */
export function isPriceOverridden(line: TillLine): boolean {
  return line.unitPriceCents !== unitPriceForMode(line.listPriceCents, line.unitMode, line.packageSize);
}

/**
 * The cart's lines as the sale checks take them (sale-checks.ts, decision 0069): the stock the till last heard of,
 * and Low Margin only for a price the cashier changed (not the list price, nor the price a resumed sale was given at
 * suspension, `keptPrice`), as the server counts it.
 */
export function tillCheckLines(lines: readonly TillLine[], keptPrice?: (productId: string, unitMode: UnitMode) => number | undefined): SaleCheckLine[] {
  return lines.map((l) => ({
    productId: l.productId,
    productName: l.name,
    quantity: l.quantity,
    available: l.available,
    unitPriceCents: l.unitPriceCents,
    isDda: l.isDda,
    prescription: l.prescription,
    needsRefill: l.needsRefill,
    lowMargin: isPriceOverridden(l) && l.unitPriceCents !== keptPrice?.(l.productId, l.unitMode) && isTillLineLowMargin(l),
  }));
}

/** The figures computeCart needs. */
export function cartInputOf(lines: readonly TillLine[]): CartLineInput[] {
  return lines.map((l) => ({
    quantity: l.quantity,
    unitMode: l.unitMode,
    packageSize: l.packageSize,
    unitPriceCents: l.unitPriceCents,
    taxApplied: l.taxApplied,
    taxRateBasisPoints: l.taxRateBasisPoints,
  }));
}

/**
 * The lines of POST /api/sales (and of a suspension). The unit price is sent for every line when the user may not
 * override prices (`prices: 'all'`: a price that moved on the server since the catalogue was read is then refused
 * by name, 'The price of {product} is now ...'), and only for lines whose price the cashier changed when the user
 * may (`'overridden'`: a stale list price is not sent as an override; the expected total catches it).
 */
export function saleLinesOf(lines: readonly TillLine[], options: { prices?: 'all' | 'overridden' } = {}): SaleLineInput[] {
  const prices = options.prices ?? 'all';
  return lines.map((l) => ({
    productId: l.productId,
    quantity: l.quantity,
    unitMode: l.unitMode,
    ...(prices === 'all' || isPriceOverridden(l) ? { unitPriceCents: l.unitPriceCents } : {}),
    prescription: l.isDda ? l.prescription : null,
    needsRefill: l.needsRefill,
    ...(l.needsRefill ? { refillDays: l.refillDays } : {}),
  }));
}
