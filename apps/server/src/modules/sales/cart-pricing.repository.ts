import type { Queryable } from '../../db/database.ts';

/** What pricing a cart reads: a product with its branch's prices and sellable stock (cart-pricing.service.ts). */
export interface CartProductRow {
  id: string;
  name: string;
  sku: string | null;
  is_active: boolean;
  is_dda: boolean;
  tax_applied: boolean;
  tax_rate_basis_points: number;
  package_size: number;
  product_min_margin_basis_points: number | null;
  restricted_branch_ids: string[] | null;
  /** Null when the product has no row in the branch. */
  selling_price_cents: number | null;
  purchase_price_cents: number | null;
  branch_min_margin_basis_points: number | null;
  is_available: boolean | null;
  quantity: number | null;
}

/**
 * The products of a cart with their prices and sellable stock in the branch (the caller holds the branch rows' locks).
 * Each product and its branch row are primary-key lookups (LATERAL ... LIMIT 1), whatever the planner's statistics
 * say: a plain join, planned without statistics, read every branch row of the pharmacy for each sale (decision 0075),
 * and `p.id = ANY ($3::uuid[])` was kept as a generic plan that read every product of the pharmacy and filtered the
 * ids (decision 0083). The ids are parameters of an ARRAY[...] of their number, so the generic plan (one text per
 * cart size) knows how many lookups it makes and is kept; `unnest($3::uuid[])` was planned again for every sale.
 */
export async function findCartProducts(q: Queryable, pharmacyId: string, branchId: string, productIds: readonly string[]): Promise<Map<string, CartProductRow>> {
  const rows = await q.query<CartProductRow>(cartProductsSql('', productIds.length), [pharmacyId, branchId, ...productIds]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** The statement for `count` product ids, given as parameters $3, $4, ... after the pharmacy ($1) and branch ($2). */
function cartProductsSql(extraColumns: string, count: number): string {
  const ids = count === 0 ? `'{}'::uuid[]` : `ARRAY[${Array.from({ length: count }, (_, i) => `$${i + 3}::uuid`).join(', ')}]`;
  return `SELECT p.id, p.name, p.sku, p.is_active, p.is_dda, p.tax_applied, p.tax_rate_basis_points, p.package_size,
            p.min_margin_basis_points AS product_min_margin_basis_points, p.restricted_branch_ids,
            bp.selling_price_cents, bp.purchase_price_cents, bp.min_margin_basis_points AS branch_min_margin_basis_points,
            bp.is_available, bp.quantity${extraColumns}
       FROM unnest(${ids}) AS k (id)
       CROSS JOIN LATERAL (
         SELECT x.pharmacy_id, x.id, x.name, x.sku, x.is_active, x.is_dda, x.tax_applied, x.tax_rate_basis_points, x.package_size,
                x.min_margin_basis_points, x.restricted_branch_ids
           FROM products x WHERE x.pharmacy_id = $1 AND x.id = k.id LIMIT 1
       ) p
       LEFT JOIN LATERAL (
         SELECT x.selling_price_cents, x.purchase_price_cents, x.min_margin_basis_points, x.is_available, x.quantity
           FROM branch_products x WHERE x.pharmacy_id = p.pharmacy_id AND x.branch_id = $2 AND x.product_id = p.id LIMIT 1
       ) bp ON true`;
}

/** A branch of the pharmacy by id, active or not (what the stock module's resolveBranch finds), as id and name. */
export interface CartBranch {
  id: string;
  name: string;
}

/**
 * findCartProducts and, in the same statement, the branch `branchId` of the pharmacy (any, active or not), or null
 * when there is no such branch. The branch is read once for the statement (an uncorrelated subquery); when no product
 * of the cart is found there is no row to carry it, and it is read on its own (a cart of unknown products only).
 */
export async function findCartProductsAndBranch(
  q: Queryable,
  pharmacyId: string,
  branchId: string,
  productIds: readonly string[],
): Promise<{ products: Map<string, CartProductRow>; branch: CartBranch | null }> {
  const rows = await q.query<CartProductRow & { branch_name: string | null }>(
    cartProductsSql(
      `,
            (SELECT b.name FROM branches b WHERE b.pharmacy_id = $1 AND b.id = $2) AS branch_name`,
      productIds.length,
    ),
    [pharmacyId, branchId, ...productIds],
  );
  const products = new Map<string, CartProductRow>();
  for (const { branch_name: _, ...row } of rows) products.set(row.id, row);
  if (rows.length > 0) return { products, branch: rows[0]!.branch_name === null ? null : { id: branchId, name: rows[0]!.branch_name } };
  const [branch] = await q.query<CartBranch>(`SELECT id, name FROM branches WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, branchId]);
  return { products, branch: branch ?? null };
}
