import { z } from 'zod';
import { fieldMessage, numberField } from './errors.ts';
import { parseMoneyToCents } from './money.ts';
import { isKenyanPhone } from './phone.ts';
import { calendarDate, text } from './text.ts';

/**
 * Expenses recorded at the till (seed 001 sections 3, 4, 5 and 9; decision 0027): the categories, payment methods and
 * transport types, the rules with the specification's messages, the transport total, and the request and response
 * schemas of /api/expenses. The Record Expense dialog validates with `expenseFormSchema` (what the cashier types) and
 * sends its output; the server validates the request with `createExpenseSchema`. Both run `expenseIssues`.
 */

// ------------------------------------------------------------------------------------------- constants

/**
 * The 29 expense categories of seed 001 section 9. The specification groups some in one line ('Utilities
 * (electricity, water, internet/phone)', 'Transport (fuel, public, taxi)', 'Travel (accommodation, meals)'): each
 * group is one category per item, which is how the list reaches 29.
 */
export const EXPENSE_CATEGORIES = [
  'Office Supplies',
  'Cleaning Supplies',
  'Utilities - Electricity',
  'Utilities - Water',
  'Utilities - Internet/Phone',
  'Rent',
  'Security',
  'Transport - Fuel',
  'Transport - Public',
  'Transport - Taxi',
  'Travel - Accommodation',
  'Travel - Meals',
  'Staff Allowances',
  'Staff Training',
  'Staff Medical',
  'Equipment Purchase',
  'Equipment Maintenance',
  'IT/Software',
  'Pharmaceutical Supplies',
  'Medical Equipment',
  'Cold Chain Equipment',
  'Disposal Services',
  'Licensing Fees',
  'Bank Charges',
  'Insurance',
  'Professional Services',
  'Emergency Repairs',
  'Marketing',
  'Miscellaneous',
] as const;
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number];

/** Expense payment methods (seed 001 section 9), Cash by default. */
export const EXPENSE_PAYMENT_METHODS = ['Cash', 'M-Pesa', 'Bank Transfer', 'Cheque', 'Credit Card', 'Debit Card', 'Petty Cash'] as const;
export type ExpensePaymentMethod = (typeof EXPENSE_PAYMENT_METHODS)[number];
export const DEFAULT_EXPENSE_PAYMENT_METHOD: ExpensePaymentMethod = 'Cash';

/** Transport types (seed 001 section 9). */
export const TRANSPORT_TYPES = ['Personal Vehicle', 'Company Vehicle', 'Matatu', 'Taxi', 'Uber/Bolt', 'Boda Boda', 'Other'] as const;
export type TransportType = (typeof TRANSPORT_TYPES)[number];

/** Where an expense was recorded: at the till (approved at once) or in the back office. */
export const EXPENSE_SOURCES = ['POS', 'manual'] as const;
export type ExpenseSource = (typeof EXPENSE_SOURCES)[number];
export const EXPENSE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ExpenseStatus = (typeof EXPENSE_STATUSES)[number];

/**
 * Bounds that keep every value storable and every sum inside its column: an amount (and each transport cost) at
 * most KSh 100,000,000.00; a distance at most 100,000 km with one decimal.
 */
export const EXPENSE_LIMITS = {
  amountCents: 10_000_000_000,
  distanceKm: 100_000,
  description: 200,
  category: 60,
  receiptNumber: 60,
  notes: 500,
  destination: 120,
  reason: 200,
  contactPhone: 20,
} as const;

export const EXPENSE_MESSAGES = {
  descriptionRequired: 'Description is required',
  categoryRequired: 'Category is required',
  categoryUnknown: 'Choose a category from the list.',
  amount: 'Valid amount is required',
  amountTooLarge: 'The amount must be at most KSh 100,000,000.00.',
  destinationRequired: 'Destination is required for transport and travel expenses',
  reasonRequired: 'Reason is required for transport and travel expenses',
  phone: 'Please enter a valid phone number',
} as const;

// ------------------------------------------------------------------------------------------- rules

/** A transport or travel category: its name contains 'transport' or 'travel' (seed 001 section 4). */
export function isTransportCategory(category: string | null | undefined): boolean {
  return /transport|travel/i.test(category ?? '');
}

