import type { Member } from '@pharmapoint/domain/users';
import type { Queryable } from '../../db/database.ts';

export interface MemberRow {
  id: string;
  email: string;
  name: string;
  role: string;
  permissions: string[] | null;
  allowed_branch_ids: string[] | null;
  default_branch_id: string | null;
  has_pos_access: boolean;
  is_owner: boolean;
  is_active: boolean;
  has_password: boolean;
  email_verified: boolean;
  last_login_at: string | null;
  created_at: string;
}

export function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    permissions: row.permissions,
    allowedBranchIds: row.allowed_branch_ids,
    defaultBranchId: row.default_branch_id,
    hasPosAccess: row.has_pos_access,
    isOwner: row.is_owner,
    isActive: row.is_active,
    invitePending: !row.has_password || !row.email_verified,
    lastLoginAt: row.last_login_at,
    createdAt: row.created_at,
  };
}

const SELECT_MEMBER = `
  SELECT u.id, u.email, u.name, m.role, m.permissions, m.allowed_branch_ids, m.default_branch_id, m.has_pos_access,
         m.is_owner, m.is_active, u.password_hash IS NOT NULL AS has_password,
         u.email_verified_at IS NOT NULL AS email_verified, u.last_login_at, m.created_at
    FROM memberships m JOIN users u ON u.id = m.user_id`;

/** The pharmacy's members; the platform's demo visitor is not staff and is left out. */
export async function findMembers(q: Queryable, pharmacyId: string): Promise<MemberRow[]> {
  return q.query<MemberRow>(`${SELECT_MEMBER} WHERE m.pharmacy_id = $1 AND m.role <> 'demo' ORDER BY m.is_owner DESC, u.name`, [pharmacyId]);
}

export async function findMember(q: Queryable, pharmacyId: string, userId: string, forUpdate = false): Promise<MemberRow | undefined> {
  const [row] = await q.query<MemberRow>(
    `${SELECT_MEMBER} WHERE m.pharmacy_id = $1 AND m.user_id = $2 AND m.role <> 'demo'${forUpdate ? ' FOR UPDATE OF m' : ''}`,
    [pharmacyId, userId],
  );
  return row;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await q.query<{ id: string; name: string }>(`SELECT id, name FROM users WHERE email = $1`, [email]);
  return row;
}

export async function membershipExists(q: Queryable, pharmacyId: string, userId: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM memberships WHERE pharmacy_id = $1 AND user_id = $2`, [pharmacyId, userId])).length > 0;
}

export async function insertInvitedUser(q: Queryable, email: string, name: string): Promise<string> {
  const [row] = await q.query<{ id: string }>(`INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id`, [email, name]);
  if (!row) throw new Error('user insert returned nothing');
  return row.id;
}

export async function insertMembership(
  q: Queryable,
  pharmacyId: string,
  values: { userId: string; role: string; permissions: string[] | null; allowedBranchIds: string[] | null; hasPosAccess: boolean; invitedBy: string },
): Promise<void> {
  await q.query(
    `INSERT INTO memberships (pharmacy_id, user_id, role, permissions, allowed_branch_ids, has_pos_access, invited_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [pharmacyId, values.userId, values.role, values.permissions, values.allowedBranchIds, values.hasPosAccess, values.invitedBy],
  );
}

export async function updateMembership(
  q: Queryable,
  pharmacyId: string,
  userId: string,
  values: { role: string; permissions: string[] | null; allowedBranchIds: string[] | null; hasPosAccess: boolean; isActive: boolean },
): Promise<void> {
  await q.query(
    `UPDATE memberships SET role = $3, permissions = $4, allowed_branch_ids = $5, has_pos_access = $6, is_active = $7, updated_at = now()
      WHERE pharmacy_id = $1 AND user_id = $2`,
    [pharmacyId, userId, values.role, values.permissions, values.allowedBranchIds, values.hasPosAccess, values.isActive],
  );
}

/** Ids among the given ones that are branches of the tenant. */
export async function existingBranchIds(q: Queryable, pharmacyId: string, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await q.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 AND id = ANY($2::uuid[])`, [pharmacyId, ids]);
  return rows.map((r) => r.id);
}

export async function renameUser(q: Queryable, userId: string, name: string, at: Date): Promise<void> {
  await q.query(`UPDATE users SET name = $2, updated_at = $3 WHERE id = $1`, [userId, name, at]);
}

/** Ends the member's sessions in this pharmacy (deactivated). */
export async function revokeSessionsIn(q: Queryable, pharmacyId: string, userId: string, at: Date): Promise<void> {
  await q.query(`UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND pharmacy_id = $2 AND revoked_at IS NULL`, [userId, pharmacyId, at]);
}

/** A new invitation link (stored hashed); earlier unused links of the same user stop working. */
export async function replaceInviteToken(q: Queryable, userId: string, tokenHash: string, days: number, at: Date): Promise<void> {
  await q.query(`UPDATE one_time_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'invite' AND used_at IS NULL`, [userId, at]);
  await q.query(
    `INSERT INTO one_time_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, 'invite', $3::timestamptz + make_interval(days => $4))`,
    [tokenHash, userId, at, days],
  );
}

export async function findPharmacyName(q: Queryable, pharmacyId: string): Promise<string | undefined> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM pharmacies WHERE id = $1`, [pharmacyId]);
  return row?.name;
}
