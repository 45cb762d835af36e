import {
  branchStockStatus,
  effectiveMinMarginBasisPoints,
  isOfferedInBranch,
  priceFigures,
  type Batch,
  type BranchProduct,
  type Movement,
  type PriceChange,
  type Product,
  type ProductListItem,
  type ProductListQuery,
} from '@pharmapoint/domain/products';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '@pharmapoint/domain/stock-status';
import { daysBetween, isExpired } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { likeEscape } from '../../db/sql.ts';

/**
 * All SQL of the product catalogue: the paged list, one product with its branches and batches, its ledger, and the
 * writes of products, their branch rows and price changes. Column values arrive as the parsers of db/database.ts
 * make them (bigint as number, date as 'YYYY-MM-DD', timestamptz as an ISO string).
 */

export interface ProductRow {
  id: string;
  name: string;
  sku: string | null;
  barcodes: string[] | null;
  category: string | null;
  package_size: number;
  package_type: string;
  unit: string;
  is_dda: boolean;
  tax_applied: boolean;
  tax_rate_basis_points: number;
  min_margin_basis_points: number | null;
  low_stock_threshold: number;
  reorder_level: number;
  is_active: boolean;
  restricted_branch_ids: string[] | null;
  created_at: string;
  updated_at: string;
  last_price_update_at: string | null;
  last_price_update_reason: string | null;
  last_price_update_by: string | null;
}

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    sku: row.sku,
    barcodes: row.barcodes ?? [],
    category: row.category,
    packageSize: row.package_size,
    packageType: row.package_type,
    unit: row.unit,
    isDda: row.is_dda,
    taxApplied: row.tax_applied,
    taxRateBasisPoints: row.tax_rate_basis_points,
    minMarginBasisPoints: row.min_margin_basis_points,
    lowStockThreshold: row.low_stock_threshold,
    reorderLevel: row.reorder_level,
    isActive: row.is_active,
    restrictedBranchIds: row.restricted_branch_ids ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastPriceUpdateAt: row.last_price_update_at,
    lastPriceUpdateReason: row.last_price_update_reason,
    lastPriceUpdateBy: row.last_price_update_by,
  };
}

