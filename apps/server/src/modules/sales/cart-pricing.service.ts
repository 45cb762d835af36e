import { DEFAULT_MIN_MARGIN_PERCENT } from '@pharmapoint/domain/margins';
import { canGiveDiscounts } from '@pharmapoint/domain/permissions';
import { isOfferedInBranch } from '@pharmapoint/domain/products';
import { priceSaleLine, saleCheckRules, settingsMoney, type SaleCheckLine, type SaleCheckRules } from '@pharmapoint/domain/sale-checks';
import {
  computeCart,
  isWholePackages,
  SALE_LIMITS,
  type CartFigures,
  type Discount,
  type SaleProblem,
  type UnitMode,
} from '@pharmapoint/domain/sales';
import type { Settings } from '@pharmapoint/domain/settings';
import type { Queryable } from '../../db/database.ts';
import { holds } from '../../platform/access.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { findCartProducts, findCartProductsAndBranch, type CartBranch, type CartProductRow } from './cart-pricing.repository.ts';

export type { CartBranch, CartProductRow };

/** A refusal with the specification's code and values (and details for the screen). */
export function refuse(problem: SaleProblem, details?: unknown): never {
  throw new AppError(problem.code, { values: problem.values, details });
}

/** What a cart line asks for (a sale's and a suspension's lines both have these). */
export interface CartLineRequest {
  productId: string;
  quantity: number;
  unitMode: UnitMode;
  unitPriceCents?: number | undefined;
}

export interface PricedLine<L extends CartLineRequest> {
  line: L;
  product: CartProductRow;
  packageSize: number;
  /** The branch's price for the line's unit mode. */
  listPrice: number;
  /** The price charged: the line's own (checked) or the list price. */
  unitPrice: number;
  /** Charged at a price other than the list's (and other than a price the customer was already given). */
  overridden: boolean;
  /** Under the line's minimum allowed price (seed 001's margin rule). */
  lowMargin: boolean;
  /** Low Margin as the sale checks count it: overridden and under the minimum (sale-checks.ts). */
  lowMarginOverride: boolean;
  /** The line's minimum allowed price per unit of its mode. */
  minimumAllowedCents: number;
}

/**
 * The priced lines as the ordered sale checks take them (sale-checks.ts, decision 0069), for completing, suspending
 * and the M-Pesa request alike; `available` answers a product's sellable pieces for this sale.
 */
export function saleCheckLines<L extends CartLineRequest & Pick<SaleCheckLine, 'prescription' | 'needsRefill'>>(
  priced: readonly PricedLine<L>[],
  available: (productId: string) => number,
): SaleCheckLine[] {
  return priced.map((p) => ({
    productId: p.product.id,
    productName: p.product.name,
    quantity: p.line.quantity,
    available: available(p.product.id),
    unitPriceCents: p.unitPrice,
    isDda: p.product.is_dda,
    prescription: p.line.prescription,
    needsRefill: p.line.needsRefill,
    lowMargin: p.lowMarginOverride,
  }));
}

export interface PriceCartInput<L extends CartLineRequest> {
  branchId: string;
  lines: readonly L[];
  discount: { type: 'percent'; basisPoints: number } | { type: 'fixed'; cents: number } | null | undefined;
  /** The total the till showed: a different total is refused with the server's (SALE_TOTAL_CHANGED). */
  expectedTotalCents?: number | undefined;
  /** A price the customer was already given for this product and unit mode (a resumed sale keeps its suspension's). */
  keptPrice?: (productId: string, unitMode: UnitMode) => number | undefined;
  /** The refusal for a line whose product is not in this pharmacy. */
  notFound: (productId: string, index: number) => never;
  /**
   * When given, the branch `branchId` (any of the pharmacy's, active or not; null when it has none of that id) is
   * read in the cart's own statement and handed to this check before any line is priced: the caller's refusals of
   * the branch come before the products' (completing a sale, decision 0080).
   */
  checkBranch?: (branch: CartBranch | null) => Promise<void> | void;
  /** The cart's products as readCart answered them, read by the caller together with its other reads (decision 0086). */
  products?: Map<string, CartProductRow>;
}

/**
 * The products of a cart in the branch (and the branch itself, handed to `checkBranch`, when that is given), as
 * priceCart reads them: for a caller that sends this read together with others (together()) and hands the answer to
 * priceCart as `products`.
 */
export async function readCart(
  q: Queryable,
  ctx: RequestContext,
  input: Pick<PriceCartInput<CartLineRequest>, 'branchId' | 'lines' | 'checkBranch'>,
): Promise<Map<string, CartProductRow>> {
  const productIds = [...new Set(input.lines.map((l) => l.productId))];
  if (!input.checkBranch) return findCartProducts(q, ctx.pharmacyId, input.branchId, productIds);
  const found = await findCartProductsAndBranch(q, ctx.pharmacyId, input.branchId, productIds);
  await input.checkBranch(found.branch);
  return found.products;
}

export interface PricedCart<L extends CartLineRequest> {
  priced: PricedLine<L>[];
  cart: CartFigures;
  /** Money in the pharmacy's format, for messages. */
  money: (cents: number) => string;
  /** The settings and the user's rights as the domain's sale checks take them. */
  rules: SaleCheckRules;
}

