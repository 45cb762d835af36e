import { z } from 'zod';
import { fieldMessage, formatMessage, numberField } from './errors.ts';
import { minimumSellingPriceCents } from './margins.ts';
import { parseMoneyToCents } from './money.ts';
import { calendarDate, isCalendarDate, text } from './text.ts';

/**
 * Purchases from suppliers, receiving into batches, and purchase returns (issue 10 items 1-3; seed 002 sections 3-5,
 * 8 and 9; decisions 0034-0036): the constants and messages of the specification word for word, the totals as pure
 * functions, and the request and response schemas of /api/purchases and /api/purchase-returns. Money in integer
 * cents, quantities in integer pieces, rates and margins in basis points (1600 = 16 %), dates 'YYYY-MM-DD'.
 */

// ------------------------------------------------------------------------------------------- constants

/** Purchase statuses (seed 002 section 4); new purchases default to pending. */
export const PURCHASE_STATUSES = ['pending', 'ordered', 'received', 'cancelled'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];
export const DEFAULT_PURCHASE_STATUS: PurchaseStatus = 'pending';

/** Display: Pending yellow, Ordered blue, Received green, Cancelled red (seed 002 section 4). */
export const PURCHASE_STATUS_DISPLAY: Record<PurchaseStatus, { label: string; colour: 'yellow' | 'blue' | 'green' | 'red' }> = {
  pending: { label: 'Pending', colour: 'yellow' },
  ordered: { label: 'Ordered', colour: 'blue' },
  received: { label: 'Received', colour: 'green' },
  cancelled: { label: 'Cancelled', colour: 'red' },
};

/** An unknown or missing status falls back to pending (seed 002 section 4). */
export function normalizePurchaseStatus(value: unknown): PurchaseStatus {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (PURCHASE_STATUSES as readonly string[]).includes(v) ? (v as PurchaseStatus) : DEFAULT_PURCHASE_STATUS;
}

/** Defaults when the settings say nothing (seed 002 sections 3 and 9): tax rate 16 %, minimum margin 22 %, Main Branch. */
export const DEFAULT_PURCHASE_TAX_RATE_PERCENT = 16;
export const DEFAULT_PURCHASE_MIN_MARGIN_PERCENT = 22;
export const DEFAULT_PURCHASE_BRANCH = 'Main Branch';

/** Bounds that keep every value storable and every sum inside its column. */
export const PURCHASE_LIMITS = {
  items: 200,
  quantity: 1_000_000,
  priceCents: 10_000_000_000,
  reference: 100,
  notes: 1000,
  batchNumber: 64,
  reason: 500,
  bulk: 200,
  search: 100,
} as const;

/** Every message of seed 002 section 8 (Purchases) and section 5, word for word. */
export const PURCHASE_MESSAGES = {
  created: 'Purchase created successfully',
  createFailed: 'Failed to create purchase',
  updated: 'Purchase updated successfully',
  updateFailed: 'Failed to update purchase',
  notFound: 'Purchase not found',
  deleted: 'Purchase deleted and stock quantities removed successfully',
  deleteFailed: 'Failed to delete purchase',
  bulkDeleted: '{n} purchase(s) deleted successfully',
  bulkPartial: '{n} deleted, {m} failed',
  bulkFailed: 'Failed to delete purchases',
  idRequired: 'Purchase ID is required',
  noneSelected: 'No purchases selected for deletion',
  required: '{field} is required',
  loadFailed: 'Failed to fetch data. Please check your connection and try again.',
} as const;

/** '{field} is required' (seed 002 section 5) for the supplier, the items and the date. */
export const requiredMessage = (field: string) => formatMessage(PURCHASE_MESSAGES.required, { field });
export const SUPPLIER_REQUIRED = requiredMessage('Supplier');
export const ITEMS_REQUIRED = requiredMessage('At least one item');
export const DATE_REQUIRED = requiredMessage('Date');

/** The answer of a bulk delete: '{n} purchase(s) deleted successfully' or '{n} deleted, {m} failed'. */
export function bulkDeleteMessage(deleted: number, failed: number): string {
  if (deleted === 0 && failed > 0) return PURCHASE_MESSAGES.bulkFailed;
  return failed === 0
    ? formatMessage(PURCHASE_MESSAGES.bulkDeleted, { n: deleted })
    : formatMessage(PURCHASE_MESSAGES.bulkPartial, { n: deleted, m: failed });
}

/** A new purchase number: 'PO-' plus a timestamp (milliseconds; seed 002 section 9). */
export function newPurchaseNumber(now: Date): string {
  return `PO-${now.getTime()}`;
}

