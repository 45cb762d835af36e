import { z } from 'zod';
import { businessDate } from './business-date.ts';
import { businessDateSchema, centsField } from './products.ts';
import { fieldMessage, formatMessage, numberField } from './errors.ts';
import { calendarDate, isCalendarDate, text } from './text.ts';
import { isExpired } from './stock-status.ts';

/**
 * Stock rules and the stock API (issue 3): the ledger's movement kinds, FEFO batch allocation, expiry, stock
 * adjustments and the transfer state machine, with the request and response schemas of /api/stock/*.
 *
 * The ledger's meaning (DATA-MODEL invariant 1): for every branch and product,
 *   branch quantity + reserved = sum of its batches' quantity + reserved = sum of its movements' deltas.
 * `quantity` is sellable stock; a reservation moves pieces from quantity to reserved (and back on release),
 * so 'reserve' and 'release' movements carry delta 0; 'reserved_sold' takes pieces out of reserved (delta < 0).
 * Every other kind changes the sellable quantity by its delta. quantity_after is the on-hand total
 * (quantity + reserved) of the branch after the movement.
 */

/** Every kind of stock movement. */
export const STOCK_MOVEMENT_KINDS = [
  'sale',
  'sale_return',
  'purchase_receipt',
  'purchase_edit',
  'purchase_delete',
  'purchase_return',
  'adjustment',
  'transfer_out',
  'transfer_in',
  'reserve',
  'release',
  'reserved_sold',
  'import',
  'opening',
] as const;
export type StockMovementKind = (typeof STOCK_MOVEMENT_KINDS)[number];

/** Kinds that sell or send stock away: they take only unexpired batches (expired stock is not sellable). */
export const SELLABLE_ONLY_KINDS: readonly StockMovementKind[] = ['sale', 'transfer_out', 'reserve'];

/** Kinds that move pieces between sellable and reserved without changing the on-hand total. */
export const RESERVATION_KINDS: readonly StockMovementKind[] = ['reserve', 'release'];

/** Days before expiry a batch counts as near expiry (seed 000 section 9: expiry alert 30 days). */
export const EXPIRY_ALERT_DAYS = 30;

// businessDate lives in business-date.ts (a module without imports), so that the till's first load can count the
// pharmacy's day without this module's schemas; it is part of this module's API as before.
export { businessDate };

/** Whole days from one business date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

// isExpired lives in stock-status.ts (a module without imports) so that product-import.ts can use it without the
// products -> product-import -> stock -> products import cycle; it is part of this module's API as before.
export { isExpired };

export type ExpiryStatus = 'expired' | 'near_expiry' | 'ok' | 'none';

/** expired (before today), near_expiry (within alertDays), ok, or none (no expiry date). */
export function expiryStatus(expiryDate: string | null, today: string, alertDays: number = EXPIRY_ALERT_DAYS): ExpiryStatus {
  if (expiryDate === null) return 'none';
  if (expiryDate < today) return 'expired';
  return daysBetween(today, expiryDate) <= alertDays ? 'near_expiry' : 'ok';
}

/** What FEFO needs of a batch. */
export interface AllocatableBatch {
  id: string;
  expiryDate: string | null;
  /** Pieces that can be taken (sellable quantity, or reserved pieces for 'reserved_sold' and 'release'). */
  quantity: number;
  /** Tie-breaker after expiry: earlier receipts first. */
  receivedAt?: string;
}

export interface Allocation {
  batchId: string;
  quantity: number;
}

/**
 * First expiry, first out: takes `requested` pieces from the batches, earliest expiry date first (batches
 * without an expiry date last), then earliest received, then id. Expired batches are skipped unless
 * includeExpired. Returns the takes and the shortfall (0 when fully covered); `available` is what could be taken.
 */
export function allocateFefo(
  batches: readonly AllocatableBatch[],
  requested: number,
  options: { today: string; includeExpired?: boolean },
): { allocations: Allocation[]; shortfall: number; available: number } {
  const usable = batches
    .filter((b) => b.quantity > 0 && (options.includeExpired || !isExpired(b.expiryDate, options.today)))
    .sort(compareFefo);
  const available = usable.reduce((sum, b) => sum + b.quantity, 0);
  const allocations: Allocation[] = [];
  let remaining = requested;
  for (const batch of usable) {
    if (remaining <= 0) break;
    const take = Math.min(batch.quantity, remaining);
    allocations.push({ batchId: batch.id, quantity: take });
    remaining -= take;
  }
  return { allocations, shortfall: Math.max(0, remaining), available };
}