export interface TransportCosts {
  fuelCents?: number | null;
  tollCents?: number | null;
  parkingCents?: number | null;
  mealAllowanceCents?: number | null;
}

/** Transport total = base amount plus fuel, tolls, parking and meal allowance (seed 001 section 5). */
export function transportTotalCents(baseCents: number, costs: TransportCosts): number {
  return baseCents + (costs.fuelCents ?? 0) + (costs.tollCents ?? 0) + (costs.parkingCents ?? 0) + (costs.mealAllowanceCents ?? 0);
}

export interface ExpenseIssue {
  path: string[];
  message: string;
}

/**
 * Every rule of seed 001 section 5 (Expense) an expense breaks, each at its field: description, category (one of
 * the 29), amount above 0, destination and reason for a transport or travel category, a Kenyan contact phone.
 * `amountCents` null means what was typed is not an amount.
 */
export function expenseIssues(input: {
  description?: string | null;
  category?: string | null;
  amountCents?: number | null;
  destination?: string | null;
  reason?: string | null;
  contactPhone?: string | null;
}): ExpenseIssue[] {
  const issues: ExpenseIssue[] = [];
  if (!input.description?.trim()) issues.push({ path: ['description'], message: EXPENSE_MESSAGES.descriptionRequired });
  const category = input.category?.trim() ?? '';
  if (!category) issues.push({ path: ['category'], message: EXPENSE_MESSAGES.categoryRequired });
  else if (!(EXPENSE_CATEGORIES as readonly string[]).includes(category)) issues.push({ path: ['category'], message: EXPENSE_MESSAGES.categoryUnknown });
  if (input.amountCents == null || !Number.isInteger(input.amountCents) || input.amountCents <= 0) issues.push({ path: ['amount'], message: EXPENSE_MESSAGES.amount });
  else if (input.amountCents > EXPENSE_LIMITS.amountCents) issues.push({ path: ['amount'], message: EXPENSE_MESSAGES.amountTooLarge });
  if (isTransportCategory(category)) {
    if (!input.destination?.trim()) issues.push({ path: ['destination'], message: EXPENSE_MESSAGES.destinationRequired });
    if (!input.reason?.trim()) issues.push({ path: ['reason'], message: EXPENSE_MESSAGES.reasonRequired });
  }
  const phone = input.contactPhone?.trim() ?? '';
  if (phone !== '' && !isKenyanPhone(phone)) issues.push({ path: ['contactPhone'], message: EXPENSE_MESSAGES.phone });
  return issues;
}

/** Submit stays disabled until description, category and amount are filled in (seed 001 section 5). */
export function canSubmitExpense(values: { description?: string | null; category?: string | null; amount?: string | null }): boolean {
  return Boolean(values.description?.trim() && values.category?.trim() && values.amount?.trim());
}

// ------------------------------------------------------------------------------------------- request

const costCents = (label: string) => numberField(label, 0, EXPENSE_LIMITS.amountCents, { whole: true });
const optionalText = (max: number, label: string) => text(max, label).nullable().optional();

export const expenseTransportInputSchema = z.strictObject({
  destination: optionalText(EXPENSE_LIMITS.destination, 'Destination'),
  reason: optionalText(EXPENSE_LIMITS.reason, 'Reason'),
  transportType: z.enum(TRANSPORT_TYPES, { error: fieldMessage('choose', 'a transport type') }).nullable().optional(),
  distanceKm: numberField('Distance', 0, EXPENSE_LIMITS.distanceKm, { unit: ' km' }).nullable().optional(),
  fuelCents: costCents('Fuel cost').optional(),
  tollCents: costCents('Tolls').optional(),
  parkingCents: costCents('Parking').optional(),
  mealAllowanceCents: costCents('Meal allowance').optional(),
});
export type ExpenseTransportInput = z.output<typeof expenseTransportInputSchema>;

/**
 * POST /api/expenses (send an Idempotency-Key). `amountCents` is the base amount; for a transport or travel category
 * the transport costs are added to it for the total. `branchId` defaults to the session's branch, `date` to the
 * pharmacy's today. Transport details of another category are dropped.
 */
