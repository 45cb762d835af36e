import type { Queryable } from '../../db/database.ts';

export interface BranchRow {
  id: string;
  name: string;
  address: string | null;
  phone: string | null;
  is_default: boolean;
  is_active: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A branch as the API shows it. */
export interface Branch {
  id: string;
  name: string;
  address: string | null;
  phone: string | null;
  isDefault: boolean;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toBranch(row: BranchRow): Branch {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    isDefault: row.is_default,
    isActive: row.is_active,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
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
  input: { name: string; address: string | null; phone: string | null; isDefault: boolean },
): Promise<BranchRow> {
  const [row] = await q.query<BranchRow>(
    `INSERT INTO branches (pharmacy_id, name, address, phone, is_default) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [pharmacyId, input.name, input.address, input.phone, input.isDefault],
  );
  if (!row) throw new Error('branch insert returned nothing');
  return row;
}

export async function updateBranch(
  q: Queryable,
  pharmacyId: string,
  id: string,
  values: { name: string; address: string | null; phone: string | null; isDefault: boolean; isActive: boolean },
): Promise<BranchRow> {
  const [row] = await q.query<BranchRow>(
    `UPDATE branches SET name = $3, address = $4, phone = $5, is_default = $6, is_active = $7, updated_at = now()
      WHERE pharmacy_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [pharmacyId, id, values.name, values.address, values.phone, values.isDefault, values.isActive],
  );
  if (!row) throw new Error('branch update returned nothing');
  return row;
}

/** Clears the default flag of every branch (before another one becomes the default: one default index). */
export async function clearDefaultBranch(q: Queryable, pharmacyId: string): Promise<void> {
  await q.query(`UPDATE branches SET is_default = false, updated_at = now() WHERE pharmacy_id = $1 AND is_default`, [pharmacyId]);
}

export async function countActiveBranches(q: Queryable, pharmacyId: string): Promise<number> {
  const [row] = await q.query<{ count: number }>(`SELECT count(*)::int AS count FROM branches WHERE pharmacy_id = $1 AND is_active`, [pharmacyId]);
  return row?.count ?? 0;
}
