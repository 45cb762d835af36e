import { z } from 'zod';
import { DEFAULT_MIN_MARGIN_PERCENT, marginPercent, markupPercent, minimumSellingPriceCents } from './margins.ts';
import { DEFAULT_LOW_STOCK_THRESHOLD, stockStatus, type StockStatus } from './stock-status.ts';
import { fieldMessage, numberField } from './errors.ts';
import { parseMoneyToCents } from './money.ts';
import { parsePercentToBasisPoints } from './product-import.ts';
import { text } from './text.ts';

/**
 * The product catalogue API (issue 3): request and response schemas of /api/products, shared by the server
 * (validation) and the browser (forms, typed responses). Money is integer cents, quantities integer pieces,
 * percentages of rates and margins basis points (1600 = 16 %), business dates 'YYYY-MM-DD' (Africa/Nairobi),
 * times ISO 8601.
 *
 * Per-branch values (prices, stock, status) are those of the session's branch unless `branchId` names another
 * branch the user may see.
 */

/** Most rows one page of GET /api/products returns. */
export const PRODUCT_PAGE_MAX = 200;
/** Rows per page when the request does not say. */
export const PRODUCT_PAGE_DEFAULT = 50;
/** The default tax rate, basis points (seed 000 section 9: 16 percent). */
export const DEFAULT_TAX_RATE_BASIS_POINTS = 1600;
/** The default minimum margin, basis points (seed 001 section 9: 22 percent). */
export const DEFAULT_MIN_MARGIN_BASIS_POINTS = DEFAULT_MIN_MARGIN_PERCENT * 100;
/** The default reorder level (seed 000 section 9). */
export const DEFAULT_REORDER_LEVEL = 2;
/** The default package type (seed 001 section 3: 'PackageType (default pieces)'). */
export const DEFAULT_PACKAGE_TYPE = 'pieces';
/** The default unit of a product. */
export const DEFAULT_UNIT = 'piece';

/** The longest product name (issue 8 item 8: a name fits a heading, a receipt line and a table cell; decision 0033). */
export const PRODUCT_NAME_MAX = 120;

/** A business date, 'YYYY-MM-DD'. */
export const businessDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date as YYYY-MM-DD.');
/** Integer cents, 0 or more ('Price minimum 0'); `label` names the field in the messages. */
export const centsField = (label = 'The price') =>
  z
    .number({ error: fieldMessage('number', label) })
    .int(fieldMessage('wholeNumber', label))
    .min(0, fieldMessage('notNegative', label))
    .max(1e12, fieldMessage('tooLarge', label, { max: 1e12 }));
export const centsSchema = centsField();
/** A margin in basis points: above 0 and below 100 percent (seed 000 section 5). */
export const MARGIN_MESSAGE = 'Minimum margin must be above 0 and below 100 %.';
export const marginBasisPointsSchema = z.number({ error: MARGIN_MESSAGE }).int(MARGIN_MESSAGE).gt(0, MARGIN_MESSAGE).lt(10_000, MARGIN_MESSAGE);
/** A whole number of pieces, 0 or more; `label` names the field in the messages. */
export const piecesField = (label = 'The quantity') => numberField(label, 0, 100_000_000, { whole: true });
export const piecesSchema = piecesField();

const optionalText = (max: number, label?: string) => text(max, label).nullable().optional();
/** 'true' or 'false' in a query string. */
const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

// ------------------------------------------------------------------------------------------- list

