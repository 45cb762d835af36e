import { ERRORS, formatMessage } from './errors.ts';
import { formatMoney } from './money.ts';
import {
  checkPayments,
  discountProblem,
  hasPrescriber,
  isLineLowMargin,
  isSaleProblem,
  lineMinimumAllowedCents,
  paymentKind,
  saleDateProblem,
  unitPriceForMode,
  type PaymentInput,
  type PaymentOutcome,
  type SaleProblem,
  type UnitMode,
} from './sales.ts';

/**
 * The ONE place that decides what stops a sale from completing or being suspended, and in which order (seed 001
 * section 5, decision 0069). The till calls it on what the browser knows (to disable Complete and Suspend and to show
 * the first problem); the server calls it on the same facts after it has repriced the cart from its own data, and
 * answers the first problem with its code and message. The same facts give the same list, so the cashier reads the
 * same first sentence on the screen as the server would answer.
 *
 * The order follows section 5 from top to bottom. The cart's own rules, which section 5 states before the completing
 * list (and which the till enforces while the cart is edited), come first: fixing them changes the total, so they are
 * reported before anything about the payment. Then the flow's own list in the specification's order, then the rules
 * section 5 states after it (refill reminder, sale date).
 *
 * Completing (checks, in this order):
 *  1. 'Cart is empty'
 *  2. a DDA line without a registered customer ('Adding to cart fails when')
 *  3. a price changed below its minimum when margins are enforced without overrides ('Quantity and price', section 6)
 *  4. a discount without the permission, 5. a discount above settings.maxDiscount ('Discount and tax', decision 0026)
 *  6. the payment checks of the completing list: method, amount above 0, at least the total unless Credit, exact
 *     amount for digital methods (one problem: each assumes the one before passed)
 *  7. Credit without a registered customer (the Credit exception's condition, decision 0023)
 *  8. 'Some items exceed available stock', 9. 'DDA products need prescription information'
 * 10. a refill reminder without a registered client ('Refill reminder')
 * 11. the sale date window ('Sale date')
 *
 * Suspending: 1. 'Cart is empty'; 2.-3. the discount rules; then the suspending list: 4. a registered customer,
 * 5. no stock problem ('Insufficient stock for {product}...', per product), 6. 'Amount paid cannot exceed total',
 * 7. no low-margin item when margins are enforced and suspending with low margin is not allowed; then the
 * reservation input check: 8. 'No items to reserve' (a line without a name, quantity or a price above 0).
 *
 * What only the server can know (an unknown product, a product made inactive or unpriced since the till read it,
 * a list price that moved, part packages, a total other than the one shown, an unknown payment method) is refused
 * while the server reprices the cart, before this list: those are answers about the server's data, not rules the
 * cashier broke.
 */

// ------------------------------------------------------------------------------------------- facts

/** A line as the checks see it. A product may be on several lines: stock is checked per product over all of them. */
export interface SaleCheckLine {
  productId: string;
  productName: string;
  /** Pieces. */
  quantity: number;
  /** Sellable pieces for this sale: the branch's unexpired stock, plus what a resumed sale's reservation holds. */
  available: number;
  /** The price charged for one unit of the line's mode. */
  unitPriceCents: number;
  isDda: boolean;
  prescription?: { doctorName?: string | null; hospitalName?: string | null } | null;
  needsRefill: boolean;
  /**
   * Low Margin as the rules count it: a price changed at the till (neither the branch's list price nor the price a
   * resumed sale was given) below the line's minimum allowed price by more than 0.01.
   */
  lowMargin: boolean;
}

/** The settings and the user's rights the checks read. */
export interface SaleCheckRules {
  enforceMargins: boolean;
  allowOverrideMargins: boolean;
  allowSuspendWithLowMargin: boolean;
  /** Percent of the subtotal. */
  maxDiscount: number;
  /** pos:discount or sales:discount (canGiveDiscounts). */
  mayDiscount: boolean;
  /** pos:admin: may go above maxDiscount. */
  mayExceedMaxDiscount: boolean;
}

export interface SaleCheckInput {
  lines: readonly SaleCheckLine[];
  /** The registered customer; null or undefined: the walk-in customer. */
  clientId: string | null | undefined;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  rules: SaleCheckRules;
  /** Writes the amount into '{method} requires exact amount: {total}' (settingsMoney). */
  formatTotal?: (cents: number) => string;
}

