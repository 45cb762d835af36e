import { z } from 'zod';
import { type ErrorCode, fieldMessage, numberField } from './errors.ts';
import { isLowMargin, minimumAllowedPriceCents } from './margins.ts';
import { formatMoney, percentOfCents, roundForCurrency } from './money.ts';
import { calendarDate, clientMadeIdSchema, text } from './text.ts';

/**
 * Completing a sale at the till (seed 001 sections 3-5 and 9, decision 0023): the cart arithmetic in integer cents
 * as pure functions (line totals, unit mode, the global discount, tax after the discount, currency rounding, payment
 * status, quick-cash suggestions, minimum allowed price), the completion checks with the specification's messages,
 * the sale-date window, the invoice number, and the request and response schemas of /api/sales. The browser's till
 * and the server run the same functions; the server recomputes every total from its own prices.
 */

// ------------------------------------------------------------------------------------------- constants

/** The till's payment methods when settings name none (seed 001 section 9). */
export const POS_PAYMENT_METHODS = ['Cash', 'MPESA', 'Card', 'Credit'] as const;
/** The method that may leave a balance owed (needs a registered customer, decision 0023). */
export const CREDIT_METHOD = 'Credit';
/** Sale-date window: today back to 30 days (seed 001 section 9). */
export const SALE_DATE_MAX_DAYS_BACK = 30;
/** Refill days 1 to 365, default 30 (seed 001 section 9). */
export const REFILL_DAYS_MIN = 1;
export const REFILL_DAYS_MAX = 365;
export const DEFAULT_REFILL_DAYS = 30;
/** The default tax rate, percent (seed 001 section 1). */
export const DEFAULT_TAX_RATE_PERCENT = 16;
/** At most 4 quick-cash suggestions (seed 001 section 9). */
export const QUICK_CASH_MAX = 4;
/** The just-completed lock of the till, ms (seed 001 section 9). */
export const JUST_COMPLETED_MS = 5000;
/** Payment bar errors stay this long, ms (seed 001 section 8). */
export const PAYMENT_ERROR_MS = 8000;
/** Digital methods need the exact amount within 0.01 (one cent). */
export const EXACT_AMOUNT_TOLERANCE_CENTS = 1;
/** The default client (seed 001 section 3): no id. */
export const WALK_IN_CUSTOMER = 'Walk-in Customer';
/** Invoice numbers: INV- plus a 6-digit counter (seed 001 section 9). */
export const INVOICE_PREFIX = 'INV-';

/**
 * Bounds that keep every sum inside its column: at most 200 lines of at most 100,000 pieces; prices at most
 * 10,000,000,000.00 (1e12 cents); a line (quantity x price) and the sale at most 1e13 cents; at most 4 payments.
 */
export const SALE_LIMITS = {
  lines: 200,
  quantity: 100_000,
  priceCents: 1e12,
  lineCents: 1e13,
  saleCents: 1e13,
  payments: 4,
  text: 200,
  notes: 500,
  reference: 60,
  method: 40,
} as const;

// ------------------------------------------------------------------------------------------- unit mode

/** P: pieces; W: whole packages (seed 001 section 3). */
export const UNIT_MODES = ['P', 'W'] as const;
export type UnitMode = (typeof UNIT_MODES)[number];

/** The unit price shown in a mode: W multiplies the piece price by the package size. */
export function unitPriceForMode(piecePriceCents: number, mode: UnitMode, packageSize: number): number {
  return mode === 'W' ? piecePriceCents * Math.max(1, packageSize) : piecePriceCents;
}

/** How many units of its mode a line holds: pieces in P, whole packages in W (the quantity is always in pieces). */
export function unitsOfLine(quantityPieces: number, mode: UnitMode, packageSize: number): number {
  return mode === 'W' ? quantityPieces / Math.max(1, packageSize) : quantityPieces;
}

/** Is the quantity (pieces) a whole number of packages? Always true in P. */
export function isWholePackages(quantityPieces: number, mode: UnitMode, packageSize: number): boolean {
  return mode === 'P' || quantityPieces % Math.max(1, packageSize) === 0;
}

