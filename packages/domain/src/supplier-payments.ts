import { z } from 'zod';
import { fieldMessage } from './errors.ts';
import { formatMoney, parseMoneyToCents } from './money.ts';
import { daysBetween } from './stock.ts';
import { calendarDate, text } from './text.ts';

/**
 * Supplier payments, their allocation to invoices (purchases) and the supplier balances report (seed 002 sections 3-5,
 * 8 and 9; decisions 0041 and 0042). Money in integer cents; dates 'YYYY-MM-DD' (the pharmacy's business day).
 */

export const SUPPLIER_PAYMENT_METHODS = ['M-Pesa', 'Bank Transfer', 'Cheque', 'Cash'] as const;
export type SupplierPaymentMethod = (typeof SUPPLIER_PAYMENT_METHODS)[number];
/** Methods whose payments carry a reference (M-Pesa code, transfer reference, cheque number). */
export const REFERENCE_REQUIRED_METHODS: readonly SupplierPaymentMethod[] = ['M-Pesa', 'Bank Transfer', 'Cheque'];

/** Amounts below 0.01 are ignored (seed 002 section 9): in cents, nothing under one cent is allocated. */
export const MIN_ALLOCATION_CENTS = 1;
export const SUPPLIER_PAYMENT_MAX_CENTS = 100_000_000_000;

// ------------------------------------------------------------------------------------------- requests

/**
 * POST /api/supplier-payments. supplierId, amount and date are checked by the service so a missing one answers the
 * specification's 'Missing required payment fields'. invoiceId chooses the invoice paid first ('specific').
 */
export const createSupplierPaymentSchema = z.strictObject({
  supplierId: z.uuid().nullable().optional(),
  amountCents: z.number().int(fieldMessage('wholeNumber', 'The amount in cents')).max(SUPPLIER_PAYMENT_MAX_CENTS, fieldMessage('atMost', 'The amount in cents', { max: SUPPLIER_PAYMENT_MAX_CENTS })).nullable().optional(),
  date: calendarDate('The payment date').nullable().optional(),
  method: z.enum(SUPPLIER_PAYMENT_METHODS, fieldMessage('choose', 'a payment method')).default('Cash'),
  reference: text(100, 'The reference').nullable().optional(),
  notes: text(500, 'Notes').nullable().optional(),
  invoiceId: z.uuid().nullable().optional(),
});
export type CreateSupplierPaymentInput = z.input<typeof createSupplierPaymentSchema>;
export type CreateSupplierPayment = z.output<typeof createSupplierPaymentSchema>;

/** PUT /api/supplier-payments/:id: the payment again (its allocations are made again from scratch). */
export const updateSupplierPaymentSchema = createSupplierPaymentSchema.omit({ supplierId: true });
export type UpdateSupplierPayment = z.output<typeof updateSupplierPaymentSchema>;

export const supplierPaymentIdParamsSchema = z.strictObject({ id: z.uuid() });

