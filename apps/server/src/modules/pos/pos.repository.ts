import type { PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import type { Queryable } from '../../db/database.ts';

/**
 * The SQL of the till's catalogue: one set-based read of a branch's active products with their branch prices,
 * stock and batches. The tables belong to the products and stock modules; the till only reads them here.
 */

interface CatalogueRow {
  id: string;
  name: string;
  sku: string | null;
  barcodes: string[];
  category: string | null;
  package_size: number;
  package_type: string;
  is_dda: boolean;
  is_available: boolean;
  tax_applied: boolean;
  tax_rate_basis_points: number;
  selling_price_cents: number;
  purchase_price_cents: number;
  min_margin_basis_points: number;
  quantity: number;
  reserved_quantity: number;
  expired_quantity: number;
  low_stock_threshold: number;
  nearest_expiry: string | null;
}

/**
 * Every active product with a row in the branch, by lower-cased name in code order (the browser's index keeps
 * that order, so its sort finds the list sorted already): available only when the row is and the product is not
 * restricted to other branches; the margin in force (branch, else product, else the settings default); the
 * sellable quantity (on hand less the pieces of expired batches; a batch expires after its expiry date) and those
 * expired pieces; the earliest expiry of an unexpired batch with stock.
 */
export async function findBranchCatalogue(
  q: Queryable,
  pharmacyId: string,
  branchId: string,
  today: string,
  defaultMinMarginBasisPoints: number,
): Promise<PosCatalogueItem[]> {
  const rows = await q.query<CatalogueRow>(
    `SELECT p.id, p.name, p.sku, p.barcodes, p.category, p.package_size, p.package_type, p.is_dda,
            bp.is_available AND (cardinality(p.restricted_branch_ids) = 0 OR $2::uuid = ANY (p.restricted_branch_ids)) AS is_available,
            p.tax_applied, p.tax_rate_basis_points, bp.selling_price_cents, bp.purchase_price_cents,
            COALESCE(bp.min_margin_basis_points, p.min_margin_basis_points, $4::int) AS min_margin_basis_points,
            GREATEST(0, bp.quantity - COALESCE(b.expired, 0))::int AS quantity, bp.reserved_quantity,
            COALESCE(b.expired, 0)::int AS expired_quantity,
            COALESCE(bp.low_stock_threshold, p.low_stock_threshold) AS low_stock_threshold,
            b.nearest_expiry
       FROM branch_products bp
       JOIN products p ON p.pharmacy_id = bp.pharmacy_id AND p.id = bp.product_id
       LEFT JOIN (
              SELECT product_id,
                     sum(quantity) FILTER (WHERE expiry_date < $3::date) AS expired,
                     min(expiry_date) FILTER (WHERE expiry_date IS NULL OR expiry_date >= $3::date) AS nearest_expiry
                FROM batches
               WHERE pharmacy_id = $1 AND branch_id = $2 AND quantity > 0
               GROUP BY product_id
            ) b ON b.product_id = bp.product_id
      WHERE bp.pharmacy_id = $1 AND bp.branch_id = $2 AND p.is_active
      ORDER BY lower(p.name) COLLATE "C", p.id`,
    [pharmacyId, branchId, today, defaultMinMarginBasisPoints],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    sku: r.sku,
    barcodes: r.barcodes,
    category: r.category,
    packageSize: r.package_size,
    packageType: r.package_type,
    isDda: r.is_dda,
    isActive: true,
    isAvailable: r.is_available,
    taxApplied: r.tax_applied,
    taxRateBasisPoints: r.tax_rate_basis_points,
    priceCents: r.selling_price_cents,
    costCents: r.purchase_price_cents,
    minMarginBasisPoints: r.min_margin_basis_points,
    // Products have no minimum price of their own yet: the minimum allowed price comes from cost and margin.
    minimumPriceCents: null,
    quantity: r.quantity,
    reservedQuantity: r.reserved_quantity,
    expiredQuantity: r.expired_quantity,
    lowStockThreshold: r.low_stock_threshold,
    nearestExpiry: r.nearest_expiry,
  }));
}
