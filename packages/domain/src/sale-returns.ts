import { z } from 'zod';
import { numberField } from './errors.ts';
import { SALE_LIMITS, SALE_STATUSES } from './sales.ts';
import { clientMadeIdSchema, text } from './text.ts';

/**
 * Returns and refunds of a sale, and voiding a sale the same day (issue 10 item 8, decision 0038): what a line may
 * still return, which batches the pieces go back to, the refund of a return to the cent, the sale's status after
 * it, and the schemas of /api/sales/:id/returns and /api/sales/:id/void. The server and the screen run the same
 * functions.
 */

/** Returned pieces go back on the shelf (into the batches they came from) or are written off as damaged. */
export const RETURN_CONDITIONS = ['restock', 'damaged'] as const;
export type ReturnCondition = (typeof RETURN_CONDITIONS)[number];

export const DEFAULT_RETURN_REASON = 'Customer return';
export const RETURN_PREFIX = 'RET-';

/** A return number: 'RET-' and at least 6 digits of the tenant's return counter. */
export function formatReturnNumber(counter: number): string {
  return `${RETURN_PREFIX}${String(counter).padStart(6, '0')}`;
}

/** What a line may still return: sold less returned, never below 0. */
export function returnableQuantity(sold: number, returned: number): number {
  return Math.max(0, sold - returned);
}

/**
 * The batches `quantity` pieces of a line go back to: each batch at most what the line took from it less what earlier
 * returns put back; the latest expiry first (the freshest back on the shelf; decision 0038). Returns null when the
 * batches cannot hold them (more than was sold).
 */
export function returnBatches<T extends { batchId: string; expiryDate: string | null; quantity: number; returned: number }>(
  takes: readonly T[],
  quantity: number,
): { batch: T; quantity: number }[] | null {
  const order = [...takes].sort((a, b) => {
    if (a.expiryDate === b.expiryDate) return a.batchId < b.batchId ? -1 : 1;
    if (a.expiryDate === null) return -1;
    if (b.expiryDate === null) return 1;
    return a.expiryDate < b.expiryDate ? 1 : -1;
  });
  let left = quantity;
  const out: { batch: T; quantity: number }[] = [];
  for (const b of order) {
    const room = b.quantity - b.returned;
    if (room <= 0 || left <= 0) continue;
    const n = Math.min(room, left);
    out.push({ batch: b, quantity: n });
    left -= n;
  }
  return left > 0 ? null : out;
}

/**
 * A line's refund for `returnedAfter` pieces of `sold` in all: its total (after its share of the discount, with its
 * tax) times the fraction returned, rounded on the cumulative amount, so the returns of a line always add up to its
 * total exactly.
 */
export function lineRefundCents(lineTotalCents: number, sold: number, returnedBefore: number, returnedNow: number): number {
  const share = (n: number) => Math.round((lineTotalCents * n) / sold);
  return share(returnedBefore + returnedNow) - share(returnedBefore);
}

/**
 * The refund of a whole return: the lines' refunds, and when the sale is then returned in full, what rounding the
 * total added (so a full return gives back exactly the sale's total).
 */
export function returnRefundCents(lineRefunds: readonly number[], fullyReturnedAfter: boolean, roundingCents: number): number {
  return lineRefunds.reduce((a, b) => a + b, 0) + (fullyReturnedAfter ? roundingCents : 0);
}

/** The sale's status once `returned` of each line's `sold` pieces are returned. */
export function statusAfterReturns(lines: readonly { sold: number; returned: number }[]): 'completed' | 'partially_returned' | 'returned' {
  const any = lines.some((l) => l.returned > 0);
  if (!any) return 'completed';
  return lines.every((l) => l.returned >= l.sold) ? 'returned' : 'partially_returned';
}

/**
 * How a refund is paid: first it lowers what the client still owes on the sale (a refund to credit), the rest is paid
 * out in the chosen method.
 */
export function splitRefund(refundCents: number, balanceDueCents: number): { creditCents: number; paidOutCents: number } {
  const creditCents = Math.min(refundCents, Math.max(0, balanceDueCents));
  return { creditCents, paidOutCents: refundCents - creditCents };
}

// ------------------------------------------------------------------------------------------- schemas

export const saleReturnLineInputSchema = z.strictObject({
  line: numberField('The line', 1, SALE_LIMITS.lines, { whole: true }),
  quantity: numberField('The quantity to return', 1, SALE_LIMITS.quantity, { whole: true }),
  condition: z.enum(RETURN_CONDITIONS, { error: 'Choose restock or damaged.' }).default('restock'),
});

export const createSaleReturnSchema = z.strictObject({
  /** Made by the browser; also the Idempotency-Key. */
  id: clientMadeIdSchema,
  lines: z.array(saleReturnLineInputSchema).min(1, 'Choose at least one item to return.').max(SALE_LIMITS.lines),
  refundMethod: text(SALE_LIMITS.method, 'The refund method').optional(),
  refundReference: text(SALE_LIMITS.reference, 'The reference').optional(),
  reason: text(300, 'The reason').optional(),
});
export type CreateSaleReturnInput = z.input<typeof createSaleReturnSchema>;
export type CreateSaleReturn = z.output<typeof createSaleReturnSchema>;

export const voidSaleSchema = z.strictObject({
  id: z.uuid(),
  reason: text(300, 'The reason').optional(),
  refundMethod: text(SALE_LIMITS.method, 'The refund method').optional(),
});
export type VoidSaleInput = z.input<typeof voidSaleSchema>;

export const saleReturnSchema = z.object({
  id: z.string(),
  returnNumber: z.string(),
  saleId: z.string(),
  invoiceNumber: z.string(),
  kind: z.enum(['return', 'void']),
  reason: z.string(),
  refundCents: z.number().int(),
  /** The part that lowered what the client owed on the sale. */
  creditCents: z.number().int(),
  /** The part paid out in refundMethod. */
  paidOutCents: z.number().int(),
  refundMethod: z.string().nullable(),
  refundReference: z.string().nullable(),
  createdBy: z.object({ id: z.string().nullable(), name: z.string() }),
  createdAt: z.string(),
  items: z.array(
    z.object({
      line: z.number().int(),
      productId: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      condition: z.enum(RETURN_CONDITIONS),
      refundCents: z.number().int(),
      batches: z.array(z.object({ batchId: z.string(), batchNumber: z.string().nullable(), expiryDate: z.string().nullable(), quantity: z.number().int() })),
    }),
  ),
  saleStatus: z.enum(SALE_STATUSES),
});
export type SaleReturn = z.infer<typeof saleReturnSchema>;

export const saleReturnListResponseSchema = z.object({ items: z.array(saleReturnSchema) });
export type SaleReturnListResponse = z.infer<typeof saleReturnListResponseSchema>;
