import {
  isOfferedInBranch,
  touchesPrices,
  type BranchPricesInput,
  type CreateProduct,
  type MovementListQuery,
  type MovementListResponse,
  type OpeningStockInput,
  type ProductDetailResponse,
  type ProductListQuery,
  type ProductListResponse,
  type ReceiveBatchInput,
  type ReceiveBatchResponse,
  type UpdateProduct,
} from '@pharmapoint/domain/products';
import { businessDate, isExpired } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { holds } from '../../platform/access.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { applyStockChange, resolveBranch, stockSettings, stockSettingsOf, type StockSettings } from '../stock/stock.service.ts';
import { pharmacyTimeZone, pharmacyToday } from '../settings/settings.service.ts';
import { assertWithinPlanLimit } from '../subscription/subscription.service.ts';
import {
  findBatch,
  findProduct,
  firstMissingBranch,
  insertPriceChange,
  listMovements,
  listProducts,
  lockBranchPrices,
  PRICE_CHANGES_SHOWN,
  priceChanges,
  productBranches,
  skuTaken,
  stampPriceUpdate,
  toBranchProduct,
  toProduct,
  updateProductColumns,
  upsertBranchValues,
  type ProductRow,
} from './products.repository.ts';
import { insertNewProduct, newProductSources, type InitialBranchRow, type NewProductSources } from './new-product.repository.ts';

/**
 * The product catalogue's use cases (issue 3). Each takes the caller's transaction and request context and never
 * opens a transaction of its own, so a route runs one per request and another module may compose them with its
 * own work (all of it commits or none).
 */

function requirePricePermission(ctx: RequestContext): void {
  if (!holds(ctx, 'product:manage_price')) throw new AppError('FORBIDDEN', { details: { permission: 'product:manage_price' } });
}

async function requireProduct(q: Queryable, ctx: RequestContext, id: string, forUpdate = false): Promise<ProductRow> {
  const row = await findProduct(q, ctx.pharmacyId, id, forUpdate);
  if (!row) throw new AppError('NOT_FOUND', { details: { productId: id } });
  return row;
}

/** The settings the catalogue uses: the default minimum margin (percent) and the categories. */
type CatalogueSettings = Pick<StockSettings, 'defaultMinMarginPercent' | 'categories'>;

/** The category as the settings spell it; 400 when the settings list categories and this is not one of them. */
function knownCategory(settings: CatalogueSettings, category: string | null | undefined): string | null | undefined {
  if (!category) return category === undefined ? undefined : null;
  const { categories } = settings;
  if (categories.length === 0) return category;
  const known = categories.find((c) => c.toLowerCase() === category.toLowerCase());
  if (!known) {
    throw new AppError('VALIDATION_FAILED', {
      message: `category: Choose one of the categories of the settings (${categories.join(', ')}).`,
      details: { issues: [{ path: 'category', message: 'Unknown category' }] },
    });
  }
  return known;
}

/** knownCategory, reading the settings only when a category is given. */
async function checkCategory(q: Queryable, ctx: RequestContext, category: string | null | undefined): Promise<string | null | undefined> {
  if (!category) return category === undefined ? undefined : null;
  return knownCategory(await stockSettings(q, ctx), category);
}

/** Code-point order, which is PostgreSQL's order of uuids written in lower case. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * 409 SKU_TAKEN for a SKU another product has. A request creating the same SKU at the same moment is not visible
 * yet: the unique index products_sku refuses the second, which the error handler answers with the same 409.
 */
async function checkSkuFree(q: Queryable, ctx: RequestContext, sku: string | null | undefined, exceptId?: string): Promise<void> {
  if (sku && (await skuTaken(q, ctx.pharmacyId, sku, exceptId ?? null))) throw new AppError('SKU_TAKEN');
}

async function checkBranchesExist(q: Queryable, ctx: RequestContext, ids: readonly string[]): Promise<void> {
  const missing = await firstMissingBranch(q, ctx.pharmacyId, ids);
  if (missing) throw new AppError('NOT_FOUND', { details: { branchId: missing } });
}

/**
 * Sets a branch row's values (creating the row), recording a price change when a price moves. Answers the product's
 * row when it stamped the product's last price update, else undefined (the product's row did not change).
 */
