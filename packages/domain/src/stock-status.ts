/** Stock status per product and branch (seed 000 section 4; seed 001 section 9; seed 002 section 9). */

/** The default low-stock threshold (seed 000 section 9: 5, product fallback 5). */
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;

export type StockStatus = 'out' | 'low' | 'good';

/** 'out' at 0 (not sellable), 'low' above 0 and at or below the threshold, 'good' above it. */
export function stockStatus(quantity: number, threshold: number = DEFAULT_LOW_STOCK_THRESHOLD): StockStatus {
  if (quantity <= 0) return 'out';
  if (quantity <= threshold) return 'low';
  return 'good';
}

/** A batch is expired once its expiry date is before today: it may still be sold on the expiry date itself. */
export function isExpired(expiryDate: string | null, today: string): boolean {
  return expiryDate !== null && expiryDate < today;
}