/** The most whole packages the stock allows (the offer when switching to W runs short). */
export function maxWholePackages(stockPieces: number, packageSize: number): number {
  return Math.floor(Math.max(0, stockPieces) / Math.max(1, packageSize));
}

// ------------------------------------------------------------------------------------------- arithmetic

/**
 * Splits `amount` cents over the weights in proportion, by largest remainder: each share is the floor of its exact
 * share, and the cents left go one each to the largest remainders (earlier lines first on a tie), so the shares
 * always add up to `amount` exactly. Weights are whole, 0 or more.
 */
export function allocateProportionally(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (amount === 0 || total === 0) return weights.map(() => 0);
  // BigInt keeps amount x weight exact beyond 2^53.
  const big = BigInt(amount);
  const bigTotal = BigInt(total);
  const shares = weights.map((w) => (big * BigInt(w)) / bigTotal);
  const remainders = weights.map((w, i) => ({ i, r: (big * BigInt(w)) % bigTotal }));
  let left = amount - shares.reduce((a, b) => a + Number(b), 0);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const result = shares.map(Number);
  for (const { i } of remainders) {
    if (left <= 0) break;
    result[i]! += 1;
    left -= 1;
  }
  return result;
}

/** A global discount: a percentage (basis points, 0-10,000) or a fixed amount (cents). */
export type Discount = { type: 'percent'; basisPoints: number } | { type: 'fixed'; cents: number };

/** The discount in cents on a subtotal: a percentage of it or the fixed amount, capped at the subtotal. */
export function discountCents(subtotalCents: number, discount: Discount | null | undefined): number {
  if (!discount || subtotalCents <= 0) return 0;
  const raw = discount.type === 'percent' ? percentOfCents(subtotalCents, discount.basisPoints / 100) : discount.cents;
  return Math.max(0, Math.min(subtotalCents, raw));
}

/** The discount as a percentage of the subtotal (2 decimals), for the settings.maxDiscount cap. */
export function discountPercentOf(subtotalCents: number, discountCentsValue: number): number {
  if (subtotalCents <= 0) return 0;
  return Math.round((discountCentsValue / subtotalCents) * 10_000) / 100;
}

/**
 * The tax rate of an item, basis points: none unless its tax flag is on; then the item's rate, else the settings
 * rate, else 16 % (seed 001 section 5).
 */
export function taxRateBasisPointsOf(item: { taxApplied: boolean; taxRateBasisPoints?: number | null }, settingsTaxRatePercent?: number | null): number {
  if (!item.taxApplied) return 0;
  if (item.taxRateBasisPoints !== null && item.taxRateBasisPoints !== undefined) return item.taxRateBasisPoints;
  if (settingsTaxRatePercent !== null && settingsTaxRatePercent !== undefined && Number.isFinite(settingsTaxRatePercent)) return Math.round(settingsTaxRatePercent * 100);
  return DEFAULT_TAX_RATE_PERCENT * 100;
}

export interface CartLineInput {
  /** Pieces. */
  quantity: number;
  unitMode: UnitMode;
  packageSize: number;
  /** The price of one unit of the mode (one package in W). */
  unitPriceCents: number;
  taxApplied: boolean;
  taxRateBasisPoints?: number | null;
}

export interface CartLineFigures {
  /** Units of the mode x unit price. */
  grossCents: number;
  /** This line's share of the global discount. */
  discountCents: number;
  /** Tax on gross - discount. */
  taxCents: number;
  /** gross - discount + tax. */
  totalCents: number;
}

export interface CartFigures {
  lines: CartLineFigures[];
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  /** What rounding the total to the currency added (negative when it took away). */
  roundingCents: number;
  totalCents: number;
}

/** The gross of a line: units of its mode x its unit price (in W, packages x package price). */
export function lineGrossCents(line: Pick<CartLineInput, 'quantity' | 'unitMode' | 'packageSize' | 'unitPriceCents'>): number {
  if (line.unitMode === 'W') return Math.round((line.quantity * line.unitPriceCents) / Math.max(1, line.packageSize));
  return line.quantity * line.unitPriceCents;
}