export interface CompletionCheckInput extends SaleCheckInput {
  payments: readonly PaymentInput[];
  /** 'YYYY-MM-DD'. */
  saleDate: string;
  today: string;
}

export interface SuspensionCheckInput extends SaleCheckInput {
  amountPaidCents: number;
}

// ------------------------------------------------------------------------------------------- lists

/** Pieces asked and available per product, in the order the products first appear. */
function stockByProduct(lines: readonly SaleCheckLine[]) {
  const byProduct = new Map<string, { name: string; requested: number; available: number }>();
  for (const l of lines) {
    const known = byProduct.get(l.productId);
    if (known) known.requested += l.quantity;
    else byProduct.set(l.productId, { name: l.productName, requested: l.quantity, available: l.available });
  }
  return [...byProduct.values()];
}

function discountProblems(input: SaleCheckInput): SaleProblem[] {
  const problem = discountProblem(input.subtotalCents, input.discountCents, input.rules);
  return problem ? [problem] : [];
}

/** Every problem of completing this sale, in the order of decision 0069 (see the module comment); empty when it may complete. */
export function completionProblems(input: CompletionCheckInput): SaleProblem[] {
  const problems: SaleProblem[] = [];
  const { lines, rules } = input;
  const registered = Boolean(input.clientId);
  if (lines.length === 0) problems.push({ code: 'SALE_CART_EMPTY' });
  if (!registered && lines.some((l) => l.isDda)) problems.push({ code: 'SALE_DDA_CLIENT_REQUIRED' });
  if (rules.enforceMargins && !rules.allowOverrideMargins && lines.some((l) => l.lowMargin)) problems.push({ code: 'SALE_LOW_MARGIN' });
  problems.push(...discountProblems(input));
  const payment = checkPayments(input.payments, input.totalCents, input.formatTotal ?? ((c) => formatMoney(c)));
  if (isSaleProblem(payment)) problems.push(payment);
  if (!registered && input.payments.some((p) => paymentKind(p.method) === 'credit')) problems.push({ code: 'SALE_CREDIT_CLIENT_REQUIRED' });
  if (stockByProduct(lines).some((p) => p.requested > p.available)) problems.push({ code: 'SALE_STOCK_EXCEEDED' });
  if (lines.some((l) => l.isDda && !hasPrescriber(l.prescription))) problems.push({ code: 'SALE_DDA_PRESCRIPTION_REQUIRED' });
  if (!registered && lines.some((l) => l.needsRefill)) problems.push({ code: 'SALE_REFILL_CLIENT_REQUIRED' });
  const date = saleDateProblem(input.saleDate, input.today);
  if (date) problems.push(date);
  return problems;
}

/**
 * Completing: the first problem, or the payment outcome (amount paid, change, balance owed, the sale's method) when
 * there is none.
 */
export function checkSaleCompletion(input: CompletionCheckInput): SaleProblem | PaymentOutcome {
  const [first] = completionProblems(input);
  if (first) return first;
  const outcome = checkPayments(input.payments, input.totalCents, input.formatTotal ?? ((c) => formatMoney(c)));
  if (isSaleProblem(outcome)) throw new Error('completionProblems passed payments checkPayments refuses');
  return outcome;
}

/** Every problem of suspending this sale, in the order of decision 0069 (see the module comment). */
export function suspensionProblems(input: SuspensionCheckInput): SaleProblem[] {
  const problems: SaleProblem[] = [];
  const { lines, rules } = input;
  if (lines.length === 0) problems.push({ code: 'SALE_CART_EMPTY' });
  problems.push(...discountProblems(input));
  if (!input.clientId) problems.push({ code: 'SUSPEND_CLIENT_REQUIRED' });
  const short = stockByProduct(lines).find((p) => p.requested > p.available);
  if (short) problems.push({ code: 'INSUFFICIENT_STOCK', values: { product: short.name, available: Math.max(0, short.available), requested: short.requested } });
  if (input.amountPaidCents > input.totalCents) problems.push({ code: 'SUSPEND_AMOUNT_ABOVE_TOTAL' });
  if (rules.enforceMargins && !rules.allowSuspendWithLowMargin && lines.some((l) => l.lowMargin)) problems.push({ code: 'SUSPEND_LOW_MARGIN' });
  if (lines.some((l) => !l.productId || l.productName.trim() === '' || l.quantity <= 0 || l.unitPriceCents <= 0)) problems.push({ code: 'SUSPEND_NO_ITEMS' });
  return problems;
}

