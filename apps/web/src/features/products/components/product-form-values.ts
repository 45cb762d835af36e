import {
  effectiveMinMarginBasisPoints,
  priceFigures,
  productFormBranchSchema,
  type BranchPricesInput,
  type CreateProductInput,
  type OpeningStockInput,
  type ProductDetailResponse,
  type ProductFormBranchValues,
  type ProductFormOutput,
  type ProductFormValues,
  type UpdateProductInput,
} from '@pharmapoint/domain/products';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '@pharmapoint/domain/stock-status';

/**
 * The product form's values as typed (strings) — the domain's productFormSchema reads and validates them — and
 * their translation into the API's inputs. Pure, shared by the add and edit screens.
 */

export type { ProductFormValues };
export type BranchRowValues = ProductFormBranchValues;

const money = (cents: number) => (cents / 100).toFixed(2);
const percent = (basisPoints: number) => String(basisPoints / 100);

export function emptyFormValues(branches: readonly { id: string; name: string }[]): ProductFormValues {
  return {
    name: '',
    sku: '',
    barcodes: '',
    category: '',
    packageSize: '1',
    packageType: 'pieces',
    unit: 'piece',
    isDda: false,
    taxApplied: false,
    taxRate: '16',
    minMargin: '',
    lowStockThreshold: String(DEFAULT_LOW_STOCK_THRESHOLD),
    reorderLevel: '2',
    isActive: true,
    priceChangeReason: '',
    openingStock: { branchId: '', batchNumber: '', expiryDate: '', quantity: '', unitCost: '' },
    branches: branches.map((b) => ({
      branchId: b.id,
      branchName: b.name,
      offered: true,
      isAvailable: true,
      sellingPrice: '',
      purchasePrice: '',
      minMargin: '',
      lowStockThreshold: '',
    })),
  };
}

/** The form of an existing product: its fields and one row per branch the user may see. */
export function formValuesOf(detail: ProductDetailResponse, branches: readonly { id: string; name: string }[]): ProductFormValues {
  const p = detail.product;
  const byBranch = new Map(detail.branches.map((b) => [b.branchId, b]));
  const restricted = p.restrictedBranchIds;
  const all = [...branches];
  for (const b of detail.branches) if (!all.some((x) => x.id === b.branchId)) all.push({ id: b.branchId, name: b.branchName });
  return {
    name: p.name,
    sku: p.sku ?? '',
    barcodes: p.barcodes.join('\n'),
    category: p.category ?? '',
    packageSize: String(p.packageSize),
    packageType: p.packageType,
    unit: p.unit,
    isDda: p.isDda,
    taxApplied: p.taxApplied,
    taxRate: percent(p.taxRateBasisPoints),
    minMargin: p.minMarginBasisPoints === null ? '' : percent(p.minMarginBasisPoints),
    lowStockThreshold: String(p.lowStockThreshold),
    reorderLevel: String(p.reorderLevel),
    isActive: p.isActive,
    priceChangeReason: '',
    branches: all.map((b) => {
      const row = byBranch.get(b.id);
      return {
        branchId: b.id,
        branchName: row?.branchName ?? b.name,
        offered: restricted.length === 0 || restricted.includes(b.id),
        isAvailable: row?.isAvailable ?? true,
        sellingPrice: row ? money(row.sellingPriceCents) : '',
        purchasePrice: row ? money(row.purchasePriceCents) : '',
        minMargin: row?.minMarginBasisPoints == null ? '' : percent(row.minMarginBasisPoints),
        lowStockThreshold: row?.lowStockThreshold == null ? '' : String(row.lowStockThreshold),
      };
    }),
  };
}

/** Cents of a typed amount ('' is 0), by the form's own rule; undefined when it is not an amount. */
export function centsOf(text: string): number | undefined {
  const read = productFormBranchSchema.shape.sellingPrice.safeParse(text);
  return read.success ? read.data : undefined;
}

/** Basis points of a typed margin; '' is null (inherit); undefined when it is not above 0 and below 100. */
export function marginOf(text: string): number | null | undefined {
  const read = productFormBranchSchema.shape.minMargin.safeParse(text);
  return read.success ? read.data : undefined;
}

/** The live figures of a branch row: minimum selling price, margin and markup (2 decimals), or null when unreadable. */
export function rowFigures(row: BranchRowValues, productMargin: string, defaultMarginPercent: number) {
  const sell = centsOf(row.sellingPrice);
  const buy = centsOf(row.purchasePrice);
  const branchMargin = marginOf(row.minMargin);
  const ownMargin = marginOf(productMargin);
  if (sell === undefined || buy === undefined) return null;
  const margin = effectiveMinMarginBasisPoints(branchMargin ?? null, ownMargin ?? null, defaultMarginPercent);
  return { ...priceFigures(sell, buy, margin), marginBasisPoints: margin, sellingPriceCents: sell, purchasePriceCents: buy };
}