/**
 * The whole cart: line grosses, the subtotal, the global discount (capped at the subtotal) spread over the lines in
 * proportion to their gross (largest remainder, so it adds up exactly), tax per line on what is left after the
 * discount, and the total rounded to the currency (whole units for KES, UGX, TZS, NGN, JPY, KRW).
 */
export function computeCart(
  lines: readonly CartLineInput[],
  discount: Discount | null | undefined,
  options: { settingsTaxRatePercent?: number | null; currency?: string } = {},
): CartFigures {
  const grosses = lines.map(lineGrossCents);
  const subtotalCents = grosses.reduce((a, b) => a + b, 0);
  const discount_ = discountCents(subtotalCents, discount);
  const shares = allocateProportionally(discount_, grosses);
  const figures = lines.map((line, i): CartLineFigures => {
    const gross = grosses[i]!;
    const share = shares[i]!;
    const rate = taxRateBasisPointsOf(line, options.settingsTaxRatePercent);
    const tax = rate === 0 ? 0 : percentOfCents(gross - share, rate / 100);
    return { grossCents: gross, discountCents: share, taxCents: tax, totalCents: gross - share + tax };
  });
  const taxCents = figures.reduce((a, f) => a + f.taxCents, 0);
  const exact = subtotalCents - discount_ + taxCents;
  const totalCents = roundForCurrency(exact, options.currency ?? 'KES');
  return { lines: figures, subtotalCents, discountCents: discount_, taxCents, roundingCents: totalCents - exact, totalCents };
}

// ------------------------------------------------------------------------------------------- payment

export type PaymentStatus = 'unpaid' | 'partial' | 'paid';

/** Unpaid when paid is 0 or less; paid when at least the total; otherwise partial, with the percentage paid (seed 001 section 4). */
export function paymentStatus(paidCents: number, totalCents: number): { status: PaymentStatus; percent: number } {
  if (paidCents <= 0) return { status: 'unpaid', percent: 0 };
  if (paidCents >= totalCents) return { status: 'paid', percent: 100 };
  return { status: 'partial', percent: Math.floor((paidCents / totalCents) * 100) };
}

/** A sale completes by itself when paid is at least the total and the total is above 0 (seed 001 section 4). */
export function completesAutomatically(paidCents: number, totalCents: number): boolean {
  return totalCents > 0 && paidCents >= totalCents;
}

/**
 * Quick-cash suggestions: the total, then the next multiples of 50, 100, 500 and 1000 (currency units) at or above
 * it, without repeats, at most 4 (seed 001 section 9). Cents in, cents out.
 */
export function quickCashSuggestions(totalCents: number): number[] {
  if (totalCents <= 0) return [];
  const out: number[] = [totalCents];
  for (const step of [50, 100, 500, 1000]) {
    const cents = step * 100;
    const next = Math.ceil(totalCents / cents) * cents;
    if (!out.includes(next)) out.push(next);
  }
  return out.slice(0, QUICK_CASH_MAX);
}

/** How a payment method behaves: cash gives change, credit may leave a balance, digital methods need the exact amount. */
export type PaymentKind = 'cash' | 'credit' | 'digital' | 'other';

const DIGITAL_WORDS = ['mpesa', 'card', 'bank', 'digital', 'transfer', 'online', 'pos', 'other'];

/**
 * The kind of a method by its name (case and punctuation ignored): Credit; cash; the digital methods of seed 001
 * section 5 (MPESA, card, bank, digital, transfer, online, POS, other) by a word in the name; anything else
 * (Insurance, Cheque) 'other', which pays like cash but gives no change.
 */
export function paymentKind(method: string): PaymentKind {
  const key = method.toLowerCase().replace(/[^a-z]/g, '');
  if (key === 'credit') return 'credit';
  if (key === 'cash' || key === 'pettycash') return 'cash';
  if (DIGITAL_WORDS.some((w) => key.includes(w))) return 'digital';
  return 'other';
}