/** The request's discount as the domain's rules take it. */
export function toDiscount(input: PriceCartInput<CartLineRequest>['discount']): Discount | null {
  if (!input) return null;
  return input.type === 'percent' ? { type: 'percent', basisPoints: input.basisPoints } : { type: 'fixed', cents: input.cents };
}

/** The branch's selling price per piece, or null when the product cannot be sold there (no row, not offered, price 0). */
function sellablePrice(product: CartProductRow, branchId: string): number | null {
  if (product.selling_price_cents === null || product.is_available === false) return null;
  if (!isOfferedInBranch(product.restricted_branch_ids ?? [], branchId)) return null;
  return product.selling_price_cents > 0 ? product.selling_price_cents : null;
}

/**
 * Prices a cart from the branch's own prices, as completing and suspending a sale both do (decisions 0023, 0028):
 * the browser's prices and totals are checked, never trusted. Reads the products under the branch rows' locks the
 * caller took; refuses, with the specification's messages, an inactive or unpriced product, part packages, a price
 * changed without pos:price_override, a line or cart too large, and a total other than the one the till showed. The
 * margin and discount rules are the caller's to judge, with the domain's ordered checks and the `rules` answered here
 * (sale-checks.ts, decision 0069), so the first problem is the one the till shows.
 */
export async function priceCart<L extends CartLineRequest>(q: Queryable, ctx: RequestContext, settings: Settings, input: PriceCartInput<L>): Promise<PricedCart<L>> {
  const money = settingsMoney(settings);
  const rules = saleCheckRules(settings, { mayDiscount: canGiveDiscounts(ctx.subject), mayExceedMaxDiscount: holds(ctx, 'pos:admin') });
  const products = input.products ?? (await readCart(q, ctx, input));
  const mayOverridePrice = holds(ctx, 'pos:price_override');
  const defaultMargin = settings.defaultMinMargin > 0 ? settings.defaultMinMargin : DEFAULT_MIN_MARGIN_PERCENT;

  const priced = input.lines.map((line, index): PricedLine<L> => {
    const product = products.get(line.productId);
    if (!product) return input.notFound(line.productId, index);
    const values = { product: product.name };
    if (!product.is_active) refuse({ code: 'SALE_PRODUCT_INACTIVE', values }, { productId: product.id });
    const piecePrice = sellablePrice(product, input.branchId);
    if (piecePrice === null) refuse({ code: 'SALE_PRODUCT_NO_PRICE', values }, { productId: product.id });
    const packageSize = Math.max(1, product.package_size);
    if (!isWholePackages(line.quantity, line.unitMode, packageSize)) {
      throw new AppError('VALIDATION_FAILED', {
        message: `The quantity of ${product.name} must be whole packages of ${packageSize} pieces.`,
        details: { productId: product.id, packageSize },
      });
    }
    const marginBasisPoints = product.branch_min_margin_basis_points ?? product.product_min_margin_basis_points;
    const figures = priceSaleLine(
      {
        piecePriceCents: piecePrice!,
        costCents: product.purchase_price_cents ?? 0,
        minMarginPercent: marginBasisPoints !== null ? marginBasisPoints / 100 : defaultMargin,
        packageSize,
      },
      line,
      input.keptPrice?.(product.id, line.unitMode),
    );
    const { listPriceCents: listPrice, unitPriceCents: unitPrice, overridden, underMinimum: lowMargin, minimumAllowedCents: minimum } = figures;
    // A price other than the branch's: the cashier's till was out of date, or an override that needs its permission.
    if (overridden && !mayOverridePrice) refuse({ code: 'SALE_PRICE_CHANGED', values: { product: product.name, price: money(listPrice) } }, { productId: product.id, listPriceCents: listPrice });
    if (unitPrice * (line.quantity / (line.unitMode === 'W' ? packageSize : 1)) > SALE_LIMITS.lineCents) refuse({ code: 'SALE_TOO_LARGE' });
    return { line, product, packageSize, listPrice, unitPrice, overridden, lowMargin, lowMarginOverride: figures.lowMargin, minimumAllowedCents: minimum };
  });

  const cart = computeCart(
    priced.map((p) => ({
      quantity: p.line.quantity,
      unitMode: p.line.unitMode,
      packageSize: p.packageSize,
      unitPriceCents: p.unitPrice,
      taxApplied: p.product.tax_applied,
      taxRateBasisPoints: p.product.tax_rate_basis_points,
    })),
    toDiscount(input.discount),
    { settingsTaxRatePercent: settings.taxRate, currency: settings.currency },
  );
  if (cart.totalCents > SALE_LIMITS.saleCents) refuse({ code: 'SALE_TOO_LARGE' });
  if (input.expectedTotalCents !== undefined && input.expectedTotalCents !== cart.totalCents) {
    refuse(
      { code: 'SALE_TOTAL_CHANGED', values: { total: money(cart.totalCents) } },
      { totalCents: cart.totalCents, subtotalCents: cart.subtotalCents, discountCents: cart.discountCents, taxCents: cart.taxCents },
    );
  }
  return { priced, cart, money, rules };
}
