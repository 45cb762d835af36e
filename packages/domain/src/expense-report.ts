import { z } from 'zod';
import { EXPENSE_LIMITS, EXPENSE_PAYMENT_METHODS, EXPENSE_SOURCES, expenseSchema, isTransportCategory, transportTotalCents, type CreateExpense } from './expenses.ts';
import { refineReportRange, reportPageFields, reportRangeFields } from './report-period.ts';
import { addDays, daysFrom } from './sales-history.ts';
import { text } from './text.ts';

/**
 * The expense report and the expenses kept by hand in the back office: GET /api/reports/expenses (report:financial)
 * — totals by category, branch, payment method, source and period, with the transport breakdown — and recording,
 * editing and voiding an expense outside the till (source manual). A voided expense stays listed, marked voided,
 * and counts in no total.
 */

// ------------------------------------------------------------------------------------------- periods

export const EXPENSE_PERIODS = ['day', 'week', 'month', 'year'] as const;
export type ExpensePeriod = (typeof EXPENSE_PERIODS)[number];

/** The period a range is shown in when none is asked: days up to a month, weeks up to a quarter, months up to two years, else years. */
export function defaultExpensePeriod(from: string, to: string): ExpensePeriod {
  const days = daysFrom(from, to) + 1;
  if (days <= 31) return 'day';
  if (days <= 92) return 'week';
  if (days <= 731) return 'month';
  return 'year';
}

/** The first day of the period holding `day` (weeks start on Sunday, as the date filters' weeks do). */
export function periodStart(day: string, period: ExpensePeriod): string {
  switch (period) {
    case 'day':
      return day;
    case 'week':
      return addDays(day, -new Date(`${day}T00:00:00Z`).getUTCDay());
    case 'month':
      return `${day.slice(0, 7)}-01`;
    case 'year':
      return `${day.slice(0, 4)}-01-01`;
  }
}

// ------------------------------------------------------------------------------------------- query and answer

export const EXPENSE_STATUS_FILTERS = ['all', 'active', 'voided'] as const;

/** GET /api/reports/expenses. The range defaults to the last 30 days; `status` narrows the list (not the totals). */
export const expenseReportQuerySchema = z
  .strictObject({
    ...reportRangeFields,
    branchId: z.uuid().optional(),
    category: text(EXPENSE_LIMITS.category, 'Category').optional(),
    paymentMethod: z.enum(EXPENSE_PAYMENT_METHODS, { error: 'Choose a payment method.' }).optional(),
    source: z.enum(EXPENSE_SOURCES, { error: 'Choose a source.' }).optional(),
    status: z.enum(EXPENSE_STATUS_FILTERS, { error: 'Choose a status.' }).default('all'),
    period: z.enum(EXPENSE_PERIODS, { error: 'Choose a period.' }).optional(),
    ...reportPageFields,
  })
  .superRefine(refineReportRange);
export type ExpenseReportQueryInput = z.input<typeof expenseReportQuerySchema>;
export type ExpenseReportQuery = z.output<typeof expenseReportQuerySchema>;

const bucket = z.object({ key: z.string(), count: z.number().int(), totalCents: z.number().int() });
export type ExpenseBucket = z.infer<typeof bucket>;

export const expenseTransportBreakdownSchema = z.object({
  count: z.number().int(),
  /** The base amounts of the transport and travel expenses. */
  baseCents: z.number().int(),
  fuelCents: z.number().int(),
  tollCents: z.number().int(),
  parkingCents: z.number().int(),
  mealAllowanceCents: z.number().int(),
  /** Base plus the four costs. */
  totalCents: z.number().int(),
  distanceKm: z.number(),
  /** By transport type ('' = not stated). */
  byType: z.array(bucket.extend({ distanceKm: z.number() })),
});
export type ExpenseTransportBreakdown = z.infer<typeof expenseTransportBreakdownSchema>;

export const expenseBreakdownSchema = z.object({
  /** Expenses that count (not voided). */
  count: z.number().int(),
  totalCents: z.number().int(),
  voidedCount: z.number().int(),
  voidedTotalCents: z.number().int(),
  byCategory: z.array(bucket),
  byBranch: z.array(bucket.extend({ branchName: z.string() })),
  byPaymentMethod: z.array(bucket),
  bySource: z.array(bucket),
  /** Period by period, oldest first; `key` is the period's first day. */
  byPeriod: z.array(bucket),
  transport: expenseTransportBreakdownSchema,
});
export type ExpenseBreakdown = z.infer<typeof expenseBreakdownSchema>;