export const createExpenseSchema = z
  .strictObject({
    branchId: z.uuid().optional(),
    description: text(EXPENSE_LIMITS.description, 'Description'),
    category: text(EXPENSE_LIMITS.category, 'Category'),
    amountCents: z.number({ error: EXPENSE_MESSAGES.amount }),
    paymentMethod: z.enum(EXPENSE_PAYMENT_METHODS, { error: fieldMessage('choose', 'a payment method') }).default(DEFAULT_EXPENSE_PAYMENT_METHOD),
    receiptNumber: optionalText(EXPENSE_LIMITS.receiptNumber, 'Receipt number'),
    notes: optionalText(EXPENSE_LIMITS.notes, 'Notes'),
    contactPhone: optionalText(EXPENSE_LIMITS.contactPhone, 'Contact phone'),
    date: calendarDate('The expense date').optional(),
    transport: expenseTransportInputSchema.nullable().optional(),
  })
  .superRefine((input, ctx) => {
    for (const issue of expenseIssues({
      description: input.description,
      category: input.category,
      amountCents: input.amountCents,
      destination: input.transport?.destination,
      reason: input.transport?.reason,
      contactPhone: input.contactPhone,
    })) {
      const [field] = issue.path;
      const path = field === 'amount' ? ['amountCents'] : field === 'destination' || field === 'reason' ? ['transport', field] : issue.path;
      ctx.addIssue({ code: 'custom', path, message: issue.message });
    }
  });
export type CreateExpenseInput = z.input<typeof createExpenseSchema>;
export type CreateExpense = z.output<typeof createExpenseSchema>;

// ------------------------------------------------------------------------------------------- the form

/** An amount typed in KSh: '' is null (not given), text that is no amount is an issue. */
const formMoney = (label: string, emptyMessage?: string) =>
  z.string().transform((value, ctx): number | null => {
    const t = value.trim();
    if (t === '') {
      // Not aborting, so the form's other rules still speak at once.
      if (emptyMessage) ctx.addIssue({ code: 'custom', message: emptyMessage, continue: true });
      return null;
    }
    const cents = parseMoneyToCents(t);
    if (cents === null || cents > EXPENSE_LIMITS.amountCents) {
      ctx.addIssue({ code: 'custom', message: cents === null ? (emptyMessage ?? fieldMessage('money', label)) : EXPENSE_MESSAGES.amountTooLarge, continue: true });
      return null;
    }
    return cents;
  });

/** A distance typed in km (one decimal at most); '' is null. */
const formDistance = z.string().transform((value, ctx): number | null => {
  const t = value.trim();
  if (t === '') return null;
  const n = /^\d+(\.\d)?$/.test(t) ? Number(t) : NaN;
  if (!Number.isFinite(n) || n > EXPENSE_LIMITS.distanceKm) {
    ctx.addIssue({ code: 'custom', message: fieldMessage('between', 'Distance', { min: 0, max: EXPENSE_LIMITS.distanceKm, unit: ' km' }), continue: true });
    return null;
  }
  return n;
});

/**
 * The Record Expense dialog as the cashier types it (text for amounts). Its output is the request of POST
 * /api/expenses; the transport section is sent only for a transport or travel category.
 */