/** A new purchase return number: 'PR-' plus a timestamp (decision 0036). */
export function newPurchaseReturnNumber(now: Date): string {
  return `PR-${now.getTime()}`;
}

/** The number shown: the stored one, else (old records) 'PO-' plus the last 6 characters of the id. */
export function displayPurchaseNumber(purchase: { purchaseNumber?: string | null; id: string }): string {
  const stored = purchase.purchaseNumber?.trim();
  return stored ? stored : `PO-${purchase.id.slice(-6)}`;
}

// ------------------------------------------------------------------------------------------- totals

export interface PurchaseLineAmounts {
  quantity: number;
  purchasePriceCents: number;
  applyTax: boolean;
  taxRateBasisPoints: number;
}

export interface PurchaseTotals {
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/** A line: subtotal = quantity x purchase price; tax = subtotal x rate (rounded half up to the cent) when applied. */
export function purchaseLineTotals(line: PurchaseLineAmounts): PurchaseTotals {
  const subtotalCents = line.quantity * line.purchasePriceCents;
  const taxCents = line.applyTax ? Math.round((subtotalCents * line.taxRateBasisPoints) / 10_000) : 0;
  return { subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}

/** The purchase: the sums of its lines' subtotals and taxes. */
export function purchaseTotals(lines: readonly PurchaseLineAmounts[]): PurchaseTotals {
  let subtotalCents = 0;
  let taxCents = 0;
  for (const line of lines) {
    const t = purchaseLineTotals(line);
    subtotalCents += t.subtotalCents;
    taxCents += t.taxCents;
  }
  return { subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}

/** What returning `quantity` pieces of a line is worth: its share of the line's total (tax included), to the cent. */
export function returnValueCents(line: { quantity: number; totalCents: number }, quantity: number): number {
  return Math.round((line.totalCents * quantity) / line.quantity);
}

/**
 * The pieces a line should hold in stock after an edit (decision 0034): all of them once the purchase is received,
 * none when it is cancelled, else what was received so far (partial receiving), never more than the line's quantity.
 */
export function targetReceivedQuantity(status: PurchaseStatus, quantity: number, receivedSoFar: number): number {
  if (status === 'received') return quantity;
  if (status === 'cancelled') return 0;
  return Math.min(receivedSoFar, quantity);
}

/** The minimum selling price the line sets in its branch: purchase price / (1 - margin) (seed 000 section 5). */
export function lineMinimumSellingPriceCents(line: { purchasePriceCents: number; minMarginBasisPoints: number }): number {
  return minimumSellingPriceCents(line.purchasePriceCents, line.minMarginBasisPoints / 100);
}

// ------------------------------------------------------------------------------------------- requests

const optionalText = (max: number, label: string) => text(max, label).nullable().optional();
const cents = (label: string) => numberField(label, 0, PURCHASE_LIMITS.priceCents, { whole: true });
const percentBasisPoints = (label: string, min: number, max: number) => numberField(label, min, max, { whole: true });
const idOf = (message: string) => z.uuid({ error: message });

/** One line of a purchase. `id` names an existing line on an edit; margin and tax rate default from the settings. */
export const purchaseItemInputSchema = z.strictObject({
  id: z.uuid().optional(),
  productId: idOf(requiredMessage('Product')),
  quantity: numberField('Quantity', 1, PURCHASE_LIMITS.quantity, { whole: true }),
  purchasePriceCents: cents('Purchase price'),
  sellingPriceCents: cents('Selling price'),
  maxDiscountBasisPoints: percentBasisPoints('Maximum discount', 0, 10_000).nullable().optional(),
  minMarginBasisPoints: percentBasisPoints('Minimum margin', 1, 9_999).nullable().optional(),
  expiryDate: calendarDate('The expiry date').nullable().optional(),
  batchNumber: optionalText(PURCHASE_LIMITS.batchNumber, 'Batch number'),
  applyTax: z.boolean().default(false),
  taxRateBasisPoints: percentBasisPoints('Tax rate', 0, 10_000).nullable().optional(),
});
export type PurchaseItemInput = z.output<typeof purchaseItemInputSchema>;

/**
 * POST /api/purchases (send an Idempotency-Key) and PUT /api/purchases/:id (the whole purchase again; lines keep
 * their `id`). Branch defaults to the session's branch, else the default branch; status to pending.
 */
export const savePurchaseSchema = z.strictObject({
  supplierId: idOf(SUPPLIER_REQUIRED),
  branchId: z.uuid().nullable().optional(),
  date: z.string({ error: DATE_REQUIRED }).min(1, DATE_REQUIRED).refine(isCalendarDate, 'The date must be a real date (YYYY-MM-DD).'),
  reference: optionalText(PURCHASE_LIMITS.reference, 'Reference'),
  notes: optionalText(PURCHASE_LIMITS.notes, 'Notes'),
  status: z.enum(PURCHASE_STATUSES, { error: fieldMessage('choose', 'a status') }).default(DEFAULT_PURCHASE_STATUS),
  items: z
    .array(purchaseItemInputSchema, { error: ITEMS_REQUIRED })
    .min(1, ITEMS_REQUIRED)
    .max(PURCHASE_LIMITS.items, `A purchase has at most ${PURCHASE_LIMITS.items} items.`),
});
export type SavePurchaseInput = z.input<typeof savePurchaseSchema>;
export type SavePurchase = z.output<typeof savePurchaseSchema>;

/** POST /api/purchases/:id/receive: receive some pieces of some lines (partial receiving), or every remaining piece. */
export const receivePurchaseSchema = z.strictObject({
  items: z
    .array(z.strictObject({ itemId: z.uuid(), quantity: numberField('Quantity', 1, PURCHASE_LIMITS.quantity, { whole: true }) }))
    .max(PURCHASE_LIMITS.items)
    .optional(),
});
export type ReceivePurchase = z.output<typeof receivePurchaseSchema>;

/** DELETE /api/purchases (bulk). */
export const bulkDeletePurchasesSchema = z.strictObject({
  ids: z
    .array(z.uuid(), { error: PURCHASE_MESSAGES.noneSelected })
    .min(1, PURCHASE_MESSAGES.noneSelected)
    .max(PURCHASE_LIMITS.bulk, `At most ${PURCHASE_LIMITS.bulk} purchases at a time.`),
});
export type BulkDeletePurchases = z.output<typeof bulkDeletePurchasesSchema>;

export const purchaseIdParamsSchema = z.strictObject({ id: z.uuid({ error: PURCHASE_MESSAGES.idRequired }) });

/** 'all' (or nothing) turns a filter off (seed 002 section 5). */
const allOr = <T extends z.ZodType>(schema: T) => z.union([z.literal('all'), schema]).optional().transform((v) => (v === 'all' ? undefined : v));

/**
 * GET /api/purchases: newest first; status, branch and supplier match exactly ('all' = any), the date range is
 * inclusive, and `search` matches case-insensitively number, reference, notes, status, supplier name, id and item names.
 */
export const purchaseListQuerySchema = z.strictObject({
  status: allOr(z.enum(PURCHASE_STATUSES)),
  branchId: allOr(z.uuid()),
  supplierId: allOr(z.uuid()),
  from: calendarDate('The start date').optional(),
  to: calendarDate('The end date').optional(),
  search: text(PURCHASE_LIMITS.search, 'The search').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(25),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PurchaseListQueryInput = z.input<typeof purchaseListQuerySchema>;
export type PurchaseListQuery = z.output<typeof purchaseListQuerySchema>;

// ------------------------------------------------------------------------------------------- responses

export const purchaseItemSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  name: z.string(),
  sku: z.string().nullable(),
  category: z.string().nullable(),
  quantity: z.number().int(),
  receivedQuantity: z.number().int(),
  returnedQuantity: z.number().int(),
  purchasePriceCents: z.number().int(),
  sellingPriceCents: z.number().int(),
  maxDiscountBasisPoints: z.number().int().nullable(),
  minMarginBasisPoints: z.number().int(),
  expiryDate: z.string().nullable(),
  batchNumber: z.string().nullable(),
  applyTax: z.boolean(),
  taxRateBasisPoints: z.number().int(),
  subtotalCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  batchId: z.string().nullable(),
});
export type PurchaseItem = z.infer<typeof purchaseItemSchema>;

export const purchaseSummarySchema = z.object({
  id: z.string(),
  purchaseNumber: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  date: z.string(),
  reference: z.string().nullable(),
  notes: z.string().nullable(),
  status: z.enum(PURCHASE_STATUSES),
  subtotalCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  itemCount: z.number().int(),
  totalQuantity: z.number().int(),
  receivedQuantity: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PurchaseSummary = z.infer<typeof purchaseSummarySchema>;

export const purchaseSchema = purchaseSummarySchema.extend({ items: z.array(purchaseItemSchema) });
export type Purchase = z.infer<typeof purchaseSchema>;

/** The answer of a create, edit, receive or delete: the purchase and the sentence the screen shows. */
export const purchaseResultSchema = z.object({ purchase: purchaseSchema, message: z.string() });
export type PurchaseResult = z.infer<typeof purchaseResultSchema>;

export const purchaseDeleteResultSchema = z.object({ id: z.string(), message: z.string() });

export const purchaseListResponseSchema = z.object({
  items: z.array(purchaseSummarySchema),
  total: z.number().int(),
  /** The sum of totalCents over every purchase the filters match. */
  totalCents: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type PurchaseListResponse = z.infer<typeof purchaseListResponseSchema>;

export const bulkDeleteResultSchema = z.object({
  deleted: z.number().int(),
  failed: z.number().int(),
  message: z.string(),
  results: z.array(z.object({ id: z.string(), ok: z.boolean(), message: z.string().nullable() })),
});
export type BulkDeleteResult = z.infer<typeof bulkDeleteResultSchema>;

/** GET /api/purchases/defaults: what a new line starts with (the settings' margin and tax rate, else 22 and 16). */
export const purchaseDefaultsSchema = z.object({
  minMarginBasisPoints: z.number().int(),
  taxRateBasisPoints: z.number().int(),
  branchId: z.string().nullable(),
  today: z.string(),
});
export type PurchaseDefaults = z.infer<typeof purchaseDefaultsSchema>;

// ------------------------------------------------------------------------------------------- returns

export const PURCHASE_RETURN_MESSAGES = {
  created: 'Purchase return recorded successfully',
  reasonRequired: requiredMessage('Reason'),
  itemsRequired: requiredMessage('At least one item to return'),
  notReceived: 'Only received purchases can be returned.',
  tooMany: 'Cannot return {requested} of {product}: only {available} received and not yet returned.',
} as const;

/** POST /api/purchase-returns (send an Idempotency-Key): pieces of received lines, each from the batch it went into. */
export const createPurchaseReturnSchema = z.strictObject({
  purchaseId: z.uuid({ error: PURCHASE_MESSAGES.idRequired }),
  reason: z.string({ error: PURCHASE_RETURN_MESSAGES.reasonRequired }).trim().min(1, PURCHASE_RETURN_MESSAGES.reasonRequired).pipe(text(PURCHASE_LIMITS.reason, 'Reason')),
  date: calendarDate('The return date').optional(),
  items: z
    .array(z.strictObject({ purchaseItemId: z.uuid(), quantity: numberField('Quantity', 1, PURCHASE_LIMITS.quantity, { whole: true }) }), {
      error: PURCHASE_RETURN_MESSAGES.itemsRequired,
    })
    .min(1, PURCHASE_RETURN_MESSAGES.itemsRequired)
    .max(PURCHASE_LIMITS.items),
});
export type CreatePurchaseReturn = z.output<typeof createPurchaseReturnSchema>;

export const purchaseReturnItemSchema = z.object({
  id: z.string(),
  purchaseItemId: z.string(),
  productId: z.string(),
  name: z.string(),
  batchId: z.string().nullable(),
  batchNumber: z.string().nullable(),
  expiryDate: z.string().nullable(),
  quantity: z.number().int(),
  unitCostCents: z.number().int(),
  totalCents: z.number().int(),
});

export const purchaseReturnSchema = z.object({
  id: z.string(),
  returnNumber: z.string(),
  purchaseId: z.string(),
  purchaseNumber: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  date: z.string(),
  reason: z.string(),
  totalCents: z.number().int(),
  items: z.array(purchaseReturnItemSchema),
  createdAt: z.string(),
});
export type PurchaseReturn = z.infer<typeof purchaseReturnSchema>;

export const purchaseReturnResultSchema = z.object({ purchaseReturn: purchaseReturnSchema, message: z.string() });

export const purchaseReturnListQuerySchema = z.strictObject({
  supplierId: allOr(z.uuid()),
  purchaseId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(25),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PurchaseReturnListQuery = z.output<typeof purchaseReturnListQuerySchema>;

export const purchaseReturnListResponseSchema = z.object({
  items: z.array(purchaseReturnSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type PurchaseReturnListResponse = z.infer<typeof purchaseReturnListResponseSchema>;

// ------------------------------------------------------------------------------------------- the form

/** A money field as typed (KSh, at most 2 decimals): '' is an issue when required. */
const formCents = (label: string) =>
  z.string().transform((value, ctx): number => {
    const cents = parseMoneyToCents(value.trim());
    if (value.trim() === '' || cents === null || cents > PURCHASE_LIMITS.priceCents) {
      ctx.addIssue({ code: 'custom', message: fieldMessage('money', label), continue: true });
      return 0;
    }
    return cents;
  });

/** A whole number as typed, between min and max. */
const formWhole = (label: string, min: number, max: number, unit = '') =>
  z.string().transform((value, ctx): number => {
    const t = value.trim();
    const n = /^\d+$/.test(t) ? Number(t) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      const fractional = /^\d+\.\d+$/.test(t);
      ctx.addIssue({ code: 'custom', message: fractional ? fieldMessage('wholeNumber', label) : fieldMessage('between', label, { min, max, unit }), continue: true });
      return min;
    }
    return n;
  });

/** A percentage as typed (up to 2 decimals) to basis points; '' is null. */
const formPercent = (label: string, min: number, max: number) =>
  z.string().transform((value, ctx): number | null => {
    const t = value.trim();
    if (t === '') return null;
    const n = /^\d+(\.\d{1,2})?$/.test(t) ? Math.round(Number(t) * 100) : NaN;
    if (!Number.isFinite(n) || n < min * 100 || n > max * 100) {
      ctx.addIssue({ code: 'custom', message: fieldMessage('between', label, { min, max, unit: ' %' }), continue: true });
      return null;
    }
    return n;
  });

export const purchaseItemFormSchema = z.object({
  id: z.string(),
  productId: z.string().min(1, requiredMessage('Product')),
  name: z.string(),
  quantity: formWhole('Quantity', 1, PURCHASE_LIMITS.quantity),
  purchasePrice: formCents('Purchase price'),
  sellingPrice: formCents('Selling price'),
  maxDiscount: formPercent('Maximum discount', 0, 100),
  minMargin: formPercent('Minimum margin', 0.01, 99.99),
  expiryDate: z.string().refine((v) => v === '' || isCalendarDate(v), 'The expiry date must be a real date (YYYY-MM-DD).'),
  batchNumber: text(PURCHASE_LIMITS.batchNumber, 'Batch number'),
  applyTax: z.boolean(),
  taxRate: formPercent('Tax rate', 0, 100),
});
export type PurchaseItemFormValues = z.input<typeof purchaseItemFormSchema>;

/** The purchase form as typed; its output is the request of POST /api/purchases and PUT /api/purchases/:id. */
export const purchaseFormSchema = z
  .object({
    supplierId: z.string().min(1, SUPPLIER_REQUIRED),
    branchId: z.string(),
    date: z.string().min(1, DATE_REQUIRED).refine((v) => v === '' || isCalendarDate(v), 'The date must be a real date (YYYY-MM-DD).'),
    reference: text(PURCHASE_LIMITS.reference, 'Reference'),
    notes: text(PURCHASE_LIMITS.notes, 'Notes'),
    status: z.enum(PURCHASE_STATUSES),
    items: z.array(purchaseItemFormSchema).min(1, ITEMS_REQUIRED),
  })
  .transform((form): SavePurchase => {
    const blank = (value: string) => (value.trim() === '' ? null : value.trim());
    return {
      supplierId: form.supplierId,
      branchId: form.branchId === '' ? null : form.branchId,
      date: form.date,
      reference: blank(form.reference),
      notes: blank(form.notes),
      status: form.status,
      items: form.items.map((item) => ({
        ...(item.id ? { id: item.id } : {}),
        productId: item.productId,
        quantity: item.quantity,
        purchasePriceCents: item.purchasePrice,
        sellingPriceCents: item.sellingPrice,
        maxDiscountBasisPoints: item.maxDiscount,
        minMarginBasisPoints: item.minMargin,
        expiryDate: blank(item.expiryDate),
        batchNumber: blank(item.batchNumber),
        applyTax: item.applyTax,
        taxRateBasisPoints: item.taxRate,
      })),
    };
  });
export type PurchaseFormValues = z.input<typeof purchaseFormSchema>;

/** The live totals of the form while it is typed (lines that do not parse yet count as 0). */
export function formTotals(items: readonly { quantity: string; purchasePrice: string; applyTax: boolean; taxRate: string }[]): PurchaseTotals {
  return purchaseTotals(
    items.map((item) => {
      const quantity = /^\d+$/.test(item.quantity.trim()) ? Number(item.quantity.trim()) : 0;
      const price = parseMoneyToCents(item.purchasePrice.trim()) ?? 0;
      const rate = /^\d+(\.\d{1,2})?$/.test(item.taxRate.trim()) ? Math.round(Number(item.taxRate.trim()) * 100) : 0;
      return { quantity, purchasePriceCents: price, applyTax: item.applyTax, taxRateBasisPoints: rate };
    }),
  );
}