export async function findProduct(q: Queryable, pharmacyId: string, id: string, forUpdate = false): Promise<ProductRow | undefined> {
  const [row] = await q.query<ProductRow>(
    `SELECT * FROM products WHERE pharmacy_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [pharmacyId, id],
  );
  return row;
}

interface ListRow extends ProductRow {
  has_row: boolean;
  bp_available: boolean;
  selling: number;
  purchase: number;
  bp_margin: number | null;
  quantity: number;
  reserved: number;
  bp_threshold: number | null;
  nearest_expiry: string | null;
  expired_quantity: number;
  total?: number;
}

/**
 * Where a statement reads the columns of the product's row in the branch: joined as `bp` (the page's rows, a list
 * without a search or status filter), or returned with the matches by product_search_in_branch as `p.bp_*`
 * (migration 0038). NULL when the product has no row in the branch.
 */
type BranchColumn = (column: 'quantity' | 'selling_price_cents' | 'low_stock_threshold') => string;
const JOINED: BranchColumn = (column) => `bp.${column}`;
const RETURNED: BranchColumn = (column) => `p.bp_${column}`;

/** The sort key of each sort (nullable ones sort nulls last), then name and id break ties. */
const SORT_KEYS: Record<ProductListQuery['sort'], { key: (bp: BranchColumn) => string; nullable: boolean }> = {
  name: { key: () => 'p.name', nullable: false },
  sku: { key: () => 'lower(p.sku)', nullable: true },
  quantity: { key: (bp) => `COALESCE(${bp('quantity')}, 0)`, nullable: false },
  price: { key: (bp) => `COALESCE(${bp('selling_price_cents')}, 0)`, nullable: false },
  expiry: {
    key: () => `(SELECT min(b.expiry_date) FROM batches b WHERE b.pharmacy_id = p.pharmacy_id AND b.branch_id = $2
             AND b.product_id = p.id AND b.quantity > 0 AND b.expiry_date >= $3::date)`,
    nullable: true,
  },
};

function orderBy(sort: ProductListQuery['sort'], dir: 'ASC' | 'DESC', key: string, name: string, id: string): string {
  const nulls = SORT_KEYS[sort].nullable ? ' NULLS LAST' : '';
  return sort === 'name' ? `${name} ${dir}, ${id} ${dir}` : `${key} ${dir}${nulls}, ${name} ${dir}, ${id} ${dir}`;
}

/**
 * One page of the product list in a branch, and the total matching. Search: every word of q must occur in the
 * name, SKU or a barcode (case-insensitive, substring; the trigram index of product_search_text, read once for all
 * the words by product_search, migration 0034). Products without a row in the branch show with zero stock and prices.
 */
export async function listProducts(
  q: Queryable,
  pharmacyId: string,
  branchId: string,
  query: ProductListQuery,
  today: string,
  defaultMarginPercent: number,
): Promise<{ items: ProductListItem[]; total: number }> {
  const params: unknown[] = [pharmacyId, branchId, today];
  const where: string[] = ['p.pharmacy_id = $1'];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  const patterns = words.map((word) => `%${likeEscape(word)}%`);
  // A search or status filter must find every match to sort them anyway: they are gathered (and counted) first,
  // then sorted and cut to the page. A list with neither is read in index order instead, and counted apart.
  const windowCount = words.length > 0 || query.status !== undefined;
  // Where the matches come from. A search reads them from product_search (migration 0034, decision 0074): one scan
  // of the trigram index for all the words, the tenant's rows only, with the columns the filters and sorts below
  // read (named as in products, so they read it as `p`). When the status filter or the sort needs the branch's row
  // of every match, product_search_in_branch (migration 0038) returns it with them (p.bp_*) and keeps only the
  // matches of the status asked for: one statement run by the function's owner, instead of a lookup per match by
  // the application role and every match returned (decision 0074, 'The branch's rows inside the function').
  // Without a search (patterns '{}') it reads every product of the tenant, joined to the branch's rows in one hash
  // join. The page's rows are then read whole from products and branch_products, under the policy.
  const matchesNeedBranchRow = query.status !== undefined || query.sort === 'quantity' || query.sort === 'price';
  let source = 'products p';
  let branchColumn = JOINED;
  if (words.length === 0 && (query.status === 'low' || query.status === 'out')) {
    // Low or out of stock without a search: the active products come from the branch's rows of stock_alerts of that
    // status (migration 0015, kept by triggers in the transaction of every change, decision 0022: active products
    // only, by the same rule as below), the inactive ones — which have no alerts — from the few inactive products
    // (a partial index, migration 0039); instead of the status of every product in the branch (50,000 at the bench's
    // size). The branch's row of each, for the filters and sorts, by its key; the rule below is applied again to
    // what comes back (decision 0075).
    const columns = `x.pharmacy_id, x.id, x.name, x.sku, x.category, x.is_active, x.is_dda, x.low_stock_threshold,
                     y.quantity AS bp_quantity, y.selling_price_cents AS bp_selling_price_cents, y.low_stock_threshold AS bp_low_stock_threshold`;
    const branchRowOf = `LEFT JOIN LATERAL (SELECT z.quantity, z.selling_price_cents, z.low_stock_threshold FROM branch_products z
                           WHERE z.pharmacy_id = x.pharmacy_id AND z.branch_id = $2 AND z.product_id = x.id LIMIT 1) y ON true`;
    const parts: string[] = [];
    if (query.active !== false) {
      params.push(query.status);
      parts.push(`SELECT ${columns} FROM stock_alerts a JOIN products x ON x.pharmacy_id = a.pharmacy_id AND x.id = a.product_id ${branchRowOf}
                   WHERE a.pharmacy_id = $1 AND a.branch_id = $2 AND a.status = $${params.length}`);
    }
    if (query.active !== true) parts.push(`SELECT ${columns} FROM products x ${branchRowOf} WHERE x.pharmacy_id = $1 AND NOT x.is_active`);
    source = `(${parts.join(' UNION ALL ')}) p`;
    branchColumn = RETURNED;
  } else if (windowCount && matchesNeedBranchRow) {
    params.push(patterns, query.status ?? null);
    source = `product_search_in_branch($${params.length - 1}::text[], $2, $${params.length}::text) p`;
    branchColumn = RETURNED;
  } else if (words.length > 0) {
    params.push(patterns);
    source = `product_search($${params.length}::text[]) p`;
  }
  if (query.category) add((n) => `lower(p.category) = lower(${n})`, query.category);
  if (query.active !== undefined) add((n) => `p.is_active = ${n}`, query.active);
  if (query.dda !== undefined) add((n) => `p.is_dda = ${n}`, query.dda);
  // The status filter reads the matches' branch columns (a status filter always gathers its matches first). The
  // function has kept these already, by the same rule; applied again, it is what the list means by a status
  // (with branchStockStatus's default threshold) and costs nothing on the few rows kept.
  const threshold = `COALESCE(${branchColumn('low_stock_threshold')}, p.low_stock_threshold, ${DEFAULT_LOW_STOCK_THRESHOLD})`;
  const quantity = `COALESCE(${branchColumn('quantity')}, 0)`;
  if (query.status === 'out') where.push(`${quantity} <= 0`);
  if (query.status === 'low') where.push(`${quantity} > 0 AND ${quantity} <= ${threshold}`);
  if (query.status === 'good') where.push(`${quantity} > ${threshold}`);

  // The product's row in the branch, for the page's rows (and a list without a search or status filter), looked up
  // by its primary key for each product (LIMIT 1 keeps the planner from flattening it into a join). As a plain
  // join, without statistics (a table never analyzed: PGlite before its first maintenance pass, or a PostgreSQL
  // server without autovacuum) the planner took the branch's rows for 5 and joined them by a nested loop over all
  // of them: 140 ms for the first page and 4 s for a two-word search at 50,000 products (bench/products-search.ts,
  // decision 0063). A page reads 50 of them.
  const branchRow = `LEFT JOIN LATERAL (SELECT * FROM branch_products x
                        WHERE x.pharmacy_id = p.pharmacy_id AND x.branch_id = $2 AND x.product_id = p.id LIMIT 1) bp ON true`;
  const filters = where.join(' AND ');
  const dir: 'ASC' | 'DESC' = query.order === 'desc' ? 'DESC' : 'ASC';
  const columns = `p.*, bp.product_id IS NOT NULL AS has_row, COALESCE(bp.is_available, false) AS bp_available,
    COALESCE(bp.selling_price_cents, 0) AS selling, COALESCE(bp.purchase_price_cents, 0) AS purchase,
    bp.min_margin_basis_points AS bp_margin, COALESCE(bp.quantity, 0) AS quantity, COALESCE(bp.reserved_quantity, 0) AS reserved,
    bp.low_stock_threshold AS bp_threshold, ${SORT_KEYS[query.sort].key(JOINED)} AS sort_key`;
  // The matches are gathered first (a MATERIALIZED fence keeps the planner from walking the whole name index
  // instead), with only what sorting them needs. Then they are counted, sorted and cut to the page, and only the
  // page's rows are read whole.
  const page = windowCount
    ? `WITH matches AS MATERIALIZED (
         SELECT p.id, p.name, ${SORT_KEYS[query.sort].key(branchColumn)} AS sort_key FROM ${source} WHERE ${filters}),
       ranked AS (
         SELECT m.id, count(*) OVER () AS total FROM matches m
          ORDER BY ${orderBy(query.sort, dir, 'm.sort_key', 'm.name', 'm.id')}
          LIMIT ${query.limit} OFFSET ${query.offset})
       SELECT ${columns}, r.total FROM ranked r JOIN products p ON p.pharmacy_id = $1 AND p.id = r.id ${branchRow}`
    : `SELECT ${columns} FROM ${source} ${branchRow} WHERE ${filters}
        ORDER BY ${orderBy(query.sort, dir, SORT_KEYS[query.sort].key(JOINED), 'p.name', 'p.id')}
        LIMIT ${query.limit} OFFSET ${query.offset}`;
  const rows = await q.query<ListRow>(
    `SELECT page.*, ex.nearest_expiry, COALESCE(ex.expired_quantity, 0)::int AS expired_quantity
       FROM (${page}) page
       LEFT JOIN LATERAL (
         SELECT to_char(min(b.expiry_date) FILTER (WHERE b.quantity > 0 AND b.expiry_date >= $3::date), 'YYYY-MM-DD') AS nearest_expiry,
                sum(b.quantity) FILTER (WHERE b.expiry_date < $3::date) AS expired_quantity
           FROM batches b WHERE b.pharmacy_id = $1 AND b.branch_id = $2 AND b.product_id = page.id) ex ON true
      ORDER BY ${orderBy(query.sort, dir, 'page.sort_key', 'page.name', 'page.id')}`,
    params,
  );
  let total = rows[0] && windowCount ? (rows[0].total ?? null) : null;
  if (windowCount && rows.length === 0 && query.offset === 0) total = 0;
  if (total === null) {
    // $2 and $3 may not be used by the filters: name them so every parameter has a type. The source gives what the
    // filters read (with a status filter, product_search_in_branch returns the branch's columns).
    const [count] = await q.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${source} WHERE ${filters} AND $2::uuid IS NOT NULL AND $3::date IS NOT NULL`,
      params,
    );
    total = count?.total ?? 0;
  }
  const items = rows.map((r): ProductListItem => {
    const selling = r.selling;
    const purchase = r.purchase;
    const margin = effectiveMinMarginBasisPoints(r.bp_margin, r.min_margin_basis_points, defaultMarginPercent);
    const restricted = r.restricted_branch_ids ?? [];
    return {
      id: r.id,
      name: r.name,
      sku: r.sku,
      barcodes: r.barcodes ?? [],
      category: r.category,
      packageSize: r.package_size,
      packageType: r.package_type,
      unit: r.unit,
      isDda: r.is_dda,
      taxApplied: r.tax_applied,
      taxRateBasisPoints: r.tax_rate_basis_points,
      isActive: r.is_active,
      branchId,
      isAvailable: r.has_row && r.bp_available && isOfferedInBranch(restricted, branchId),
      sellingPriceCents: selling,
      purchasePriceCents: purchase,
      minMarginBasisPoints: margin,
      ...priceFigures(selling, purchase, margin),
      quantity: r.quantity,
      reservedQuantity: r.reserved,
      expiredQuantity: r.expired_quantity,
      lowStockThreshold: r.bp_threshold ?? r.low_stock_threshold,
      reorderLevel: r.reorder_level,
      status: branchStockStatus(r.quantity, r.bp_threshold, r.low_stock_threshold),
      nearestExpiry: r.nearest_expiry,
    };
  });
  return { items, total };
}