export const reportExpenseSchema = expenseSchema;

export const expenseReportResponseSchema = z.object({
  /** The pharmacy's business date today (a new expense's default date, the latest it may have). */
  today: z.string(),
  from: z.string(),
  to: z.string(),
  period: z.enum(EXPENSE_PERIODS),
  summary: expenseBreakdownSchema,
  items: z.array(expenseSchema),
  /** Rows the list's filters match (status included). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ExpenseReportResponse = z.infer<typeof expenseReportResponseSchema>;

// ------------------------------------------------------------------------------------------- the breakdown

/** One group of expenses as the database sums them: same day, branch, category, method, source, transport type and voided flag. */
export interface ExpenseGroup {
  date: string;
  branchId: string;
  branchName: string;
  category: string;
  paymentMethod: string;
  source: string;
  isTransport: boolean;
  transportType: string | null;
  voided: boolean;
  count: number;
  totalCents: number;
  amountCents: number;
  fuelCents: number;
  tollCents: number;
  parkingCents: number;
  mealAllowanceCents: number;
  distanceKm: number;
}

function add(map: Map<string, ExpenseBucket & { branchName?: string; distanceKm?: number }>, key: string, g: ExpenseGroup, extra: { branchName?: string; distanceKm?: number } = {}) {
  const found = map.get(key) ?? { key, count: 0, totalCents: 0, ...extra, ...(extra.distanceKm !== undefined ? { distanceKm: 0 } : {}) };
  found.count += g.count;
  found.totalCents += g.totalCents;
  if (extra.distanceKm !== undefined) found.distanceKm = roundKm((found.distanceKm ?? 0) + extra.distanceKm);
  map.set(key, found);
}
const roundKm = (km: number) => Math.round(km * 10) / 10;
const byTotal = (a: ExpenseBucket, b: ExpenseBucket) => b.totalCents - a.totalCents || a.key.localeCompare(b.key);

/**
 * The totals and breakdowns of a set of expense groups: voided expenses counted apart and left out of every total;
 * buckets largest first (periods oldest first); the transport breakdown over transport and travel expenses.
 */
export function expenseBreakdown(groups: readonly ExpenseGroup[], period: ExpensePeriod): ExpenseBreakdown {
  const category = new Map<string, ExpenseBucket>();
  const branch = new Map<string, ExpenseBucket & { branchName?: string }>();
  const method = new Map<string, ExpenseBucket>();
  const source = new Map<string, ExpenseBucket>();
  const periods = new Map<string, ExpenseBucket>();
  const types = new Map<string, ExpenseBucket & { distanceKm?: number }>();
  const transport = { count: 0, baseCents: 0, fuelCents: 0, tollCents: 0, parkingCents: 0, mealAllowanceCents: 0, totalCents: 0, distanceKm: 0 };
  let count = 0;
  let totalCents = 0;
  let voidedCount = 0;
  let voidedTotalCents = 0;
  for (const g of groups) {
    if (g.voided) {
      voidedCount += g.count;
      voidedTotalCents += g.totalCents;
      continue;
    }
    count += g.count;
    totalCents += g.totalCents;
    add(category, g.category, g);
    add(branch, g.branchId, g, { branchName: g.branchName });
    add(method, g.paymentMethod, g);
    add(source, g.source, g);
    add(periods, periodStart(g.date, period), g);
    if (g.isTransport) {
      transport.count += g.count;
      transport.baseCents += g.amountCents;
      transport.fuelCents += g.fuelCents;
      transport.tollCents += g.tollCents;
      transport.parkingCents += g.parkingCents;
      transport.mealAllowanceCents += g.mealAllowanceCents;
      transport.totalCents += g.totalCents;
      transport.distanceKm = roundKm(transport.distanceKm + g.distanceKm);
      add(types, g.transportType ?? '', g, { distanceKm: g.distanceKm });
    }
  }
  return {
    count,
    totalCents,
    voidedCount,
    voidedTotalCents,
    byCategory: [...category.values()].sort(byTotal),
    byBranch: [...branch.values()].map((b) => ({ key: b.key, branchName: b.branchName ?? '', count: b.count, totalCents: b.totalCents })).sort(byTotal),
    byPaymentMethod: [...method.values()].sort(byTotal),
    bySource: [...source.values()].sort(byTotal),
    byPeriod: [...periods.values()].sort((a, b) => a.key.localeCompare(b.key)),
    transport: { ...transport, byType: [...types.values()].map((t) => ({ key: t.key, count: t.count, totalCents: t.totalCents, distanceKm: t.distanceKm ?? 0 })).sort(byTotal) },
  };
}

// ------------------------------------------------------------------------------------------- writes

export const EXPENSE_VOID_REASON_MAX = 200;

/** POST /api/expenses/:id/void: why (required). */
export const voidExpenseSchema = z.strictObject({
  reason: text(EXPENSE_VOID_REASON_MAX, 'The reason').refine((value) => value.trim() !== '', 'Enter a reason for voiding the expense.'),
});
export type VoidExpenseInput = z.infer<typeof voidExpenseSchema>;

/** The stored values of an expense from its request: transport details kept only for a transport or travel category, the total computed. */
export interface ExpenseValues {
  branchId: string;
  date: string;
  description: string;
  category: string;
  amountCents: number;
  totalCents: number;
  paymentMethod: string;
  receiptNumber: string | null;
  notes: string | null;
  contactPhone: string | null;
  transport: {
    destination: string;
    reason: string;
    transportType: string | null;
    distanceKm: number | null;
    fuelCents: number;
    tollCents: number;
    parkingCents: number;
    mealAllowanceCents: number;
  } | null;
}

const blank = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null);

export function expenseValues(input: CreateExpense, branchId: string, date: string): ExpenseValues {
  const transport = isTransportCategory(input.category) && input.transport
    ? {
        destination: input.transport.destination!.trim(),
        reason: input.transport.reason!.trim(),
        transportType: input.transport.transportType ?? null,
        distanceKm: input.transport.distanceKm ?? null,
        fuelCents: input.transport.fuelCents ?? 0,
        tollCents: input.transport.tollCents ?? 0,
        parkingCents: input.transport.parkingCents ?? 0,
        mealAllowanceCents: input.transport.mealAllowanceCents ?? 0,
      }
    : null;
  return {
    branchId,
    date,
    description: input.description.trim(),
    category: input.category.trim(),
    amountCents: input.amountCents,
    totalCents: transport ? transportTotalCents(input.amountCents, transport) : input.amountCents,
    paymentMethod: input.paymentMethod,
    receiptNumber: blank(input.receiptNumber),
    notes: blank(input.notes),
    contactPhone: transport ? blank(input.contactPhone) : null,
    transport,
  };
}

/** What a voided expense answers to a change (409 CONFLICT with this sentence). */
export const EXPENSE_VOIDED_MESSAGE = 'This expense was voided and can no longer be changed.';
export type ExpenseRefusal = 'EXPENSE_VOIDED' | 'EXPENSE_DATE_IN_FUTURE';
export type ExpenseDecision<T> = { ok: true; value: T } | { ok: false; code: ExpenseRefusal };

/** A back-office expense (new or edited): the date defaults to today and may not be later; a voided expense is not edited. */
export function decideExpenseWrite(
  current: { voidedAt: string | null; date: string } | null,
  input: CreateExpense,
  branchId: string,
  today: string,
): ExpenseDecision<ExpenseValues> {
  if (current?.voidedAt) return { ok: false, code: 'EXPENSE_VOIDED' };
  const date = input.date ?? current?.date ?? today;
  if (date > today) return { ok: false, code: 'EXPENSE_DATE_IN_FUTURE' };
  return { ok: true, value: expenseValues(input, branchId, date) };
}

/** Voiding: once only; the reason trimmed. */
export function decideExpenseVoid(current: { voidedAt: string | null }, input: VoidExpenseInput): ExpenseDecision<{ reason: string }> {
  if (current.voidedAt) return { ok: false, code: 'EXPENSE_VOIDED' };
  return { ok: true, value: { reason: input.reason.trim() } };
}
