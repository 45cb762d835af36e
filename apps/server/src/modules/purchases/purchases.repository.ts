import type {
  PurchaseItem,
  PurchaseListQuery,
  PurchaseReturn,
  PurchaseReturnListQuery,
  PurchaseStatus,
  PurchaseSummary,
} from '@pharmapoint/domain/purchases';
import type { Queryable } from '../../db/database.ts';

/** All SQL of purchases, their lines and purchase returns. Deleted purchases (deleted_at) and removed lines are never read. */

// ------------------------------------------------------------------------------------------- lookups

export interface SupplierRef {
  id: string;
  name: string;
  type: string;
}

/** The contact the purchase names (any type; the service checks it is a supplier). */
export async function findContact(q: Queryable, pharmacyId: string, id: string): Promise<SupplierRef | undefined> {
  const [row] = await q.query<SupplierRef>(`SELECT id, name, type FROM contacts WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id]);
  return row;
}

export interface ProductRef {
  id: string;
  name: string;
  sku: string | null;
  category: string | null;
}

export async function findProducts(q: Queryable, pharmacyId: string, ids: readonly string[]): Promise<Map<string, ProductRef>> {
  const rows = await q.query<ProductRef>(`SELECT id, name, sku, category FROM products WHERE pharmacy_id = $1 AND id = ANY ($2::uuid[])`, [pharmacyId, ids]);
  return new Map(rows.map((r) => [r.id, r]));
}

// ------------------------------------------------------------------------------------------- purchases

interface PurchaseRow {
  id: string;
  purchase_number: string;
  supplier_id: string;
  supplier_name: string;
  branch_id: string;
  branch_name: string;
  purchase_date: string;
  reference: string | null;
  notes: string | null;
  status: PurchaseStatus;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  item_count: number;
  total_quantity: number;
  received_quantity: number;
  created_at: string;
  updated_at: string;
}


function toSummary(row: PurchaseRow): PurchaseSummary {
  return {
    id: row.id,
    purchaseNumber: row.purchase_number,
    supplierId: row.supplier_id,
    supplierName: row.supplier_name,
    branchId: row.branch_id,
    branchName: row.branch_name,
    date: row.purchase_date,
    reference: row.reference,
    notes: row.notes,
    status: row.status,
    subtotalCents: row.subtotal_cents,
    taxCents: row.tax_cents,
    totalCents: row.total_cents,
    itemCount: row.item_count,
    totalQuantity: row.total_quantity,
    receivedQuantity: row.received_quantity,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const SUMMARY_COLUMNS = `p.id, p.purchase_number, p.supplier_id, c.name AS supplier_name, p.branch_id, b.name AS branch_name, p.purchase_date,
  p.reference, p.notes, p.status, p.subtotal_cents, p.tax_cents, p.total_cents, p.created_at, p.updated_at,
  COALESCE(i.item_count, 0)::int AS item_count, COALESCE(i.total_quantity, 0)::int AS total_quantity, COALESCE(i.received_quantity, 0)::int AS received_quantity`;
const SUMMARY_FROM = `purchases p
  JOIN contacts c ON c.pharmacy_id = p.pharmacy_id AND c.id = p.supplier_id
  JOIN branches b ON b.pharmacy_id = p.pharmacy_id AND b.id = p.branch_id
  LEFT JOIN LATERAL (SELECT count(*) AS item_count, sum(quantity) AS total_quantity, sum(received_quantity) AS received_quantity
                       FROM purchase_items pi WHERE pi.pharmacy_id = p.pharmacy_id AND pi.purchase_id = p.id AND pi.removed_at IS NULL) i ON true`;

export interface PurchaseHead {
  id: string;
  purchaseNumber: string;
  supplierId: string;
  branchId: string;
  status: PurchaseStatus;
}

/** The purchase's head (not deleted), locked FOR UPDATE when asked: every change of a purchase takes this lock first. */
export async function findPurchaseHead(q: Queryable, pharmacyId: string, id: string, forUpdate = false): Promise<PurchaseHead | undefined> {
  const [row] = await q.query<{ id: string; purchase_number: string; supplier_id: string; branch_id: string; status: PurchaseStatus }>(
    `SELECT id, purchase_number, supplier_id, branch_id, status FROM purchases
      WHERE pharmacy_id = $1 AND id = $2 AND deleted_at IS NULL ${forUpdate ? 'FOR UPDATE' : ''}`,
    [pharmacyId, id],
  );
  return row ? { id: row.id, purchaseNumber: row.purchase_number, supplierId: row.supplier_id, branchId: row.branch_id, status: row.status } : undefined;
}

export async function findPurchaseSummary(q: Queryable, pharmacyId: string, id: string): Promise<PurchaseSummary | undefined> {
  const [row] = await q.query<PurchaseRow>(`SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE p.pharmacy_id = $1 AND p.id = $2 AND p.deleted_at IS NULL`, [pharmacyId, id]);
  return row ? toSummary(row) : undefined;
}

export interface NewPurchase {
  purchaseNumber: string;
  supplierId: string;
  branchId: string;
  date: string;
  reference: string | null;
  notes: string | null;
  status: PurchaseStatus;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/** How many numbers (the next milliseconds) a new purchase or return tries before giving up. */
const NUMBER_TRIES = 1000;

/**
 * A new purchase under the first free number of `numberAt(0)`, `numberAt(1)`, ... (numbers are unique per pharmacy,
 * migration 0024): ON CONFLICT DO NOTHING waits for a concurrent transaction holding the same number and, when it
 * commits, inserts nothing, so the next number is tried without aborting the transaction.
 */
export async function insertPurchase(
  q: Queryable,
  pharmacyId: string,
  userId: string,
  p: Omit<NewPurchase, 'purchaseNumber'>,
  numberAt: (attempt: number) => string,
  at: Date,
): Promise<{ id: string; purchaseNumber: string }> {
  for (let attempt = 0; attempt < NUMBER_TRIES; attempt += 1) {
    const purchaseNumber = numberAt(attempt);
    const [row] = await q.query<{ id: string }>(
      `INSERT INTO purchases (pharmacy_id, purchase_number, supplier_id, branch_id, purchase_date, reference, notes, status,
                              subtotal_cents, tax_cents, total_cents, created_by, updated_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $13)
       ON CONFLICT (pharmacy_id, purchase_number) DO NOTHING RETURNING id`,
      [pharmacyId, purchaseNumber, p.supplierId, p.branchId, p.date, p.reference, p.notes, p.status, p.subtotalCents, p.taxCents, p.totalCents, userId, at],
    );
    if (row) return { id: row.id, purchaseNumber };
  }
  throw new Error(`No free purchase number after ${NUMBER_TRIES} tries`);
}

export async function updatePurchaseHead(q: Queryable, pharmacyId: string, id: string, userId: string, p: Omit<NewPurchase, 'purchaseNumber'>, at: Date): Promise<void> {
  await q.query(
    `UPDATE purchases SET supplier_id = $3, branch_id = $4, purchase_date = $5, reference = $6, notes = $7, status = $8,
            subtotal_cents = $9, tax_cents = $10, total_cents = $11, updated_by = $12, updated_at = $13
      WHERE pharmacy_id = $1 AND id = $2`,
    [pharmacyId, id, p.supplierId, p.branchId, p.date, p.reference, p.notes, p.status, p.subtotalCents, p.taxCents, p.totalCents, userId, at],
  );
}

export async function setPurchaseStatus(q: Queryable, pharmacyId: string, id: string, userId: string, status: PurchaseStatus, at: Date): Promise<void> {
  await q.query(`UPDATE purchases SET status = $3, updated_by = $4, updated_at = $5 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, status, userId, at]);
}

