import type { ExportQuery } from '@pharmapoint/domain/product-import';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '@pharmapoint/domain/stock-status';
import type { Queryable } from '../../db/database.ts';
import { likeEscape } from '../../db/sql.ts';

/** One line of the export: a product and its values in one branch. */
export interface ExportRow {
  id: string;
  name: string;
  sku: string | null;
  barcodes: string[] | null;
  category: string | null;
  package_size: number | null;
  package_type: string | null;
  unit: string | null;
  is_dda: boolean;
  tax_applied: boolean;
  tax_rate_basis_points: number | null;
  min_margin_basis_points: number | null;
  low_stock_threshold: number | null;
  reorder_level: number | null;
  is_active: boolean;
  branch_id: string;
  branch_name: string;
  selling_price_cents: number | null;
  purchase_price_cents: number | null;
  quantity: number;
  reserved_quantity: number;
  threshold: number;
}

/** Where the next page starts: after this product name, product id and branch id. */
export type ExportCursor = readonly [name: string, productId: string, branchId: string];

/**
 * One page of the export, in (name, product, branch) order after the cursor: the product list's filters, in one
 * branch or (branchIds) the branches the user may see (null = every branch).
 */
export async function exportPage(
  q: Queryable,
  pharmacyId: string,
  filter: { query: ExportQuery; branchId: string | null; branchIds: readonly string[] | null },
  after: ExportCursor | null,
  limit: number,
): Promise<ExportRow[]> {
  const { query } = filter;
  const conditions = ['p.pharmacy_id = $1'];
  const params: unknown[] = [pharmacyId];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.branchId) add((n) => `bp.branch_id = ${n}`, filter.branchId);
  else if (filter.branchIds) add((n) => `bp.branch_id = ANY(${n}::uuid[])`, filter.branchIds);
  if (query.q) add((n) => `(p.name ILIKE ${n} OR p.sku ILIKE ${n} OR ${n} ILIKE ANY (p.barcodes))`, `%${likeEscape(query.q)}%`);
  if (query.category) add((n) => `lower(p.category) = lower(${n})`, query.category);
  if (query.active) add((n) => `p.is_active = ${n}`, query.active === 'true');
  if (query.dda) add((n) => `p.is_dda = ${n}`, query.dda === 'true');
  // The threshold in force, as the product list has it: the branch's, else the product's, else the default.
  const threshold = `COALESCE(bp.low_stock_threshold, p.low_stock_threshold, ${DEFAULT_LOW_STOCK_THRESHOLD})`;
  if (query.status === 'out') conditions.push('bp.quantity <= 0');
  if (query.status === 'low') conditions.push(`bp.quantity > 0 AND bp.quantity <= ${threshold}`);
  if (query.status === 'good') conditions.push(`bp.quantity > ${threshold}`);
  if (after) {
    params.push(after[0], after[1], after[2]);
    const n = params.length;
    conditions.push(`(p.name, p.id, bp.branch_id) > ($${n - 2}, $${n - 1}::uuid, $${n}::uuid)`);
  }
  return q.query<ExportRow>(
    `SELECT p.id, p.name, p.sku, p.barcodes, p.category, p.package_size, p.package_type, p.unit, p.is_dda, p.tax_applied,
            p.tax_rate_basis_points, p.min_margin_basis_points, p.low_stock_threshold, p.reorder_level, p.is_active,
            bp.branch_id, b.name AS branch_name, bp.selling_price_cents, bp.purchase_price_cents, bp.quantity,
            bp.reserved_quantity, ${threshold} AS threshold
       FROM products p
       JOIN branch_products bp ON bp.pharmacy_id = p.pharmacy_id AND bp.product_id = p.id
       JOIN branches b ON b.pharmacy_id = bp.pharmacy_id AND b.id = bp.branch_id
      WHERE ${conditions.join(' AND ')}
      ORDER BY p.name, p.id, bp.branch_id
      LIMIT ${Math.trunc(limit)}`,
    params,
  );
}