async function writeBranchValues(
  q: Queryable,
  ctx: RequestContext,
  productId: string,
  branchId: string,
  values: BranchPricesInput,
  defaultReason: string,
): Promise<ProductRow | undefined> {
  const before = await lockBranchPrices(q, ctx.pharmacyId, branchId, productId);
  await upsertBranchValues(q, ctx, productId, branchId, before !== undefined, values);
  const oldSelling = before?.sellingPriceCents ?? null;
  const oldPurchase = before?.purchasePriceCents ?? null;
  const sellingMoved = values.sellingPriceCents !== undefined && values.sellingPriceCents !== (oldSelling ?? 0);
  const purchaseMoved = values.purchasePriceCents !== undefined && values.purchasePriceCents !== (oldPurchase ?? 0);
  if (!sellingMoved && !purchaseMoved) return undefined;
  const reason = values.reason ?? defaultReason;
  await insertPriceChange(q, ctx, {
    productId,
    branchId,
    oldSellingPriceCents: oldSelling,
    newSellingPriceCents: values.sellingPriceCents ?? oldSelling ?? 0,
    oldPurchasePriceCents: oldPurchase,
    newPurchasePriceCents: values.purchasePriceCents ?? oldPurchase ?? 0,
    reason,
  });
  return stampPriceUpdate(q, ctx, productId, reason);
}

/** GET /api/products/:id: the product as the user may see it (the branches and price changes of visible branches). */
export async function productDetail(q: Queryable, ctx: RequestContext, id: string): Promise<ProductDetailResponse> {
  return detailOf(q, ctx, await requireProduct(q, ctx, id));
}

/**
 * The product detail of a product row the caller has: the row a write just returned (its last write of the product
 * in this transaction, so the row is the product as it is now) saves reading it again (decision 0079).
 */
async function detailOf(q: Queryable, ctx: RequestContext, row: ProductRow): Promise<ProductDetailResponse> {
  const settings = await stockSettings(q, ctx);
  const visible = ctx.visibleBranchIds;
  const { branches, batches } = await productBranches(q, ctx.pharmacyId, row, visible, businessDate(ctx.now, settings.timeZone), settings.defaultMinMarginPercent);
  return { product: toProduct(row), branches, batches, priceChanges: await priceChanges(q, ctx.pharmacyId, row.id, visible) };
}

/** GET /api/products: one page of products with their values in the branch asked for (default the session's). */
export async function searchProducts(q: Queryable, ctx: RequestContext, query: ProductListQuery): Promise<ProductListResponse> {
  const branch = await resolveBranch(q, ctx, query.branchId);
  const settings = await stockSettings(q, ctx);
  const { items, total } = await listProducts(q, ctx.pharmacyId, branch.id, query, businessDate(ctx.now, settings.timeZone), settings.defaultMinMarginPercent);
  return { items, total, limit: query.limit, offset: query.offset, branchId: branch.id };
}

