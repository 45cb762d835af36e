/**
 * Prices and margins of seed 000 section 5 and seed 001 section 5, in integer cents.
 */

/** The default minimum margin, percent (seed 001 section 9). */
export const DEFAULT_MIN_MARGIN_PERCENT = 22;
/** A margin warning shows this many points below the minimum (seed 001 section 9). */
export const DEFAULT_MARGIN_TOLERANCE = 5;
/** A price more than 0.01 (one cent) below the minimum allowed is flagged Low Margin (seed 001 section 9). */
export const LOW_PRICE_TOLERANCE_CENTS = 1;

/**
 * Minimum selling price = purchase price / (1 - margin/100), rounded up to the cent. The margin must be above 0
 * and below 100, otherwise the purchase price is returned (seed 000 section 5).
 */
export function minimumSellingPriceCents(purchasePriceCents: number, marginPercent: number): number {
  if (!(marginPercent > 0 && marginPercent < 100)) return purchasePriceCents;
  // Basis points keep the division exact: cost * 10000 / (10000 - margin in basis points).
  const numerator = Math.round(purchasePriceCents) * 10_000;
  const divisor = 10_000 - Math.round(marginPercent * 100);
  const quotient = Math.floor(numerator / divisor);
  return numerator - quotient * divisor > 0 ? quotient + 1 : quotient;
}

const round2 = (value: number) => Math.sign(value) * Math.round(Math.abs(value) * 100) / 100;

/** Margin = (sell - buy) / sell, as a percentage with 2 decimals; null when the selling price is 0. */
export function marginPercent(sellCents: number, buyCents: number): number | null {
  if (sellCents === 0) return null;
  return round2(((sellCents - buyCents) / sellCents) * 100);
}

/** Markup = (sell - buy) / buy, as a percentage with 2 decimals; null when the buying price is 0. */
export function markupPercent(sellCents: number, buyCents: number): number | null {
  if (buyCents === 0) return null;
  return round2(((sellCents - buyCents) / buyCents) * 100);
}

/**
 * The minimum allowed price of an item: the highest of its minimum price, cost / (1 - minimum margin), and
 * cost (seed 001 section 5).
 */
export function minimumAllowedPriceCents(input: {
  minimumPriceCents?: number | null;
  costCents: number;
  minMarginPercent?: number;
}): number {
  const margin = input.minMarginPercent ?? DEFAULT_MIN_MARGIN_PERCENT;
  return Math.max(input.minimumPriceCents ?? 0, minimumSellingPriceCents(input.costCents, margin), input.costCents);
}

/** Low Margin: the price is below the minimum allowed by more than 0.01 (one cent). */
export function isLowMargin(priceCents: number, minimumAllowedCents: number): boolean {
  return minimumAllowedCents - priceCents > LOW_PRICE_TOLERANCE_CENTS;
}

/**
 * Margin warning: the margin is below the minimum minus the tolerance (5 points). No margin at all (a price
 * of 0) warns too.
 */
export function marginWarning(
  marginPct: number | null,
  minMargin: number = DEFAULT_MIN_MARGIN_PERCENT,
  tolerance: number = DEFAULT_MARGIN_TOLERANCE,
): boolean {
  if (marginPct === null) return true;
  return marginPct < minMargin - tolerance;
}
