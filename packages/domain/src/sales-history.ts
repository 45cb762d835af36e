import { z } from 'zod';
import { numberField } from './errors.ts';
import { SALE_LIMITS, SALE_STATUSES, saleSummarySchema } from './sales.ts';
import { calendarDate, clientMadeIdSchema, text } from './text.ts';

/**
 * The back office's sales (issue 10 items 7 and 10, seed 002 section 4, decisions 0037-0039): the date filter values
 * as pure functions, the all-sales list with its filters and the totals of the filtered set, the payment summary
 * per method and day, the credit owed per customer with aging, and a customer's later payment of credit sales
 * (allocated oldest first). The server and the screens run the same functions.
 */

// ------------------------------------------------------------------------------------------- date filter values

/** Seed 002 section 4, "Date filter values", in its order. */
export const DATE_PRESETS = ['today', 'yesterday', 'thisWeek', 'lastWeek', 'thisMonth', 'lastMonth', 'last30Days', 'last3Months', 'custom'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** The labels of seed 002 section 4. */
export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  thisWeek: 'This Week',
  lastWeek: 'Last Week',
  thisMonth: 'This Month',
  lastMonth: 'Last Month',
  last30Days: 'Last 30 Days',
  last3Months: 'Last 3 Months',
  custom: 'Custom Range',
};