/** POST /api/products: the product, its row in every branch it is offered in, initial price changes. */
export async function createProduct(q: Queryable, ctx: RequestContext, input: CreateProduct): Promise<ProductDetailResponse> {
  const opening = input.openingStock;
  // Opening stock is receiving stock: it needs the permission of POST /api/products/:id/batches as well.
  if (opening && !holds(ctx, 'inventory:update')) throw new AppError('FORBIDDEN', { details: { permission: 'inventory:update' } });
  await assertWithinPlanLimit(q, ctx, 'products', 1);
  // The batch rules first, so a refused batch writes nothing (the transaction would undo it anyway).
  const openingBranch = opening ? await resolveBranch(q, ctx, opening.branchId) : undefined;
  const today = opening ? await pharmacyToday(q, ctx) : undefined;
  if (opening) refuseExpiredBatch(opening, today!, 'openingStock.expiryDate');
  const sku = input.sku || null;
  const requested = [...input.restrictedBranchIds, ...input.branches.map((b) => b.branchId)];
  // What the checks and the answer need, in one statement (decision 0079): the settings, the branches, the SKU, the user.
  const sources = await newProductSources(q, ctx, { sku, branchIds: requested });
  const settings = stockSettingsOf(sources.settings);
  const category = knownCategory(settings, input.category);
  if (sku && sources.skuTaken) throw new AppError('SKU_TAKEN');
  const branchIds = new Set(sources.branches.map((b) => b.id));
  const missing = requested.find((id) => !branchIds.has(id));
  if (missing) throw new AppError('NOT_FOUND', { details: { branchId: missing } });
  const overrides = new Map(input.branches.map((b) => [b.branchId, b]));
  // The active branches in id order, then the branches given values: the order the rows are written in.
  const active = sources.branches.filter((b) => b.isActive).map((b) => b.id).sort(byText);
  const targets = new Set([...active.filter((id) => isOfferedInBranch(input.restrictedBranchIds, id)), ...overrides.keys()]);
  // Every branch row of the new product (decision 0075), with the values writeBranchValues would give a row that
  // did not exist: the table's defaults where nothing is given, a price change where a price is not 0.
  const rows: InitialBranchRow[] = [...targets].map((branchId) => {
    const override = overrides.get(branchId);
    const sellingPriceCents = override?.sellingPriceCents ?? input.sellingPriceCents;
    const purchasePriceCents = override?.purchasePriceCents ?? input.purchasePriceCents;
    const moved = sellingPriceCents !== 0 || purchasePriceCents !== 0;
    return {
      branchId,
      sellingPriceCents,
      purchasePriceCents,
      minMarginBasisPoints: override?.minMarginBasisPoints ?? null,
      isAvailable: override?.isAvailable ?? true,
      lowStockThreshold: override?.lowStockThreshold ?? null,
      priceChangeReason: moved ? (override?.reason ?? input.priceChangeReason ?? 'Initial price') : null,
    };
  });
  // The product's last price update names the last branch whose price was set, as one write per branch did.
  const stampReason = rows.findLast((r) => r.priceChangeReason !== null)?.priceChangeReason ?? null;
  const written = await insertNewProduct(
    q,
    ctx,
    {
      name: input.name,
      sku,
      barcodes: [...new Set(input.barcodes)],
      category: category ?? null,
      packageSize: input.packageSize,
      packageType: input.packageType,
      unit: input.unit,
      isDda: input.isDda,
      taxApplied: input.taxApplied,
      taxRateBasisPoints: input.taxRateBasisPoints,
      minMarginBasisPoints: input.minMarginBasisPoints ?? null,
      lowStockThreshold: input.lowStockThreshold,
      reorderLevel: input.reorderLevel,
      isActive: input.isActive,
      restrictedBranchIds: [...new Set(input.restrictedBranchIds)],
    },
    rows,
    stampReason,
  );
  await audit(q, ctx, 'create', 'product', written.product.id, null, { name: input.name, sku: input.sku ?? null });
  if (opening) {
    // With stock, the answer is the product as read back (its batch and quantities): the ledger wrote them.
    await writeOpeningBatch(q, ctx, today!, written.product.id, openingBranch!.id, opening);
    return productDetail(q, ctx, written.product.id);
  }
  return createdProductDetail(ctx, sources, settings, written);
}

/**
 * The answer of creating a product, built from what the create read and wrote (decision 0079) instead of read back:
 * exactly what GET /api/products/:id answers right after (product-create-answer.test.ts). A new product has no batches and
 * no stock; its branches are the active ones and those it has a row in, as the user may see them, in the detail's
 * order; its price changes are the ones just written (one instant: by id).
 */
function createdProductDetail(
  ctx: RequestContext,
  sources: NewProductSources,
  settings: CatalogueSettings,
  written: Awaited<ReturnType<typeof insertNewProduct>>,
): ProductDetailResponse {
  const { product } = written;
  const rowOf = new Map(written.branchRows.map((r) => [r.branchId, r]));
  const branches = sources.branches
    .filter((b) => (b.isActive || rowOf.has(b.id)) && canSeeBranch(ctx, b.id))
    .map((b) => {
      const row = rowOf.get(b.id);
      return toBranchProduct(
        {
          branch_id: b.id,
          branch_name: b.name,
          has_row: row !== undefined,
          selling: row?.sellingPriceCents ?? 0,
          purchase: row?.purchasePriceCents ?? 0,
          bp_margin: row?.minMarginBasisPoints ?? null,
          is_available: row?.isAvailable ?? false,
          quantity: row?.quantity ?? 0,
          reserved: row?.reservedQuantity ?? 0,
          bp_threshold: row?.lowStockThreshold ?? null,
          last_stock_update_at: row?.lastStockUpdateAt ?? null,
          last_stock_update_reason: row?.lastStockUpdateReason ?? null,
          nearest_expiry: null,
          expired_quantity: 0,
        },
        product,
        settings.defaultMinMarginPercent,
      );
    });
  const priceChanges = written.priceChanges
    .filter((c) => canSeeBranch(ctx, c.branchId))
    .sort((a, b) => byText(a.id, b.id))
    .slice(0, PRICE_CHANGES_SHOWN)
    .map((c) => ({
      id: c.id,
      branchId: c.branchId,
      oldSellingPriceCents: c.oldSellingPriceCents,
      newSellingPriceCents: c.newSellingPriceCents,
      oldPurchasePriceCents: c.oldPurchasePriceCents,
      newPurchasePriceCents: c.newPurchasePriceCents,
      reason: c.reason,
      userId: c.userId,
      userName: c.userId === null ? null : sources.userName,
      at: c.at,
    }));
  return { product: toProduct(product), branches, batches: [], priceChanges };
}