/** A method's name as a key: lower-case letters only ('M-Pesa' and 'MPESA' are one method). */
export function paymentMethodKey(method: string): string {
  return method.toLowerCase().replace(/[^a-z]/g, '');
}

/** The till's M-Pesa method (the STK request to the customer's phone, decision 0058). */
export const TILL_MPESA_METHOD = 'MPESA';

/** Is this payment method M-Pesa ('MPESA', 'M-Pesa', 'mpesa')? */
export function isMpesaMethod(method: string): boolean {
  return paymentMethodKey(method) === paymentMethodKey(TILL_MPESA_METHOD);
}

/**
 * The methods a till offers (decision 0023): the till's own Cash, MPESA, Card and Credit (seed 001 section 9), then the
 * settings' methods that are not one of them by key (M-Pesa is MPESA).
 */
export function tillPaymentMethods(settingsMethods: readonly string[] | null | undefined): string[] {
  const methods: string[] = [...POS_PAYMENT_METHODS];
  for (const m of settingsMethods ?? []) {
    if (m.trim() !== '' && !methods.some((known) => paymentMethodKey(known) === paymentMethodKey(m))) methods.push(m.trim());
  }
  return methods;
}

/** The till's name of a method typed or sent in another spelling ('mpesa', 'M-Pesa' -> 'MPESA'); undefined when it offers none. */
export function canonicalPaymentMethod(methods: readonly string[], method: string): string | undefined {
  const key = paymentMethodKey(method);
  return key === '' ? undefined : methods.find((m) => paymentMethodKey(m) === key);
}

// ------------------------------------------------------------------------------------------- checks

/** A refusal: the error code, its values, and (for the server's details) what it is about. */
export interface SaleProblem {
  code: ErrorCode;
  values?: Record<string, string | number>;
}

/** Who may give what discount: the settings' maxDiscount (percent) and the user's two rights. */
export interface DiscountRules {
  maxDiscount: number;
  /** pos:discount or sales:discount (canGiveDiscounts). */
  mayDiscount: boolean;
  /** pos:admin: may go above maxDiscount. */
  mayExceedMaxDiscount: boolean;
}

/**
 * What is wrong with a global discount of `discountCents` on `subtotalCents`, or null: none without the right to
 * discount (SALE_DISCOUNT_DENIED), never above settings.maxDiscount % of the subtotal unless the user may exceed it
 * (SALE_DISCOUNT_ABOVE_MAX). The server refuses a sale with it; the till shows it where the discount is typed.
 */
export function discountProblem(subtotalCents: number, discountCentsValue: number, rules: DiscountRules): SaleProblem | null {
  if (discountCentsValue <= 0) return null;
  if (!rules.mayDiscount) return { code: 'SALE_DISCOUNT_DENIED' };
  if (!rules.mayExceedMaxDiscount && discountPercentOf(subtotalCents, discountCentsValue) > rules.maxDiscount) {
    return { code: 'SALE_DISCOUNT_ABOVE_MAX', values: { max: rules.maxDiscount } };
  }
  return null;
}

export interface PaymentInput {
  method: string;
  amountCents: number;
}

export interface PaymentOutcome {
  amountPaidCents: number;
  changeCents: number;
  /** What a credit sale leaves owed. */
  balanceDueCents: number;
  /** The sale's method: the first payment's. */
  method: string;
  isCredit: boolean;
}

/**
 * The payment checks of completing a sale, in the specification's order (seed 001 section 5): a payment method;
 * an amount paid above 0 (a credit sale may take nothing now, decision 0023); at least the total unless the method is
 * Credit; the exact amount (within 0.01) on a digital method, cash giving change. A split tender is several payments:
 * the change may come only out of cash. `formatTotal` writes the amount into '{method} requires exact amount: {total}'.
 */