/** A product's values in a branch as the detail reads them (zeros and nulls where it has no row there). */
export interface BranchProductRow {
  branch_id: string;
  branch_name: string;
  has_row: boolean;
  selling: number;
  purchase: number;
  bp_margin: number | null;
  is_available: boolean;
  quantity: number;
  reserved: number;
  bp_threshold: number | null;
  last_stock_update_at: string | null;
  last_stock_update_reason: string | null;
  nearest_expiry: string | null;
  expired_quantity: number;
}

/** A product's values in a branch as shown: its prices' figures, availability and stock status there. */
export function toBranchProduct(r: BranchProductRow, product: ProductRow, defaultMarginPercent: number): BranchProduct {
  const restricted = product.restricted_branch_ids ?? [];
  const selling = r.selling;
  const purchase = r.purchase;
  const margin = effectiveMinMarginBasisPoints(r.bp_margin, product.min_margin_basis_points, defaultMarginPercent);
  return {
    branchId: r.branch_id,
    branchName: r.branch_name,
    sellingPriceCents: selling,
    purchasePriceCents: purchase,
    minMarginBasisPoints: r.bp_margin,
    effectiveMinMarginBasisPoints: margin,
    ...priceFigures(selling, purchase, margin),
    isAvailable: r.has_row && r.is_available && isOfferedInBranch(restricted, r.branch_id),
    quantity: r.quantity,
    reservedQuantity: r.reserved,
    expiredQuantity: r.expired_quantity,
    lowStockThreshold: r.bp_threshold,
    status: branchStockStatus(r.quantity, r.bp_threshold, product.low_stock_threshold),
    nearestExpiry: r.nearest_expiry,
    lastStockUpdateAt: r.last_stock_update_at,
    lastStockUpdateReason: r.last_stock_update_reason,
  };
}

