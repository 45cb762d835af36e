import { z } from 'zod';
import { fieldMessage, numberField } from './errors.ts';
import {
  discountInputSchema,
  paymentMethodKey,
  SALE_LIMITS,
  saleBatchSchema,
  saleLineInputSchema,
  saleLineSchema,
  type SaleProblem,
} from './sales.ts';
import { parseMoneyToCents } from './money.ts';
import { clientMadeIdSchema, text } from './text.ts';

/**
 * Suspending a sale with its stock reserved, and resuming it (seed 001 sections 3-5, 8 and 9, decision 0028): the
 * suspend checks with the specification's messages, the reservation id, the suspend modal's payment methods, and
 * the request and response schemas of /api/suspended-sales. The till's Suspend dialog and the server run the same
 * checks; the server recomputes the total from its own prices and reserves the stock batch by batch (FEFO).
 */

// ------------------------------------------------------------------------------------------- constants

/** The suspend modal offers these methods (seed 001 section 9). */
export const SUSPEND_PAYMENT_METHODS = ['Cash', 'MPESA', 'Card', 'Bank Transfer', 'Credit'] as const;
/** The reason is optional, at most 200 characters (seed 001 section 9). */
export const SUSPEND_REASON_MAX = 200;
/** The reason when none is given (seed 001 section 5). */
export const DEFAULT_SUSPEND_REASON = 'Customer requested suspension';
/** Reservation ids: 'RES-' + timestamp + random suffix (seed 001 section 3). */
export const RESERVATION_PREFIX = 'RES-';
/** The suspended sale's document version (seed 001 section 3). */
export const SUSPENDED_SALE_VERSION = '2.0';
/** The reservation summary of the Suspend dialog shows at most this many items. */
export const SUSPEND_SUMMARY_ITEMS = 3;

const RESERVATION_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * A reservation id: 'RES-', the time in milliseconds, '-', and 6 random characters (no 0/O or 1/I). `random` returns
 * a number in [0, 1) (tests pin it).
 */
export function newReservationId(now: Date = new Date(), random: () => number = Math.random): string {
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += RESERVATION_ALPHABET[Math.floor(random() * RESERVATION_ALPHABET.length)]!;
  return `${RESERVATION_PREFIX}${now.getTime()}-${suffix}`;
}

export const RESERVATION_ID_PATTERN = /^RES-\d{10,16}-[A-Z0-9]{4,12}$/;

/** The methods the Suspend dialog offers: the modal's five, then the settings' others (matched by letters only). */
export function suspendPaymentMethods(settingsMethods: readonly string[] | null | undefined): string[] {
  const methods: string[] = [...SUSPEND_PAYMENT_METHODS];
  for (const m of settingsMethods ?? []) {
    if (m.trim() !== '' && !methods.some((known) => paymentMethodKey(known) === paymentMethodKey(m))) methods.push(m.trim());
  }
  return methods;
}

/** The reason stored: the text given, trimmed, or the default. */
export function suspendReason(reason: string | null | undefined): string {
  const trimmed = reason?.trim() ?? '';
  return trimmed === '' ? DEFAULT_SUSPEND_REASON : trimmed;
}

// ------------------------------------------------------------------------------------------- checks

export interface SuspendLine {
  productName: string;
  quantity: number;
  /** Sellable pieces in the branch. */
  available: number;
  lowMargin: boolean;
}

/**
 * The checks of suspending a sale, in the order of seed 001 section 5: a non-empty cart ('Cart is empty'); a
 * registered customer (not Walk-in: an id); no stock problem ('Insufficient stock for {product}. Available: {n},
 * Requested: {n}', per product over all its lines); amount paid not above the total; no low-margin item when
 * margins are enforced and suspending with low margin is not allowed. The first problem, or null.
 */
