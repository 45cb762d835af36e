import { describe, expect, it } from 'vitest';
import type { PosCatalogueItem } from './pos-catalogue.ts';
import {
  completionProblems,
  checkSaleCompletion,
  priceSaleLine,
  saleProblemMessage,
  settingsMoney,
  suspensionProblems,
  type CompletionCheckInput,
  type SaleCheckLine,
  type SaleCheckRules,
  type SuspensionCheckInput,
} from './sale-checks.ts';
import { computeCart, isSaleProblem, type Discount, type PaymentInput, type SaleProblem, type UnitMode } from './sales.ts';
import { cartInputOf, lineFromCatalogue, saleLinesOf, tillCheckLines, type TillLine } from './till-cart.ts';

// ------------------------------------------------------------------------------------------- the order (tables)

const RULES: SaleCheckRules = { enforceMargins: true, allowOverrideMargins: false, allowSuspendWithLowMargin: false, maxDiscount: 10, mayDiscount: true, mayExceedMaxDiscount: false };

const checkLine = (over: Partial<SaleCheckLine> = {}): SaleCheckLine => ({
  productId: 'p1',
  productName: 'Panadol',
  quantity: 1,
  available: 10,
  unitPriceCents: 1000,
  isDda: false,
  prescription: null,
  needsRefill: false,
  lowMargin: false,
  ...over,
});

const good: CompletionCheckInput = {
  lines: [checkLine()],
  clientId: 'c1',
  subtotalCents: 1000,
  discountCents: 0,
  totalCents: 1000,
  rules: RULES,
  payments: [{ method: 'Cash', amountCents: 1000 }],
  saleDate: '2026-05-10',
  today: '2026-05-10',
};

/** A cart that breaks every completing rule at once (as far as they can hold together). */
const everythingWrong: CompletionCheckInput = {
  ...good,
  clientId: null,
  lines: [checkLine({ isDda: true, lowMargin: true, quantity: 20, needsRefill: true })],
  subtotalCents: 10_000,
  discountCents: 5000,
  totalCents: 5000,
  rules: { ...RULES, mayDiscount: true },
  payments: [{ method: 'Credit', amountCents: 0 }, { method: '', amountCents: 0 }],
  saleDate: '2026-05-11',
};