/**
 * The reason of a stock change as people read it: a sale's stock is written before its invoice number is taken (the
 * number is taken last, decision 0023), so the ledger's movements and the branch rows say 'Sale' and name the sale by
 * reference (decisions 0023, 0087); shown as 'Sale: INV-…' through the joined sale. Other reasons as they are.
 */
function saleReason(reason: string, invoiceNumber: string): string {
  return `CASE WHEN ${reason} = 'Sale' AND ${invoiceNumber} IS NOT NULL THEN 'Sale: ' || ${invoiceNumber} ELSE ${reason} END`;
}

/** A product's values in each of the branches (all active ones, or the visible ones), and its batches there. */
export async function productBranches(
  q: Queryable,
  pharmacyId: string,
  product: ProductRow,
  visible: readonly string[] | null,
  today: string,
  defaultMarginPercent: number,
): Promise<{ branches: BranchProduct[]; batches: Batch[] }> {
  const rows = await q.query<BranchProductRow>(
    `SELECT br.id AS branch_id, br.name AS branch_name, bp.product_id IS NOT NULL AS has_row,
            COALESCE(bp.selling_price_cents, 0) AS selling, COALESCE(bp.purchase_price_cents, 0) AS purchase,
            bp.min_margin_basis_points AS bp_margin, COALESCE(bp.is_available, false) AS is_available,
            COALESCE(bp.quantity, 0) AS quantity, COALESCE(bp.reserved_quantity, 0) AS reserved, bp.low_stock_threshold AS bp_threshold,
            bp.last_stock_update_at,
            ${saleReason('bp.last_stock_update_reason', 's.invoice_number')} AS last_stock_update_reason,
            (SELECT to_char(min(b.expiry_date), 'YYYY-MM-DD') FROM batches b WHERE b.pharmacy_id = br.pharmacy_id AND b.branch_id = br.id
                AND b.product_id = $2 AND b.quantity > 0 AND b.expiry_date >= $3::date) AS nearest_expiry,
            (SELECT COALESCE(sum(b.quantity), 0)::int FROM batches b WHERE b.pharmacy_id = br.pharmacy_id AND b.branch_id = br.id
                AND b.product_id = $2 AND b.expiry_date < $3::date) AS expired_quantity
       FROM branches br
       LEFT JOIN branch_products bp ON bp.pharmacy_id = br.pharmacy_id AND bp.branch_id = br.id AND bp.product_id = $2
       LEFT JOIN sales s ON s.pharmacy_id = bp.pharmacy_id AND s.id = bp.last_stock_update_sale_id
      WHERE br.pharmacy_id = $1 AND (br.is_active OR bp.product_id IS NOT NULL) AND ($4::uuid[] IS NULL OR br.id = ANY($4::uuid[]))
      ORDER BY br.is_default DESC, br.name`,
    [pharmacyId, product.id, today, visible],
  );
  const branches = rows.map((r) => toBranchProduct(r, product, defaultMarginPercent));
  const batchRows = await q.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS}
       FROM batches b
      WHERE b.pharmacy_id = $1 AND b.product_id = $2 AND (b.quantity > 0 OR b.reserved_quantity > 0)
        AND ($3::uuid[] IS NULL OR b.branch_id = ANY($3::uuid[]))
      ORDER BY b.branch_id, b.expiry_date NULLS LAST, b.received_at, b.id`,
    [pharmacyId, product.id, visible],
  );
  return { branches, batches: batchRows.map((b) => toBatch(b, today)) };
}

interface BatchRow {
  id: string;
  branch_id: string;
  product_id: string;
  batch_number: string | null;
  expiry_date: string | null;
  quantity: number;
  reserved_quantity: number;
  unit_cost_cents: number;
  received_at: string;
  source: string;
}

const BATCH_COLUMNS = `b.id, b.branch_id, b.product_id, b.batch_number, b.expiry_date, b.quantity, b.reserved_quantity, b.unit_cost_cents,
  b.received_at, b.source`;

/** A batch as shown; `today` (business date) decides whether it has expired. */
function toBatch(b: BatchRow, today: string): Batch {
  return {
    id: b.id,
    branchId: b.branch_id,
    productId: b.product_id,
    batchNumber: b.batch_number,
    expiryDate: b.expiry_date,
    quantity: b.quantity,
    reservedQuantity: b.reserved_quantity,
    unitCostCents: b.unit_cost_cents,
    receivedAt: b.received_at,
    source: b.source,
    isExpired: isExpired(b.expiry_date, today),
    daysToExpiry: b.expiry_date === null ? null : daysBetween(today, b.expiry_date),
  };
}

/** How many price changes the product detail shows (the newest). */
export const PRICE_CHANGES_SHOWN = 50;

/** The last PRICE_CHANGES_SHOWN price changes of a product in the visible branches, newest first. */
export async function priceChanges(q: Queryable, pharmacyId: string, productId: string, visible: readonly string[] | null): Promise<PriceChange[]> {
  const rows = await q.query<{
    id: string;
    branch_id: string;
    old_selling_price_cents: number | null;
    new_selling_price_cents: number | null;
    old_purchase_price_cents: number | null;
    new_purchase_price_cents: number | null;
    reason: string | null;
    user_id: string | null;
    user_name: string | null;
    at: string;
  }>(
    `SELECT pc.*, u.name AS user_name FROM price_changes pc LEFT JOIN users u ON u.id = pc.user_id
      WHERE pc.pharmacy_id = $1 AND pc.product_id = $2 AND ($3::uuid[] IS NULL OR pc.branch_id = ANY($3::uuid[]))
      ORDER BY pc.at DESC, pc.id LIMIT ${PRICE_CHANGES_SHOWN}`,
    [pharmacyId, productId, visible],
  );
  return rows.map((r) => ({
    id: r.id,
    branchId: r.branch_id,
    oldSellingPriceCents: r.old_selling_price_cents,
    newSellingPriceCents: r.new_selling_price_cents,
    oldPurchasePriceCents: r.old_purchase_price_cents,
    newPurchasePriceCents: r.new_purchase_price_cents,
    reason: r.reason,
    userId: r.user_id,
    userName: r.user_name,
    at: r.at,
  }));
}

/** A page of a product's ledger, newest first, with the total matching. */
export async function listMovements(
  q: Queryable,
  pharmacyId: string,
  productId: string,
  filter: { kind?: string; branchIds: readonly string[] | null; from?: string; to?: string; timeZone: string; limit: number; offset: number },
): Promise<{ items: Movement[]; total: number }> {
  const params: unknown[] = [pharmacyId, productId, filter.branchIds, filter.kind ?? null, filter.from ?? null, filter.to ?? null, filter.timeZone];
  // Business dates are calendar days in the pharmacy's time zone.
  const where = `m.pharmacy_id = $1 AND m.product_id = $2 AND ($3::uuid[] IS NULL OR m.branch_id = ANY($3::uuid[]))
    AND ($4::text IS NULL OR m.kind = $4) AND ($5::date IS NULL OR (m.at AT TIME ZONE $7::text)::date >= $5::date)
    AND ($6::date IS NULL OR (m.at AT TIME ZONE $7::text)::date <= $6::date)`;
  const rows = await q.query<{
    id: string;
    branch_id: string;
    branch_name: string;
    product_id: string;
    batch_id: string | null;
    batch_number: string | null;
    expiry_date: string | null;
    kind: string;
    delta: number;
    quantity_after: number;
    reason: string | null;
    reference_type: string | null;
    reference_id: string | null;
    user_id: string | null;
    user_name: string | null;
    at: string;
  }>(
    // A sale's movements read 'Sale: INV-…' through their reference (saleReason; the ledger is append-only). Older
    // movements kept 'Sale: INV-…' in their own reason and are shown as they are.
    `SELECT m.id, m.branch_id, br.name AS branch_name, m.product_id, m.batch_id, b.batch_number, b.expiry_date, m.kind, m.delta, m.quantity_after,
            ${saleReason('m.reason', 's.invoice_number')} AS reason, m.reference_type,
            m.reference_id, m.user_id, u.name AS user_name, m.at
       FROM stock_movements m
       JOIN branches br ON br.pharmacy_id = m.pharmacy_id AND br.id = m.branch_id
       LEFT JOIN batches b ON b.pharmacy_id = m.pharmacy_id AND b.id = m.batch_id
       LEFT JOIN users u ON u.id = m.user_id
       LEFT JOIN sales s ON s.pharmacy_id = m.pharmacy_id AND s.id = CASE WHEN m.reference_type = 'sale' THEN m.reference_id::uuid END
      WHERE ${where}
      ORDER BY m.at DESC, m.quantity_after DESC, m.id
      LIMIT ${filter.limit} OFFSET ${filter.offset}`,
    params,
  );
  const [count] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM stock_movements m WHERE ${where}`, params);
  return {
    items: rows.map((r) => ({
      id: r.id,
      branchId: r.branch_id,
      branchName: r.branch_name,
      productId: r.product_id,
      batchId: r.batch_id,
      batchNumber: r.batch_number,
      expiryDate: r.expiry_date,
      kind: r.kind,
      delta: r.delta,
      quantityAfter: r.quantity_after,
      reason: r.reason,
      referenceType: r.reference_type,
      referenceId: r.reference_id,
      userId: r.user_id,
      userName: r.user_name,
      at: r.at,
    })),
    total: count?.total ?? 0,
  };
}