export async function markPurchaseDeleted(q: Queryable, pharmacyId: string, id: string, userId: string, at: Date): Promise<void> {
  await q.query(`UPDATE purchases SET deleted_at = $3, deleted_by = $4, updated_at = $3 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, at, userId]);
}

export async function countReturnsOf(q: Queryable, pharmacyId: string, purchaseId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM purchase_returns WHERE pharmacy_id = $1 AND purchase_id = $2`, [pharmacyId, purchaseId]);
  return row?.n ?? 0;
}

/** Escapes % _ and \ for a LIKE pattern. */
function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Purchases newest first (created), filtered as seed 002 section 5 says: status, branch and supplier exactly; the
 * date range inclusive; the text case-insensitively in number, reference, notes, status, supplier name, id and item names.
 */
export async function listPurchases(
  q: Queryable,
  pharmacyId: string,
  query: PurchaseListQuery,
  branchIds: readonly string[] | null,
): Promise<{ items: PurchaseSummary[]; total: number; totalCents: number }> {
  const params: unknown[] = [pharmacyId];
  const where = ['p.pharmacy_id = $1', 'p.deleted_at IS NULL'];
  const add = (sql: string, ...values: unknown[]) => {
    let out = sql;
    for (const value of values) {
      params.push(value);
      out = out.replace('?', `$${params.length}`);
    }
    where.push(out);
  };
  if (branchIds) add('p.branch_id = ANY (?::uuid[])', branchIds);
  if (query.status) add('p.status = ?', query.status);
  if (query.branchId) add('p.branch_id = ?', query.branchId);
  if (query.supplierId) add('p.supplier_id = ?', query.supplierId);
  if (query.from) add('p.purchase_date >= ?', query.from);
  if (query.to) add('p.purchase_date <= ?', query.to);
  const search = query.search?.trim();
  if (search) {
    params.push(`%${likeEscape(search.toLowerCase())}%`);
    const n = `$${params.length}`;
    where.push(`(lower(p.purchase_number) LIKE ${n} OR lower(COALESCE(p.reference, '')) LIKE ${n} OR lower(COALESCE(p.notes, '')) LIKE ${n}
       OR p.status LIKE ${n} OR lower(p.id::text) LIKE ${n}
       OR p.supplier_id IN (SELECT sc.id FROM contacts sc WHERE sc.pharmacy_id = $1 AND lower(sc.name) LIKE ${n})
       OR p.id IN (SELECT si.purchase_id FROM purchase_items si WHERE si.pharmacy_id = $1 AND si.removed_at IS NULL AND lower(si.name) LIKE ${n}))`);
    // Uncorrelated IN (...) lists, not EXISTS per purchase: each is read once and probed as a hash (a hashed SubPlan),
    // where a correlated EXISTS ran an index lookup for every purchase of the pharmacy (bench/purchases.ts).
  }
  const whereSql = where.join(' AND ');
  const [sum] = await q.query<{ n: number; cents: number }>(
    `SELECT count(*)::int AS n, COALESCE(sum(p.total_cents), 0)::bigint AS cents FROM purchases p WHERE ${whereSql}`,
    params,
  );
  const rows = await q.query<PurchaseRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM (SELECT p.* FROM purchases p WHERE ${whereSql}
        ORDER BY p.created_at DESC, p.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}) p
       JOIN contacts c ON c.pharmacy_id = p.pharmacy_id AND c.id = p.supplier_id
       JOIN branches b ON b.pharmacy_id = p.pharmacy_id AND b.id = p.branch_id
       LEFT JOIN LATERAL (SELECT count(*) AS item_count, sum(quantity) AS total_quantity, sum(received_quantity) AS received_quantity
                            FROM purchase_items pi WHERE pi.pharmacy_id = p.pharmacy_id AND pi.purchase_id = p.id AND pi.removed_at IS NULL) i ON true
      ORDER BY p.created_at DESC, p.id DESC`,
    [...params, query.limit, query.offset],
  );
  return { items: rows.map(toSummary), total: sum?.n ?? 0, totalCents: Number(sum?.cents ?? 0) };
}

// ------------------------------------------------------------------------------------------- lines

interface ItemRow {
  id: string;
  product_id: string | null;
  name: string;
  sku: string | null;
  category: string | null;
  quantity: number;
  received_quantity: number;
  returned_quantity: number;
  purchase_price_cents: number;
  selling_price_cents: number;
  max_discount_basis_points: number | null;
  min_margin_basis_points: number;
  expiry_date: string | null;
  batch_number: string | null;
  tax_applied: boolean;
  tax_rate_basis_points: number;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  batch_id: string | null;
}

function toItem(row: ItemRow): PurchaseItem {
  return {
    id: row.id,
    productId: row.product_id,
    name: row.name,
    sku: row.sku,
    category: row.category,
    quantity: row.quantity,
    receivedQuantity: row.received_quantity,
    returnedQuantity: row.returned_quantity,
    purchasePriceCents: row.purchase_price_cents,
    sellingPriceCents: row.selling_price_cents,
    maxDiscountBasisPoints: row.max_discount_basis_points,
    minMarginBasisPoints: row.min_margin_basis_points,
    expiryDate: row.expiry_date,
    batchNumber: row.batch_number,
    applyTax: row.tax_applied,
    taxRateBasisPoints: row.tax_rate_basis_points,
    subtotalCents: row.subtotal_cents,
    taxCents: row.tax_cents,
    totalCents: row.total_cents,
    batchId: row.batch_id,
  };
}

/** The purchase's lines (not removed) in their order; FOR UPDATE when asked. */
export async function findItems(q: Queryable, pharmacyId: string, purchaseId: string, forUpdate = false): Promise<PurchaseItem[]> {
  const rows = await q.query<ItemRow>(
    `SELECT id, product_id, name, sku, category, quantity, received_quantity, returned_quantity, purchase_price_cents, selling_price_cents,
            max_discount_basis_points, min_margin_basis_points, expiry_date, batch_number, tax_applied, tax_rate_basis_points,
            subtotal_cents, tax_cents, total_cents, batch_id
       FROM purchase_items WHERE pharmacy_id = $1 AND purchase_id = $2 AND removed_at IS NULL
      ORDER BY position, id ${forUpdate ? 'FOR UPDATE' : ''}`,
    [pharmacyId, purchaseId],
  );
  return rows.map(toItem);
}

export type ItemValues = Omit<PurchaseItem, 'id' | 'returnedQuantity'>;

export async function insertItem(q: Queryable, pharmacyId: string, purchaseId: string, position: number, v: ItemValues): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO purchase_items (pharmacy_id, purchase_id, position, product_id, name, sku, category, quantity, received_quantity,
                                 purchase_price_cents, selling_price_cents, max_discount_basis_points, min_margin_basis_points,
                                 expiry_date, batch_number, tax_applied, tax_rate_basis_points, subtotal_cents, tax_cents, total_cents, batch_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21) RETURNING id`,
    [
      pharmacyId, purchaseId, position, v.productId, v.name, v.sku, v.category, v.quantity, v.receivedQuantity,
      v.purchasePriceCents, v.sellingPriceCents, v.maxDiscountBasisPoints, v.minMarginBasisPoints,
      v.expiryDate, v.batchNumber, v.applyTax, v.taxRateBasisPoints, v.subtotalCents, v.taxCents, v.totalCents, v.batchId,
    ],
  );
  return row!.id;
}