export function checkPayments(
  payments: readonly PaymentInput[],
  totalCents: number,
  formatTotal: (cents: number) => string = (c) => formatMoney(c),
): SaleProblem | PaymentOutcome {
  const first = payments[0];
  if (!first || payments.some((p) => p.method.trim() === '')) return { code: 'SALE_PAYMENT_METHOD_REQUIRED' };
  const isCredit = payments.some((p) => paymentKind(p.method) === 'credit');
  const paid = payments.reduce((a, p) => a + p.amountCents, 0);
  if (paid <= 0 && !isCredit) return { code: 'SALE_AMOUNT_REQUIRED' };
  if (paid < totalCents && !isCredit) return { code: 'SALE_AMOUNT_BELOW_TOTAL' };
  const over = Math.max(0, paid - totalCents);
  const cash = payments.filter((p) => paymentKind(p.method) === 'cash').reduce((a, p) => a + p.amountCents, 0);
  if (over > cash + EXACT_AMOUNT_TOLERANCE_CENTS) {
    const digital = payments.find((p) => paymentKind(p.method) !== 'cash') ?? first;
    const others = paid - digital.amountCents;
    return { code: 'SALE_EXACT_AMOUNT_REQUIRED', values: { method: digital.method, total: formatTotal(Math.max(0, totalCents - others)) } };
  }
  const change = Math.min(over, cash);
  return {
    amountPaidCents: paid,
    changeCents: change,
    balanceDueCents: isCredit ? Math.max(0, totalCents - paid) : 0,
    method: first.method,
    isCredit,
  };
}

/** Did a check answer a problem? */
export function isSaleProblem(value: SaleProblem | PaymentOutcome): value is SaleProblem {
  return 'code' in value;
}

/** DDA lines need doctor name and hospital name, not blank (seed 001 section 5). */
export function hasPrescriber(info: { doctorName?: string | null; hospitalName?: string | null } | null | undefined): boolean {
  return Boolean(info?.doctorName?.trim()) && Boolean(info?.hospitalName?.trim());
}

export interface CompletionLine {
  quantity: number;
  /** Sellable pieces in the branch. */
  available: number;
  isDda: boolean;
  prescription?: { doctorName?: string | null; hospitalName?: string | null } | null;
}

/**
 * Every check of completing a sale, in the order of seed 001 section 5: a non-empty cart, the payment checks, no
 * item over stock, DDA prescriber. The first problem, or the payment outcome when all pass.
 */
export function checkCompletion(
  lines: readonly CompletionLine[],
  payments: readonly PaymentInput[],
  totalCents: number,
  formatTotal?: (cents: number) => string,
): SaleProblem | PaymentOutcome {
  if (lines.length === 0) return { code: 'SALE_CART_EMPTY' };
  const payment = checkPayments(payments, totalCents, formatTotal);
  if (isSaleProblem(payment)) return payment;
  if (lines.some((l) => l.quantity > l.available)) return { code: 'SALE_STOCK_EXCEEDED' };
  if (lines.some((l) => l.isDda && !hasPrescriber(l.prescription))) return { code: 'SALE_DDA_PRESCRIPTION_REQUIRED' };
  return payment;
}