function parse(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' plus n days (n may be negative). */
export function addDays(day: string, n: number): string {
  const d = parse(day);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
}

/** 'YYYY-MM-DD' plus n months, the day clamped to the month's last (31 March - 1 month = 28/29 February). */
export function addMonths(day: string, n: number): string {
  const d = parse(day);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return iso(target);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysFrom(from: string, to: string): number {
  return Math.round((parse(to).getTime() - parse(from).getTime()) / 86_400_000);
}

export interface DateRange {
  from: string;
  to: string;
}

/**
 * The range of a date filter value on `today` (the pharmacy's business date), seed 002 section 4: weeks start on
 * Sunday; 'custom' takes the given start and end (either may be missing: open on that side); any unknown value
 * falls back to today.
 */
export function dateRangeOf(preset: string | undefined, today: string, custom: Partial<DateRange> = {}): Partial<DateRange> {
  const weekday = parse(today).getUTCDay(); // 0 = Sunday
  const sunday = addDays(today, -weekday);
  const first = `${today.slice(0, 8)}01`;
  switch (preset) {
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'thisWeek':
      return { from: sunday, to: today };
    case 'lastWeek':
      return { from: addDays(sunday, -7), to: addDays(sunday, -1) };
    case 'thisMonth':
      return { from: first, to: today };
    case 'lastMonth':
      return { from: addMonths(first, -1), to: addDays(first, -1) };
    case 'last30Days':
      return { from: addDays(today, -30), to: today };
    case 'last3Months':
      return { from: addMonths(today, -3), to: today };
    case 'custom':
      return { ...(custom.from ? { from: custom.from } : {}), ...(custom.to ? { to: custom.to } : {}) };
    default:
      return { from: today, to: today };
  }
}

// ------------------------------------------------------------------------------------------- the all-sales list

const datePresetSchema = z.enum(DATE_PRESETS, { error: 'Choose a date range.' });

/**
 * GET /api/sales: the till's filters of issue 9 (from, to, branch, cashier, client, payment method, invoice number)
 * and the back office's (a date filter value, the sale's status). `preset` wins over from/to unless it is 'custom'.
 */
export const saleHistoryQuerySchema = z
  .strictObject({
    preset: datePresetSchema.optional(),
    from: calendarDate('The start date').optional(),
    to: calendarDate('The end date').optional(),
    branchId: z.uuid().optional(),
    cashierId: z.uuid().optional(),
    clientId: z.uuid().optional(),
    paymentMethod: text(SALE_LIMITS.method, 'The payment method').optional(),
    invoiceNumber: text(40, 'The invoice number').optional(),
    status: z.enum(SALE_STATUSES, { error: 'Choose a status.' }).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The start date must be on or before the end date.', path: ['to'] });
export type SaleHistoryQueryInput = z.input<typeof saleHistoryQuerySchema>;
export type SaleHistoryQuery = z.output<typeof saleHistoryQuerySchema>;

export const saleHistoryItemSchema = saleSummarySchema.extend({
  /** What returns and a void gave back so far. */
  refundedCents: z.number().int(),
  /** What the client paid later on a credit sale. */
  paidLaterCents: z.number().int(),
});
export type SaleHistoryItem = z.infer<typeof saleHistoryItemSchema>;

/** The totals of every sale the filters select (not only the page). */
export const saleTotalsSchema = z.object({
  count: z.number().int(),
  totalCents: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  amountPaidCents: z.number().int(),
  balanceDueCents: z.number().int(),
  refundedCents: z.number().int(),
  /** totalCents - refundedCents. */
  netCents: z.number().int(),
});
export type SaleTotals = z.infer<typeof saleTotalsSchema>;

export const saleHistoryResponseSchema = z.object({
  items: z.array(saleHistoryItemSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  totals: saleTotalsSchema,
  /** The dates the filters came to (null: open). */
  range: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
});
export type SaleHistoryResponse = z.infer<typeof saleHistoryResponseSchema>;

// ------------------------------------------------------------------------------------------- payment summary

export const paymentSummaryQuerySchema = z
  .strictObject({
    preset: datePresetSchema.optional(),
    from: calendarDate('The start date').optional(),
    to: calendarDate('The end date').optional(),
    branchId: z.uuid().optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The start date must be on or before the end date.', path: ['to'] })
  .refine((q) => !q.from || !q.to || daysFrom(q.from, q.to) <= 366, { message: 'Choose a range of at most 366 days.', path: ['from'] });
export type PaymentSummaryQueryInput = z.input<typeof paymentSummaryQuerySchema>;

/**
 * One method on one day: what sales took (cash net of change), what customers paid later on credit sales, and what
 * refunds paid out; creditGiven is the part of the day's sales left owed.
 */
export const paymentSummaryRowSchema = z.object({
  date: z.string(),
  method: z.string(),
  salesCount: z.number().int(),
  salesCents: z.number().int(),
  collectedCents: z.number().int(),
  refundedCents: z.number().int(),
  /** salesCents + collectedCents - refundedCents. */
  netCents: z.number().int(),
});
export type PaymentSummaryRow = z.infer<typeof paymentSummaryRowSchema>;

export const paymentSummaryResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  branchId: z.string().nullable(),
  methods: z.array(z.string()),
  rows: z.array(paymentSummaryRowSchema),
  /** Per method over the range. */
  totals: z.array(paymentSummaryRowSchema.omit({ date: true })),
  creditGivenCents: z.number().int(),
  netCents: z.number().int(),
});
export type PaymentSummaryResponse = z.infer<typeof paymentSummaryResponseSchema>;

/** Adds a row's figures to a per-method total. */
export function netOf(row: { salesCents: number; collectedCents: number; refundedCents: number }): number {
  return row.salesCents + row.collectedCents - row.refundedCents;
}

// ------------------------------------------------------------------------------------------- credit and aging

/** A credit sale is due this many days after the sale unless the client's contact says otherwise (decision 0039). */
export const DEFAULT_CUSTOMER_CREDIT_DAYS = 30;

/** The aging buckets of seed 002 section 4 ("Aging bucket"). */
export const AGING_BUCKETS = ['current', 'days1to30', 'days31to60', 'days60plus'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export const AGING_LABELS: Record<AgingBucket, string> = {
  current: 'Current',
  days1to30: '1-30 days overdue',
  days31to60: '31-60 days overdue',
  days60plus: '60+ days overdue',
};

/** The bucket of an invoice by the days it is overdue (0 or less: not yet due = Current). */
export function agingBucket(daysOverdue: number): AgingBucket {
  if (daysOverdue <= 0) return 'current';
  if (daysOverdue <= 30) return 'days1to30';
  if (daysOverdue <= 60) return 'days31to60';
  return 'days60plus';
}

export const creditOutstandingQuerySchema = z.strictObject({
  branchId: z.uuid().optional(),
  clientId: z.uuid().optional(),
});

export const creditInvoiceSchema = z.object({
  saleId: z.string(),
  invoiceNumber: z.string(),
  saleDate: z.string(),
  dueDate: z.string(),
  daysOverdue: z.number().int(),
  bucket: z.enum(AGING_BUCKETS),
  totalCents: z.number().int(),
  balanceCents: z.number().int(),
});
export type CreditInvoice = z.infer<typeof creditInvoiceSchema>;

const bucketsSchema = z.object({ current: z.number().int(), days1to30: z.number().int(), days31to60: z.number().int(), days60plus: z.number().int() });

export const creditCustomerSchema = z.object({
  clientId: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  balanceCents: z.number().int(),
  creditDays: z.number().int(),
  oldestSaleDate: z.string(),
  /** The most days any invoice is overdue (0 when none is). */
  daysOverdue: z.number().int(),
  buckets: bucketsSchema,
  invoices: z.array(creditInvoiceSchema),
});
export type CreditCustomer = z.infer<typeof creditCustomerSchema>;

export const creditOutstandingResponseSchema = z.object({
  asOf: z.string(),
  customers: z.array(creditCustomerSchema),
  totals: bucketsSchema.extend({ balanceCents: z.number().int() }),
});
export type CreditOutstandingResponse = z.infer<typeof creditOutstandingResponseSchema>;

/** An invoice's due date, days overdue and bucket on `today`. */
export function ageInvoice(saleDate: string, creditDays: number, today: string): { dueDate: string; daysOverdue: number; bucket: AgingBucket } {
  const dueDate = addDays(saleDate, creditDays);
  const daysOverdue = Math.max(0, daysFrom(dueDate, today));
  return { dueDate, daysOverdue, bucket: agingBucket(daysOverdue) };
}

// ------------------------------------------------------------------------------------------- later payments

/**
 * Allocates a payment over a customer's open credit sales, oldest first (seed 002 section 4, "Payment allocation"):
 * each takes what it owes until the payment is used up. Returns the allocations and what is left unallocated.
 */
export function allocateOldestFirst<T extends { balanceCents: number }>(invoices: readonly T[], amountCents: number): { allocations: { invoice: T; amountCents: number }[]; leftCents: number } {
  let left = amountCents;
  const allocations: { invoice: T; amountCents: number }[] = [];
  for (const invoice of invoices) {
    if (left <= 0) break;
    const take = Math.min(left, invoice.balanceCents);
    if (take <= 0) continue;
    allocations.push({ invoice, amountCents: take });
    left -= take;
  }
  return { allocations, leftCents: left };
}

export const customerPaymentInputSchema = z.strictObject({
  /** Made by the browser; also the Idempotency-Key. */
  id: clientMadeIdSchema,
  clientId: z.uuid({ error: 'Choose the customer.' }),
  amountCents: numberField('The amount', 1, SALE_LIMITS.saleCents, { whole: true }),
  method: text(SALE_LIMITS.method, 'The payment method').min(1, 'Choose the payment method.'),
  reference: text(SALE_LIMITS.reference, 'The reference').optional(),
  notes: text(300, 'The notes').optional(),
});
export type CustomerPaymentInput = z.input<typeof customerPaymentInputSchema>;
export type CustomerPaymentBody = z.output<typeof customerPaymentInputSchema>;

export const customerPaymentSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  amountCents: z.number().int(),
  method: z.string(),
  reference: z.string().nullable(),
  notes: z.string().nullable(),
  recordedBy: z.object({ id: z.string().nullable(), name: z.string() }),
  createdAt: z.string(),
  allocations: z.array(z.object({ saleId: z.string(), invoiceNumber: z.string(), saleDate: z.string(), amountCents: z.number().int(), balanceAfterCents: z.number().int() })),
  /** What the customer owes after this payment. */
  balanceAfterCents: z.number().int(),
});
export type CustomerPayment = z.infer<typeof customerPaymentSchema>;

export const customerPaymentListQuerySchema = z.strictObject({
  clientId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const customerPaymentListResponseSchema = z.object({
  items: z.array(customerPaymentSchema),
  total: z.number().int(),
});
export type CustomerPaymentListResponse = z.infer<typeof customerPaymentListResponseSchema>;

// ------------------------------------------------------------------------------------------- filter choices

/** GET /api/sales/filter-options: the cashiers and clients of the sales in a range and branch (the list's choices). */
export const saleFilterOptionsQuerySchema = z
  .strictObject({
    preset: datePresetSchema.optional(),
    from: calendarDate('The start date').optional(),
    to: calendarDate('The end date').optional(),
    branchId: z.uuid().optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The start date must be on or before the end date.', path: ['to'] });
export type SaleFilterOptionsQueryInput = z.input<typeof saleFilterOptionsQuerySchema>;

/** At most this many of each (by name). */
export const SALE_FILTER_OPTIONS_MAX = 500;

export const saleFilterOptionsResponseSchema = z.object({
  cashiers: z.array(z.object({ id: z.string(), name: z.string() })),
  clients: z.array(z.object({ id: z.string(), name: z.string(), phone: z.string().nullable() })),
});
export type SaleFilterOptionsResponse = z.infer<typeof saleFilterOptionsResponseSchema>;