/** PATCH /api/products/:id. Price fields need product:manage_price; prices go to the branch of ?branchId= (default the session's). */
export async function updateProduct(
  q: Queryable,
  ctx: RequestContext,
  input: { id: string; changes: UpdateProduct; branchId?: string },
): Promise<ProductDetailResponse> {
  const { id, changes } = input;
  if (touchesPrices(changes)) requirePricePermission(ctx);
  const before = await requireProduct(q, ctx, id, true);
  const category = await checkCategory(q, ctx, changes.category);
  if (changes.sku !== undefined) await checkSkuFree(q, ctx, changes.sku, id);
  if (changes.restrictedBranchIds) await checkBranchesExist(q, ctx, changes.restrictedBranchIds);
  let row = await updateProductColumns(q, ctx, id, {
    name: changes.name,
    sku: changes.sku === undefined ? undefined : changes.sku || null,
    barcodes: changes.barcodes ? [...new Set(changes.barcodes)] : undefined,
    category,
    package_size: changes.packageSize,
    package_type: changes.packageType,
    unit: changes.unit,
    is_dda: changes.isDda,
    tax_applied: changes.taxApplied,
    tax_rate_basis_points: changes.taxRateBasisPoints,
    min_margin_basis_points: changes.minMarginBasisPoints,
    low_stock_threshold: changes.lowStockThreshold,
    reorder_level: changes.reorderLevel,
    is_active: changes.isActive,
    restricted_branch_ids: changes.restrictedBranchIds ? [...new Set(changes.restrictedBranchIds)] : undefined,
  });
  if (changes.minMarginBasisPoints !== undefined && changes.minMarginBasisPoints !== before.min_margin_basis_points) {
    row = await stampPriceUpdate(q, ctx, id, changes.priceChangeReason ?? 'Minimum margin changed');
  }
  if (changes.sellingPriceCents !== undefined || changes.purchasePriceCents !== undefined) {
    const branch = await resolveBranch(q, ctx, input.branchId);
    const stamped = await writeBranchValues(
      q,
      ctx,
      id,
      branch.id,
      { sellingPriceCents: changes.sellingPriceCents, purchasePriceCents: changes.purchasePriceCents, reason: changes.priceChangeReason },
      'Price update',
    );
    row = stamped ?? row;
  }
  await audit(q, ctx, 'update', 'product', id, toProduct(before), changes);
  return detailOf(q, ctx, row);
}

/** DELETE /api/products/:id: deactivates (history, batches and sales keep pointing at it). */
export async function deactivateProduct(q: Queryable, ctx: RequestContext, id: string): Promise<ProductDetailResponse> {
  await requireProduct(q, ctx, id, true);
  const row = await updateProductColumns(q, ctx, id, { is_active: false });
  await audit(q, ctx, 'deactivate', 'product', id, null, null);
  return detailOf(q, ctx, row);
}

