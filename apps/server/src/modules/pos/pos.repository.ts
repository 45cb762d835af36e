import { POS_CATALOGUE_COLUMNS } from '@pharmapoint/domain/pos-catalogue';
import type { Queryable } from '../../db/database.ts';

/**
 * The SQL of the till's catalogue: one set-based read of a branch's active products with their branch prices,
 * stock and batches. The tables belong to the products and stock modules; the till only reads them here.
 */

/** Each column of the answer (posCatalogueColumnsSchema) and the expression of the row it is read from. */
const COLUMN_SQL: Record<(typeof POS_CATALOGUE_COLUMNS)[number], string> = {
  id: 'id',
  name: 'name',
  sku: 'sku',
  barcodes: 'barcodes',
  category: 'category',
  packageSize: 'package_size',
  packageType: 'package_type',
  isDda: 'is_dda',
  isAvailable: 'is_available',
  taxApplied: 'tax_applied',
  taxRateBasisPoints: 'tax_rate_basis_points',
  priceCents: 'selling_price_cents',
  costCents: 'purchase_price_cents',
  minMarginBasisPoints: 'min_margin_basis_points',
  // Products have no minimum price of their own yet: the minimum allowed price comes from cost and margin.
  minimumPriceCents: 'NULL::bigint',
  quantity: 'quantity',
  reservedQuantity: 'reserved_quantity',
  expiredQuantity: 'expired_quantity',
  lowStockThreshold: 'low_stock_threshold',
  nearestExpiry: 'nearest_expiry',
};

/**
 * The exact version of what a branch's catalogue is read from, in one statement (decision 0072): for the pharmacy's
 * products, the branch's rows and the branch's batches, the count of rows and the sum of the transaction ids that
 * wrote them (xmin). A committed insert or update gives its rows the id of a later transaction and a delete lowers a
 * count, so any change of these rows moves the version, whatever the order in which transactions commit or their
 * clocks (a maximum of updated_at could miss a change that committed after a later-stamped one). Freezing old rows
 * shows xmin as 2: the version moves and the answer is built again, which is safe. Three scans of the pharmacy's or
 * branch's rows, no index.
 */
export async function branchCatalogueVersion(q: Queryable, input: { pharmacyId: string; branchId: string }): Promise<string> {
  const [row] = await q.query<{ version: string }>(
    `SELECT concat_ws('/',
              (SELECT count(*) || '.' || COALESCE(sum(xmin::text::bigint), 0) FROM products WHERE pharmacy_id = $1),
              (SELECT count(*) || '.' || COALESCE(sum(xmin::text::bigint), 0) FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2),
              (SELECT count(*) || '.' || COALESCE(sum(xmin::text::bigint), 0) FROM batches WHERE pharmacy_id = $1 AND branch_id = $2)
            ) AS version`,
    [input.pharmacyId, input.branchId],
  );
  return row!.version;
}

/**
 * The answer of GET /api/pos/catalogue as JSON text, built by the database in one statement (decision 0024): every
 * active product with a row in the branch, by lower-cased name in code order (the browser's index keeps that order,
 * so its sort finds the list sorted already); available only when the row is and the product is not restricted to
 * other branches; the margin in force (branch, else product, else the settings default); the sellable quantity (on
 * hand less the pieces of expired batches; a batch expires after its expiry date) and those expired pieces; the
 * earliest expiry of an unexpired batch with stock. Columnar: one JSON array per field, all fed by the same ordered
 * rows (so they line up). One text value instead of 50,000 rows: the drivers' per-row work was most of the time.
 */
export async function branchCatalogueJson(
  q: Queryable,
  input: { pharmacyId: string; branchId: string; today: string; defaultMinMarginBasisPoints: number; at: string },
): Promise<string> {
  // 50,000 rows of about 200 bytes sorted: in memory for this transaction only (the default 4 MB spills to disk).
  await q.query(`SELECT set_config('work_mem', '64MB', true)`);
  // array_to_json(array_agg(...)) writes no spaces ('[1,2]', json_agg writes '[1, 2]'); barcodes are arrays of
  // different lengths, which array_agg cannot stack: json_agg for them.
  const aggregate = (name: (typeof POS_CATALOGUE_COLUMNS)[number]) =>
    name === 'barcodes' ? `COALESCE(json_agg(barcodes), '[]')` : `COALESCE(array_to_json(array_agg(${COLUMN_SQL[name]})), '[]')`;
  const columns = POS_CATALOGUE_COLUMNS.map((name) => `'${name}', ${aggregate(name)}`).join(',\n              ');
  const [row] = await q.query<{ body: string }>(
    `SELECT json_build_object(
              'branchId', $2::uuid, 'at', $5::text, 'count', count(*),
              'columns', json_build_object(${columns})
            )::text AS body
       FROM (
         SELECT p.id, p.name, p.sku, p.barcodes, p.category, p.package_size, p.package_type, p.is_dda,
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
          ORDER BY lower(p.name) COLLATE "C", p.id
       ) r`,
    [input.pharmacyId, input.branchId, input.today, input.defaultMinMarginBasisPoints, input.at],
  );
  return row!.body;
}