describe('completing: the ordered list (decision 0069)', () => {
  it('a good sale has no problem and answers the payment outcome', () => {
    expect(completionProblems(good)).toEqual([]);
    const outcome = checkSaleCompletion({ ...good, payments: [{ method: 'Cash', amountCents: 2000 }] });
    expect(isSaleProblem(outcome)).toBe(false);
    expect(outcome).toMatchObject({ amountPaidCents: 2000, changeCents: 1000, method: 'Cash' });
  });

  it('lists every problem in the order of seed 001 section 5, with the specification messages', () => {
    const codes = completionProblems(everythingWrong).map((p) => p.code);
    expect(codes).toEqual([
      'SALE_DDA_CLIENT_REQUIRED',
      'SALE_LOW_MARGIN',
      'SALE_DISCOUNT_ABOVE_MAX',
      'SALE_PAYMENT_METHOD_REQUIRED',
      'SALE_CREDIT_CLIENT_REQUIRED',
      'SALE_STOCK_EXCEEDED',
      'SALE_DDA_PRESCRIPTION_REQUIRED',
      'SALE_REFILL_CLIENT_REQUIRED',
      'SALE_DATE_IN_FUTURE',
    ]);
    expect(completionProblems({ ...everythingWrong, rules: { ...RULES, mayDiscount: false } }).map((p) => p.code)).toContain('SALE_DISCOUNT_DENIED');
  });

  // Each row: the input with every earlier problem fixed -> the first problem and its sentence.
  const rows: [string, CompletionCheckInput, string][] = [
    ['empty cart', { ...good, lines: [], subtotalCents: 0, totalCents: 0, payments: [] }, 'Cart is empty'],
    ['DDA without a registered customer', { ...good, clientId: null, lines: [checkLine({ isDda: true })], payments: [] }, 'DDA products require a registered customer to be selected'],
    ['a changed price under the margin', { ...good, lines: [checkLine({ lowMargin: true })], payments: [] }, 'Low margin items detected. Cannot complete sale.'],
    ['a discount without the right', { ...good, discountCents: 100, totalCents: 900, rules: { ...RULES, mayDiscount: false }, payments: [] }, 'You may not give discounts at the till.'],
    ['a discount above the maximum', { ...good, discountCents: 200, totalCents: 800, payments: [] }, 'The discount cannot be more than 10 % of the subtotal.'],
    ['no payment method', { ...good, payments: [] }, 'Please select payment method'],
    ['nothing paid', { ...good, payments: [{ method: 'Cash', amountCents: 0 }] }, 'Please enter amount paid'],
    ['paid less than the total', { ...good, payments: [{ method: 'Cash', amountCents: 999 }] }, 'Amount paid is less than total (or use Credit payment method)'],
    ['M-Pesa over the total', { ...good, payments: [{ method: 'MPESA', amountCents: 1500 }] }, 'MPESA requires exact amount: KSh 10.00'],
    ['Credit for the walk-in customer', { ...good, clientId: null, payments: [{ method: 'Credit', amountCents: 0 }] }, 'Credit sales need a registered customer.'],
    ['over stock', { ...good, lines: [checkLine({ quantity: 11 })] }, 'Some items exceed available stock'],
    ['over stock over two lines of one product', { ...good, lines: [checkLine({ quantity: 6 }), checkLine({ quantity: 5 })] }, 'Some items exceed available stock'],
    ['DDA without prescriber', { ...good, lines: [checkLine({ isDda: true, prescription: { doctorName: 'Dr A', hospitalName: ' ' } })] }, 'DDA products need prescription information'],
    ['a refill for the walk-in customer', { ...good, clientId: null, lines: [checkLine({ needsRefill: true })] }, 'Please select a client for refill reminders'],
    ['a future sale date', { ...good, saleDate: '2026-05-11' }, 'Sale date cannot be in the future. Only today and past dates are allowed.'],
    ['31 days back', { ...good, saleDate: '2026-04-09' }, 'Sale date cannot be more than 30 days in the past'],
  ];
  it.each(rows)('%s', (_name, input, message) => {
    const [first] = completionProblems(input);
    expect(first && saleProblemMessage(first)).toBe(message);
  });

  it('margins and discounts as the settings and rights say', () => {
    const low = { ...good, lines: [checkLine({ lowMargin: true })] };
    expect(completionProblems({ ...low, rules: { ...RULES, allowOverrideMargins: true } })).toEqual([]);
    expect(completionProblems({ ...low, rules: { ...RULES, enforceMargins: false } })).toEqual([]);
    expect(completionProblems({ ...good, discountCents: 500, totalCents: 500, payments: [{ method: 'Cash', amountCents: 500 }], rules: { ...RULES, mayExceedMaxDiscount: true } })).toEqual([]);
  });
});

