import { z } from 'zod';
import { formatMpesaPhone, isMpesaPhone, normalizeMpesaPhone } from './phone.ts';
import { completeSaleSchema, INVOICE_PREFIX } from './sales.ts';
import { DATE_PRESETS } from './sales-history.ts';
import type { Settings } from './settings.ts';
import { calendarDate, text } from './text.ts';

/**
 * M-Pesa at the till (issue 11 item 7, decision 0058): the cashier sends an STK push for the sale's exact total to
 * the customer's phone through the pharmacy's own Kopo Kopo K2 till; the signed callback completes the sale with
 * the M-Pesa receipt as the payment's reference. The contracts of the till's routes and their rules.
 */

/** The till's M-Pesa method (sales.ts POS_PAYMENT_METHODS); 'M-Pesa' in the settings is the same method. */
// The method's name and test live in sales.ts, so the till's payment bar does not load this module (its first load).
export { isMpesaMethod, TILL_MPESA_METHOD } from './sales.ts';

/** The phone message of seed 002 section 5 (the licence purchase uses the same rules). */
export const MPESA_PHONE_MESSAGE = 'Please enter a valid M-Pesa number';

/**
 * How long the till waits for the customer's answer before it gives up (and cancels its request), and how often it
 * asks the server meanwhile. The customer's phone shows the prompt for about a minute; K2 then reports a failure.
 */
export const TILL_MPESA_WAIT_SECONDS = 120;
export const TILL_MPESA_POLL_MS = 2000;

/** 'resolved': unmatched money the owner reconciled (refunded to the customer or applied to a sale; decision 0068). */
export const TILL_MPESA_STATUSES = ['pending', 'completed', 'failed', 'cancelled', 'unmatched', 'resolved'] as const;
export type TillMpesaStatus = (typeof TILL_MPESA_STATUSES)[number];

/** Why money received completed no sale, or what else an owner must look at (the reconciliation list). */
export const TILL_MPESA_ATTENTION = [
  'sale_already_completed',
  'paid_after_cancel',
  'paid_after_failure',
  'amount_mismatch',
  'sale_not_completed',
  'duplicate_payment',
] as const;
export type TillMpesaAttention = (typeof TILL_MPESA_ATTENTION)[number];

/** What each reconciliation reason means, for the owner. */
export const TILL_MPESA_ATTENTION_TEXT: Record<TillMpesaAttention, string> = {
  sale_already_completed: 'The customer paid after the sale had been completed another way.',
  paid_after_cancel: 'The customer paid after the cashier cancelled the request.',
  paid_after_failure: 'The customer paid after the request had been reported as failed.',
  amount_mismatch: 'The amount paid is less than the sale’s total.',
  sale_not_completed: 'The customer paid but the sale could no longer be completed.',
  duplicate_payment: 'A second M-Pesa payment arrived for a sale already paid.',
};

/**
 * A request moves only forward (the migration's comment): pending -> completed | failed | cancelled | unmatched;
 * failed and cancelled -> unmatched; unmatched -> resolved (the owner reconciled it, decision 0068).
 */
export function canMoveTillPayment(from: TillMpesaStatus, to: TillMpesaStatus): boolean {
  if (from === 'pending') return to !== 'pending' && to !== 'resolved';
  if (from === 'failed' || from === 'cancelled') return to === 'unmatched';
  if (from === 'unmatched') return to === 'resolved';
  return false;
}

const mpesaPhone = z
  .string()
  .max(20, MPESA_PHONE_MESSAGE)
  .refine((value) => isMpesaPhone(value), MPESA_PHONE_MESSAGE)
  .transform((value) => normalizeMpesaPhone(value));

/**
 * POST /api/till-payments (Idempotency-Key: the request's own UUID; the sale's UUID is `sale.id`): the sale as POST
 * /api/sales takes it (its payments are replaced by one M-Pesa payment of the server's total) and the customer's
 * phone.
 */
export const tillMpesaStartSchema = z.strictObject({
  phoneNumber: mpesaPhone,
  sale: completeSaleSchema,
});
export type TillMpesaStartInput = z.input<typeof tillMpesaStartSchema>;
export type TillMpesaStart = z.output<typeof tillMpesaStartSchema>;

/** The phone form of the till's M-Pesa dialog. */
export const tillMpesaPhoneFormSchema = z.object({ phoneNumber: mpesaPhone });

export const tillMpesaIdParamsSchema = z.strictObject({ id: z.uuid() });

/** POST /api/till-payments/:id/cancel: the cashier stopped waiting, or the till's wait ran out. */
export const tillMpesaCancelSchema = z.strictObject({ reason: z.enum(['cashier', 'timeout']).default('cashier') });
export type TillMpesaCancelInput = z.input<typeof tillMpesaCancelSchema>;
export type TillMpesaCancel = z.output<typeof tillMpesaCancelSchema>;

/** Why a request stopped waiting, as the owner reads it. */
export const TILL_MPESA_CANCEL_TEXT = {
  cashier: 'Cancelled at the till.',
  timeout: `No answer from the customer's phone within ${TILL_MPESA_WAIT_SECONDS} seconds.`,
} as const;