/** The sale date window (seed 001 section 5): not after today, not more than 30 days before it. Dates are 'YYYY-MM-DD'. */
export function saleDateProblem(saleDate: string, today: string): SaleProblem | null {
  if (saleDate > today) return { code: 'SALE_DATE_IN_FUTURE' };
  const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${saleDate}T00:00:00Z`)) / 86_400_000);
  if (days > SALE_DATE_MAX_DAYS_BACK) return { code: 'SALE_DATE_TOO_OLD' };
  return null;
}

/** A refill reminder needs whole days 1-365 (seed 001 section 5). */
export function isValidRefillDays(days: number): boolean {
  return Number.isInteger(days) && days >= REFILL_DAYS_MIN && days <= REFILL_DAYS_MAX;
}

/** The date a refill falls due: the sale date plus the days. */
export function refillDueDate(saleDate: string, days: number): string {
  return new Date(Date.parse(`${saleDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** INV- plus the counter as at least 6 zero-padded digits. */
export function formatInvoiceNumber(counter: number): string {
  return `${INVOICE_PREFIX}${String(counter).padStart(6, '0')}`;
}

/**
 * The minimum allowed price of a line per unit of its mode: the highest of the item's minimum price, cost /
 * (1 - minimum margin) and cost (margins.ts), times the package size in W.
 */
export function lineMinimumAllowedCents(input: {
  costCents: number;
  minMarginPercent?: number;
  minimumPriceCents?: number | null;
  unitMode: UnitMode;
  packageSize: number;
}): number {
  const perPiece = minimumAllowedPriceCents({ costCents: input.costCents, minMarginPercent: input.minMarginPercent, minimumPriceCents: input.minimumPriceCents });
  return unitPriceForMode(perPiece, input.unitMode, input.packageSize);
}

/** Low Margin for a line: its unit price is below its minimum allowed price by more than 0.01. */
export function isLineLowMargin(unitPriceCents: number, minimumAllowedCents: number): boolean {
  return isLowMargin(unitPriceCents, minimumAllowedCents);
}

// ------------------------------------------------------------------------------------------- schemas

const cents = (label: string) => numberField(label, 0, SALE_LIMITS.priceCents, { whole: true });
const optionalText = (max: number, label: string) => text(max, label).nullable().optional();
const REFILL_MESSAGE = 'Please enter a valid number of days (1-365).';

/** DDA prescription details (seed 001 section 3, DDA info). */
export const prescriptionSchema = z.strictObject({
  doctorName: optionalText(SALE_LIMITS.text, 'Doctor name'),
  hospitalName: optionalText(SALE_LIMITS.text, 'Hospital/Clinic name'),
  prescriptionNumber: optionalText(100, 'Prescription number'),
  prescriptionDate: calendarDate('The prescription date').nullable().optional(),
  patientId: optionalText(100, 'Patient id'),
  doctorLicense: optionalText(100, 'Doctor licence'),
  notes: optionalText(SALE_LIMITS.notes, 'Notes'),
});
export type Prescription = z.infer<typeof prescriptionSchema>;

export const saleLineInputSchema = z.strictObject({
  productId: z.uuid(),
  /** Pieces, whole packages' worth in W. */
  quantity: numberField('The quantity', 1, SALE_LIMITS.quantity, { whole: true }),
  unitMode: z.enum(UNIT_MODES).default('P'),
  /** The price of one unit of the mode as the till shows it; omitted: the branch's price. */
  unitPriceCents: cents('The price').optional(),
  prescription: prescriptionSchema.nullable().optional(),
  needsRefill: z.boolean().default(false),
  refillDays: z
    .number({ error: REFILL_MESSAGE })
    .int(REFILL_MESSAGE)
    .min(REFILL_DAYS_MIN, REFILL_MESSAGE)
    .max(REFILL_DAYS_MAX, REFILL_MESSAGE)
    .optional(),
});
export type SaleLineInput = z.output<typeof saleLineInputSchema>;

export const discountInputSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('percent'), basisPoints: numberField('The discount', 0, 10_000, { whole: true }) }),
  z.strictObject({ type: z.literal('fixed'), cents: cents('The discount') }),
]);

export const paymentInputSchema = z.strictObject({
  method: text(SALE_LIMITS.method, 'The payment method'),
  amountCents: cents('The amount paid'),
  /** The M-Pesa confirmation code or card slip number. */
  reference: optionalText(SALE_LIMITS.reference, 'The reference'),
});

/**
 * POST /api/sales. `id` is the UUID the browser made for the sale (and sends as Idempotency-Key); `branchId`
 * defaults to the session's; `clientId` null is the walk-in customer; `saleDate` defaults to today; `expectedTotalCents`
 * is the total the browser showed (refused when the server's differs); `clientTime` is when the till made the sale.
 */