export function checkSuspension(input: {
  lines: readonly SuspendLine[];
  clientId: string | null | undefined;
  amountPaidCents: number;
  totalCents: number;
  enforceMargins: boolean;
  allowSuspendWithLowMargin: boolean;
}): SaleProblem | null {
  if (input.lines.length === 0) return { code: 'SALE_CART_EMPTY' };
  if (!input.clientId) return { code: 'SUSPEND_CLIENT_REQUIRED' };
  const requested = new Map<string, { quantity: number; available: number }>();
  for (const l of input.lines) {
    const known = requested.get(l.productName);
    requested.set(l.productName, { quantity: (known?.quantity ?? 0) + l.quantity, available: l.available });
  }
  for (const [product, r] of requested) {
    if (r.quantity > r.available) return { code: 'INSUFFICIENT_STOCK', values: { product, available: Math.max(0, r.available), requested: r.quantity } };
  }
  if (input.amountPaidCents > input.totalCents) return { code: 'SUSPEND_AMOUNT_ABOVE_TOTAL' };
  if (input.enforceMargins && !input.allowSuspendWithLowMargin && input.lines.some((l) => l.lowMargin)) return { code: 'SUSPEND_LOW_MARGIN' };
  return null;
}

/**
 * The reservation's own input check (seed 001 section 5, Reservation input check): cart not empty, client, and per
 * item a product id, a name, a quantity above 0 and a price above 0; at least one item to reserve.
 */
export function checkReservationInput(
  items: readonly { productId?: string | null; name?: string | null; quantity: number; priceCents: number }[],
  clientId: string | null | undefined,
): SaleProblem | null {
  if (items.length === 0) return { code: 'SALE_CART_EMPTY' };
  if (!clientId) return { code: 'SUSPEND_CLIENT_MISSING' };
  const valid = items.filter((i) => Boolean(i.productId) && Boolean(i.name?.trim()) && i.quantity > 0 && i.priceCents > 0);
  if (valid.length !== items.length || valid.length === 0) return { code: 'SUSPEND_NO_ITEMS' };
  return null;
}

// ------------------------------------------------------------------------------------------- schemas

/**
 * POST /api/suspended-sales. `id` is the UUID the till made when the Suspend dialog opened (also the
 * Idempotency-Key); the lines are the cart's as for a sale; `clientId` must be a registered customer.
 */
export const suspendSaleSchema = z.strictObject({
  id: clientMadeIdSchema,
  branchId: z.uuid().optional(),
  clientId: z.uuid().nullable().optional(),
  lines: z.array(saleLineInputSchema).max(SALE_LIMITS.lines, fieldMessage('atMost', 'A sale', { max: SALE_LIMITS.lines, unit: ' lines' })),
  discount: discountInputSchema.nullable().optional(),
  paymentMethod: text(SALE_LIMITS.method, 'The payment method').default('Cash'),
  amountPaidCents: numberField('The amount paid', 0, SALE_LIMITS.priceCents, { whole: true }).default(0),
  reason: text(SUSPEND_REASON_MAX, 'The reason').nullable().optional(),
  expectedTotalCents: numberField('The expected total', 0, SALE_LIMITS.saleCents, { whole: true }).optional(),
  /**
   * Suspending a resumed sale again: the earlier suspension's reservation is released and it is closed, in the same
   * transaction as the new reservation (decision 0028).
   */
  replacesSuspendedSaleId: z.uuid().optional(),
});
export type SuspendSaleInput = z.input<typeof suspendSaleSchema>;
export type SuspendSale = z.output<typeof suspendSaleSchema>;

export const suspendedSaleIdParamsSchema = z.strictObject({ id: z.uuid() });

const reservedBatchSchema = saleBatchSchema;

/** A suspended line: a sale's line as far as it is known before completing (no cost, tax or batch takes yet). */
export const suspendedSaleLineSchema = saleLineSchema.pick({
  line: true,
  productId: true,
  name: true,
  sku: true,
  quantity: true,
  unitMode: true,
  packageSize: true,
  unitPriceCents: true,
  listPriceCents: true,
  totalCents: true,
  isDda: true,
  prescription: true,
  needsRefill: true,
  refillDays: true,
  lowMargin: true,
});
export type SuspendedSaleLine = z.infer<typeof suspendedSaleLineSchema>;