export function firstSuspensionProblem(input: SuspensionCheckInput): SaleProblem | null {
  return suspensionProblems(input)[0] ?? null;
}

/** The sentence of a problem (the errors catalogue's, with its values): what the server answers and the till shows. */
export function saleProblemMessage(problem: SaleProblem): string {
  return formatMessage(ERRORS[problem.code].message, problem.values);
}

// ------------------------------------------------------------------------------------------- shared inputs

/** Money as the pharmacy's settings write it (the amount in '{method} requires exact amount: {total}'). */
export function settingsMoney(settings: {
  currencySymbol?: string | null;
  decimalPlaces?: number | null;
  thousandsSeparator?: string | null;
  decimalSeparator?: string | null;
}): (cents: number) => string {
  return (cents) =>
    formatMoney(cents, {
      currencySymbol: settings.currencySymbol || 'KSh',
      decimalPlaces: settings.decimalPlaces ?? 2,
      thousandsSeparator: settings.thousandsSeparator ?? ',',
      decimalSeparator: settings.decimalSeparator ?? '.',
    });
}

/** The rules of SaleCheckRules from the settings and the user's two rights. */
export function saleCheckRules(
  settings: { enforceMargins: boolean; allowOverrideMargins: boolean; allowSuspendWithLowMargin: boolean; maxDiscount: number },
  rights: { mayDiscount: boolean; mayExceedMaxDiscount: boolean },
): SaleCheckRules {
  return {
    enforceMargins: settings.enforceMargins,
    allowOverrideMargins: settings.allowOverrideMargins,
    allowSuspendWithLowMargin: settings.allowSuspendWithLowMargin,
    maxDiscount: settings.maxDiscount,
    mayDiscount: rights.mayDiscount,
    mayExceedMaxDiscount: rights.mayExceedMaxDiscount,
  };
}

/** What the server knows of a product when it prices a line (the branch's row under its lock). */
export interface PricingProduct {
  /** The branch's selling price of one piece. */
  piecePriceCents: number;
  costCents: number;
  /** The margin in force: branch, else product, else the settings' default. */
  minMarginPercent: number;
  packageSize: number;
}

export interface PricedLineFigures {
  /** The branch's price for the line's unit mode. */
  listPriceCents: number;
  /** The price charged: the line's own or the list price. */
  unitPriceCents: number;
  /** Charged at a price other than the list's and other than a price the customer was already given. */
  overridden: boolean;
  minimumAllowedCents: number;
  /** Under the minimum allowed price by more than 0.01 (whatever the price's origin). */
  underMinimum: boolean;
  /** Low Margin as the checks count it: overridden and under the minimum. */
  lowMargin: boolean;
}

/**
 * How the server prices one requested line from its own data (cart-pricing.service): the list price of the mode,
 * the price charged, whether it was changed at the till, and the margin rule.
 */
export function priceSaleLine(
  product: PricingProduct,
  line: { unitMode: UnitMode; unitPriceCents?: number | undefined },
  keptPriceCents?: number,
): PricedLineFigures {
  const packageSize = Math.max(1, product.packageSize);
  const listPriceCents = unitPriceForMode(product.piecePriceCents, line.unitMode, packageSize);
  const unitPriceCents = line.unitPriceCents ?? listPriceCents;
  const overridden = unitPriceCents !== listPriceCents && unitPriceCents !== keptPriceCents;
  const minimumAllowedCents = lineMinimumAllowedCents({ costCents: product.costCents, minMarginPercent: product.minMarginPercent, unitMode: line.unitMode, packageSize });
  const underMinimum = isLineLowMargin(unitPriceCents, minimumAllowedCents);
  return { listPriceCents, unitPriceCents, overridden, minimumAllowedCents, underMinimum, lowMargin: overridden && underMinimum };
}