/** PUT /api/products/:id/branches/:branchId. Prices and minimum margin need product:manage_price, the rest product:update. */
export async function setBranchValues(
  q: Queryable,
  ctx: RequestContext,
  input: { id: string; branchId: string; values: BranchPricesInput },
): Promise<ProductDetailResponse> {
  const { id, values } = input;
  if (touchesPrices(values)) requirePricePermission(ctx);
  if ((values.isAvailable !== undefined || values.lowStockThreshold !== undefined) && !holds(ctx, 'product:update')) {
    throw new AppError('FORBIDDEN', { details: { permission: 'product:update' } });
  }
  const locked = await requireProduct(q, ctx, id, true);
  const branch = await resolveBranch(q, ctx, input.branchId);
  const stamped = await writeBranchValues(q, ctx, id, branch.id, values, 'Price update');
  await audit(q, ctx, 'update', 'branch_product', `${id}:${branch.id}`, null, values);
  return detailOf(q, ctx, stamped ?? locked);
}

/** POST /api/products/:id/batches: opening stock into a batch, through the stock ledger (kind 'opening'). */
export async function receiveOpeningBatch(
  q: Queryable,
  ctx: RequestContext,
  input: { id: string; batch: ReceiveBatchInput },
): Promise<ReceiveBatchResponse> {
  const { id, batch } = input;
  await requireProduct(q, ctx, id);
  const branch = await resolveBranch(q, ctx, batch.branchId);
  const today = await pharmacyToday(q, ctx);
  refuseExpiredBatch(batch, today);
  const result = await writeOpeningBatch(q, ctx, today, id, branch.id, batch);
  const received = await findBatch(q, ctx.pharmacyId, result.batches[0]!.batchId, today);
  return { batch: received!, quantity: result.quantity, reservedQuantity: result.reservedQuantity };
}

/** Expired stock is never made sellable (decision 0033): the form warns as the date is typed, the server refuses. */
function refuseExpiredBatch(batch: OpeningStockInput, today: string, path = 'expiryDate'): void {
  if (isExpired(batch.expiryDate, today)) {
    throw new AppError('BATCH_EXPIRED', {
      values: { batch: batch.batchNumber, expiryDate: batch.expiryDate },
      details: { issues: [{ path, message: `This batch expired on ${batch.expiryDate}: expired stock cannot be received as sellable stock.` }] },
    });
  }
}

/** Opening stock into a batch of the product in the branch, through the stock ledger (kind 'opening'). */
function writeOpeningBatch(q: Queryable, ctx: RequestContext, today: string, productId: string, branchId: string, batch: OpeningStockInput & { reason?: string | null }) {
  return applyStockChange(q, { ...ctx, today }, {
    kind: 'opening',
    branchId,
    productId,
    delta: batch.quantity,
    batch: { batchNumber: batch.batchNumber, expiryDate: batch.expiryDate, unitCostCents: batch.unitCostCents, source: 'opening' },
    reason: batch.reason ?? 'Opening stock',
    reference: null,
  });
}

/** GET /api/products/:id/movements: a page of the product's ledger in the visible branches (or the one asked for). */
export async function productMovements(
  q: Queryable,
  ctx: RequestContext,
  input: { id: string; query: MovementListQuery },
): Promise<MovementListResponse> {
  const { id, query } = input;
  await requireProduct(q, ctx, id);
  const branchIds = query.branchId ? [(await resolveBranch(q, ctx, query.branchId)).id] : ctx.visibleBranchIds;
  const timeZone = query.from || query.to ? await pharmacyTimeZone(q, ctx.pharmacyId) : 'UTC';
  const { items, total } = await listMovements(q, ctx.pharmacyId, id, { ...query, branchIds, timeZone });
  return { items, total, limit: query.limit, offset: query.offset };
}

/**
 * Receiving a purchase (issue 10, decision 0034): the line's purchase price, selling price and minimum margin become
 * the product's in that branch (so its minimum selling price follows), recording the price change. Part of receiving
 * stock, so it needs no product:manage_price of its own: the purchase routes hold their permission.
 */
export async function applyPurchasePrices(
  q: Queryable,
  ctx: RequestContext,
  input: { productId: string; branchId: string; purchasePriceCents: number; sellingPriceCents: number; minMarginBasisPoints: number | null; reason: string },
): Promise<void> {
  const values: BranchPricesInput = { purchasePriceCents: input.purchasePriceCents, reason: input.reason };
  if (input.sellingPriceCents > 0) values.sellingPriceCents = input.sellingPriceCents;
  if (input.minMarginBasisPoints !== null) values.minMarginBasisPoints = input.minMarginBasisPoints;
  await writeBranchValues(q, ctx, input.productId, input.branchId, values, input.reason);
}
