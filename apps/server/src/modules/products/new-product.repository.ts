import type { Queryable } from '../../db/database.ts';

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

/**
 * Writes a new product's rows in its branches in ONE statement (decision 0075): the branch rows with their values,
 * the initial price changes of those whose prices are not 0, and the product's last price update (`stampReason`,
 * none when null). The product was created in this transaction, so none of its branch rows exists yet.
 */
export async function insertInitialBranchValues(
  q: Queryable,
  ctx: { pharmacyId: string; userId: string; now: Date },
  productId: string,
  rows: readonly InitialBranchRow[],
  stampReason: string | null,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `WITH r AS (
       SELECT * FROM unnest($3::uuid[], $4::bigint[], $5::bigint[], $6::int[], $7::boolean[], $8::int[], $9::text[])
              WITH ORDINALITY AS r(branch_id, selling, purchase, min_margin, available, threshold, reason, n)
     ), bp AS (
       INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents,
                                    min_margin_basis_points, is_available, low_stock_threshold, updated_at)
       SELECT $1, r.branch_id, $2, r.selling, r.purchase, r.min_margin, r.available, r.threshold, $10 FROM r ORDER BY r.branch_id
       RETURNING 1
     ), pc AS (
       INSERT INTO price_changes (pharmacy_id, branch_id, product_id, old_selling_price_cents, new_selling_price_cents,
                                  old_purchase_price_cents, new_purchase_price_cents, reason, user_id, at)
       SELECT $1, r.branch_id, $2, NULL, r.selling, NULL, r.purchase, r.reason, $11, $10 FROM r WHERE r.reason IS NOT NULL ORDER BY r.n
       RETURNING 1
     )
     UPDATE products SET last_price_update_at = $10, last_price_update_reason = $12, last_price_update_by = $11
      WHERE pharmacy_id = $1 AND id = $2 AND $12::text IS NOT NULL`,
    [
      ctx.pharmacyId,
      productId,
      rows.map((r) => r.branchId),
      rows.map((r) => r.sellingPriceCents),
      rows.map((r) => r.purchasePriceCents),
      rows.map((r) => r.minMarginBasisPoints),
      rows.map((r) => r.isAvailable),
      rows.map((r) => r.lowStockThreshold),
      rows.map((r) => r.priceChangeReason),
      ctx.now,
      ctx.userId,
      stampReason,
    ],
  );
}