export const completeSaleSchema = z.strictObject({
  id: clientMadeIdSchema,
  branchId: z.uuid().optional(),
  clientId: z.uuid().nullable().optional(),
  saleDate: calendarDate('The sale date').optional(),
  clientTime: z.iso.datetime({ offset: true }).optional(),
  lines: z.array(saleLineInputSchema).max(SALE_LIMITS.lines, fieldMessage('atMost', 'A sale', { max: SALE_LIMITS.lines, unit: ' lines' })),
  discount: discountInputSchema.nullable().optional(),
  payments: z.array(paymentInputSchema).max(SALE_LIMITS.payments, fieldMessage('atMost', 'A sale', { max: SALE_LIMITS.payments, unit: ' payments' })),
  expectedTotalCents: numberField('The expected total', 0, SALE_LIMITS.saleCents, { whole: true }).optional(),
  notes: optionalText(SALE_LIMITS.notes, 'Notes'),
  /** Completing a resumed suspended sale: its reserved stock becomes sold and the suspended sale goes (decision 0028). */
  suspendedSaleId: z.uuid().optional(),
});
export type CompleteSaleInput = z.input<typeof completeSaleSchema>;
export type CompleteSale = z.output<typeof completeSaleSchema>;

export const saleIdParamsSchema = z.strictObject({ id: z.uuid() });

/** A batch and the pieces taken from (or reserved in) it. */
export const saleBatchSchema = z.object({
  batchId: z.string(),
  batchNumber: z.string().nullable(),
  expiryDate: z.string().nullable(),
  quantity: z.number().int(),
});

export const saleLineSchema = z.object({
  line: z.number().int(),
  productId: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  unitMode: z.enum(UNIT_MODES),
  packageSize: z.number().int(),
  unitPriceCents: z.number().int(),
  listPriceCents: z.number().int(),
  costCents: z.number().int(),
  grossCents: z.number().int(),
  discountCents: z.number().int(),
  taxRateBasisPoints: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  isDda: z.boolean(),
  prescription: prescriptionSchema.nullable(),
  needsRefill: z.boolean(),
  refillDays: z.number().int().nullable(),
  refillDueDate: z.string().nullable(),
  lowMargin: z.boolean(),
  batches: z.array(saleBatchSchema),
});
export type SaleLine = z.infer<typeof saleLineSchema>;

export const salePaymentSchema = z.object({
  method: z.string(),
  amountCents: z.number().int(),
  reference: z.string().nullable(),
});

export const SALE_STATUSES = ['completed', 'partially_returned', 'returned', 'voided'] as const;

const saleClientSchema = z.object({ id: z.string(), name: z.string(), phone: z.string().nullable(), location: z.string().nullable() });

export const saleSummarySchema = z.object({
  id: z.string(),
  invoiceNumber: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  client: saleClientSchema.nullable(),
  clientName: z.string(),
  cashier: z.object({ id: z.string().nullable(), name: z.string() }),
  saleDate: z.string(),
  isBackdated: z.boolean(),
  backdatedBy: z.string().nullable(),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  roundingCents: z.number().int(),
  totalCents: z.number().int(),
  amountPaidCents: z.number().int(),
  changeCents: z.number().int(),
  balanceDueCents: z.number().int(),
  paymentMethod: z.string(),
  paymentStatus: z.enum(['unpaid', 'partial', 'paid']),
  status: z.enum(SALE_STATUSES),
  itemCount: z.number().int(),
  createdAt: z.string(),
});
export type SaleSummary = z.infer<typeof saleSummarySchema>;

export const saleSchema = saleSummarySchema.extend({
  clientTime: z.string().nullable(),
  discount: z.object({ type: z.enum(['percent', 'fixed']), value: z.number().int() }).nullable(),
  notes: z.string().nullable(),
  lines: z.array(saleLineSchema),
  payments: z.array(salePaymentSchema),
});
export type Sale = z.infer<typeof saleSchema>;

/** GET /api/sales/last-prescription: the client's latest DDA prescription (to prefill the DDA modal, seed 001 section 5). */
export const lastPrescriptionQuerySchema = z.strictObject({ clientId: z.uuid() });
export const lastPrescriptionResponseSchema = z.object({
  prescription: prescriptionSchema.nullable(),
  saleId: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  saleDate: z.string().nullable(),
});
export type LastPrescriptionResponse = z.infer<typeof lastPrescriptionResponseSchema>;
