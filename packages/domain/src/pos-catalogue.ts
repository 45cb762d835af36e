import { z } from 'zod';

/**
 * The till's catalogue of one branch (issue 9, item 3): every active product of the branch with what the till needs
 * to search, price and check it, loaded once by the browser (GET /api/pos/catalogue) and kept current by the live
 * stock events. The search over it runs in the browser (searchCatalogue, below), by the rules of seed 001 section 5.
 */

export const posCatalogueItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  category: z.string().nullable(),
  packageSize: z.number().int(),
  packageType: z.string(),
  isDda: z.boolean(),
  isActive: z.boolean(),
  /** False when the product is not sold in this branch (no row, unavailable, restricted). */
  isAvailable: z.boolean(),
  taxApplied: z.boolean(),
  taxRateBasisPoints: z.number().int().nullable(),
  /** The branch's selling price of one piece. */
  priceCents: z.number().int(),
  /** The branch's purchase (cost) price of one piece. */
  costCents: z.number().int(),
  /** The margin in force (branch, product, settings), basis points. */
  minMarginBasisPoints: z.number().int(),
  /** The item's own minimum price of one piece, when it has one. */
  minimumPriceCents: z.number().int().nullable(),
  /** Sellable pieces: on hand, not reserved, not in an expired batch. */
  quantity: z.number().int(),
  reservedQuantity: z.number().int(),
  lowStockThreshold: z.number().int(),
  /** Earliest expiry of an unexpired batch with stock. */
  nearestExpiry: z.string().nullable(),
});
export type PosCatalogueItem = z.infer<typeof posCatalogueItemSchema>;

export const posCatalogueQuerySchema = z.strictObject({ branchId: z.uuid().optional() });

export const posCatalogueResponseSchema = z.object({
  branchId: z.string(),
  /** When the server read it (ISO 8601): events older than this are already in it. */
  at: z.string(),
  items: z.array(posCatalogueItemSchema),
});
export type PosCatalogueResponse = z.infer<typeof posCatalogueResponseSchema>;