// ------------------------------------------------------------------------------------------- writes

/** Is the SKU used by another product of the pharmacy (any case)? */
export async function skuTaken(q: Queryable, pharmacyId: string, sku: string, exceptId: string | null): Promise<boolean> {
  const [taken] = await q.query(
    `SELECT 1 FROM products WHERE pharmacy_id = $1 AND lower(sku) = lower($2) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [pharmacyId, sku, exceptId],
  );
  return Boolean(taken);
}

/** The first of these branch ids that is not a branch of the pharmacy; undefined when all are. */
export async function firstMissingBranch(q: Queryable, pharmacyId: string, ids: readonly string[]): Promise<string | undefined> {
  if (ids.length === 0) return undefined;
  const rows = await q.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 AND id = ANY($2::uuid[])`, [pharmacyId, [...new Set(ids)]]);
  const found = new Set(rows.map((r) => r.id));
  return ids.find((id) => !found.has(id));
}

/** The product columns a PATCH may set, by column name; undefined values are left as they are. */
export type ProductColumns = Partial<Record<
  | 'name'
  | 'sku'
  | 'barcodes'
  | 'category'
  | 'package_size'
  | 'package_type'
  | 'unit'
  | 'is_dda'
  | 'tax_applied'
  | 'tax_rate_basis_points'
  | 'min_margin_basis_points'
  | 'low_stock_threshold'
  | 'reorder_level'
  | 'is_active'
  | 'restricted_branch_ids',
  unknown