export const expenseFormSchema = z
  .object({
    description: text(EXPENSE_LIMITS.description, 'Description'),
    category: z.string(),
    amount: formMoney('Amount', EXPENSE_MESSAGES.amount),
    paymentMethod: z.enum(EXPENSE_PAYMENT_METHODS, { error: fieldMessage('choose', 'a payment method') }),
    receiptNumber: text(EXPENSE_LIMITS.receiptNumber, 'Receipt number'),
    notes: text(EXPENSE_LIMITS.notes, 'Notes'),
    destination: text(EXPENSE_LIMITS.destination, 'Destination'),
    reason: text(EXPENSE_LIMITS.reason, 'Reason'),
    transportType: z.union([z.literal(''), z.enum(TRANSPORT_TYPES)]),
    distance: formDistance,
    fuel: formMoney('Fuel cost'),
    tolls: formMoney('Tolls'),
    parking: formMoney('Parking'),
    mealAllowance: formMoney('Meal allowance'),
    contactPhone: text(EXPENSE_LIMITS.contactPhone, 'Contact phone'),
  })
  .superRefine((form, ctx) => {
    const transport = isTransportCategory(form.category);
    for (const issue of expenseIssues({
      description: form.description,
      category: form.category,
      // The amount's own issue is already raised by its field.
      amountCents: form.amount ?? 1,
      destination: form.destination,
      reason: form.reason,
      contactPhone: transport ? form.contactPhone : '',
    })) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  })
  .transform((form): CreateExpense => {
    const transport = isTransportCategory(form.category);
    const blank = (value: string) => (value.trim() === '' ? null : value.trim());
    return {
      description: form.description,
      category: form.category.trim(),
      amountCents: form.amount ?? 0,
      paymentMethod: form.paymentMethod,
      receiptNumber: blank(form.receiptNumber),
      notes: blank(form.notes),
      contactPhone: transport ? blank(form.contactPhone) : null,
      transport: transport
        ? {
            destination: blank(form.destination),
            reason: blank(form.reason),
            transportType: form.transportType === '' ? null : form.transportType,
            distanceKm: form.distance,
            fuelCents: form.fuel ?? 0,
            tollCents: form.tolls ?? 0,
            parkingCents: form.parking ?? 0,
            mealAllowanceCents: form.mealAllowance ?? 0,
          }
        : null,
    };
  });
export type ExpenseFormValues = z.input<typeof expenseFormSchema>;

/** The empty form: Cash, nothing else (the dialog resets to this each time it opens, seed 001 section 4). */
export function emptyExpenseForm(): ExpenseFormValues {
  return {
    description: '',
    category: '',
    amount: '',
    paymentMethod: DEFAULT_EXPENSE_PAYMENT_METHOD,
    receiptNumber: '',
    notes: '',
    destination: '',
    reason: '',
    transportType: '',
    distance: '',
    fuel: '',
    tolls: '',
    parking: '',
    mealAllowance: '',
    contactPhone: '',
  };
}

// ------------------------------------------------------------------------------------------- response and list

export const expenseTransportSchema = z.object({
  destination: z.string().nullable(),
  reason: z.string().nullable(),
  transportType: z.string().nullable(),
  distanceKm: z.number().nullable(),
  fuelCents: z.number().int(),
  tollCents: z.number().int(),
  parkingCents: z.number().int(),
  mealAllowanceCents: z.number().int(),
  /** Base amount plus the four costs. */
  totalTransportCostCents: z.number().int(),
});

export const expenseSchema = z.object({
  id: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  date: z.string(),
  description: z.string(),
  category: z.string(),
  /** The base amount. */
  amountCents: z.number().int(),
  /** What the expense cost: the amount, plus the transport costs for a transport or travel expense. */
  totalCents: z.number().int(),
  currency: z.string(),
  paymentMethod: z.string(),
  receiptNumber: z.string().nullable(),
  notes: z.string().nullable(),
  contactPhone: z.string().nullable(),
  status: z.enum(EXPENSE_STATUSES),
  source: z.enum(EXPENSE_SOURCES),
  entryMethod: z.string(),
  recordedBy: z.object({ id: z.string().nullable(), name: z.string(), email: z.string().nullable() }),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  transport: expenseTransportSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** A voided expense stays listed and counts in no total. */
  voidedAt: z.string().nullable(),
  voidedBy: z.object({ id: z.string().nullable(), name: z.string() }).nullable(),
  voidReason: z.string().nullable(),
});
export type Expense = z.infer<typeof expenseSchema>;

/** GET /api/expenses: newest first, by date range, branch, category and source. */
export const expenseListQuerySchema = z.strictObject({
  from: calendarDate('The start date').optional(),
  to: calendarDate('The end date').optional(),
  branchId: z.uuid().optional(),
  category: text(EXPENSE_LIMITS.category, 'Category').optional(),
  source: z.enum(EXPENSE_SOURCES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ExpenseListQueryInput = z.input<typeof expenseListQuerySchema>;
export type ExpenseListQuery = z.output<typeof expenseListQuerySchema>;

export const expenseListResponseSchema = z.object({
  items: z.array(expenseSchema),
  total: z.number().int(),
  /** The sum of totalCents over every expense the filters match (not only this page). */
  totalCents: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ExpenseListResponse = z.infer<typeof expenseListResponseSchema>;