export interface Parsed {
  product: Omit<CreateProductInput, 'branches' | 'sellingPriceCents' | 'purchasePriceCents' | 'priceChangeReason'>;
  branches: (BranchPricesInput & { branchId: string; offered: boolean })[];
  /** Add Product's opening stock; null or absent when none is typed. */
  openingStock?: OpeningStockInput | null;
}

/** The validated form (productFormSchema's output) as the product's fields and each branch's values. */
export function readForm(form: ProductFormOutput): Parsed {
  return {
    product: {
      name: form.name,
      sku: form.sku || null,
      barcodes: form.barcodes,
      category: form.category || null,
      packageSize: form.packageSize!,
      packageType: form.packageType,
      unit: form.unit,
      isDda: form.isDda,
      taxApplied: form.taxApplied,
      taxRateBasisPoints: form.taxRate,
      minMarginBasisPoints: form.minMargin,
      lowStockThreshold: form.lowStockThreshold!,
      reorderLevel: form.reorderLevel!,
      isActive: form.isActive,
      restrictedBranchIds: restrictedOf(form.branches),
    },
    branches: form.branches.map((row) => ({
      branchId: row.branchId,
      offered: row.offered,
      sellingPriceCents: row.sellingPrice,
      purchasePriceCents: row.purchasePrice,
      minMarginBasisPoints: row.minMargin,
      isAvailable: row.isAvailable,
      lowStockThreshold: row.lowStockThreshold,
    })),
    openingStock: form.openingStock ?? null,
  };
}

/** Empty when every branch shown is offered; else the offered ones. */
function restrictedOf(rows: readonly { branchId: string; offered: boolean }[], hiddenRestricted: readonly string[] = []): string[] {
  if (rows.every((r) => r.offered) && hiddenRestricted.length === 0) return [];
  return [...hiddenRestricted, ...rows.filter((r) => r.offered).map((r) => r.branchId)];
}

/** POST /api/products body: the product, the first offered branch's prices as the default, every offered branch's values. */
export function createInput(parsed: Parsed, reason: string, canManagePrices: boolean): CreateProductInput {
  const offered = parsed.branches.filter((b) => b.offered);
  const first = offered[0];
  const input: CreateProductInput = { ...parsed.product, priceChangeReason: reason.trim() || null };
  if (parsed.openingStock) input.openingStock = parsed.openingStock;
  if (canManagePrices) {
    input.sellingPriceCents = first?.sellingPriceCents ?? 0;
    input.purchasePriceCents = first?.purchasePriceCents ?? 0;
  } else {
    delete input.minMarginBasisPoints;
  }
  input.branches = offered.map(({ offered: _offered, ...values }) => {
    const out: BranchPricesInput & { branchId: string } = { ...values, reason: reason.trim() || null };
    if (!canManagePrices) {
      delete out.sellingPriceCents;
      delete out.purchasePriceCents;
      delete out.minMarginBasisPoints;
    }
    return out;
  });
  return input;
}

/**
 * The edit of an existing product: the product fields that changed (PATCH) and, per branch, the values that
 * changed (PUT). Price fields are sent only by users who may manage prices.
 */