>>;

/** Sets the given columns of a product and stamps who changed it and when; answers the row as it is now. */
export async function updateProductColumns(
  q: Queryable,
  ctx: { pharmacyId: string; userId: string; now: Date },
  id: string,
  columns: ProductColumns,
): Promise<ProductRow> {
  const params: unknown[] = [ctx.pharmacyId, id, ctx.now, ctx.userId];
  const sets = ['updated_at = $3', 'updated_by = $4'];
  for (const [column, value] of Object.entries(columns)) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  const [row] = await q.query<ProductRow>(`UPDATE products SET ${sets.join(', ')} WHERE pharmacy_id = $1 AND id = $2 RETURNING *`, params);
  return row!;
}

/** Stamps the product's last price update (shown on the product); answers the row as it is now. */
export async function stampPriceUpdate(q: Queryable, ctx: { pharmacyId: string; userId: string; now: Date }, id: string, reason: string): Promise<ProductRow> {
  const [row] = await q.query<ProductRow>(
    `UPDATE products SET last_price_update_at = $3, last_price_update_reason = $4, last_price_update_by = $5 WHERE pharmacy_id = $1 AND id = $2 RETURNING *`,
    [ctx.pharmacyId, id, ctx.now, reason, ctx.userId],
  );
  return row!;
}