/** Who may read the till's M-Pesa requests and reconcile unmatched money: the owner and whoever keeps the books. */
export const TILL_MPESA_RECONCILE_PERMISSIONS = ['report:financial', 'settings:admin'] as const;

/** How the owner reconciled unmatched money (decision 0068). */
export const TILL_MPESA_RESOLUTIONS = ['refunded', 'applied'] as const;
export type TillMpesaResolutionKind = (typeof TILL_MPESA_RESOLUTIONS)[number];

export const TILL_MPESA_RESOLUTION_LIMITS = { reference: 60, note: 500, invoiceNumber: 40 } as const;

/** What the owner recorded when reconciling: who, when, how, and the sale the money was applied to. */
export const tillMpesaResolutionSchema = z.object({
  kind: z.enum(TILL_MPESA_RESOLUTIONS),
  /** The reference of the reversal or refund (refunded); null when applied. */
  reference: z.string().nullable(),
  note: z.string(),
  /** The sale the money was applied to (applied). */
  sale: z.object({ id: z.uuid(), invoiceNumber: z.string() }).nullable(),
  resolvedBy: z.object({ id: z.uuid(), name: z.string() }),
  resolvedAt: z.iso.datetime({ offset: true }),
});
export type TillMpesaResolution = z.infer<typeof tillMpesaResolutionSchema>;