export const supplierPaymentListQuerySchema = z.strictObject({
  supplierId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

// ------------------------------------------------------------------------------------------- allocation

/** An invoice (a purchase) open to payment: its total, what returns took off it and what payments already paid. */
export interface OpenInvoice {
  id: string;
  number: string;
  date: string;
  totalCents: number;
  returnedCents: number;
  paidCents: number;
}

export const allocationSchema = z.object({
  invoiceId: z.string(),
  invoiceNumber: z.string(),
  invoiceDate: z.string(),
  invoiceTotal: z.number().int(),
  previouslyPaid: z.number().int(),
  allocationAmount: z.number().int(),
  remainingBalance: z.number().int(),
});
export type Allocation = z.infer<typeof allocationSchema>;

/** allocationDetails of seed 002 section 3, in cents. */
export const allocationDetailsSchema = z.object({
  type: z.enum(['auto', 'specific']),
  allocations: z.array(allocationSchema),
  totalAllocated: z.number().int(),
  overpayment: z.number().int(),
  invoicesAffected: z.number().int(),
});
export type AllocationDetails = z.infer<typeof allocationDetailsSchema>;

/** What is still owed on an invoice (never below 0). previouslyPaid counts payments and returns. */
export function outstandingCents(invoice: OpenInvoice): number {
  return Math.max(0, invoice.totalCents - invoice.returnedCents - invoice.paidCents);
}

/** Oldest invoice first: by date, then number, then id. */
export function compareInvoices(a: Pick<OpenInvoice, 'date' | 'number' | 'id'>, b: Pick<OpenInvoice, 'date' | 'number' | 'id'>): number {
  return a.date.localeCompare(b.date) || a.number.localeCompare(b.number) || a.id.localeCompare(b.id);
}

/**
 * Share a payment among open invoices (seed 002 sections 4 and 9): the chosen invoice first when there is one, then
 * the oldest invoice first; amounts below one cent ignored; what is left over is the overpayment, held as credit.
 */
export function allocatePayment(amountCents: number, invoices: readonly OpenInvoice[], chosenInvoiceId: string | null = null): AllocationDetails {
  const ordered = [...invoices].sort(compareInvoices);
  if (chosenInvoiceId) {
    const index = ordered.findIndex((i) => i.id === chosenInvoiceId);
    if (index > 0) ordered.unshift(...ordered.splice(index, 1));
  }
  let left = Math.max(0, Math.trunc(amountCents));
  const allocations: Allocation[] = [];
  for (const invoice of ordered) {
    if (left < MIN_ALLOCATION_CENTS) break;
    const owed = outstandingCents(invoice);
    if (owed < MIN_ALLOCATION_CENTS) continue;
    const amount = Math.min(owed, left);
    left -= amount;
    allocations.push({
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      invoiceDate: invoice.date,
      invoiceTotal: invoice.totalCents,
      previouslyPaid: invoice.paidCents + invoice.returnedCents,
      allocationAmount: amount,
      remainingBalance: owed - amount,
    });
  }
  const totalAllocated = allocations.reduce((sum, a) => sum + a.allocationAmount, 0);
  return { type: chosenInvoiceId ? 'specific' : 'auto', allocations, totalAllocated, overpayment: Math.max(0, Math.trunc(amountCents)) - totalAllocated, invoicesAffected: allocations.length };
}

/**
 * Earlier payments' credit given to open invoices, oldest credit to the oldest invoice (the overpayment 'used by the
 * next purchase'): one allocation per (payment, invoice) pair.
 */
export function allocateCredit(credits: readonly { paymentId: string; creditCents: number }[], invoices: readonly OpenInvoice[]): { paymentId: string; invoiceId: string; amountCents: number }[] {
  const owed = [...invoices].sort(compareInvoices).map((i) => ({ id: i.id, left: outstandingCents(i) }));
  const result: { paymentId: string; invoiceId: string; amountCents: number }[] = [];
  for (const credit of credits) {
    let left = credit.creditCents;
    for (const invoice of owed) {
      if (left < MIN_ALLOCATION_CENTS) break;
      if (invoice.left < MIN_ALLOCATION_CENTS) continue;
      const amount = Math.min(left, invoice.left);
      invoice.left -= amount;
      left -= amount;
      result.push({ paymentId: credit.paymentId, invoiceId: invoice.id, amountCents: amount });
    }
  }
  return result;
}

/** KES with 2 decimals and thousands separators, as payments and the supplier report show money. */
export function formatKes(cents: number): string {
  return formatMoney(cents, { currencySymbol: 'KES' });
}

/** A date 'YYYY-MM-DD' as '3 Nov 2026'. */
export function formatShortDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${d} ${months[(m ?? 1) - 1]} ${y}`;
}

/** 'Payment of KES {amount} saved successfully (allocated to N invoice(s))' (seed 002 section 8). */
export function paymentSavedMessage(amountCents: number, invoices: number): string {
  return `Payment of ${formatKes(amountCents)} saved successfully (allocated to ${invoices} invoice(s))`;
}

/** 'Payment allocated to N invoice(s), starting with oldest ({date})' (seed 002 section 8), for an automatic allocation. */
export function paymentAllocatedMessage(details: AllocationDetails): string | null {
  if (details.type !== 'auto' || details.invoicesAffected === 0) return null;
  return `Payment allocated to ${details.invoicesAffected} invoice(s), starting with oldest (${formatShortDate(details.allocations[0]!.invoiceDate)})`;
}

// ------------------------------------------------------------------------------------------- responses

export const supplierPaymentSchema = z.object({
  id: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  amountCents: z.number().int(),
  date: z.string(),
  method: z.enum(SUPPLIER_PAYMENT_METHODS),
  reference: z.string().nullable(),
  notes: z.string().nullable(),
  invoiceId: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  allocationDetails: allocationDetailsSchema,
  /** What of the payment is not (or no longer) allocated: credit held for the next purchase. */
  creditCents: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SupplierPayment = z.infer<typeof supplierPaymentSchema>;

/** A saved payment with the messages to show (seed 002 section 8). */
export const supplierPaymentSavedSchema = z.object({ payment: supplierPaymentSchema, message: z.string(), allocationMessage: z.string().nullable() });
export type SupplierPaymentSaved = z.infer<typeof supplierPaymentSavedSchema>;

export const supplierPaymentListResponseSchema = z.object({ items: z.array(supplierPaymentSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
export const supplierPaymentDeletedSchema = z.object({ message: z.string() });

/** An invoice of a supplier with what is owed on it (the payment dialog's invoice choice, the contact's page). */
export const supplierInvoiceSchema = z.object({
  id: z.string(),
  purchaseNumber: z.string(),
  date: z.string(),
  status: z.string(),
  totalCents: z.number().int(),
  returnedCents: z.number().int(),
  paidCents: z.number().int(),
  outstandingCents: z.number().int(),
  dueDate: z.string(),
  creditDays: z.number().int(),
  daysOld: z.number().int(),
  daysOverdue: z.number().int(),
});
export type SupplierInvoice = z.infer<typeof supplierInvoiceSchema>;

// ------------------------------------------------------------------------------------------- the report

export const BALANCE_STATUSES = ['Outstanding', 'Overpaid', 'Settled'] as const;
export type BalanceStatus = (typeof BALANCE_STATUSES)[number];

/** Outstanding above 0, Overpaid below 0, Settled at 0 (seed 002 section 4). */
export function balanceStatus(balanceCents: number): BalanceStatus {
  return balanceCents > 0 ? 'Outstanding' : balanceCents < 0 ? 'Overpaid' : 'Settled';
}

export const DEFAULT_AGING_PERIODS = [30, 60, 90] as const;

/** The bucket names for aging periods [p1, p2, ...]: Current, 1-p1, p1+1-p2, p2+ days overdue (seed 002 sections 4 and 9). */
export function agingBucketLabels(periods: readonly number[] = DEFAULT_AGING_PERIODS): [string, string, string, string] {
  const [p1, p2] = [periods[0] ?? 30, periods[1] ?? 60];
  return ['Current', `1-${p1} days overdue`, `${p1 + 1}-${p2} days overdue`, `${p2}+ days overdue`];
}

/** The bucket index (0 Current .. 3 oldest) of a number of days overdue. */
export function agingBucketIndex(daysOverdue: number, periods: readonly number[] = DEFAULT_AGING_PERIODS): 0 | 1 | 2 | 3 {
  const [p1, p2] = [periods[0] ?? 30, periods[1] ?? 60];
  if (daysOverdue <= 0) return 0;
  if (daysOverdue <= p1) return 1;
  if (daysOverdue <= p2) return 2;
  return 3;
}

/** A supplier's bucket: Settled at 0, Credit Balance below 0, else the bucket of its most overdue open invoice. */
export function ageBucket(balanceCents: number, maxDaysOverdue: number, periods: readonly number[] = DEFAULT_AGING_PERIODS): string {
  if (balanceCents === 0) return 'Settled';
  if (balanceCents < 0) return 'Credit Balance';
  return agingBucketLabels(periods)[agingBucketIndex(maxDaysOverdue, periods)];
}

/** An invoice's due date: its date plus the credit days. */
export function dueDate(invoiceDate: string, creditDays: number): string {
  return new Date(Date.parse(`${invoiceDate}T00:00:00Z`) + creditDays * 86_400_000).toISOString().slice(0, 10);
}

/** Days old and days overdue (never below 0) of an invoice on a day. */
export function invoiceAge(invoiceDate: string, creditDays: number, today: string): { dueDate: string; daysOld: number; daysOverdue: number } {
  const due = dueDate(invoiceDate, creditDays);
  return { dueDate: due, daysOld: Math.max(0, daysBetween(invoiceDate, today)), daysOverdue: Math.max(0, daysBetween(due, today)) };
}

export const supplierReportSettingsSchema = z.strictObject({
  reportTitle: text(100, 'The report title').min(1, fieldMessage('required', 'The report title')).default('Supplier Balances Report'),
  showZeroBalances: z.boolean().default(true),
  defaultCreditDays: z.number().int(fieldMessage('wholeNumber', 'Default credit days')).min(0, fieldMessage('between', 'Default credit days', { min: 0, max: 365 })).max(365, fieldMessage('between', 'Default credit days', { min: 0, max: 365 })).default(30),
  agingPeriods: z
    .array(z.number().int().min(1).max(365))
    .length(3, 'Give three aging periods.')
    .refine((p) => p[0]! < p[1]! && p[1]! < p[2]!, 'Aging periods must increase (e.g. 30, 60, 90).')
    .default([30, 60, 90]),
  currencySymbol: text(8, 'The currency symbol').default('KES'),
  dateFormat: z.enum(['DD/MM/YYYY', 'YYYY-MM-DD', 'MM/DD/YYYY']).default('DD/MM/YYYY'),
});
export type SupplierReportSettings = z.output<typeof supplierReportSettingsSchema>;
export type SupplierReportSettingsInput = z.input<typeof supplierReportSettingsSchema>;
export const DEFAULT_SUPPLIER_REPORT_SETTINGS: SupplierReportSettings = supplierReportSettingsSchema.parse({});

export const supplierReportQuerySchema = z.strictObject({
  search: text(100, 'The search').optional(),
  nonZeroOnly: z.enum(['true', 'false']).default('false'),
  /** The smallest absolute balance shown, in cents. */
  minBalanceCents: z.coerce.number().int().min(0).max(SUPPLIER_PAYMENT_MAX_CENTS).default(0),
});
export type SupplierReportQuery = z.output<typeof supplierReportQuerySchema>;

export const agingBreakdownSchema = z.object({ current: z.number().int(), days1to30: z.number().int(), days31to60: z.number().int(), over60: z.number().int() });

export const supplierBalanceRowSchema = z.object({
  supplierId: z.string(),
  supplierName: z.string(),
  phone: z.string().nullable(),
  isActive: z.boolean(),
  creditDays: z.number().int(),
  totalPurchases: z.number().int(),
  totalReturns: z.number().int(),
  totalPaid: z.number().int(),
  balance: z.number().int(),
  purchaseCount: z.number().int(),
  paymentCount: z.number().int(),
  lastPurchaseDate: z.string().nullable(),
  lastPaymentDate: z.string().nullable(),
  balanceStatus: z.enum(BALANCE_STATUSES),
  daysOutstanding: z.number().int(),
  ageBucket: z.string(),
  /**
   * How many invoices are still open (after payments, returns and the supplier's credit). The invoices themselves
   * are not in the report: GET /api/reports/suppliers/:supplierId/invoices answers them when a row is opened.
   */
  outstandingInvoiceCount: z.number().int(),
  agingBreakdown: agingBreakdownSchema,
});
export type SupplierBalanceRow = z.infer<typeof supplierBalanceRowSchema>;

export const supplierReportResponseSchema = z.object({
  today: z.string(),
  settings: supplierReportSettingsSchema,
  bucketLabels: z.array(z.string()),
  rows: z.array(supplierBalanceRowSchema),
  totals: z.object({
    totalPurchases: z.number().int(),
    totalPaid: z.number().int(),
    totalBalance: z.number().int(),
    outstanding: z.number().int(),
    overpaid: z.number().int(),
    settled: z.number().int(),
    agingBreakdown: agingBreakdownSchema,
  }),
});
export type SupplierReport = z.infer<typeof supplierReportResponseSchema>;

export const supplierOpenInvoicesParamsSchema = z.strictObject({ supplierId: z.uuid() });

/** GET /api/reports/suppliers/:supplierId/invoices: a report row's open invoices, oldest first (the row opened). */
export const supplierOpenInvoicesResponseSchema = z.object({
  supplierId: z.string(),
  supplierName: z.string(),
  today: z.string(),
  invoices: z.array(supplierInvoiceSchema),
});
export type SupplierOpenInvoices = z.infer<typeof supplierOpenInvoicesResponseSchema>;

/** Payment-due alert (dashboard): open invoices due within 7 days or overdue. */
export const PAYMENT_DUE_WINDOW_DAYS = 7;
/** The alert's answer lists at most this many of them (soonest first); invoiceCount, totalCents and overdueCount count all. */
export const PAYMENT_DUE_LISTED = 20;

/** What a supplier's open invoices add up to: how many, the oldest's age, the most overdue, and what is owed per bucket. */
export interface SupplierAging {
  openInvoiceCount: number;
  maxDaysOld: number;
  maxDaysOverdue: number;
  breakdown: z.infer<typeof agingBreakdownSchema>;
}

export const NO_AGING: SupplierAging = { openInvoiceCount: 0, maxDaysOld: 0, maxDaysOverdue: 0, breakdown: { current: 0, days1to30: 0, days31to60: 0, over60: 0 } };

const BREAKDOWN_KEYS = ['current', 'days1to30', 'days31to60', 'over60'] as const;

/**
 * The aging of open invoices (each with outstanding already net of payments, returns and credit): the rule the
 * report's SQL aggregate follows (supplier-payments.repository agingBySupplier); tests compare the two.
 */
export function agingOfInvoices(open: readonly Pick<SupplierInvoice, 'outstandingCents' | 'daysOld' | 'daysOverdue'>[], periods: readonly number[]): SupplierAging {
  const breakdown = { ...NO_AGING.breakdown };
  let openInvoiceCount = 0;
  let maxDaysOld = 0;
  let maxDaysOverdue = 0;
  for (const invoice of open) {
    if (invoice.outstandingCents <= 0) continue;
    openInvoiceCount += 1;
    maxDaysOld = Math.max(maxDaysOld, invoice.daysOld);
    maxDaysOverdue = Math.max(maxDaysOverdue, invoice.daysOverdue);
    breakdown[BREAKDOWN_KEYS[agingBucketIndex(invoice.daysOverdue, periods)]] += invoice.outstandingCents;
  }
  return { openInvoiceCount, maxDaysOld, maxDaysOverdue, breakdown };
}

/**
 * A supplier's row from its totals and the aging of its open invoices: status, days outstanding (the oldest open
 * invoice's age), bucket (that of the most overdue) and the breakdown of what is owed by bucket. A supplier owed
 * nothing (balance 0 or below) has no open invoices in the report.
 */
export function supplierBalanceRow(
  supplier: { id: string; name: string; phone: string | null; isActive: boolean; creditDays: number },
  totals: { purchases: number; returns: number; paid: number; purchaseCount: number; paymentCount: number; lastPurchaseDate: string | null; lastPaymentDate: string | null },
  aging: SupplierAging,
  periods: readonly number[],
): SupplierBalanceRow {
  const balance = totals.purchases - totals.returns - totals.paid;
  const open = balance > 0 ? aging : NO_AGING;
  return {
    supplierId: supplier.id,
    supplierName: supplier.name,
    phone: supplier.phone,
    isActive: supplier.isActive,
    creditDays: supplier.creditDays,
    totalPurchases: totals.purchases,
    totalReturns: totals.returns,
    totalPaid: totals.paid,
    balance,
    purchaseCount: totals.purchaseCount,
    paymentCount: totals.paymentCount,
    lastPurchaseDate: totals.lastPurchaseDate,
    lastPaymentDate: totals.lastPaymentDate,
    balanceStatus: balanceStatus(balance),
    daysOutstanding: open.maxDaysOld,
    ageBucket: ageBucket(balance, open.maxDaysOverdue, periods),
    outstandingInvoiceCount: open.openInvoiceCount,
    agingBreakdown: { ...open.breakdown },
  };
}

/**
 * The payment dialog as typed: the amount in KES ('1,234.50'), the date, the method, a reference for M-Pesa, bank
 * transfer and cheque, notes and the invoice chosen first ('' = oldest first). The output is the request body
 * without supplierId.
 */
export const supplierPaymentFormSchema = z
  .object({
    amount: z.string().trim(),
    date: calendarDate('The payment date'),
    method: z.enum(SUPPLIER_PAYMENT_METHODS),
    reference: text(100, 'The reference'),
    notes: text(500, 'Notes'),
    invoiceId: z.string(),
  })
  .superRefine((form, ctx) => {
    const cents = parseMoneyToCents(form.amount);
    if (form.amount === '' || cents === null || cents <= 0) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'The amount must be more than KES 0.00.' });
    if ((REFERENCE_REQUIRED_METHODS as readonly string[]).includes(form.method) && !form.reference) {
      ctx.addIssue({ code: 'custom', path: ['reference'], message: `A reference is required for ${form.method} payments.` });
    }
  })
  .transform((form) => ({
    amountCents: parseMoneyToCents(form.amount) ?? 0,
    date: form.date,
    method: form.method,
    reference: form.reference === '' ? null : form.reference,
    notes: form.notes === '' ? null : form.notes,
    invoiceId: form.invoiceId === '' ? null : form.invoiceId,
  }));
export type SupplierPaymentFormValues = z.input<typeof supplierPaymentFormSchema>;

/**
 * GET /api/reports/suppliers/payment-due: open invoices due within 7 days or overdue (the dashboard's alert): how
 * many (invoiceCount), what they owe, how many are overdue, and the first PAYMENT_DUE_LISTED of them, soonest first.
 */
export const paymentDueResponseSchema = z.object({
  windowDays: z.number().int(),
  invoiceCount: z.number().int(),
  totalCents: z.number().int(),
  overdueCount: z.number().int(),
  invoices: z.array(supplierInvoiceSchema.extend({ supplierId: z.string(), supplierName: z.string() })),
});
export type PaymentDueResponse = z.infer<typeof paymentDueResponseSchema>;

/** Is an open invoice due within the window (or overdue) on `today`? */
export function isPaymentDue(invoice: Pick<SupplierInvoice, 'dueDate' | 'outstandingCents'>, today: string, windowDays: number = PAYMENT_DUE_WINDOW_DAYS): boolean {
  return invoice.outstandingCents > 0 && daysBetween(today, invoice.dueDate) <= windowDays;
}