describe('suspending: the ordered list (decision 0069)', () => {
  const base: SuspensionCheckInput = { lines: [checkLine()], clientId: 'c1', subtotalCents: 1000, discountCents: 0, totalCents: 1000, rules: RULES, amountPaidCents: 0 };
  const rows: [string, SuspensionCheckInput, string][] = [
    ['empty cart', { ...base, lines: [], clientId: null }, 'Cart is empty'],
    ['a discount above the maximum', { ...base, clientId: null, discountCents: 200, totalCents: 800 }, 'The discount cannot be more than 10 % of the subtotal.'],
    ['the walk-in customer', { ...base, clientId: null, lines: [checkLine({ quantity: 99, lowMargin: true })] }, 'Please select a registered customer before suspending the sale.'],
    ['over stock, per product', { ...base, lines: [checkLine({ quantity: 6 }), checkLine({ quantity: 5, lowMargin: true })], amountPaidCents: 5000 }, 'Insufficient stock for Panadol. Available: 10, Requested: 11'],
    ['paid above the total', { ...base, lines: [checkLine({ lowMargin: true })], amountPaidCents: 1001 }, 'Amount paid cannot exceed total'],
    ['a changed price under the margin', { ...base, lines: [checkLine({ lowMargin: true })] }, 'Low margin items detected. Cannot suspend sale.'],
    ['a line at price 0', { ...base, lines: [checkLine({ unitPriceCents: 0 })] }, 'No items to reserve'],
  ];
  it.each(rows)('%s', (_name, input, message) => {
    const [first] = suspensionProblems(input);
    expect(first && saleProblemMessage(first)).toBe(message);
  });

  it('low margin may be allowed for suspending', () => {
    expect(suspensionProblems({ ...base, lines: [checkLine({ lowMargin: true })], rules: { ...RULES, allowSuspendWithLowMargin: true } })).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------- browser = server

/** A small seeded generator (mulberry32), so a failure names its seed and can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const chance = (p: number) => next() < p;
  const pick = <T,>(values: readonly T[]): T => values[int(0, values.length - 1)]!;
  return { int, chance, pick };
}

function catalogueItem(r: ReturnType<typeof random>, i: number): PosCatalogueItem {
  const cost = r.int(50, 5000);
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Product ${i}`,
    sku: `SKU-${i}`,
    barcodes: [],
    category: null,
    packageSize: r.pick([1, 1, 10, 12]),
    packageType: 'box',
    isDda: r.chance(0.2),
    isActive: true,
    isAvailable: true,
    taxApplied: r.chance(0.4),
    taxRateBasisPoints: r.chance(0.5) ? null : r.pick([800, 1600]),
    priceCents: cost + r.int(0, 3000),
    costCents: cost,
    minMarginBasisPoints: r.pick([0, 1000, 2200, 3000]),
    minimumPriceCents: null,
    quantity: r.int(0, 60),
    reservedQuantity: 0,
    lowStockThreshold: 5,
    nearestExpiry: null,
    expiredQuantity: 0,
  } as PosCatalogueItem;
}

interface Scenario {
  catalogue: Map<string, PosCatalogueItem>;
  lines: TillLine[];
  kept: Map<string, number>;
  clientId: string | null;
  discount: Discount | null;
  payments: PaymentInput[];
  amountPaidCents: number;
  rules: SaleCheckRules & { mayOverridePrice: boolean };
  saleDate: string;
  settings: { taxRate: number; currency: string };
}

function scenario(seed: number): Scenario {
  const r = random(seed);
  const catalogue = new Map<string, PosCatalogueItem>();
  const lines: TillLine[] = [];
  const kept = new Map<string, number>();
  const rules = {
    enforceMargins: r.chance(0.7),
    allowOverrideMargins: r.chance(0.3),
    allowSuspendWithLowMargin: r.chance(0.3),
    maxDiscount: r.pick([5, 10, 50]),
    mayDiscount: r.chance(0.6),
    mayExceedMaxDiscount: r.chance(0.3),
    mayOverridePrice: r.chance(0.6),
  };
  const count = r.chance(0.08) ? 0 : r.int(1, 4);
  for (let i = 0; i < count; i++) {
    const item = catalogueItem(r, i + 1);
    catalogue.set(item.id, item);
    let line = lineFromCatalogue(item, new Date('2026-05-10T08:00:00Z'));
    if (item.packageSize > 1 && r.chance(0.3)) {
      // Whole packages: the quantity in pieces is a whole number of packages, the price the package's.
      line = { ...line, unitMode: 'W' as UnitMode, quantity: item.packageSize * r.int(1, 3), unitPriceCents: item.priceCents * item.packageSize };
    } else {
      // Sometimes more than the stock the till last heard of (another till sold it meanwhile).
      line = { ...line, quantity: r.int(1, Math.max(1, item.quantity + (r.chance(0.3) ? 5 : 0))) };
    }
    if (r.chance(0.15)) {
      // A resumed sale: the price the customer was given at suspension is kept (not an override).
      const price = Math.max(1, Math.round(line.unitPriceCents * r.pick([0.5, 0.9, 1.1])));
      line = { ...line, unitPriceCents: price };
      kept.set(`${item.id}:${line.unitMode}`, price);
    } else if (rules.mayOverridePrice && r.chance(0.35)) {
      line = { ...line, unitPriceCents: Math.max(0, Math.round(line.unitPriceCents * r.pick([0, 0.5, 0.8, 0.99, 1.2]))) };
    }
    if (item.isDda) line = { ...line, prescription: r.chance(0.6) ? { doctorName: 'Dr Otieno', hospitalName: r.pick(['Kenyatta', ' ']) } : null };
    if (r.chance(0.2)) line = { ...line, needsRefill: true };
    lines.push(line);
  }
  const discount: Discount | null = r.chance(0.5) ? null : r.chance(0.5) ? { type: 'percent', basisPoints: r.pick([500, 1000, 2500]) } : { type: 'fixed', cents: r.int(1, 3000) };
  const total = computeCart(cartInputOf(lines), discount, { settingsTaxRatePercent: 16, currency: 'KES' }).totalCents;
  const amount = () => r.pick([0, Math.max(0, total - 100), total, total + 100, total + 5000]);
  const payments: PaymentInput[] = r.chance(0.05)
    ? []
    : r.chance(0.2)
      ? [{ method: 'Cash', amountCents: amount() }, { method: 'MPESA', amountCents: amount() }]
      : [{ method: r.pick(['Cash', 'MPESA', 'Card', 'Credit', '']), amountCents: amount() }];
  return {
    catalogue,
    lines,
    kept,
    clientId: r.chance(0.5) ? 'client-1' : null,
    discount,
    payments,
    amountPaidCents: r.pick([0, total, total + 1]),
    rules,
    saleDate: r.pick(['2026-05-10', '2026-05-01', '2026-05-11', '2026-04-01']),
    settings: { taxRate: 16, currency: 'KES' },
  };
}

const TODAY = '2026-05-10';
const money = settingsMoney({ currencySymbol: 'KSh', decimalPlaces: 2, thousandsSeparator: ',', decimalSeparator: '.' });

/** What the till computes and checks (pos-page.tsx: completionProblem and suspensionProblem). */
function browserChecks(s: Scenario) {
  const figures = computeCart(cartInputOf(s.lines), s.discount, { settingsTaxRatePercent: s.settings.taxRate, currency: s.settings.currency });
  const checkLines = tillCheckLines(s.lines, (productId, unitMode) => s.kept.get(`${productId}:${unitMode}`));
  const common = { lines: checkLines, clientId: s.clientId, subtotalCents: figures.subtotalCents, discountCents: figures.discountCents, totalCents: figures.totalCents, rules: s.rules };
  return {
    total: figures.totalCents,
    completing: completionProblems({ ...common, formatTotal: money, payments: s.payments, saleDate: s.saleDate, today: TODAY }),
    suspending: suspensionProblems({ ...common, amountPaidCents: s.amountPaidCents }),
  };
}

/**
 * What the server computes and checks from the request the till sends (sales.service completeSale and
 * suspended-sales.service suspendSale): the lines as saleLinesOf sends them, repriced from the server's own product
 * rows with priceSaleLine (cart-pricing.service), the stock it reads, the same ordered checks.
 */
function serverChecks(s: Scenario) {
  const request = saleLinesOf(s.lines, { prices: s.rules.mayOverridePrice ? 'overridden' : 'all' });
  const priced = request.map((line) => {
    const product = s.catalogue.get(line.productId)!;
    const figures = priceSaleLine(
      { piecePriceCents: product.priceCents, costCents: product.costCents, minMarginPercent: product.minMarginBasisPoints / 100, packageSize: product.packageSize },
      line,
      s.kept.get(`${line.productId}:${line.unitMode}`),
    );
    // The server refuses a changed price without pos:price_override before these checks; the till never sends one.
    expect(figures.overridden && !s.rules.mayOverridePrice).toBe(false);
    return { line, product, figures };
  });
  const cart = computeCart(
    priced.map((p) => ({
      quantity: p.line.quantity,
      unitMode: p.line.unitMode,
      packageSize: p.product.packageSize,
      unitPriceCents: p.figures.unitPriceCents,
      taxApplied: p.product.taxApplied,
      taxRateBasisPoints: p.product.taxRateBasisPoints,
    })),
    s.discount,
    { settingsTaxRatePercent: s.settings.taxRate, currency: s.settings.currency },
  );
  const lines: SaleCheckLine[] = priced.map((p) => ({
    productId: p.product.id,
    productName: p.product.name,
    quantity: p.line.quantity,
    available: p.product.quantity,
    unitPriceCents: p.figures.unitPriceCents,
    isDda: p.product.isDda,
    prescription: p.line.prescription,
    needsRefill: p.line.needsRefill,
    lowMargin: p.figures.lowMargin,
  }));
  const common = { lines, clientId: s.clientId, subtotalCents: cart.subtotalCents, discountCents: cart.discountCents, totalCents: cart.totalCents, rules: s.rules };
  return {
    total: cart.totalCents,
    completing: completionProblems({ ...common, formatTotal: money, payments: s.payments, saleDate: s.saleDate, today: TODAY }),
    suspending: suspensionProblems({ ...common, amountPaidCents: s.amountPaidCents }),
  };
}

const describeProblem = (p: SaleProblem | undefined) => (p ? `${p.code}: ${saleProblemMessage(p)}` : 'none');

describe('the till and the server give the same first problem for the same cart', () => {
  it('over 3,000 random carts (payments, discounts, overrides, kept prices, DDA, refills, stock, dates, settings, rights)', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 3000; seed++) {
      const s = scenario(seed);
      const browser = browserChecks(s);
      const server = serverChecks(s);
      expect(server.total, `seed ${seed}: total`).toBe(browser.total);
      expect(server.completing, `seed ${seed}: completing`).toEqual(browser.completing);
      expect(server.suspending, `seed ${seed}: suspending`).toEqual(browser.suspending);
      expect(describeProblem(server.completing[0])).toBe(describeProblem(browser.completing[0]));
      seen.add(server.completing[0]?.code ?? 'none');
      seen.add(server.suspending[0]?.code ?? 'none');
    }
    // The generator reaches every rule as the first problem somewhere.
    for (const code of [
      'none',
      'SALE_CART_EMPTY',
      'SALE_DDA_CLIENT_REQUIRED',
      'SALE_LOW_MARGIN',
      'SALE_DISCOUNT_DENIED',
      'SALE_DISCOUNT_ABOVE_MAX',
      'SALE_PAYMENT_METHOD_REQUIRED',
      'SALE_AMOUNT_REQUIRED',
      'SALE_AMOUNT_BELOW_TOTAL',
      'SALE_EXACT_AMOUNT_REQUIRED',
      'SALE_CREDIT_CLIENT_REQUIRED',
      'SALE_STOCK_EXCEEDED',
      'SALE_DDA_PRESCRIPTION_REQUIRED',
      'SALE_REFILL_CLIENT_REQUIRED',
      'SALE_DATE_IN_FUTURE',
      'SALE_DATE_TOO_OLD',
      'SUSPEND_CLIENT_REQUIRED',
      'INSUFFICIENT_STOCK',
      'SUSPEND_AMOUNT_ABOVE_TOTAL',
      'SUSPEND_LOW_MARGIN',
    ]) {
      expect(seen, code).toContain(code);
    }
  });

  it('a resumed sale keeps its suspension price: not Low Margin on either side', () => {
    const item = { ...catalogueItem(random(7), 1), priceCents: 1000, costCents: 900, minMarginBasisPoints: 2200, packageSize: 1, quantity: 5, isDda: false };
    const line = { ...lineFromCatalogue(item), unitPriceCents: 500 };
    const s: Scenario = {
      catalogue: new Map([[item.id, item]]),
      lines: [line],
      kept: new Map([[`${item.id}:P`, 500]]),
      clientId: 'client-1',
      discount: null,
      payments: [{ method: 'Cash', amountCents: 500 }],
      amountPaidCents: 0,
      rules: { ...RULES, mayOverridePrice: false },
      saleDate: TODAY,
      settings: { taxRate: 16, currency: 'KES' },
    };
    expect(browserChecks(s).completing).toEqual([]);
    expect(serverChecks(s).completing).toEqual([]);
    // Without the kept price the same cart is a changed price under the margin, on both sides.
    const overridden = { ...s, kept: new Map<string, number>(), rules: { ...s.rules, mayOverridePrice: true } };
    expect(browserChecks(overridden).completing.map((p) => p.code)).toEqual(['SALE_LOW_MARGIN']);
    expect(serverChecks(overridden).completing.map((p) => p.code)).toEqual(['SALE_LOW_MARGIN']);
  });
});
