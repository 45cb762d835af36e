import type { Queryable } from '../../db/database.ts';

export async function findUserEmail(q: Queryable, userId: string): Promise<string | null> {
  const [row] = await q.query<{ email: string }>(`SELECT email FROM users WHERE id = $1`, [userId]);
  return row?.email ?? null;
}

/** Makes the transaction's tenant the given pharmacy (local to the transaction), so row-level security accepts its rows. */
export async function useTenant(q: Queryable, pharmacyId: string): Promise<void> {
  await q.query(`SELECT set_config('app.pharmacy_id', $1, true)`, [pharmacyId]);
}

export async function insertPharmacy(
  q: Queryable,
  values: { id: string; name: string; ownerEmail: string | null; theme: unknown; isDemo: boolean; createdBy: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO pharmacies (id, name, owner_email, theme, is_demo, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [values.id, values.name, values.ownerEmail, JSON.stringify(values.theme), values.isDemo, values.createdBy, values.at],
  );
}

/** A branch of a new pharmacy. */
export async function insertFirstBranch(q: Queryable, pharmacyId: string, name: string, isDefault: boolean, at: Date): Promise<{ id: string; name: string }> {
  const [row] = await q.query<{ id: string; name: string }>(
    `INSERT INTO branches (pharmacy_id, name, is_default, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id, name`,
    [pharmacyId, name, isDefault, at],
  );
  if (!row) throw new Error('branch insert returned nothing');
  return row;
}

export async function insertOwnerMembership(q: Queryable, pharmacyId: string, userId: string, defaultBranchId: string | null): Promise<void> {
  await q.query(
    `INSERT INTO memberships (pharmacy_id, user_id, role, is_owner, has_pos_access, default_branch_id) VALUES ($1, $2, 'owner', true, true, $3)`,
    [pharmacyId, userId, defaultBranchId],
  );
}

/** The session (by its token hash) works in this pharmacy and branch from now on. */
export async function moveSession(q: Queryable, tokenHash: string, pharmacyId: string, branchId: string | null): Promise<void> {
  await q.query(`UPDATE sessions SET pharmacy_id = $2, branch_id = $3 WHERE token_hash = $1`, [tokenHash, pharmacyId, branchId]);
}

export async function findTheme(q: Queryable, pharmacyId: string, forUpdate = false): Promise<Record<string, unknown> | undefined> {
  const [row] = await q.query<{ theme: Record<string, unknown> | null }>(
    `SELECT theme FROM pharmacies WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [pharmacyId],
  );
  return row ? (row.theme ?? {}) : undefined;
}

export async function updateTheme(q: Queryable, pharmacyId: string, theme: unknown, at: Date): Promise<void> {
  await q.query(`UPDATE pharmacies SET theme = $2, updated_at = $3 WHERE id = $1`, [pharmacyId, JSON.stringify(theme), at]);
}
