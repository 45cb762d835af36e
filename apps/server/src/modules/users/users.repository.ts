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
  pending: boolean;
  declined: boolean;
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
    invitePending: row.pending,
    status: !row.is_active ? (row.declined ? 'declined' : 'deactivated') : row.pending ? 'invited' : 'active',
    lastLoginAt: row.last_login_at,
    createdAt: row.created_at,
  };
}

/**
 * A member as the pharmacy sees them. Until the person accepts, the pharmacy sees only what it typed (the email,
 * the name it gave, the role): never the account's own name or last sign-in, so an invitation tells it nothing
 * about whether the email already had an account (decision 0015).
 */
const SELECT_MEMBER = `
  SELECT u.id, u.email,
         CASE WHEN m.accepted_at IS NULL THEN COALESCE(m.invited_name, u.name) ELSE u.name END AS name,
         m.role, m.permissions, m.allowed_branch_ids, m.default_branch_id, m.has_pos_access,
         m.is_owner, m.is_active, m.accepted_at IS NULL AS pending, m.declined_at IS NOT NULL AS declined,
         CASE WHEN m.accepted_at IS NULL THEN NULL ELSE u.last_login_at END AS last_login_at, m.created_at
    FROM memberships m JOIN users u ON u.id = m.user_id`;

/** The pharmacy's members; the platform's demo visitor is not staff and is left out. */
export async function findMembers(q: Queryable, pharmacyId: string): Promise<MemberRow[]> {
  return q.query<MemberRow>(`${SELECT_MEMBER} WHERE m.pharmacy_id = $1 AND m.role <> 'demo' ORDER BY m.is_owner DESC, name`, [pharmacyId]);
}

export async function findMember(q: Queryable, pharmacyId: string, userId: string, forUpdate = false): Promise<MemberRow | undefined> {
  const [row] = await q.query<MemberRow>(
    `${SELECT_MEMBER} WHERE m.pharmacy_id = $1 AND m.user_id = $2 AND m.role <> 'demo'${forUpdate ? ' FOR UPDATE OF m' : ''}`,
    [pharmacyId, userId],
  );
  return row;
}

/** The account of an email, if any (its id only: nothing of it is shown to the pharmacy). */
export async function findUserIdByEmail(q: Queryable, email: string): Promise<string | undefined> {
  const [row] = await q.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email]);
  return row?.id;
}

export async function membershipExists(q: Queryable, pharmacyId: string, userId: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM memberships WHERE pharmacy_id = $1 AND user_id = $2`, [pharmacyId, userId])).length > 0;
}

export async function insertInvitedUser(q: Queryable, email: string, name: string): Promise<string> {
  const [row] = await q.query<{ id: string }>(`INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id`, [email, name]);
  if (!row) throw new Error('user insert returned nothing');
  return row.id;
}

/** A pending membership: an invitation waiting for the person's answer (no access until accepted). */
export async function insertInvitation(
  q: Queryable,
  pharmacyId: string,
  values: {
    userId: string;
    invitedName: string;
    role: string;
    permissions: string[] | null;
    allowedBranchIds: string[] | null;
    hasPosAccess: boolean;
    invitedBy: string;
    at: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO memberships (pharmacy_id, user_id, role, permissions, allowed_branch_ids, has_pos_access, invited_by, invited_name,
                              accepted_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, $9)`,
    [pharmacyId, values.userId, values.role, values.permissions, values.allowedBranchIds, values.hasPosAccess, values.invitedBy, values.invitedName, values.at],
  );
}

/** A declined invitation sent again: it waits for an answer once more. */
export async function reopenInvitation(q: Queryable, pharmacyId: string, userId: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE memberships SET is_active = true, declined_at = NULL, updated_at = $3 WHERE pharmacy_id = $1 AND user_id = $2 AND accepted_at IS NULL`,
    [pharmacyId, userId, at],
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

/** Ends the member's sessions in this pharmacy (deactivated). */
export async function revokeSessionsIn(q: Queryable, pharmacyId: string, userId: string, at: Date): Promise<void> {
  await q.query(`UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND pharmacy_id = $2 AND revoked_at IS NULL`, [userId, pharmacyId, at]);
}

/** A new invitation link to this pharmacy (stored hashed); earlier unused links of the same invitation stop working. */
export async function replaceInviteToken(q: Queryable, userId: string, pharmacyId: string, tokenHash: string, days: number, at: Date): Promise<void> {
  await useInviteTokens(q, userId, pharmacyId, at);
  await q.query(
    `INSERT INTO one_time_tokens (token_hash, user_id, pharmacy_id, purpose, expires_at)
     VALUES ($1, $2, $3, 'invite', $4::timestamptz + make_interval(days => $5))`,
    [tokenHash, userId, pharmacyId, at, days],
  );
}

/** Uses up the open invitation links of a person to one pharmacy (answered, or replaced by a new link). */
export async function useInviteTokens(q: Queryable, userId: string, pharmacyId: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE one_time_tokens SET used_at = $3 WHERE user_id = $1 AND pharmacy_id = $2 AND purpose = 'invite' AND used_at IS NULL`,
    [userId, pharmacyId, at],
  );
}

export async function findPharmacyName(q: Queryable, pharmacyId: string): Promise<string | undefined> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM pharmacies WHERE id = $1`, [pharmacyId]);
  return row?.name;
}
