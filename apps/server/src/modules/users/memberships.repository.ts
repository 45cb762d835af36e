import type { Queryable } from '../../db/database.ts';

/**
 * A person's own memberships, read and changed in their own session (decision 0015). The memberships policy lets a
 * transaction see the rows of its user (app.user_id) in every pharmacy; a change to a row of another pharmacy is
 * made with that pharmacy set as the transaction's tenant (useTenant), which the policy's WITH CHECK requires.
 */

export interface OwnMembershipRow {
  pharmacy_id: string;
  pharmacy_name: string;
  role: string;
  is_owner: boolean;
  is_active: boolean;
  pending: boolean;
  allowed_branch_ids: string[] | null;
  default_branch_id: string | null;
  created_at: string;
}

const SELECT_OWN = `
  SELECT m.pharmacy_id, p.name AS pharmacy_name, m.role, m.is_owner, m.is_active, m.accepted_at IS NULL AS pending,
         m.allowed_branch_ids, m.default_branch_id, m.created_at
    FROM memberships m JOIN pharmacies p ON p.id = m.pharmacy_id`;

/** The person's active memberships and open invitations, by pharmacy name. */
export async function findOwnMemberships(q: Queryable, userId: string): Promise<OwnMembershipRow[]> {
  return q.query<OwnMembershipRow>(`${SELECT_OWN} WHERE m.user_id = $1 AND m.is_active ORDER BY p.name, m.pharmacy_id`, [userId]);
}

export async function findOwnMembership(q: Queryable, userId: string, pharmacyId: string, forUpdate = false): Promise<OwnMembershipRow | undefined> {
  const [row] = await q.query<OwnMembershipRow>(
    `${SELECT_OWN} WHERE m.user_id = $1 AND m.pharmacy_id = $2${forUpdate ? ' FOR UPDATE OF m' : ''}`,
    [userId, pharmacyId],
  );
  return row;
}

/** The rest of this transaction works in this pharmacy (local to the transaction). */
export async function useTenant(q: Queryable, pharmacyId: string): Promise<void> {
  await q.query(`SELECT set_config('app.pharmacy_id', $1, true)`, [pharmacyId]);
}

export async function markAccepted(q: Queryable, pharmacyId: string, userId: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE memberships SET accepted_at = $3, updated_at = $3 WHERE pharmacy_id = $1 AND user_id = $2 AND accepted_at IS NULL`,
    [pharmacyId, userId, at],
  );
}

export async function markDeclined(q: Queryable, pharmacyId: string, userId: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE memberships SET is_active = false, declined_at = $3, updated_at = $3 WHERE pharmacy_id = $1 AND user_id = $2 AND accepted_at IS NULL`,
    [pharmacyId, userId, at],
  );
}

/** Uses up the person's open invitation links to one pharmacy. */
export async function useInviteLinks(q: Queryable, userId: string, pharmacyId: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE one_time_tokens SET used_at = $3 WHERE user_id = $1 AND pharmacy_id = $2 AND purpose = 'invite' AND used_at IS NULL`,
    [userId, pharmacyId, at],
  );
}

/** The active branches of the transaction's pharmacy, the default first. */
export async function activeBranches(q: Queryable, pharmacyId: string): Promise<{ id: string; is_default: boolean }[]> {
  return q.query<{ id: string; is_default: boolean }>(
    `SELECT id, is_default FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY is_default DESC, name`,
    [pharmacyId],
  );
}

/** The session (by its token hash, of this user) works in this pharmacy and branch from now on; it stays unlocked as it was. */
export async function moveSession(q: Queryable, tokenHash: string, userId: string, pharmacyId: string, branchId: string | null): Promise<void> {
  await q.query(`UPDATE sessions SET pharmacy_id = $3, branch_id = $4 WHERE token_hash = $1 AND user_id = $2`, [tokenHash, userId, pharmacyId, branchId]);
}
