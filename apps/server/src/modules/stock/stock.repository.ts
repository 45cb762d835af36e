import type { Queryable } from '../../db/database.ts';

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

