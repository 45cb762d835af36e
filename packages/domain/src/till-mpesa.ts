import { z } from 'zod';
import { formatMpesaPhone, isMpesaPhone, normalizeMpesaPhone } from './phone.ts';
import { completeSaleSchema, paymentMethodKey } from './sales.ts';
import type { Settings } from './settings.ts';

/**
 * M-Pesa at the till (issue 11 item 7, decision 0058): the cashier sends an STK push for the sale's exact total to
 * the customer's phone through the pharmacy's own Kopo Kopo K2 till; the signed callback completes the sale with
 * the M-Pesa receipt as the payment's reference. The contracts of the till's routes and their rules.
 */

/** The till's M-Pesa method (sales.ts POS_PAYMENT_METHODS); 'M-Pesa' in the settings is the same method. */
export const TILL_MPESA_METHOD = 'MPESA';

/** Is this payment method M-Pesa ('MPESA', 'M-Pesa', 'mpesa')? */
export function isMpesaMethod(method: string): boolean {
  return paymentMethodKey(method) === paymentMethodKey(TILL_MPESA_METHOD);
}

/** The phone message of seed 002 section 5 (the licence purchase uses the same rules). */
export const MPESA_PHONE_MESSAGE = 'Please enter a valid M-Pesa number';

/**
 * How long the till waits for the customer's answer before it gives up (and cancels its request), and how often it
 * asks the server meanwhile. The customer's phone shows the prompt for about a minute; K2 then reports a failure.
 */
export const TILL_MPESA_WAIT_SECONDS = 120;
export const TILL_MPESA_POLL_MS = 2000;

export const TILL_MPESA_STATUSES = ['pending', 'completed', 'failed', 'cancelled', 'unmatched'] as const;
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

/** A request moves only forward (the migration's comment): pending -> anything; failed and cancelled -> unmatched. */
export function canMoveTillPayment(from: TillMpesaStatus, to: TillMpesaStatus): boolean {
  if (from === 'pending') return to !== 'pending';
  if (from === 'failed' || from === 'cancelled') return to === 'unmatched';
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
  createdAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type TillMpesaRequest = z.infer<typeof tillMpesaRequestSchema>;

export const tillMpesaResponseSchema = z.object({ request: tillMpesaRequestSchema });
export type TillMpesaResponse = z.infer<typeof tillMpesaResponseSchema>;

/** GET /api/till-payments: the owner's list (newest first); status=unmatched is the reconciliation list. */
export const tillMpesaListQuerySchema = z.strictObject({
  status: z.enum([...TILL_MPESA_STATUSES, 'attention']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const tillMpesaListResponseSchema = z.object({ items: z.array(tillMpesaRequestSchema) });
export type TillMpesaListResponse = z.infer<typeof tillMpesaListResponseSchema>;

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

/** K2 takes whole shillings: a total with cents cannot be asked for by STK push. */
export function tillMpesaAmountProblem(totalCents: number): string | null {
  if (totalCents <= 0) return 'There is nothing to pay.';
  return totalCents % 100 === 0 ? null : 'M-Pesa takes whole shillings: this total has cents. Take the payment another way.';
}

export { formatMpesaPhone };
