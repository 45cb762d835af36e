import { deferWrite, type Queryable } from '../../db/database.ts';

/**
 * What the stock use cases read of branches, products and settings. The tables belong to the tenancy, products
 * and settings modules; the stock module only reads them here.
 */

export interface BranchRef {
  id: string;
  name: string;
}

/** The default (else first) active branch of the pharmacy. */
export async function findFallbackBranchId(q: Queryable, pharmacyId: string): Promise<string | undefined> {
  const [row] = await q.query<{ id: string }>(
    `SELECT id FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY is_default DESC, created_at, name LIMIT 1`,
    [pharmacyId],
  );
  return row?.id;
}

export async function findBranch(q: Queryable, pharmacyId: string, id: string): Promise<BranchRef | undefined> {
  const [row] = await q.query<BranchRef>(`SELECT id, name FROM branches WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id]);
  return row;
}

export async function findActiveBranch(q: Queryable, pharmacyId: string, id: string): Promise<BranchRef | undefined> {
  const [row] = await q.query<BranchRef>(`SELECT id, name FROM branches WHERE pharmacy_id = $1 AND id = $2 AND is_active`, [pharmacyId, id]);
  return row;
}

/** The products of the pharmacy among these ids. */
export async function findProducts(q: Queryable, pharmacyId: string, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  return q.query<{ id: string; name: string }>(`SELECT id, name FROM products WHERE pharmacy_id = $1 AND id = ANY($2::uuid[])`, [pharmacyId, ids]);
}

/** The pharmacy's settings document ({} when it has none). */
export async function findSettingsDocument(q: Queryable, pharmacyId: string): Promise<Record<string, unknown>> {
  const [row] = await q.query<{ document: Record<string, unknown> | null }>(`SELECT document FROM settings WHERE pharmacy_id = $1`, [pharmacyId]);
  return row?.document ?? {};
}

/**
 * Stamps the final reason on branch rows whose last change this transaction made with a provisional one (the rows are
 * locked by the caller's changes). The ledger's movements keep their own reason: they are never updated. A deferred
 * write (decision 0078): nothing reads its result, so it runs at the end of the transaction, in COMMIT's round trip.
 */
export function restampStockReason(
  q: Queryable,
  pharmacyId: string,
  keys: readonly { branchId: string; productId: string }[],
  from: string,
  to: string,
): void {
  if (keys.length === 0) return;
  deferWrite(
    q,
    `UPDATE branch_products bp SET last_stock_update_reason = $5
       FROM unnest($2::uuid[], $3::uuid[]) AS k (branch_id, product_id)
      WHERE bp.pharmacy_id = $1 AND bp.branch_id = k.branch_id AND bp.product_id = k.product_id AND bp.last_stock_update_reason = $4`,
    [pharmacyId, keys.map((k) => k.branchId), keys.map((k) => k.productId), from, to],
  );
}
