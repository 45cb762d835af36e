import type { Queryable } from '../../db/database.ts';
import type { ProductRow } from './products.repository.ts';

/**
 * The SQL of creating a product (POST /api/products), in two round trips (decisions 0075 and 0079): what the create
 * checks and answers with, read at once; then the product, its branch rows and its initial price changes written at
 * once, returned as written so the answer is built from them instead of read back.
 */

/** A branch a new product may be written to or shown in. */
export interface NewProductBranch {
  id: string;
  name: string;
  isActive: boolean;
}

/** What creating a product reads before writing. */
export interface NewProductSources {
  /** The pharmacy's settings document ({} when it has none). */
  settings: Record<string, unknown>;
  /** The active branches and those of `branchIds` (any state), in the order the product detail shows branches. */
  branches: NewProductBranch[];
  /** Does another product of the pharmacy have this SKU (any case)? false without a SKU. */
  skuTaken: boolean;
  /** The name of the user creating it (the price changes' userName). */
  userName: string | null;
}

/**
 * The settings document, the branches (the active ones and the ids asked for, whatever their state: the caller
 * checks those exist), whether the SKU is taken and the user's name: one statement instead of four.
 */
export async function newProductSources(
  q: Queryable,
  ctx: { pharmacyId: string; userId: string },
  input: { sku: string | null; branchIds: readonly string[] },
): Promise<NewProductSources> {
  const [row] = await q.query<{
    settings: Record<string, unknown> | null;
    branches: { id: string; name: string; is_active: boolean }[];
    sku_taken: boolean;
    user_name: string | null;
  }>(
    // Two texts, with and without the SKU's check: with `$n IS NOT NULL AND EXISTS (...)` in one text, every custom
    // plan of a product without SKU folded the check away and looked cheaper than the generic plan, so the statement
    // was planned on every call (0.08-0.16 ms; pg_stat_statements at 20 clients, decision 0082).
    `SELECT (SELECT s.document FROM settings s WHERE s.pharmacy_id = $1) AS settings,
            COALESCE((SELECT jsonb_agg(jsonb_build_object('id', b.id, 'name', b.name, 'is_active', b.is_active) ORDER BY b.is_default DESC, b.name)
                        FROM branches b WHERE b.pharmacy_id = $1 AND (b.is_active OR b.id = ANY($2::uuid[]))), '[]'::jsonb) AS branches,
            ${input.sku === null ? 'false' : `EXISTS (SELECT 1 FROM products p WHERE p.pharmacy_id = $1 AND lower(p.sku) = lower($4::text))`} AS sku_taken,
            (SELECT u.name FROM users u WHERE u.id = $3) AS user_name`,
    [ctx.pharmacyId, [...new Set(input.branchIds)], ctx.userId, ...(input.sku === null ? [] : [input.sku])],
  );
  return {
    settings: row?.settings ?? {},
    branches: (row?.branches ?? []).map((b) => ({ id: b.id, name: b.name, isActive: b.is_active })),
    skuTaken: row?.sku_taken ?? false,
    userName: row?.user_name ?? null,
  };
}

/** The columns of a new product (the product's own fields; branch values are written with it, apart). */
export interface NewProduct {
  name: string;
  sku: string | null;
  barcodes: string[];
  category: string | null;
  packageSize: number;
  packageType: string;
  unit: string;
  isDda: boolean;
  taxApplied: boolean;
  taxRateBasisPoints: number;
  minMarginBasisPoints: number | null;
  lowStockThreshold: number;
  reorderLevel: number;
  isActive: boolean;
  restrictedBranchIds: string[];
}

/** A new product's row in one branch, with every value decided (defaults filled in by the caller). */
export interface InitialBranchRow {
  branchId: string;
  sellingPriceCents: number;
  purchasePriceCents: number;
  minMarginBasisPoints: number | null;
  isAvailable: boolean;
  lowStockThreshold: number | null;
  /** The reason of the row's initial price change; null when its prices stay 0 (no price change is recorded). */
  priceChangeReason: string | null;
}

/** A branch row of the new product as written (its stock columns are the table's defaults). */
export interface WrittenBranchRow {
  branchId: string;
  sellingPriceCents: number;
  purchasePriceCents: number;
  minMarginBasisPoints: number | null;
  isAvailable: boolean;
  quantity: number;
  reservedQuantity: number;
  lowStockThreshold: number | null;
  lastStockUpdateAt: string | null;
  lastStockUpdateReason: string | null;
}

/** An initial price change as written. */
export interface WrittenPriceChange {
  id: string;
  branchId: string;
  oldSellingPriceCents: number | null;
  newSellingPriceCents: number | null;
  oldPurchasePriceCents: number | null;
  newPurchasePriceCents: number | null;
  reason: string | null;
  userId: string | null;
  at: string;
}

interface WrittenRow extends ProductRow {
  bp_branch_id: string | null;
  bp_selling: number;
  bp_purchase: number;
  bp_margin: number | null;
  bp_available: boolean;
  bp_quantity: number;
  bp_reserved: number;
  bp_threshold: number | null;
  bp_stock_at: string | null;
  bp_stock_reason: string | null;
  pc_id: string | null;
  pc_old_selling: number | null;
  pc_new_selling: number | null;
  pc_old_purchase: number | null;
  pc_new_purchase: number | null;
  pc_reason: string | null;
  pc_user_id: string | null;
  pc_at: string;
}

/**
 * Writes a new product in ONE statement: the product (with its last price update, `stampReason`, when one of its
 * rows records a price change), its rows in its branches with their values, and the initial price changes of the
 * rows whose prices are not 0 (decision 0075 wrote the rows at once; 0079 adds the product and returns them all).
 * A duplicate SKU fails on the unique index products_sku (409 SKU_TAKEN). Answers the rows as written, in the
 * order of `rows`.
 */