export const PRODUCT_SORTS = ['name', 'sku', 'quantity', 'price', 'expiry'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/**
 * GET /api/products query. q searches name, SKU and barcodes (case-insensitive, substring); status is the
 * stock status in the branch; sort 'price' is the branch selling price, 'expiry' the nearest unexpired expiry.
 */
export const productListQuerySchema = z.strictObject({
  q: z.string().trim().max(100).optional(),
  category: z.string().trim().max(200).optional(),
  status: z.enum(['out', 'low', 'good']).optional(),
  active: queryBoolean.optional(),
  dda: queryBoolean.optional(),
  sort: z.enum(PRODUCT_SORTS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  limit: z.coerce.number().int().min(1).max(PRODUCT_PAGE_MAX).default(PRODUCT_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
  /** The branch of the per-branch values; default the session's branch. */
  branchId: z.uuid().optional(),
});
/** What the browser sends (strings for the booleans). */
export type ProductListQueryInput = z.input<typeof productListQuerySchema>;
export type ProductListQuery = z.output<typeof productListQuerySchema>;

/** One row of the product list: the product and its values in the branch. */
export const productListItemSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  category: z.string().nullable(),
  packageSize: z.number().int(),
  packageType: z.string(),
  unit: z.string(),
  isDda: z.boolean(),
  taxApplied: z.boolean(),
  taxRateBasisPoints: z.number().int(),
  isActive: z.boolean(),
  branchId: z.uuid(),
  /** False when the product has no row in the branch yet, is marked unavailable there, or is restricted to other branches. */
  isAvailable: z.boolean(),
  sellingPriceCents: z.number().int(),
  purchasePriceCents: z.number().int(),
  /** The margin in force: branch, else product, else settings default. */
  minMarginBasisPoints: z.number().int(),
  /** purchase / (1 - margin / 100), rounded up to the cent. */
  minimumSellingPriceCents: z.number().int(),
  /** (sell - buy) / sell, percent with 2 decimals; null when the selling price is 0. */
  marginPercent: z.number().nullable(),
  /** (sell - buy) / buy, percent with 2 decimals; null when the purchase price is 0. */
  markupPercent: z.number().nullable(),
  /** Sellable pieces on hand (reserved pieces have left it; expired pieces are still counted until written off). */
  quantity: z.number().int(),
  reservedQuantity: z.number().int(),
  /** Pieces in batches past their expiry date (not sellable). */
  expiredQuantity: z.number().int(),
  lowStockThreshold: z.number().int(),
  reorderLevel: z.number().int(),
  status: z.enum(['out', 'low', 'good']),
  /** The earliest expiry date of an unexpired batch with stock; null when none. */
  nearestExpiry: businessDateSchema.nullable(),
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

/** GET /api/products response. */
export const productListResponseSchema = z.object({
  items: z.array(productListItemSchema),
  /** Rows matching the filters (all pages). */
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  branchId: z.uuid(),
});
export type ProductListResponse = z.infer<typeof productListResponseSchema>;

// ------------------------------------------------------------------------------------------- detail

/** A product's own fields (not per branch). */
export const productSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  category: z.string().nullable(),
  packageSize: z.number().int(),
  packageType: z.string(),
  unit: z.string(),
  isDda: z.boolean(),
  taxApplied: z.boolean(),
  taxRateBasisPoints: z.number().int(),
  /** null = the settings default minimum margin. */
  minMarginBasisPoints: z.number().int().nullable(),
  lowStockThreshold: z.number().int(),
  reorderLevel: z.number().int(),
  isActive: z.boolean(),
  /** When not empty, the product is offered only in these branches. */
  restrictedBranchIds: z.array(z.uuid()),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastPriceUpdateAt: z.string().nullable(),
  lastPriceUpdateReason: z.string().nullable(),
  lastPriceUpdateBy: z.uuid().nullable(),
});
export type Product = z.infer<typeof productSchema>;

/** A product's values in one branch. */
export const branchProductSchema = z.object({
  branchId: z.uuid(),
  branchName: z.string(),
  sellingPriceCents: z.number().int(),
  purchasePriceCents: z.number().int(),
  /** The branch's own minimum margin; null = the product's (or the settings default). */
  minMarginBasisPoints: z.number().int().nullable(),
  /** The margin in force in the branch. */
  effectiveMinMarginBasisPoints: z.number().int(),
  minimumSellingPriceCents: z.number().int(),
  marginPercent: z.number().nullable(),
  markupPercent: z.number().nullable(),
  isAvailable: z.boolean(),
  quantity: z.number().int(),
  reservedQuantity: z.number().int(),
  expiredQuantity: z.number().int(),
  /** The branch's own threshold; null = the product's. */
  lowStockThreshold: z.number().int().nullable(),
  status: z.enum(['out', 'low', 'good']),
  nearestExpiry: businessDateSchema.nullable(),
  lastStockUpdateAt: z.string().nullable(),
  lastStockUpdateReason: z.string().nullable(),
});
export type BranchProduct = z.infer<typeof branchProductSchema>;

export const BATCH_SOURCES = ['opening', 'purchase', 'transfer', 'adjustment', 'import', 'return'] as const;

/** A batch of a product in a branch. */
export const batchSchema = z.object({
  id: z.uuid(),
  branchId: z.uuid(),
  productId: z.uuid(),
  /** null for stock received without a batch number (an unbatched remainder). */
  batchNumber: z.string().nullable(),
  expiryDate: businessDateSchema.nullable(),
  quantity: z.number().int(),
  reservedQuantity: z.number().int(),
  unitCostCents: z.number().int(),
  receivedAt: z.string(),
  source: z.string(),
  /** Expired (expiry date before today): not sellable, may be written off. */
  isExpired: z.boolean(),
  /** Days until expiry (negative once expired); null without an expiry date. */
  daysToExpiry: z.number().int().nullable(),
});
export type Batch = z.infer<typeof batchSchema>;

/** One recorded price change. */
export const priceChangeSchema = z.object({
  id: z.uuid(),
  branchId: z.uuid(),
  oldSellingPriceCents: z.number().int().nullable(),
  newSellingPriceCents: z.number().int().nullable(),
  oldPurchasePriceCents: z.number().int().nullable(),
  newPurchasePriceCents: z.number().int().nullable(),
  reason: z.string().nullable(),
  userId: z.uuid().nullable(),
  userName: z.string().nullable(),
  at: z.string(),
});
export type PriceChange = z.infer<typeof priceChangeSchema>;

/**
 * GET /api/products/:id (and the answer of POST, PATCH, PUT .../branches/:branchId): the product, its values in
 * every branch the user may see, its batches with stock (and expired ones still holding stock) in those
 * branches, earliest expiry first, and the last 50 price changes.
 */
export const productDetailResponseSchema = z.object({
  product: productSchema,
  branches: z.array(branchProductSchema),
  batches: z.array(batchSchema),
  priceChanges: z.array(priceChangeSchema),
});
export type ProductDetailResponse = z.infer<typeof productDetailResponseSchema>;

// ------------------------------------------------------------------------------------------- writes

/** Per-branch prices and availability (PUT /api/products/:id/branches/:branchId, and branches[] of a create). */
export const branchPricesSchema = z.strictObject({
  sellingPriceCents: centsField('Selling price').optional(),
  purchasePriceCents: centsField('Purchase price').optional(),
  /** null = use the product's minimum margin. */
  minMarginBasisPoints: marginBasisPointsSchema.nullable().optional(),
  isAvailable: z.boolean().optional(),
  /** null = use the product's threshold. */
  lowStockThreshold: piecesField('Low-stock threshold').nullable().optional(),
  /** Why the price changed; stamped on the price change. */
  reason: optionalText(200, 'The reason'),
});
export type BranchPricesInput = z.infer<typeof branchPricesSchema>;

/** The limits of a product's fields, shown in the form (maxLength, hints) and held by the schemas. */
export const PRODUCT_LIMITS = { name: PRODUCT_NAME_MAX, sku: 64, barcode: 64, barcodes: 20, category: 200, packageType: 40, unit: 40, reason: 200 } as const;

const requiredText = (label: string, max: number) => text(max, label).min(1, fieldMessage('required', label));
const TAX_RATE_MESSAGE = fieldMessage('between', 'Tax rate', { min: 0, max: 100, unit: ' %' });

const productFields = {
  name: requiredText('Product name', PRODUCT_NAME_MAX),
  sku: optionalText(PRODUCT_LIMITS.sku, 'SKU'),
  barcodes: z
    .array(text(PRODUCT_LIMITS.barcode, 'Each barcode').min(1, 'A barcode cannot be empty.'))
    .max(PRODUCT_LIMITS.barcodes, `A product has at most ${PRODUCT_LIMITS.barcodes} barcodes.`),
  category: optionalText(PRODUCT_LIMITS.category, 'Category'),
  packageSize: numberField('Package size', 1, 100_000, { whole: true }),
  packageType: requiredText('Package type', PRODUCT_LIMITS.packageType),
  unit: requiredText('Unit', PRODUCT_LIMITS.unit),
  isDda: z.boolean(),
  taxApplied: z.boolean(),
  taxRateBasisPoints: z.number({ error: TAX_RATE_MESSAGE }).int(TAX_RATE_MESSAGE).min(0, TAX_RATE_MESSAGE).max(10_000, TAX_RATE_MESSAGE),
  /** null = the settings default (22 %). */
  minMarginBasisPoints: marginBasisPointsSchema.nullable(),
  lowStockThreshold: piecesField('Low-stock threshold'),
  reorderLevel: piecesField('Reorder level'),
  isActive: z.boolean(),
  restrictedBranchIds: z.array(z.uuid()).max(500),
};

/** A batch received as opening stock: the fields POST /api/products/:id/batches and a create's openingStock share. */
const batchFields = {
  batchNumber: requiredText('Batch number', 64),
  expiryDate: z.string({ error: fieldMessage('required', 'Expiry date') }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Expiry date must be a date (YYYY-MM-DD).'),
  quantity: numberField('Quantity', 1, 10_000_000, { whole: true, unit: ' pieces' }),
  unitCostCents: centsField('Unit cost'),
};

/**
 * POST /api/products (product:create; price fields need product:manage_price). Creates the product and its row
 * in every active branch it is not restricted from, with sellingPriceCents / purchasePriceCents as the prices
 * of every branch unless branches[] overrides a branch. Answers 201 with the product detail.
 */
export const createProductSchema = z.strictObject({
  name: productFields.name,
  sku: productFields.sku,
  barcodes: productFields.barcodes.default([]),
  category: productFields.category,
  packageSize: productFields.packageSize.default(1),
  packageType: productFields.packageType.default(DEFAULT_PACKAGE_TYPE),
  unit: productFields.unit.default(DEFAULT_UNIT),
  isDda: productFields.isDda.default(false),
  taxApplied: productFields.taxApplied.default(false),
  taxRateBasisPoints: productFields.taxRateBasisPoints.default(DEFAULT_TAX_RATE_BASIS_POINTS),
  minMarginBasisPoints: productFields.minMarginBasisPoints.optional(),
  lowStockThreshold: productFields.lowStockThreshold.default(DEFAULT_LOW_STOCK_THRESHOLD),
  reorderLevel: productFields.reorderLevel.default(DEFAULT_REORDER_LEVEL),
  isActive: productFields.isActive.default(true),
  restrictedBranchIds: productFields.restrictedBranchIds.default([]),
  sellingPriceCents: centsField('Selling price').default(0),
  purchasePriceCents: centsField('Purchase price').default(0),
  branches: z.array(branchPricesSchema.extend({ branchId: z.uuid() })).max(500).default([]),
  priceChangeReason: optionalText(PRODUCT_LIMITS.reason, 'The reason for the price change'),
  /**
   * Opening stock received with the product (needs inventory:update too): one batch in `branchId` (default the
   * session's branch), written through the stock ledger in the same transaction as the product, by the rules of
   * POST /api/products/:id/batches (a batch already expired by the pharmacy's business date is refused, nothing written).
   */
  openingStock: z.strictObject({ branchId: z.uuid().optional(), ...batchFields }).optional(),
});
export type CreateProductInput = z.input<typeof createProductSchema>;
export type CreateProduct = z.output<typeof createProductSchema>;

/**
 * PATCH /api/products/:id (product:update). Every field optional. sellingPriceCents, purchasePriceCents and
 * minMarginBasisPoints are price fields and need product:manage_price too; selling and purchase prices apply
 * to the branch of ?branchId= (default the session's branch) and are recorded as a price change with
 * priceChangeReason, the time and the user.
 */
export const updateProductSchema = z.strictObject({
  name: productFields.name.optional(),
  sku: productFields.sku,
  barcodes: productFields.barcodes.optional(),
  category: productFields.category,
  packageSize: productFields.packageSize.optional(),
  packageType: productFields.packageType.optional(),
  unit: productFields.unit.optional(),
  isDda: productFields.isDda.optional(),
  taxApplied: productFields.taxApplied.optional(),
  taxRateBasisPoints: productFields.taxRateBasisPoints.optional(),
  minMarginBasisPoints: productFields.minMarginBasisPoints.optional(),
  lowStockThreshold: productFields.lowStockThreshold.optional(),
  reorderLevel: productFields.reorderLevel.optional(),
  isActive: productFields.isActive.optional(),
  restrictedBranchIds: productFields.restrictedBranchIds.optional(),
  sellingPriceCents: centsField('Selling price').optional(),
  purchasePriceCents: centsField('Purchase price').optional(),
  priceChangeReason: optionalText(PRODUCT_LIMITS.reason, 'The reason for the price change'),
});
export type UpdateProductInput = z.input<typeof updateProductSchema>;
export type UpdateProduct = z.output<typeof updateProductSchema>;

/** The fields of a product write that need product:manage_price. */
export const PRICE_FIELDS = ['sellingPriceCents', 'purchasePriceCents', 'minMarginBasisPoints'] as const;

/** Does this write touch a price field (and so need product:manage_price)? */
export function touchesPrices(input: Partial<Record<(typeof PRICE_FIELDS)[number], unknown>>): boolean {
  return PRICE_FIELDS.some((field) => input[field] !== undefined);
}

/** ?branchId= of the per-branch routes. */
export const branchQuerySchema = z.strictObject({ branchId: z.uuid().optional() });

/** :id of /api/products/:id and the routes below it. */
export const productIdParamsSchema = z.strictObject({ id: z.uuid() });
/** :id and :branchId of PUT /api/products/:id/branches/:branchId. */
export const productBranchParamsSchema = z.strictObject({ id: z.uuid(), branchId: z.uuid() });

/**
 * POST /api/products/:id/batches (inventory:update): opening stock received into a batch (movement kind
 * 'opening'). The same batch number, expiry date and unit cost in the branch adds to the existing batch.
 * Answers 201 { batch, quantity, reservedQuantity } (branch values after).
 */
export const receiveBatchSchema = z.strictObject({
  /** Default: the session's branch. */
  branchId: z.uuid().optional(),
  ...batchFields,
  reason: optionalText(200, 'The reason'),
});
export type ReceiveBatchInput = z.infer<typeof receiveBatchSchema>;

/** The opening stock of POST /api/products: a batch as POST /api/products/:id/batches takes it, without a reason. */
export type OpeningStockInput = NonNullable<CreateProduct['openingStock']>;

/** POST /api/products/:id/batches response: the batch, and the branch's sellable and reserved pieces after. */
export const receiveBatchResponseSchema = z.object({
  batch: batchSchema,
  quantity: z.number().int(),
  reservedQuantity: z.number().int(),
});
export type ReceiveBatchResponse = z.infer<typeof receiveBatchResponseSchema>;

// ------------------------------------------------------------------------------------------- history

/** GET /api/products/:id/movements query (the product history screen). from/to are business dates, inclusive. */
export const movementListQuerySchema = z.strictObject({
  kind: z
    .enum([
      'sale',
      'sale_return',
      'purchase_receipt',
      'purchase_edit',
      'purchase_delete',
      'purchase_return',
      'adjustment',
      'transfer_out',
      'transfer_in',
      'reserve',
      'release',
      'reserved_sold',
      'import',
      'opening',
    ])
    .optional(),
  branchId: z.uuid().optional(),
  from: businessDateSchema.optional(),
  to: businessDateSchema.optional(),
  limit: z.coerce.number().int().min(1).max(PRODUCT_PAGE_MAX).default(PRODUCT_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type MovementListQueryInput = z.input<typeof movementListQuerySchema>;
export type MovementListQuery = z.output<typeof movementListQuerySchema>;

/** One ledger row. delta changes the on-hand total (quantity + reserved); quantityAfter is that total after it. */
export const movementSchema = z.object({
  id: z.uuid(),
  branchId: z.uuid(),
  branchName: z.string(),
  productId: z.uuid(),
  batchId: z.uuid().nullable(),
  batchNumber: z.string().nullable(),
  expiryDate: businessDateSchema.nullable(),
  kind: z.string(),
  delta: z.number().int(),
  quantityAfter: z.number().int(),
  reason: z.string().nullable(),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  userId: z.uuid().nullable(),
  userName: z.string().nullable(),
  at: z.string(),
});
export type Movement = z.infer<typeof movementSchema>;

/** GET /api/products/:id/movements response, newest first. */
export const movementListResponseSchema = z.object({
  items: z.array(movementSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type MovementListResponse = z.infer<typeof movementListResponseSchema>;

// ------------------------------------------------------------------------------------------- rules

/** The minimum margin in force, basis points: branch, else product, else the settings default. */
export function effectiveMinMarginBasisPoints(
  branchBasisPoints: number | null | undefined,
  productBasisPoints: number | null | undefined,
  settingsDefaultPercent: number = DEFAULT_MIN_MARGIN_PERCENT,
): number {
  return branchBasisPoints ?? productBasisPoints ?? Math.round(settingsDefaultPercent * 100);
}

/** Prices of a branch row as shown: minimum selling price, margin and markup (2 decimals). */
export function priceFigures(sellingPriceCents: number, purchasePriceCents: number, minMarginBasisPoints: number) {
  return {
    minimumSellingPriceCents: minimumSellingPriceCents(purchasePriceCents, minMarginBasisPoints / 100),
    marginPercent: marginPercent(sellingPriceCents, purchasePriceCents),
    markupPercent: markupPercent(sellingPriceCents, purchasePriceCents),
  };
}

/** The stock status of a branch row: threshold of the branch, else the product, else 5. */
export function branchStockStatus(quantity: number, branchThreshold: number | null | undefined, productThreshold: number | null | undefined): StockStatus {
  return stockStatus(quantity, branchThreshold ?? productThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD);
}

/** Is the product offered in this branch? An empty restriction list means every branch. */
export function isOfferedInBranch(restrictedBranchIds: readonly string[], branchId: string): boolean {
  return restrictedBranchIds.length === 0 || restrictedBranchIds.includes(branchId);
}

// ------------------------------------------------------------------------------------------- the form

/**
 * The product form (add and edit screens) as a person types it — text for numbers, one row per branch — read by
 * the same rules as the API: amounts in KSh to cents, percentages to basis points, whole pieces. The browser
 * validates with this schema (react-hook-form + zodResolver) and sends its output; every message is a sentence
 * about the field by its label.
 */
const formMoney = (label: string) =>
  z.string().transform((value, ctx) => {
    const t = value.trim();
    if (t === '') return 0;
    const cents = parseMoneyToCents(t);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: fieldMessage('money', label) });
      return z.NEVER;
    }
    return cents;
  });
/** A margin typed in percent; '' is null (inherit). */
const formMargin = z.string().transform((value, ctx) => {
  const t = value.trim();
  if (t === '') return null;
  const bp = parsePercentToBasisPoints(t);
  if (bp === undefined || bp <= 0 || bp >= 10_000) {
    ctx.addIssue({ code: 'custom', message: MARGIN_MESSAGE });
    return z.NEVER;
  }
  return bp;
});
/** Whole pieces typed as text; '' is null when `optional`, else required. */
const formPieces = (label: string, min: number, optional: boolean) =>
  z.string().transform((value, ctx): number | null => {
    const t = value.trim();
    if (t === '' && optional) return null;
    const n = /^\d+$/.test(t) ? Number(t) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > 100_000_000) {
      ctx.addIssue({ code: 'custom', message: t === '' ? fieldMessage('required', label) : fieldMessage('between', label, { min, max: 100_000_000 }) });
      return z.NEVER;
    }
    return n;
  });

export const productFormBranchSchema = z.object({
  branchId: z.string(),
  branchName: z.string(),
  /** The product is offered in the branch (not restricted away from it). */
  offered: z.boolean(),
  isAvailable: z.boolean(),
  sellingPrice: formMoney('Selling price'),
  purchasePrice: formMoney('Purchase price'),
  /** '' = the product's minimum margin. */
  minMargin: formMargin,
  /** '' = the product's threshold. */
  lowStockThreshold: formPieces('Low-stock threshold', 0, true),
});

export const OFFERED_MESSAGE = 'Offer the product in at least one branch.';

/**
 * The Opening stock section of Add Product, as typed. All empty is no opening stock (null); once any of batch
 * number, expiry date or quantity is typed, the batch is read by the rules of POST /api/products/:id/batches.
 * branchId '' is the session's branch.
 */
export const openingStockFormSchema = z
  .object({ branchId: z.string(), batchNumber: z.string(), expiryDate: z.string(), quantity: z.string(), unitCost: z.string() })
  .transform((form, ctx) => {
    if (!form.batchNumber.trim() && !form.expiryDate.trim() && !form.quantity.trim()) return null;
    const read = z
      .object({
        batchNumber: batchFields.batchNumber,
        expiryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the expiry date.'),
        quantity: formPieces('Quantity', 1, false),
        unitCost: formMoney('Unit cost'),
      })
      .safeParse({ ...form, batchNumber: form.batchNumber.trim() });
    if (!read.success) {
      for (const issue of read.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return {
      ...(form.branchId ? { branchId: form.branchId } : {}),
      batchNumber: read.data.batchNumber,
      expiryDate: read.data.expiryDate,
      quantity: read.data.quantity!,
      unitCostCents: read.data.unitCost,
    };
  });
export type OpeningStockFormValues = z.input<typeof openingStockFormSchema>;

export const productFormSchema = z
  .object({
    name: productFields.name,
    sku: z.string().transform((v) => v.trim()).pipe(text(PRODUCT_LIMITS.sku, 'SKU')),
    /** One barcode per line or comma separated. */
    barcodes: z.string().transform((v) => [...new Set(v.split(/[\n,;]/).map((b) => b.trim()).filter(Boolean))]).pipe(productFields.barcodes),
    category: z.string(),
    packageSize: formPieces('Package size', 1, false),
    packageType: productFields.packageType,
    unit: productFields.unit,
    isDda: z.boolean(),
    taxApplied: z.boolean(),
    taxRate: z.string().transform((value, ctx) => {
      const bp = parsePercentToBasisPoints(value.trim() || '0');
      if (bp === undefined || bp > 10_000) {
        ctx.addIssue({ code: 'custom', message: TAX_RATE_MESSAGE });
        return z.NEVER;
      }
      return bp;
    }),
    /** '' = the settings default. */
    minMargin: formMargin,
    lowStockThreshold: formPieces('Low-stock threshold', 0, false),
    reorderLevel: formPieces('Reorder level', 0, false),
    isActive: z.boolean(),
    priceChangeReason: text(PRODUCT_LIMITS.reason, 'The reason for the price change'),
    branches: z.array(productFormBranchSchema),
    /** Add Product only; absent on the edit screen. */
    openingStock: openingStockFormSchema.optional(),
  })
  .superRefine((form, ctx) => {
    if (form.branches.length > 0 && !form.branches.some((b) => b.offered)) ctx.addIssue({ code: 'custom', path: ['offered'], message: OFFERED_MESSAGE });
  });
/** What the form holds (text as typed). */
export type ProductFormValues = z.input<typeof productFormSchema>;
export type ProductFormBranchValues = z.input<typeof productFormBranchSchema>;
/** What the form reads into (cents, basis points, pieces). */
export type ProductFormOutput = z.output<typeof productFormSchema>;

/** Two product names that a person would call the same: case, spacing and accents aside. */
export function sameProductName(a: string, b: string): boolean {
  const key = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').trim().replace(/\s+/g, ' ').toLowerCase();
  return key(a) === key(b);
}

/**
 * The Receive Stock form as typed: quantity and unit cost as text, read into POST /api/products/:id/batches.
 * A date already past is refused by the server (BATCH_EXPIRED); the form warns as the date is chosen.
 */
export const receiveBatchFormSchema = z
  .object({
    branchId: z.string().min(1, fieldMessage('choose', 'a branch')),
    batchNumber: requiredText('Batch number', 64),
    expiryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the expiry date.'),
    quantity: formPieces('Quantity', 1, false),
    unitCost: formMoney('Unit cost'),
    reason: text(200, 'The reason'),
  })
  .transform((form) => ({
    branchId: form.branchId,
    batchNumber: form.batchNumber,
    expiryDate: form.expiryDate,
    quantity: form.quantity!,
    unitCostCents: form.unitCost,
    reason: form.reason || null,
  }));
export type ReceiveBatchFormValues = z.input<typeof receiveBatchFormSchema>;