export async function updateItem(q: Queryable, pharmacyId: string, id: string, position: number, v: ItemValues): Promise<void> {
  await q.query(
    `UPDATE purchase_items SET position = $3, product_id = $4, name = $5, sku = $6, category = $7, quantity = $8, received_quantity = $9,
            purchase_price_cents = $10, selling_price_cents = $11, max_discount_basis_points = $12, min_margin_basis_points = $13,
            expiry_date = $14, batch_number = $15, tax_applied = $16, tax_rate_basis_points = $17, subtotal_cents = $18, tax_cents = $19,
            total_cents = $20, batch_id = $21
      WHERE pharmacy_id = $1 AND id = $2`,
    [
      pharmacyId, id, position, v.productId, v.name, v.sku, v.category, v.quantity, v.receivedQuantity,
      v.purchasePriceCents, v.sellingPriceCents, v.maxDiscountBasisPoints, v.minMarginBasisPoints,
      v.expiryDate, v.batchNumber, v.applyTax, v.taxRateBasisPoints, v.subtotalCents, v.taxCents, v.totalCents, v.batchId,
    ],
  );
}

export async function setItemReceived(q: Queryable, pharmacyId: string, id: string, received: number, batchId: string | null): Promise<void> {
  await q.query(`UPDATE purchase_items SET received_quantity = $3, batch_id = $4 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, received, batchId]);
}

export async function markItemRemoved(q: Queryable, pharmacyId: string, id: string, at: Date): Promise<void> {
  await q.query(`UPDATE purchase_items SET removed_at = $3, received_quantity = 0 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, at]);
}