/** One till payment request as the till and the owner read it. */
export const tillMpesaRequestSchema = z.object({
  id: z.uuid(),
  saleId: z.uuid(),
  status: z.enum(TILL_MPESA_STATUSES),
  amountCents: z.number().int(),
  /** 254 712 345 678. */
  phoneNumber: z.string(),
  mpesaReceipt: z.string().nullable(),
  paidCents: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  attention: z.enum(TILL_MPESA_ATTENTION).nullable(),
  /** The sale this payment completed (status completed). */
  completedSaleId: z.uuid().nullable(),
  /** Whether a sale with saleId exists (completed by this payment or another way). */
  saleRecorded: z.boolean(),
  requestedBy: z.object({ id: z.uuid(), name: z.string() }),
  branch: z.object({ id: z.uuid(), name: z.string() }),
  /** The sale with saleId when it exists (completed by this payment, or another way: its invoice for the link). */
  sale: z.object({ id: z.uuid(), invoiceNumber: z.string() }).nullable(),
  /** Set once the owner reconciled unmatched money (status resolved). */
  resolution: tillMpesaResolutionSchema.nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type TillMpesaRequest = z.infer<typeof tillMpesaRequestSchema>;

export const tillMpesaResponseSchema = z.object({ request: tillMpesaRequestSchema });
export type TillMpesaResponse = z.infer<typeof tillMpesaResponseSchema>;

/**
 * GET /api/till-payments: the owner's list (newest first), paged on the server; status=unmatched is the
 * reconciliation list ('attention': unmatched, or flagged and not yet resolved). The date filter is the sales list's
 * (seed 002 section 4) on the day the request was made, in the pharmacy's time zone; no date: every day.
 */
export const tillMpesaListQuerySchema = z
  .strictObject({
    status: z.enum([...TILL_MPESA_STATUSES, 'attention'], { error: 'Choose a status.' }).optional(),
    preset: z.enum(DATE_PRESETS, { error: 'Choose a date range.' }).optional(),
    from: calendarDate('The start date').optional(),
    to: calendarDate('The end date').optional(),
    branchId: z.uuid().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The start date must be on or before the end date.', path: ['to'] });
export type TillMpesaListQueryInput = z.input<typeof tillMpesaListQuerySchema>;
export type TillMpesaListQuery = z.output<typeof tillMpesaListQuerySchema>;
export const tillMpesaListResponseSchema = z.object({
  items: z.array(tillMpesaRequestSchema),
  /** Every request the filters select (not only this page). */
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type TillMpesaListResponse = z.infer<typeof tillMpesaListResponseSchema>;

/** 'INV-000123', '000123', '123' or 'inv-123' -> 'INV-000123' (the number as the sale has it); other text trimmed. */
export function normalizeInvoiceNumber(value: string): string {
  const trimmed = value.trim().toUpperCase();
  const digits = /^(?:INV-?)?\s*(\d{1,12})$/.exec(trimmed)?.[1];
  return digits ? `${INVOICE_PREFIX}${digits.padStart(6, '0')}` : trimmed;
}

export const TILL_MPESA_RESOLVE_MESSAGES = {
  reference: 'Enter the reference of the reversal or refund.',
  note: 'Write a note: how and when the customer was refunded.',
  invoiceNumber: 'Enter the invoice number of the sale this money paid.',
} as const;

const resolveNote = text(TILL_MPESA_RESOLUTION_LIMITS.note, 'The note');

/**
 * POST /api/till-payments/:id/resolve (Idempotency-Key): the owner reconciles unmatched money, either refunded to
 * the customer (the reversal's or refund's reference and a note) or applied to a sale chosen by its invoice number
 * (the sale is not changed; the link is recorded; a note is optional).
 */
export const tillMpesaResolveSchema = z.discriminatedUnion(
  'resolution',
  [
    z.strictObject({
      resolution: z.literal('refunded'),
      reference: text(TILL_MPESA_RESOLUTION_LIMITS.reference, 'The reference').pipe(z.string().min(1, TILL_MPESA_RESOLVE_MESSAGES.reference)),
      note: resolveNote.pipe(z.string().min(1, TILL_MPESA_RESOLVE_MESSAGES.note)),
    }),
    z.strictObject({
      resolution: z.literal('applied'),
      invoiceNumber: text(TILL_MPESA_RESOLUTION_LIMITS.invoiceNumber, 'The invoice number')
        .pipe(z.string().min(1, TILL_MPESA_RESOLVE_MESSAGES.invoiceNumber))
        .transform(normalizeInvoiceNumber),
      note: resolveNote.default(''),
    }),
  ],
  { error: 'Choose how the payment was reconciled: refunded to the customer or applied to a sale.' },
);
export type TillMpesaResolveInput = z.input<typeof tillMpesaResolveSchema>;
export type TillMpesaResolve = z.output<typeof tillMpesaResolveSchema>;

/** The dialog's form: one shape for both choices, the fields the choice needs checked as the server checks them. */
export const tillMpesaResolveFormSchema = z
  .object({
    resolution: z.enum(TILL_MPESA_RESOLUTIONS),
    reference: text(TILL_MPESA_RESOLUTION_LIMITS.reference, 'The reference'),
    invoiceNumber: text(TILL_MPESA_RESOLUTION_LIMITS.invoiceNumber, 'The invoice number'),
    note: resolveNote,
  })
  .superRefine((form, issues) => {
    if (form.resolution === 'refunded') {
      if (form.reference === '') issues.addIssue({ code: 'custom', path: ['reference'], message: TILL_MPESA_RESOLVE_MESSAGES.reference });
      if (form.note === '') issues.addIssue({ code: 'custom', path: ['note'], message: TILL_MPESA_RESOLVE_MESSAGES.note });
    } else if (form.invoiceNumber === '') {
      issues.addIssue({ code: 'custom', path: ['invoiceNumber'], message: TILL_MPESA_RESOLVE_MESSAGES.invoiceNumber });
    }
  });
export type TillMpesaResolveForm = z.input<typeof tillMpesaResolveFormSchema>;

/** The request body of the form's values (only the chosen way's fields). */
export function tillMpesaResolveBody(form: z.output<typeof tillMpesaResolveFormSchema>): TillMpesaResolveInput {
  return form.resolution === 'refunded'
    ? { resolution: 'refunded', reference: form.reference, note: form.note }
    : { resolution: 'applied', invoiceNumber: form.invoiceNumber, note: form.note };
}

/** Why a request that is not unmatched cannot be reconciled (409), in the owner's words. */
export function tillMpesaNotResolvableText(status: TillMpesaStatus): string {
  switch (status) {
    case 'resolved':
      return 'This M-Pesa payment has already been reconciled.';
    case 'completed':
      return 'This M-Pesa payment completed its sale: there is nothing to reconcile.';
    case 'pending':
      return 'This M-Pesa request is still waiting for the customer: only money that completed no sale can be reconciled.';
    default:
      return `This M-Pesa request is ${status}: no money was received, so there is nothing to reconcile.`;
  }
}

/** What the till needs of settings.integrations.kopokopo; the problem in words when something is missing. */
export function tillCredentialsProblem(kopokopo: Settings['integrations']['kopokopo']): string | null {
  if (!kopokopo.enabled) return 'M-Pesa at the till is not set up: the owner turns on Kopo Kopo and enters the till credentials in Settings > Integrations.';
  const missing = [
    kopokopo.tillNumber.trim() === '' && 'till number',
    kopokopo.clientId.trim() === '' && 'client ID',
    kopokopo.clientSecret === '' && 'client secret',
    kopokopo.apiKey === '' && 'API key',
  ].filter((x): x is string => typeof x === 'string');
  return missing.length > 0 ? `M-Pesa at the till is not set up: the Kopo Kopo ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing in Settings > Integrations.` : null;
}

/**
 * The customer's phone is asked for the whole total: a till request's sale is paid by one M-Pesa payment (its amount
 * checked by the sale's own payment rules first), never a split tender.
 */
export const TILL_MPESA_ONE_PAYMENT_TEXT = 'A payment request asks for the whole total by M-Pesa: choose MPESA as the only payment.';

/** K2 takes whole shillings: a total with cents cannot be asked for by STK push. */
export function tillMpesaAmountProblem(totalCents: number): string | null {
  if (totalCents <= 0) return 'There is nothing to pay.';
  return totalCents % 100 === 0 ? null : 'M-Pesa takes whole shillings: this total has cents. Take the payment another way.';
}

export { formatMpesaPhone };