export function editInput(
  parsed: Parsed,
  detail: ProductDetailResponse,
  reason: string,
  canManagePrices: boolean,
): { product: UpdateProductInput; branches: { branchId: string; values: BranchPricesInput }[] } {
  const before = detail.product;
  const visible = new Set(parsed.branches.map((b) => b.branchId));
  const hiddenRestricted = before.restrictedBranchIds.filter((id) => !visible.has(id));
  const restricted = parsed.product.restrictedBranchIds ?? [];
  const restrictedAfter = restricted.length === 0 ? [] : [...new Set([...hiddenRestricted, ...restricted])];
  const product: UpdateProductInput = {};
  const p = parsed.product;
  if (p.name !== before.name) product.name = p.name;
  if ((p.sku ?? null) !== before.sku) product.sku = p.sku ?? null;
  if (JSON.stringify(p.barcodes) !== JSON.stringify(before.barcodes)) product.barcodes = p.barcodes;
  if ((p.category ?? null) !== before.category) product.category = p.category ?? null;
  if (p.packageSize !== before.packageSize) product.packageSize = p.packageSize;
  if (p.packageType !== before.packageType) product.packageType = p.packageType;
  if (p.unit !== before.unit) product.unit = p.unit;
  if (p.isDda !== before.isDda) product.isDda = p.isDda;
  if (p.taxApplied !== before.taxApplied) product.taxApplied = p.taxApplied;
  if (p.taxRateBasisPoints !== before.taxRateBasisPoints) product.taxRateBasisPoints = p.taxRateBasisPoints;
  if (p.lowStockThreshold !== before.lowStockThreshold) product.lowStockThreshold = p.lowStockThreshold;
  if (p.reorderLevel !== before.reorderLevel) product.reorderLevel = p.reorderLevel;
  if (p.isActive !== before.isActive) product.isActive = p.isActive;
  if (JSON.stringify([...restrictedAfter].sort()) !== JSON.stringify([...before.restrictedBranchIds].sort())) product.restrictedBranchIds = restrictedAfter;
  if (canManagePrices && (p.minMarginBasisPoints ?? null) !== before.minMarginBasisPoints) {
    product.minMarginBasisPoints = p.minMarginBasisPoints ?? null;
    product.priceChangeReason = reason.trim() || null;
  }

  const rows = new Map(detail.branches.map((b) => [b.branchId, b]));
  const branches: { branchId: string; values: BranchPricesInput }[] = [];
  for (const b of parsed.branches) {
    if (!b.offered) continue;
    const old = rows.get(b.branchId);
    const values: BranchPricesInput = {};
    if (canManagePrices) {
      if (!old || b.sellingPriceCents !== old.sellingPriceCents) values.sellingPriceCents = b.sellingPriceCents;
      if (!old || b.purchasePriceCents !== old.purchasePriceCents) values.purchasePriceCents = b.purchasePriceCents;
      if ((b.minMarginBasisPoints ?? null) !== (old?.minMarginBasisPoints ?? null)) values.minMarginBasisPoints = b.minMarginBasisPoints ?? null;
    }
    if (!old || b.isAvailable !== old.isAvailable) values.isAvailable = b.isAvailable;
    if ((b.lowStockThreshold ?? null) !== (old?.lowStockThreshold ?? null)) values.lowStockThreshold = b.lowStockThreshold ?? null;
    if (Object.keys(values).length === 0) continue;
    if (values.sellingPriceCents !== undefined || values.purchasePriceCents !== undefined) values.reason = reason.trim() || null;
    branches.push({ branchId: b.branchId, values });
  }
  return { product, branches };
}

/**
 * The form field of a server validation issue path ('name', 'branches.0.sellingPriceCents', 'sellingPriceCents'),
 * so the message shows beside the right control. `offeredRows` are the form's row indexes of the offered
 * branches, in the order the request listed them (branches[i] of the request is row offeredRows[i]).
 */
export function fieldOfIssue(path: string, offeredRows: readonly number[]): string | null {
  const parts = path.split('.').filter(Boolean);
  const top: Record<string, string> = {
    name: 'name',
    sku: 'sku',
    barcodes: 'barcodes',
    category: 'category',
    packageSize: 'packageSize',
    packageType: 'packageType',
    unit: 'unit',
    taxRateBasisPoints: 'taxRate',
    minMarginBasisPoints: 'minMargin',
    lowStockThreshold: 'lowStockThreshold',
    reorderLevel: 'reorderLevel',
    priceChangeReason: 'priceChangeReason',
    reason: 'priceChangeReason',
  };
  const branchField: Record<string, string> = {
    sellingPriceCents: 'sellingPrice',
    purchasePriceCents: 'purchasePrice',
    minMarginBasisPoints: 'minMargin',
    lowStockThreshold: 'lowStockThreshold',
  };
  if (parts[0] === 'openingStock' && parts[1]) {
    const field = { batchNumber: 'batchNumber', expiryDate: 'expiryDate', quantity: 'quantity', unitCostCents: 'unitCost', branchId: 'branchId' }[parts[1]];
    return field ? `openingStock.${field}` : null;
  }
  if (parts[0] === 'branches' && parts.length >= 3) {
    const row = offeredRows[Number(parts[1])];
    const field = branchField[parts[2]!];
    return row !== undefined && field ? `branches.${row}.${field}` : null;
  }
  if ((parts[0] === 'sellingPriceCents' || parts[0] === 'purchasePriceCents') && offeredRows[0] !== undefined) return `branches.${offeredRows[0]}.${branchField[parts[0]]}`;
  return parts[0] ? (top[parts[0]] ?? null) : null;
}