export async function addReturned(q: Queryable, pharmacyId: string, id: string, quantity: number): Promise<void> {
  await q.query(`UPDATE purchase_items SET returned_quantity = returned_quantity + $3 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, quantity]);
}

// ------------------------------------------------------------------------------------------- returns

export interface NewReturn {
  id: string;
  returnNumber: string;
  purchaseId: string;
  supplierId: string;
  branchId: string;
  date: string;
  reason: string;
  totalCents: number;
  items: { purchaseItemId: string; productId: string; batchId: string | null; name: string; quantity: number; unitCostCents: number; totalCents: number }[];
}

export async function insertReturn(q: Queryable, pharmacyId: string, userId: string, r: Omit<NewReturn, 'returnNumber'>, numberAt: (attempt: number) => string, at: Date): Promise<string> {
  const id = r.id;
  let returnNumber: string | null = null;
  for (let attempt = 0; attempt < NUMBER_TRIES && !returnNumber; attempt += 1) {
    const candidate = numberAt(attempt);
    const inserted = await q.query(
      `INSERT INTO purchase_returns (pharmacy_id, id, return_number, purchase_id, supplier_id, branch_id, return_date, reason, total_cents, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (pharmacy_id, return_number) DO NOTHING RETURNING id`,
      [pharmacyId, id, candidate, r.purchaseId, r.supplierId, r.branchId, r.date, r.reason, r.totalCents, userId, at],
    );
    if (inserted.length > 0) returnNumber = candidate;
  }
  if (!returnNumber) throw new Error(`No free purchase return number after ${NUMBER_TRIES} tries`);
  for (const item of r.items) {
    await q.query(
      `INSERT INTO purchase_return_items (pharmacy_id, return_id, purchase_item_id, product_id, batch_id, name, quantity, unit_cost_cents, total_cents)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [pharmacyId, id, item.purchaseItemId, item.productId, item.batchId, item.name, item.quantity, item.unitCostCents, item.totalCents],
    );
  }
  return returnNumber;
}