export async function insertNewProduct(
  q: Queryable,
  ctx: { pharmacyId: string; userId: string; now: Date },
  p: NewProduct,
  rows: readonly InitialBranchRow[],
  stampReason: string | null,
): Promise<{ product: ProductRow; branchRows: WrittenBranchRow[]; priceChanges: WrittenPriceChange[] }> {
  // The product is inserted in the statement's first part and its branch rows and price changes name it: their
  // foreign keys and the stock alerts triggers run at the end of the statement and see it. Its last price update is
  // set by the insert itself (an UPDATE in the same statement would not see the new row).
  const written = await q.query<WrittenRow>(
    `WITH p AS (
       INSERT INTO products (pharmacy_id, name, sku, barcodes, category, package_size, package_type, unit, is_dda, tax_applied,
                             tax_rate_basis_points, min_margin_basis_points, low_stock_threshold, reorder_level, is_active,
                             restricted_branch_ids, created_at, updated_at, created_by, updated_by,
                             last_price_update_at, last_price_update_reason, last_price_update_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18, $18,
               CASE WHEN $19::text IS NOT NULL THEN $17::timestamptz END, $19::text, CASE WHEN $19::text IS NOT NULL THEN $18::uuid END)
       RETURNING *
     ), r AS (
       SELECT * FROM unnest($20::uuid[], $21::bigint[], $22::bigint[], $23::int[], $24::boolean[], $25::int[], $26::text[])
              WITH ORDINALITY AS r(branch_id, selling, purchase, min_margin, available, threshold, reason, n)
     ), bp AS (
       INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents,
                                    min_margin_basis_points, is_available, low_stock_threshold, updated_at)
       SELECT $1, r.branch_id, p.id, r.selling, r.purchase, r.min_margin, r.available, r.threshold, $17 FROM r CROSS JOIN p ORDER BY r.branch_id
       RETURNING branch_id AS bp_branch_id, selling_price_cents AS bp_selling, purchase_price_cents AS bp_purchase,
                 min_margin_basis_points AS bp_margin, is_available AS bp_available, quantity AS bp_quantity,
                 reserved_quantity AS bp_reserved, low_stock_threshold AS bp_threshold,
                 last_stock_update_at AS bp_stock_at, last_stock_update_reason AS bp_stock_reason
     ), pc AS (
       INSERT INTO price_changes (pharmacy_id, branch_id, product_id, old_selling_price_cents, new_selling_price_cents,
                                  old_purchase_price_cents, new_purchase_price_cents, reason, user_id, at)
       SELECT $1, r.branch_id, p.id, NULL, r.selling, NULL, r.purchase, r.reason, $18, $17 FROM r CROSS JOIN p WHERE r.reason IS NOT NULL ORDER BY r.n
       RETURNING id AS pc_id, branch_id AS pc_branch_id, old_selling_price_cents AS pc_old_selling, new_selling_price_cents AS pc_new_selling,
                 old_purchase_price_cents AS pc_old_purchase, new_purchase_price_cents AS pc_new_purchase, reason AS pc_reason,
                 user_id AS pc_user_id, at AS pc_at
     )
     SELECT p.*, bp.*, pc.pc_id, pc.pc_old_selling, pc.pc_new_selling, pc.pc_old_purchase, pc.pc_new_purchase, pc.pc_reason, pc.pc_user_id, pc.pc_at
       FROM p
       LEFT JOIN (bp JOIN r ON r.branch_id = bp.bp_branch_id) ON true
       LEFT JOIN pc ON pc.pc_branch_id = bp.bp_branch_id
      ORDER BY r.n`,
    [
      ctx.pharmacyId,
      p.name,
      p.sku,
      p.barcodes,
      p.category,
      p.packageSize,
      p.packageType,
      p.unit,
      p.isDda,
      p.taxApplied,
      p.taxRateBasisPoints,
      p.minMarginBasisPoints,
      p.lowStockThreshold,
      p.reorderLevel,
      p.isActive,
      p.restrictedBranchIds,
      ctx.now,
      ctx.userId,
      stampReason,
      rows.map((r) => r.branchId),
      rows.map((r) => r.sellingPriceCents),
      rows.map((r) => r.purchasePriceCents),
      rows.map((r) => r.minMarginBasisPoints),
      rows.map((r) => r.isAvailable),
      rows.map((r) => r.lowStockThreshold),
      rows.map((r) => r.priceChangeReason),
    ],
  );
  const branchRows: WrittenBranchRow[] = [];
  const priceChanges: WrittenPriceChange[] = [];
  for (const w of written) {
    if (w.bp_branch_id === null) continue;
    branchRows.push({
      branchId: w.bp_branch_id,
      sellingPriceCents: w.bp_selling,
      purchasePriceCents: w.bp_purchase,
      minMarginBasisPoints: w.bp_margin,
      isAvailable: w.bp_available,
      quantity: w.bp_quantity,
      reservedQuantity: w.bp_reserved,
      lowStockThreshold: w.bp_threshold,
      lastStockUpdateAt: w.bp_stock_at,
      lastStockUpdateReason: w.bp_stock_reason,
    });
    if (w.pc_id === null) continue;
    priceChanges.push({
      id: w.pc_id,
      branchId: w.bp_branch_id,
      oldSellingPriceCents: w.pc_old_selling,
      newSellingPriceCents: w.pc_new_selling,
      oldPurchasePriceCents: w.pc_old_purchase,
      newPurchasePriceCents: w.pc_new_purchase,
      reason: w.pc_reason,
      userId: w.pc_user_id,
      at: w.pc_at,
    });
  }
  return { product: written[0]!, branchRows, priceChanges };
}