/** FEFO order: expiry ascending (none last), then received, then id. */
export function compareFefo(a: AllocatableBatch, b: AllocatableBatch): number {
  if (a.expiryDate !== b.expiryDate) {
    if (a.expiryDate === null) return 1;
    if (b.expiryDate === null) return -1;
    return a.expiryDate < b.expiryDate ? -1 : 1;
  }
  const ra = a.receivedAt ?? '';
  const rb = b.receivedAt ?? '';
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// ------------------------------------------------------------------------------------------- adjustments

export const ADJUSTMENT_REASON_TYPES = ['count_correction', 'damage', 'expiry_write_off', 'other'] as const;
export type AdjustmentReasonType = (typeof ADJUSTMENT_REASON_TYPES)[number];

/** Labels of the reason types (English; the browser translates by key). */
export const ADJUSTMENT_REASON_LABELS: Record<AdjustmentReasonType, string> = {
  count_correction: 'Count correction',
  damage: 'Damage',
  expiry_write_off: 'Expiry write-off',
  other: 'Other',
};

const quantityDelta = numberField('The change', -10_000_000, 10_000_000, { whole: true, unit: ' pieces' }).refine(
  (n) => n !== 0,
  'The change must be other than 0 pieces.',
);

/**
 * One adjustment line. A negative delta takes from batchId if given (expired batches included, for write-off),
 * else FEFO over every batch, expired ones first. A positive delta adds to batchId if given, else to a batch
 * of batchNumber + expiryDate (+ unitCostCents, default the branch purchase price) if given, else to the
 * latest-expiring unexpired batch, else to a new batch without number.
 */
export const adjustmentItemSchema = z.strictObject({
  productId: z.uuid(),
  batchId: z.uuid().optional(),
  batchNumber: text(64, 'The batch number').min(1, fieldMessage('required', 'The batch number')).optional(),
  expiryDate: calendarDate('The expiry date').optional(),
  unitCostCents: centsField('Unit cost').optional(),
  delta: quantityDelta,
  reasonType: z.enum(ADJUSTMENT_REASON_TYPES, { error: 'Choose an adjustment type.' }),
  note: text(500, 'The note').nullable().optional(),
});
export type AdjustmentItemInput = z.infer<typeof adjustmentItemSchema>;

/** POST /api/stock/adjustments (inventory:adjust): all lines or none. Answers 201 with the adjustment. */
export const createAdjustmentSchema = z.strictObject({
  /** Default: the session's branch. */
  branchId: z.uuid().optional(),
  reason: text(500, 'The reason').min(1, 'Enter a reason for the adjustment.'),
  items: z.array(adjustmentItemSchema).min(1, 'Add at least one product.').max(500, 'An adjustment has at most 500 lines.'),
});
export type CreateAdjustmentInput = z.infer<typeof createAdjustmentSchema>;

/** How the adjustment form's quantity is entered: the change itself, or the quantity counted on the shelf. */
export const ADJUSTMENT_ENTRY_MODES = ['delta', 'counted'] as const;
export type AdjustmentEntryMode = (typeof ADJUSTMENT_ENTRY_MODES)[number];

/** The sentences of the adjustment form (the browser shows them beside their fields). */
export const ADJUSTMENT_FORM_MESSAGES = {
  product: 'Choose a product.',
  branch: 'Choose a branch.',
  delta: 'Enter a whole number of pieces, e.g. 5 or -3.',
  counted: 'Enter the counted whole number of pieces (0 or more).',
  noChange: 'Enter a change other than 0.',
  negative: 'The adjustment would make stock negative. Available: {available}.',
  newBatch: 'Enter both the batch number and its expiry date, or neither.',
} as const;

/** What a person types into the one-line adjustment form (text as typed; '' is "not chosen"). */
export interface AdjustmentFormValues {
  productId: string;
  branchId: string;
  /** '' = let the ledger choose (FEFO out, latest-expiring in). */
  batchId: string;
  reasonType: AdjustmentReasonType;
  entry: AdjustmentEntryMode;
  amount: string;
  newBatchNumber: string;
  newBatchExpiry: string;
  reason: string;
  note: string;
}

/** The change in pieces a typed amount means: the amount itself, or counted − on hand; null when it is not a whole number. */
export function adjustmentDelta(entry: AdjustmentEntryMode, amount: string, onHand: number): number | null {
  const typed = amount.trim();
  if (!/^[+-]?\d+$/.test(typed)) return null;
  const value = Number(typed);
  if (entry === 'counted' && value < 0) return null;
  return entry === 'delta' ? value : value - onHand;
}

/**
 * The adjustment form's schema (react-hook-form's resolver): every check with its sentence beside its field, then
 * the request of POST /api/stock/adjustments, checked again by createAdjustmentSchema. `stock` is what the screen
 * shows for the chosen branch (and batch): `current` sellable pieces, `onHand` what a count is compared with.
 * The server refuses the same cases (a negative result, an expired new batch, the reason) whatever the browser says.
 */
export function adjustmentFormSchema(stock: { current: number; onHand: number }) {
  return z
    .object({
      productId: z.string(),
      branchId: z.string(),
      batchId: z.string(),
      reasonType: z.enum(ADJUSTMENT_REASON_TYPES, { error: 'Choose an adjustment type.' }),
      entry: z.enum(ADJUSTMENT_ENTRY_MODES),
      amount: z.string(),
      newBatchNumber: text(64, 'The batch number'),
      newBatchExpiry: z.string().trim(),
      reason: text(500, 'The reason').min(1, 'Enter a reason for the adjustment.'),
      note: text(500, 'The note'),
    })
    .superRefine((form, ctx) => {
      if (!form.productId) ctx.addIssue({ code: 'custom', path: ['productId'], message: ADJUSTMENT_FORM_MESSAGES.product });
      if (!form.branchId) ctx.addIssue({ code: 'custom', path: ['branchId'], message: ADJUSTMENT_FORM_MESSAGES.branch });
      const delta = adjustmentDelta(form.entry, form.amount, stock.onHand);
      if (delta === null) ctx.addIssue({ code: 'custom', path: ['amount'], message: form.entry === 'counted' ? ADJUSTMENT_FORM_MESSAGES.counted : ADJUSTMENT_FORM_MESSAGES.delta });
      else if (delta === 0) ctx.addIssue({ code: 'custom', path: ['amount'], message: ADJUSTMENT_FORM_MESSAGES.noChange });
      else if (stock.current + delta < 0) ctx.addIssue({ code: 'custom', path: ['amount'], message: formatMessage(ADJUSTMENT_FORM_MESSAGES.negative, { available: stock.current }) });
      const wantsNewBatch = !form.batchId && delta !== null && delta > 0 && (form.newBatchNumber !== '' || form.newBatchExpiry !== '');
      if (wantsNewBatch && (form.newBatchNumber === '' || !isCalendarDate(form.newBatchExpiry))) {
        ctx.addIssue({ code: 'custom', path: ['newBatchNumber'], message: ADJUSTMENT_FORM_MESSAGES.newBatch });
      }
    })
    .transform((form): CreateAdjustmentInput => {
      const delta = adjustmentDelta(form.entry, form.amount, stock.onHand) ?? 0;
      const newBatch = !form.batchId && delta > 0 && form.newBatchNumber !== '' && form.newBatchExpiry !== '';
      return {
        branchId: form.branchId,
        reason: form.reason,
        items: [
          {
            productId: form.productId,
            delta,
            reasonType: form.reasonType,
            note: form.note || null,
            ...(form.batchId ? { batchId: form.batchId } : {}),
            ...(newBatch ? { batchNumber: form.newBatchNumber, expiryDate: form.newBatchExpiry } : {}),
          },
        ],
      };
    })
    .pipe(createAdjustmentSchema);
}

export const adjustmentSchema = z.object({
  id: z.uuid(),
  branchId: z.uuid(),
  branchName: z.string(),
  reason: z.string(),
  userId: z.uuid().nullable(),
  userName: z.string().nullable(),
  createdAt: z.string(),
  items: z.array(
    z.object({
      id: z.uuid(),
      productId: z.uuid(),
      productName: z.string(),
      /** The batch named by the request (null when FEFO chose). */
      batchId: z.uuid().nullable(),
      batchNumber: z.string().nullable(),
      delta: z.number().int(),
      reasonType: z.enum(ADJUSTMENT_REASON_TYPES),
      note: z.string().nullable(),
      /**
       * The batches the line actually changed, from the ledger (one movement per batch), in the ledger's order:
       * what FEFO chose, or the named batch. A batch without number has batchNumber null.
       */
      batches: z.array(
        z.object({
          batchId: z.uuid().nullable(),
          batchNumber: z.string().nullable(),
          expiryDate: z.string().nullable(),
          delta: z.number().int(),
        }),
      ),
    }),
  ),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;

/** GET /api/stock/adjustments query (newest first). */
export const adjustmentListQuerySchema = z.strictObject({
  branchId: z.uuid().optional(),
  productId: z.uuid().optional(),
  reasonType: z.enum(ADJUSTMENT_REASON_TYPES).optional(),
  from: businessDateSchema.optional(),
  to: businessDateSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AdjustmentListQueryInput = z.input<typeof adjustmentListQuerySchema>;
export type AdjustmentListQuery = z.output<typeof adjustmentListQuerySchema>;

export const adjustmentListResponseSchema = z.object({
  items: z.array(adjustmentSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type AdjustmentListResponse = z.infer<typeof adjustmentListResponseSchema>;

// ------------------------------------------------------------------------------------------- transfers

export const TRANSFER_STATUSES = ['requested', 'approved', 'dispatched', 'partially_received', 'received', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_ACTIONS = ['approve', 'dispatch', 'receive', 'cancel'] as const;
export type TransferAction = (typeof TRANSFER_ACTIONS)[number];

/**
 * The transfer state machine: requested -approve-> approved -dispatch-> dispatched -receive-> partially_received
 * or received (partially_received -receive-> ... until everything dispatched has arrived). Cancel is allowed
 * before dispatch (nothing moves) and after dispatch until fully received (the undelivered pieces return to the
 * source branch into their original batches). received and cancelled are final.
 */
export const TRANSFER_TRANSITIONS: Record<TransferStatus, readonly TransferAction[]> = {
  requested: ['approve', 'cancel'],
  approved: ['dispatch', 'cancel'],
  dispatched: ['receive', 'cancel'],
  partially_received: ['receive', 'cancel'],
  received: [],
  cancelled: [],
};

/** May this action be taken on a transfer in this status? */
export function canTransfer(status: TransferStatus, action: TransferAction): boolean {
  return TRANSFER_TRANSITIONS[status].includes(action);
}

/** Has stock left the source branch (dispatched and not yet settled)? */
export function isInTransit(status: TransferStatus): boolean {
  return status === 'dispatched' || status === 'partially_received';
}

/**
 * The status after an action, or null when the action is not allowed. A receipt ends in 'received' when every
 * dispatched piece has arrived, else 'partially_received'.
 */
export function nextTransferStatus(
  status: TransferStatus,
  action: TransferAction,
  progress: { dispatched: number; received: number } = { dispatched: 0, received: 0 },
): TransferStatus | null {
  if (!canTransfer(status, action)) return null;
  switch (action) {
    case 'approve':
      return 'approved';
    case 'dispatch':
      return 'dispatched';
    case 'cancel':
      return 'cancelled';
    case 'receive':
      return progress.received >= progress.dispatched ? 'received' : 'partially_received';
  }
}

/**
 * POST /api/stock/transfers (inventory:transfer:create). Answers 201 with the transfer (status requested).
 * A destination equal to the source is refused by the server with 400 SAME_BRANCH_TRANSFER ('Choose a different
 * destination branch.'); forms check it with isSameBranchTransfer.
 */
export const createTransferSchema = z.strictObject({
  fromBranchId: z.uuid({ error: 'Choose the branch the stock leaves from.' }),
  toBranchId: z.uuid({ error: 'Choose the branch the stock goes to.' }),
  note: text(500, 'The note').nullable().optional(),
  items: z
    .array(
      z.strictObject({
        productId: z.uuid({ error: 'Choose a product.' }),
        quantity: numberField('Quantity', 1, 10_000_000, { whole: true, unit: ' pieces' }),
        /** Send from this batch (else FEFO at dispatch). */
        batchId: z.uuid({ error: 'Choose a batch.' }).optional(),
      }),
    )
    .min(1, 'Add at least one product.')
    .max(500, 'A transfer has at most 500 lines.'),
});
export type CreateTransferInput = z.infer<typeof createTransferSchema>;

/** The message of a transfer to its own source branch (seed: 'Choose a different destination branch.'). */
export const SAME_BRANCH_TRANSFER_MESSAGE = 'Choose a different destination branch.';

/** Is the destination the source? */
export function isSameBranchTransfer(input: { fromBranchId: string; toBranchId: string }): boolean {
  return input.fromBranchId === input.toBranchId;
}

/**
 * POST /api/stock/transfers/:id/receive (inventory:transfer:create). Each line receives quantityReceived more
 * pieces of a dispatched item (at most what is still in transit); without items, everything in transit arrives.
 */
export const receiveTransferSchema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        itemId: z.uuid(),
        quantityReceived: numberField('Quantity received', 0, 10_000_000, { whole: true, unit: ' pieces' }),
      }),
    )
    .max(2000)
    .optional(),
});
export type ReceiveTransferInput = z.infer<typeof receiveTransferSchema>;

/** Body of approve, dispatch and cancel: an optional note. */
export const transferActionSchema = z.strictObject({ note: z.string().trim().max(500).nullable().optional() });

/**
 * A transfer line. Before dispatch a line is what was requested (batchId = the batch asked for, if any). At
 * dispatch each line becomes one line per batch taken (FEFO), with its batch number, expiry date and unit cost;
 * quantityRequested of the split lines adds up to the original request.
 */
export const transferItemSchema = z.object({
  id: z.uuid(),
  productId: z.uuid(),
  productName: z.string(),
  batchId: z.uuid().nullable(),
  batchNumber: z.string().nullable(),
  expiryDate: businessDateSchema.nullable(),
  unitCostCents: z.number().int().nullable(),
  quantityRequested: z.number().int(),
  quantityDispatched: z.number().int(),
  quantityReceived: z.number().int(),
  /** Pieces sent back to the source branch by a cancellation after dispatch. */
  quantityReturned: z.number().int(),
});
export type TransferItem = z.infer<typeof transferItemSchema>;

const person = z.object({ userId: z.uuid().nullable(), userName: z.string().nullable(), at: z.string().nullable() });

export const transferSchema = z.object({
  id: z.uuid(),
  fromBranchId: z.uuid(),
  fromBranchName: z.string(),
  toBranchId: z.uuid(),
  toBranchName: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  note: z.string().nullable(),
  requested: person,
  approved: person,
  dispatched: person,
  received: person,
  cancelled: person,
  createdAt: z.string(),
  updatedAt: z.string(),
  items: z.array(transferItemSchema),
});
export type Transfer = z.infer<typeof transferSchema>;

/** GET /api/stock/transfers query: transfers from or to branchId (any branch the user may see by default). */
export const transferListQuerySchema = z.strictObject({
  status: z.enum(TRANSFER_STATUSES).optional(),
  branchId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TransferListQueryInput = z.input<typeof transferListQuerySchema>;
export type TransferListQuery = z.output<typeof transferListQuerySchema>;

export const transferListResponseSchema = z.object({
  items: z.array(transferSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type TransferListResponse = z.infer<typeof transferListResponseSchema>;

/** The path parameters of /api/stock/adjustments/:id and /api/stock/transfers/:id(/action). */
export const stockIdParamsSchema = z.strictObject({ id: z.uuid() });

// ------------------------------------------------------------------------------------------- summary

/** GET /api/stock/branch-summary (report:inventory or product:read, for the dashboard): stock status and expiry counts per branch. */
export const branchSummaryResponseSchema = z.object({
  today: businessDateSchema,
  expiryAlertDays: z.number().int(),
  branches: z.array(
    z.object({
      branchId: z.uuid(),
      branchName: z.string(),
      /** Active products by stock status in the branch (products without a branch row count as out). */
      out: z.number().int(),
      low: z.number().int(),
      good: z.number().int(),
      /** Batches with stock past their expiry date, and their pieces. */
      expiredBatches: z.number().int(),
      expiredQuantity: z.number().int(),
      /** Batches with stock expiring within expiryAlertDays. */
      nearExpiryBatches: z.number().int(),
      nearExpiryQuantity: z.number().int(),
    }),
  ),
});
export type BranchSummaryResponse = z.infer<typeof branchSummaryResponseSchema>;
