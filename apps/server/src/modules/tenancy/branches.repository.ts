import type { Branch } from '@pharmapoint/domain/tenancy';
import type { Queryable } from '../../db/database.ts';

export interface BranchRow {
  id: string;
  name: string;
  address: string | null;
  phone: string | null;
  is_default: boolean;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export function toBranch(row: BranchRow): Branch {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    isDefault: row.is_default,
    isActive: row.is_active,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMNS = 'id, name, address, phone, is_default, is_active, created_at, updated_at';

export async function findBranches(q: Queryable, pharmacyId: string): Promise<BranchRow[]> {
  return q.query<BranchRow>(`SELECT ${COLUMNS} FROM branches WHERE pharmacy_id = $1 ORDER BY is_default DESC, name`, [pharmacyId]);
}

/** One branch of the tenant, locked for update when asked; undefined for an unknown or foreign id. */
export async function findBranch(q: Queryable, pharmacyId: string, id: string, forUpdate = false): Promise<BranchRow | undefined> {
  const [row] = await q.query<BranchRow>(
    `SELECT ${COLUMNS} FROM branches WHERE pharmacy_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [pharmacyId, id],
  );
  return row;
}

export async function branchNameTaken(q: Queryable, pharmacyId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM branches WHERE pharmacy_id = $1 AND lower(name) = lower($2) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [pharmacyId, name, exceptId ?? null],
  );
  return rows.length > 0;
}

export async function insertBranch(
  q: Queryable,
  pharmacyId: string,
  input: { name: string; address: string | null; phone: string | null; isDefault: boolean; at: Date },
): Promise<BranchRow> {
  const [row] = await q.query<BranchRow>(
    `INSERT INTO branches (pharmacy_id, name, address, phone, is_default, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
     RETURNING ${COLUMNS}`,
    [pharmacyId, input.name, input.address, input.phone, input.isDefault, input.at],
  );
  if (!row) throw new Error('branch insert returned nothing');
  return row;
}

export async function updateBranch(
  q: Queryable,
  pharmacyId: string,
  id: string,
  values: { name: string; address: string | null; phone: string | null; isDefault: boolean; isActive: boolean; at: Date },
): Promise<BranchRow> {
  const [row] = await q.query<BranchRow>(
    `UPDATE branches SET name = $3, address = $4, phone = $5, is_default = $6, is_active = $7, updated_at = $8
      WHERE pharmacy_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [pharmacyId, id, values.name, values.address, values.phone, values.isDefault, values.isActive, values.at],
  );
  if (!row) throw new Error('branch update returned nothing');
  return row;
}

/** Clears the default flag of every branch (before another one becomes the default: one default index). */
export async function clearDefaultBranch(q: Queryable, pharmacyId: string, at: Date): Promise<void> {
  await q.query(`UPDATE branches SET is_default = false, updated_at = $2 WHERE pharmacy_id = $1 AND is_default`, [pharmacyId, at]);
}

export async function markDefaultBranch(q: Queryable, pharmacyId: string, id: string, at: Date): Promise<void> {
  await q.query(`UPDATE branches SET is_default = true, updated_at = $3 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, at]);
}

export async function countActiveBranches(q: Queryable, pharmacyId: string): Promise<number> {
  const [row] = await q.query<{ count: number }>(`SELECT count(*)::int AS count FROM branches WHERE pharmacy_id = $1 AND is_active`, [pharmacyId]);
  return row?.count ?? 0;
}

/**
 * Moves open sessions of the pharmacy (of one user, when given) off a branch their user may no longer work in
 * (closed, or no longer among their allowed branches) to their first usable branch, the default first; none
 * left leaves the session without a branch.
 */
export async function rehomeSessionsOf(q: Queryable, pharmacyId: string, userId: string | null): Promise<void> {
  const usable = (branch: string) => `
    SELECT b.id FROM branches b JOIN memberships m ON m.pharmacy_id = b.pharmacy_id AND m.user_id = s.user_id
     WHERE b.pharmacy_id = s.pharmacy_id AND b.is_active
       AND (m.allowed_branch_ids IS NULL OR b.id = ANY (m.allowed_branch_ids))${branch}`;
  await q.query(
    `UPDATE sessions s SET branch_id = (${usable('')} ORDER BY b.is_default DESC, b.name LIMIT 1)
      WHERE s.pharmacy_id = $1 AND ($2::uuid IS NULL OR s.user_id = $2::uuid) AND s.revoked_at IS NULL
        AND s.branch_id IS NOT NULL AND NOT EXISTS (${usable(' AND b.id = s.branch_id')})`,
    [pharmacyId, userId],
  );
}

/** The session (by its token hash) works in this branch from now on. */
export async function setSessionBranch(q: Queryable, tokenHash: string, userId: string, branchId: string): Promise<void> {
  await q.query(`UPDATE sessions SET branch_id = $2 WHERE token_hash = $1 AND user_id = $3`, [tokenHash, branchId, userId]);
}