/** The prices of a product's row in a branch, locked until the transaction ends; undefined when it has none. */
export async function lockBranchPrices(
  q: Queryable,
  pharmacyId: string,
  branchId: string,
  productId: string,
): Promise<{ sellingPriceCents: number; purchasePriceCents: number } | undefined> {
  const [row] = await q.query<{ selling_price_cents: number; purchase_price_cents: number }>(
    `SELECT selling_price_cents, purchase_price_cents FROM branch_products WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3 FOR UPDATE`,
    [pharmacyId, branchId, productId],
  );
  return row && { sellingPriceCents: row.selling_price_cents, purchasePriceCents: row.purchase_price_cents };
}

/** The values of a branch row a write may set; undefined values are left as they are. */
export interface BranchValues {
  sellingPriceCents?: number;
  purchasePriceCents?: number;
  minMarginBasisPoints?: number | null;
  isAvailable?: boolean;
  lowStockThreshold?: number | null;
}

/** Creates the product's row in the branch when missing, then sets the given values. */
export async function upsertBranchValues(
  q: Queryable,
  ctx: { pharmacyId: string; now: Date },
  productId: string,
  branchId: string,
  exists: boolean,
  values: BranchValues,
): Promise<void> {
  if (!exists) {
    await q.query(`INSERT INTO branch_products (pharmacy_id, branch_id, product_id) VALUES ($1, $2, $3)`, [ctx.pharmacyId, branchId, productId]);
  }
  const sets: string[] = [];
  const params: unknown[] = [ctx.pharmacyId, branchId, productId, ctx.now];
  const set = (column: string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  set('selling_price_cents', values.sellingPriceCents);
  set('purchase_price_cents', values.purchasePriceCents);
  set('min_margin_basis_points', values.minMarginBasisPoints);
  set('is_available', values.isAvailable);
  set('low_stock_threshold', values.lowStockThreshold);
  await q.query(
    `UPDATE branch_products SET updated_at = $4${sets.length ? `, ${sets.join(', ')}` : ''}
      WHERE pharmacy_id = $1 AND branch_id = $2 AND product_id = $3`,
    params,
  );
}

/** Records one price change of a product in a branch. */
export async function insertPriceChange(
  q: Queryable,
  ctx: { pharmacyId: string; userId: string; now: Date },
  change: {
    productId: string;
    branchId: string;
    oldSellingPriceCents: number | null;
    newSellingPriceCents: number;
    oldPurchasePriceCents: number | null;
    newPurchasePriceCents: number;
    reason: string;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO price_changes (pharmacy_id, branch_id, product_id, old_selling_price_cents, new_selling_price_cents,
                                old_purchase_price_cents, new_purchase_price_cents, reason, user_id, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      ctx.pharmacyId,
      change.branchId,
      change.productId,
      change.oldSellingPriceCents,
      change.newSellingPriceCents,
      change.oldPurchasePriceCents,
      change.newPurchasePriceCents,
      change.reason,
      ctx.userId,
      ctx.now,
    ],
  );
}

/** One batch as shown, by id. */
export async function findBatch(q: Queryable, pharmacyId: string, id: string, today: string): Promise<Batch | undefined> {
  const [row] = await q.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM batches b WHERE b.pharmacy_id = $1 AND b.id = $2`, [pharmacyId, id]);
  return row && toBatch(row, today);
}