/** Which batches hold a product's reserved pieces (FEFO at suspension). */
export const reservationSchema = z.object({
  productId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  batches: z.array(reservedBatchSchema),
});
export type Reservation = z.infer<typeof reservationSchema>;

export const suspendedSaleSummarySchema = z.object({
  id: z.string(),
  reservationId: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  client: z.object({ id: z.string(), name: z.string(), phone: z.string().nullable(), location: z.string().nullable() }),
  clientName: z.string(),
  clientPhone: z.string().nullable(),
  totalCents: z.number().int(),
  paymentMethod: z.string(),
  amountPaidCents: z.number().int(),
  paymentStatus: z.enum(['unpaid', 'partial', 'paid']),
  notes: z.string(),
  status: z.literal('suspended'),
  cartItemCount: z.number().int(),
  suspendedAt: z.string(),
  suspendedBy: z.object({ id: z.string().nullable(), name: z.string(), email: z.string().nullable() }),
});
export type SuspendedSaleSummary = z.infer<typeof suspendedSaleSummarySchema>;

export const suspendedSaleSchema = suspendedSaleSummarySchema.extend({
  version: z.string(),
  stockReserved: z.boolean(),
  subtotalCents: z.number().int(),
  discount: discountInputSchema.nullable(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  lines: z.array(suspendedSaleLineSchema),
  reservations: z.array(reservationSchema),
});
export type SuspendedSale = z.infer<typeof suspendedSaleSchema>;

export const suspendedSaleListQuerySchema = z.strictObject({
  branchId: z.uuid().optional(),
  clientId: z.uuid().optional(),
  /** Age in whole days (24-hour periods since suspension) at least this. */
  minAgeDays: z.coerce.number().int().min(0).max(3650).optional(),
  /** Age in whole days at most this (0: within the last 24 hours). */
  maxAgeDays: z.coerce.number().int().min(0).max(3650).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type SuspendedSaleListQueryInput = z.input<typeof suspendedSaleListQuerySchema>;
export type SuspendedSaleListQuery = z.output<typeof suspendedSaleListQuerySchema>;

export const suspendedSaleListResponseSchema = z.object({
  items: z.array(suspendedSaleSummarySchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type SuspendedSaleListResponse = z.infer<typeof suspendedSaleListResponseSchema>;

/** POST /api/suspended-sales/:id/cancel answers what was released. */
export const cancelSuspendedSaleResponseSchema = z.object({
  id: z.string(),
  reservationId: z.string(),
  released: z.array(z.object({ productId: z.string(), quantity: z.number().int() })),
});
export type CancelSuspendedSaleResponse = z.infer<typeof cancelSuspendedSaleResponseSchema>;

// ------------------------------------------------------------------------------------------- the Suspend dialog

/**
 * The Suspend dialog's form, as typed (amount as text): a payment method, the amount paid (money, not above the
 * total: 'Amount paid cannot exceed total'), the optional reason (at most 200 characters). Output: the fields of
 * suspendSaleSchema the dialog adds to the till's request.
 */
export function suspendFormSchema(totalCents: number) {
  return z
    .object({
      paymentMethod: text(SALE_LIMITS.method, 'The payment method').min(1, 'Please select payment method'),
      amountPaid: z.string().trim(),
      reason: text(SUSPEND_REASON_MAX, 'The reason'),
    })
    .transform((values, ctx) => {
      const cents = values.amountPaid === '' ? 0 : parseMoneyToCents(values.amountPaid);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', path: ['amountPaid'], message: 'Enter the amount paid as a number, such as 150 or 150.50.' });
        return z.NEVER;
      }
      if (cents > totalCents) {
        ctx.addIssue({ code: 'custom', path: ['amountPaid'], message: 'Amount paid cannot exceed total' });
        return z.NEVER;
      }
      return { paymentMethod: values.paymentMethod, amountPaidCents: cents, reason: suspendReason(values.reason) };
    });
}
export type SuspendFormValues = z.input<ReturnType<typeof suspendFormSchema>>;
export type SuspendFormOutput = z.output<ReturnType<typeof suspendFormSchema>>;
