import {
  isOfferedInBranch,
  touchesPrices,
  type BranchPricesInput,
  type CreateProduct,
  type ProductDetailResponse,
  type ProductListQuery,
  type ProductListResponse,
  type ReceiveBatchInput,
  type updateProductSchema,
} from '@pharmapoint/domain/products';
import { businessDate } from '@pharmapoint/domain/stock';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/database.ts';
import { holds, type RequestAuth, type RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { applyStockChange } from '../stock/ledger.ts';
import { resolveBranch, stockSettings, visibleBranchIds } from '../stock/scope.ts';
import { assertWithinPlanLimit } from '../subscription/subscription.service.ts';
import {
  findProduct,
  listMovements,
  listProducts,
  priceChanges,
  productBranches,
  toBatch,
  toProduct,
  type BatchDbRow,
  type ProductRow,
} from './products.repository.ts';

type UpdateProduct = z.output<typeof updateProductSchema>;

const scope = (ctx: RequestContext) => ({ pharmacyId: ctx.pharmacyId, userId: ctx.userId });

function requirePricePermission(ctx: RequestContext): void {
  if (!holds(ctx, 'product:manage_price')) throw new AppError('FORBIDDEN', { details: { permission: 'product:manage_price' } });
}

async function requireProduct(q: Queryable, ctx: RequestContext, id: string, forUpdate = false): Promise<ProductRow> {
  const row = await findProduct(q, ctx.pharmacyId, id, forUpdate);
  if (!row) throw new AppError('NOT_FOUND', { details: { productId: id } });
  return row;
}

/** The category as the settings spell it; 400 when the settings list categories and this is not one of them. */
async function checkCategory(q: Queryable, ctx: RequestContext, category: string | null | undefined): Promise<string | null | undefined> {
  if (!category) return category === undefined ? undefined : null;
  const { categories } = await stockSettings(q, ctx.pharmacyId);
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

async function checkSkuFree(q: Queryable, ctx: RequestContext, sku: string | null | undefined, exceptId?: string): Promise<void> {
  if (!sku) return;
  const [taken] = await q.query(
    `SELECT 1 FROM products WHERE pharmacy_id = $1 AND lower(sku) = lower($2) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [ctx.pharmacyId, sku, exceptId ?? null],
  );
  if (taken) throw new AppError('SKU_TAKEN');
}

async function checkBranchesExist(q: Queryable, ctx: RequestContext, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await q.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 AND id = ANY($2::uuid[])`, [ctx.pharmacyId, [...new Set(ids)]]);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new AppError('NOT_FOUND', { details: { branchId: missing } });
}

/** Sets a branch row's values (creating the row), recording a price change when a price moves. */
async function writeBranchValues(
  q: Queryable,
  ctx: RequestContext,
  productId: string,
  branchId: string,
  values: BranchPricesInput,
  now: Date,
  defaultReason: string,
): Promise<void> {
  const [before] = await q.query<{ selling_price_cents: string | number; purchase_price_cents: string | number }>(
    `SELECT selling_price_cents, purchase_price_cents FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3 FOR UPDATE`,
    [ctx.pharmacyId, branchId, productId],
  );
  if (!before) {
    await q.query(`INSERT INTO branch_products (pharmacy_id, branch_id, product_id) VALUES ($1, $2, $3)`, [ctx.pharmacyId, branchId, productId]);
  }
  const sets: string[] = [];
  const params: unknown[] = [ctx.pharmacyId, branchId, productId, now];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (values.sellingPriceCents !== undefined) set('selling_price_cents', values.sellingPriceCents);
  if (values.purchasePriceCents !== undefined) set('purchase_price_cents', values.purchasePriceCents);
  if (values.minMarginBasisPoints !== undefined) set('min_margin_basis_points', values.minMarginBasisPoints);
  if (values.isAvailable !== undefined) set('is_available', values.isAvailable);
  if (values.lowStockThreshold !== undefined) set('low_stock_threshold', values.lowStockThreshold);
  await q.query(
    `UPDATE branch_products SET updated_at = $4${sets.length ? `, ${sets.join(', ')}` : ''}
      WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
    params,
  );
  const oldSelling = before ? Number(before.selling_price_cents) : null;
  const oldPurchase = before ? Number(before.purchase_price_cents) : null;
  const sellingMoved = values.sellingPriceCents !== undefined && values.sellingPriceCents !== (oldSelling ?? 0);
  const purchaseMoved = values.purchasePriceCents !== undefined && values.purchasePriceCents !== (oldPurchase ?? 0);
  if (!sellingMoved && !purchaseMoved) return;
  const reason = values.reason ?? defaultReason;
  await q.query(
    `INSERT INTO price_changes (pharmacy_id, branch_id, product_id, old_selling_price_cents, new_selling_price_cents,
                                old_purchase_price_cents, new_purchase_price_cents, reason, user_id, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      ctx.pharmacyId,
      branchId,
      productId,
      oldSelling,
      values.sellingPriceCents ?? oldSelling ?? 0,
      oldPurchase,
      values.purchasePriceCents ?? oldPurchase ?? 0,
      reason,
      ctx.userId,
      now,
    ],
  );
  await q.query(
    `UPDATE products SET last_price_update_at = $3, last_price_update_reason = $4, last_price_update_by = $5 WHERE pharmacy_id = $1 AND id = $2`,
    [ctx.pharmacyId, productId, now, reason, ctx.userId],
  );
}

/** The product detail as the user may see it. */
export async function productDetail(q: Queryable, ctx: RequestContext, auth: RequestAuth | null, id: string, now = new Date()): Promise<ProductDetailResponse> {
  const row = await requireProduct(q, ctx, id);
  const settings = await stockSettings(q, ctx.pharmacyId);
  const visible = visibleBranchIds(ctx, auth);
  const today = businessDate(now);
  const { branches, batches } = await productBranches(q, ctx.pharmacyId, row, visible, today, settings.defaultMinMarginPercent);
  return { product: toProduct(row), branches, batches, priceChanges: await priceChanges(q, ctx.pharmacyId, id, visible) };
}

/** GET /api/products. */
export async function searchProducts(db: Database, ctx: RequestContext, auth: RequestAuth | null, query: ProductListQuery): Promise<ProductListResponse> {
  return db.transaction(scope(ctx), async (q) => {
    const branch = await resolveBranch(q, ctx, auth, query.branchId);
    const settings = await stockSettings(q, ctx.pharmacyId);
    const { items, total } = await listProducts(q, ctx.pharmacyId, branch.id, query, businessDate(), settings.defaultMinMarginPercent);
    return { items, total, limit: query.limit, offset: query.offset, branchId: branch.id };
  });
}

/** POST /api/products: the product, its row in every branch it is offered in, initial price changes. */
export async function createProduct(db: Database, ctx: RequestContext, auth: RequestAuth | null, input: CreateProduct, now = new Date()): Promise<ProductDetailResponse> {
  return db.transaction(scope(ctx), async (q) => {
    await assertWithinPlanLimit(q, { pharmacyId: ctx.pharmacyId, now }, 'products', 1);
    const category = await checkCategory(q, ctx, input.category);
    await checkSkuFree(q, ctx, input.sku);
    await checkBranchesExist(q, ctx, [...input.restrictedBranchIds, ...input.branches.map((b) => b.branchId)]);
    const [created] = await q.query<{ id: string }>(
      `INSERT INTO products (pharmacy_id, name, sku, barcodes, category, package_size, package_type, unit, is_dda, tax_applied,
                             tax_rate_basis_points, min_margin_basis_points, low_stock_threshold, reorder_level, is_active,
                             restricted_branch_ids, created_at, updated_at, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18, $18) RETURNING id`,
      [
        ctx.pharmacyId,
        input.name,
        input.sku || null,
        [...new Set(input.barcodes)],
        category ?? null,
        input.packageSize,
        input.packageType,
        input.unit,
        input.isDda,
        input.taxApplied,
        input.taxRateBasisPoints,
        input.minMarginBasisPoints ?? null,
        input.lowStockThreshold,
        input.reorderLevel,
        input.isActive,
        [...new Set(input.restrictedBranchIds)],
        now,
        ctx.userId,
      ],
    );
    const productId = created!.id;
    const branches = await q.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY id`, [ctx.pharmacyId]);
    const overrides = new Map(input.branches.map((b) => [b.branchId, b]));
    const targets = new Set([
      ...branches.map((b) => b.id).filter((id) => isOfferedInBranch(input.restrictedBranchIds, id)),
      ...overrides.keys(),
    ]);
    for (const branchId of targets) {
      const override = overrides.get(branchId);
      await writeBranchValues(
        q,
        ctx,
        productId,
        branchId,
        {
          sellingPriceCents: override?.sellingPriceCents ?? input.sellingPriceCents,
          purchasePriceCents: override?.purchasePriceCents ?? input.purchasePriceCents,
          minMarginBasisPoints: override?.minMarginBasisPoints,
          isAvailable: override?.isAvailable,
          lowStockThreshold: override?.lowStockThreshold,
          reason: override?.reason ?? input.priceChangeReason,
        },
        now,
        'Initial price',
      );
    }
    await audit(q, scope(ctx), 'create', 'product', productId, null, { name: input.name, sku: input.sku ?? null });
    return productDetail(q, ctx, auth, productId, now);
  });
}

/** PATCH /api/products/:id. Price fields need product:manage_price; prices go to the branch of ?branchId= (default the session's). */
export async function updateProduct(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  id: string,
  input: UpdateProduct,
  branchId: string | undefined,
  now = new Date(),
): Promise<ProductDetailResponse> {
  if (touchesPrices(input)) requirePricePermission(ctx);
  return db.transaction(scope(ctx), async (q) => {
    const before = await requireProduct(q, ctx, id, true);
    const category = await checkCategory(q, ctx, input.category);
    if (input.sku !== undefined) await checkSkuFree(q, ctx, input.sku, id);
    if (input.restrictedBranchIds) await checkBranchesExist(q, ctx, input.restrictedBranchIds);
    const columns: [keyof UpdateProduct, string, unknown][] = [
      ['name', 'name', input.name],
      ['sku', 'sku', input.sku === undefined ? undefined : input.sku || null],
      ['barcodes', 'barcodes', input.barcodes ? [...new Set(input.barcodes)] : undefined],
      ['category', 'category', category],
      ['packageSize', 'package_size', input.packageSize],
      ['packageType', 'package_type', input.packageType],
      ['unit', 'unit', input.unit],
      ['isDda', 'is_dda', input.isDda],
      ['taxApplied', 'tax_applied', input.taxApplied],
      ['taxRateBasisPoints', 'tax_rate_basis_points', input.taxRateBasisPoints],
      ['minMarginBasisPoints', 'min_margin_basis_points', input.minMarginBasisPoints],
      ['lowStockThreshold', 'low_stock_threshold', input.lowStockThreshold],
      ['reorderLevel', 'reorder_level', input.reorderLevel],
      ['isActive', 'is_active', input.isActive],
      ['restrictedBranchIds', 'restricted_branch_ids', input.restrictedBranchIds ? [...new Set(input.restrictedBranchIds)] : undefined],
    ];
    const params: unknown[] = [ctx.pharmacyId, id, now, ctx.userId];
    const sets = ['updated_at = $3', 'updated_by = $4'];
    for (const [, column, value] of columns) {
      if (value === undefined) continue;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    await q.query(`UPDATE products SET ${sets.join(', ')} WHERE pharmacy_id = $1 AND id = $2`, params);
    if (input.minMarginBasisPoints !== undefined && input.minMarginBasisPoints !== before.min_margin_basis_points) {
      await q.query(
        `UPDATE products SET last_price_update_at = $3, last_price_update_reason = $4, last_price_update_by = $5 WHERE pharmacy_id = $1 AND id = $2`,
        [ctx.pharmacyId, id, now, input.priceChangeReason ?? 'Minimum margin changed', ctx.userId],
      );
    }
    if (input.sellingPriceCents !== undefined || input.purchasePriceCents !== undefined) {
      const branch = await resolveBranch(q, ctx, auth, branchId);
      await writeBranchValues(
        q,
        ctx,
        id,
        branch.id,
        { sellingPriceCents: input.sellingPriceCents, purchasePriceCents: input.purchasePriceCents, reason: input.priceChangeReason },
        now,
        'Price update',
      );
    }
    await audit(q, scope(ctx), 'update', 'product', id, toProduct(before), input);
    return productDetail(q, ctx, auth, id, now);
  });
}

/** DELETE /api/products/:id: deactivates (history, batches and sales keep pointing at it). */
export async function deactivateProduct(db: Database, ctx: RequestContext, auth: RequestAuth | null, id: string, now = new Date()): Promise<ProductDetailResponse> {
  return db.transaction(scope(ctx), async (q) => {
    await requireProduct(q, ctx, id, true);
    await q.query(`UPDATE products SET is_active = false, updated_at = $3, updated_by = $4 WHERE pharmacy_id = $1 AND id = $2`, [
      ctx.pharmacyId,
      id,
      now,
      ctx.userId,
    ]);
    await audit(q, scope(ctx), 'deactivate', 'product', id, null, null);
    return productDetail(q, ctx, auth, id, now);
  });
}

/** PUT /api/products/:id/branches/:branchId. Prices and minimum margin need product:manage_price, the rest product:update. */
export async function setBranchValues(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  id: string,
  branchId: string,
  input: BranchPricesInput,
  now = new Date(),
): Promise<ProductDetailResponse> {
  if (touchesPrices(input)) requirePricePermission(ctx);
  if ((input.isAvailable !== undefined || input.lowStockThreshold !== undefined) && !holds(ctx, 'product:update')) {
    throw new AppError('FORBIDDEN', { details: { permission: 'product:update' } });
  }
  return db.transaction(scope(ctx), async (q) => {
    await requireProduct(q, ctx, id, true);
    const branch = await resolveBranch(q, ctx, auth, branchId);
    await writeBranchValues(q, ctx, id, branch.id, input, now, 'Price update');
    await audit(q, scope(ctx), 'update', 'branch_product', `${id}:${branch.id}`, null, input);
    return productDetail(q, ctx, auth, id, now);
  });
}

/** POST /api/products/:id/batches: opening stock into a batch, through the ledger (kind 'opening'). */
export async function receiveOpeningBatch(db: Database, ctx: RequestContext, auth: RequestAuth | null, id: string, input: ReceiveBatchInput, now = new Date()) {
  return db.transaction(scope(ctx), async (q) => {
    await requireProduct(q, ctx, id);
    const branch = await resolveBranch(q, ctx, auth, input.branchId);
    const result = await applyStockChange(q, { ...scope(ctx), now }, {
      kind: 'opening',
      branchId: branch.id,
      productId: id,
      delta: input.quantity,
      batch: { batchNumber: input.batchNumber, expiryDate: input.expiryDate, unitCostCents: input.unitCostCents, source: 'opening' },
      reason: input.reason ?? 'Opening stock',
      reference: null,
    });
    const [batch] = await q.query<BatchDbRow>(
      `SELECT id, branch_id, product_id, batch_number, to_char(expiry_date, 'YYYY-MM-DD') AS expiry_date, quantity, reserved_quantity,
              unit_cost_cents, received_at, source
         FROM batches WHERE pharmacy_id = $1 AND id = $2`,
      [ctx.pharmacyId, result.batches[0]!.batchId],
    );
    return { batch: toBatch(batch!, businessDate(now)), quantity: result.quantity, reservedQuantity: result.reservedQuantity };
  });
}

/** GET /api/products/:id/movements. */
export async function productMovements(
  db: Database,
  ctx: RequestContext,
  auth: RequestAuth | null,
  id: string,
  query: { kind?: string; branchId?: string; from?: string; to?: string; limit: number; offset: number },
) {
  return db.transaction(scope(ctx), async (q) => {
    await requireProduct(q, ctx, id);
    let branchIds = visibleBranchIds(ctx, auth);
    if (query.branchId) branchIds = [(await resolveBranch(q, ctx, auth, query.branchId)).id];
    const { items, total } = await listMovements(q, ctx.pharmacyId, id, { ...query, branchIds });
    return { items, total, limit: query.limit, offset: query.offset };
  });
}