interface ReturnRow {
  id: string;
  return_number: string;
  purchase_id: string;
  purchase_number: string;
  supplier_id: string;
  supplier_name: string;
  branch_id: string;
  branch_name: string;
  return_date: string;
  reason: string;
  total_cents: number;
  created_at: string;
}

interface ReturnItemRow {
  id: string;
  return_id: string;
  purchase_item_id: string;
  product_id: string;
  name: string;
  batch_id: string | null;
  batch_number: string | null;
  expiry_date: string | null;
  quantity: number;
  unit_cost_cents: number;
  total_cents: number;
}

const RETURN_SELECT = `SELECT r.id, r.return_number, r.purchase_id, p.purchase_number, r.supplier_id, c.name AS supplier_name, r.branch_id,
       b.name AS branch_name, r.return_date, r.reason, r.total_cents, r.created_at
  FROM purchase_returns r
  JOIN purchases p ON p.pharmacy_id = r.pharmacy_id AND p.id = r.purchase_id
  JOIN contacts c ON c.pharmacy_id = r.pharmacy_id AND c.id = r.supplier_id
  JOIN branches b ON b.pharmacy_id = r.pharmacy_id AND b.id = r.branch_id`;

async function withItems(q: Queryable, pharmacyId: string, rows: ReturnRow[]): Promise<PurchaseReturn[]> {
  if (rows.length === 0) return [];
  const items = await q.query<ReturnItemRow>(
    `SELECT ri.id, ri.return_id, ri.purchase_item_id, ri.product_id, ri.name, ri.batch_id, bt.batch_number, bt.expiry_date, ri.quantity,
            ri.unit_cost_cents, ri.total_cents
       FROM purchase_return_items ri
       LEFT JOIN batches bt ON bt.pharmacy_id = ri.pharmacy_id AND bt.id = ri.batch_id
      WHERE ri.pharmacy_id = $1 AND ri.return_id = ANY ($2::uuid[]) ORDER BY ri.name, ri.id`,
    [pharmacyId, rows.map((r) => r.id)],
  );
  return rows.map((r) => ({
    id: r.id,
    returnNumber: r.return_number,
    purchaseId: r.purchase_id,
    purchaseNumber: r.purchase_number,
    supplierId: r.supplier_id,
    supplierName: r.supplier_name,
    branchId: r.branch_id,
    branchName: r.branch_name,
    date: r.return_date,
    reason: r.reason,
    totalCents: r.total_cents,
    createdAt: r.created_at,
    items: items
      .filter((i) => i.return_id === r.id)
      .map((i) => ({
        id: i.id,
        purchaseItemId: i.purchase_item_id,
        productId: i.product_id,
        name: i.name,
        batchId: i.batch_id,
        batchNumber: i.batch_number,
        expiryDate: i.expiry_date,
        quantity: i.quantity,
        unitCostCents: i.unit_cost_cents,
        totalCents: i.total_cents,
      })),
  }));
}

export async function findReturn(q: Queryable, pharmacyId: string, id: string): Promise<PurchaseReturn | undefined> {
  const rows = await q.query<ReturnRow>(`${RETURN_SELECT} WHERE r.pharmacy_id = $1 AND r.id = $2`, [pharmacyId, id]);
  return (await withItems(q, pharmacyId, rows))[0];
}

export async function listReturns(
  q: Queryable,
  pharmacyId: string,
  query: PurchaseReturnListQuery,
  branchIds: readonly string[] | null,
): Promise<{ items: PurchaseReturn[]; total: number }> {
  const params: unknown[] = [pharmacyId];
  const where = ['r.pharmacy_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (branchIds) add('r.branch_id = ANY (?::uuid[])', branchIds);
  if (query.supplierId) add('r.supplier_id = ?', query.supplierId);
  if (query.purchaseId) add('r.purchase_id = ?', query.purchaseId);
  const whereSql = where.join(' AND ');
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM purchase_returns r WHERE ${whereSql}`, params);
  const rows = await q.query<ReturnRow>(
    `${RETURN_SELECT} WHERE ${whereSql} ORDER BY r.created_at DESC, r.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.limit, query.offset],
  );
  return { items: await withItems(q, pharmacyId, rows), total: count?.n ?? 0 };
}
