import type { Database, Queryable } from '../../db/database.ts';
import { holds, type RequestAuth, type RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { syncSettingsBranches } from '../settings/settings.repository.ts';
import { assertWithinPlanLimit } from '../subscription/subscription.service.ts';
import {
  branchNameTaken,
  clearDefaultBranch,
  countActiveBranches,
  findBranch,
  findBranches,
  insertBranch,
  toBranch,
  updateBranch,
  type Branch,
} from './branches.repository.ts';


/** May this user work in this branch? allowed_branch_ids null means every active branch. */
export function isBranchAllowed(auth: Pick<RequestAuth, 'membership'>, branch: { id: string; is_active: boolean }): boolean {
  if (!branch.is_active) return false;
  const allowed = auth.membership?.allowedBranchIds;
  return allowed === null || allowed === undefined || allowed.includes(branch.id);
}

/** The branches a user may see: all of them for branch managers (settings:system), else the allowed active ones. */
export async function listBranches(db: Database, ctx: RequestContext, auth: RequestAuth): Promise<Branch[]> {
  const rows = await db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, (q) => findBranches(q, ctx.pharmacyId));
  if (holds(ctx, 'settings:system')) return rows.map(toBranch);
  return rows.filter((row) => isBranchAllowed(auth, row)).map(toBranch);
}

export interface BranchInput {
  name: string;
  address?: string | null;
  phone?: string | null;
  isDefault?: boolean;
}

export async function createBranch(db: Database, ctx: RequestContext, input: BranchInput, now = new Date()): Promise<Branch> {
  return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
    await assertWithinPlanLimit(q, { pharmacyId: ctx.pharmacyId, now }, 'branches', 1);
    if (await branchNameTaken(q, ctx.pharmacyId, input.name)) throw new AppError('BRANCH_NAME_TAKEN');
    if (input.isDefault) await clearDefaultBranch(q, ctx.pharmacyId);
    const row = await insertBranch(q, ctx.pharmacyId, {
      name: input.name,
      address: input.address ?? null,
      phone: input.phone ?? null,
      isDefault: input.isDefault ?? false,
    });
    await syncSettingsBranches(q, ctx.pharmacyId, ctx.userId);
    const branch = toBranch(row);
    await audit(q, ctx, 'create', 'branch', branch.id, null, branch);
    return branch;
  });
}

export interface BranchPatch {
  name?: string;
  address?: string | null;
  phone?: string | null;
  isActive?: boolean;
  isDefault?: boolean;
}

/**
 * Edits a branch keeping the pharmacy's invariants: unique names, at least one active branch and exactly one
 * default (making a branch default moves the flag; the default cannot simply be unset or deactivated while it
 * is the default — another branch takes the flag when the default is deactivated).
 */
export async function patchBranch(db: Database, ctx: RequestContext, id: string, patch: BranchPatch, now = new Date()): Promise<Branch> {
  return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
    const current = await findBranch(q, ctx.pharmacyId, id, true);
    if (!current) throw new AppError('NOT_FOUND');
    const next = {
      name: patch.name ?? current.name,
      address: patch.address === undefined ? current.address : patch.address,
      phone: patch.phone === undefined ? current.phone : patch.phone,
      isActive: patch.isActive ?? current.is_active,
      isDefault: patch.isDefault ?? current.is_default,
    };
    // A branch reopening takes a branch place of the plan again.
    if (!current.is_active && next.isActive) await assertWithinPlanLimit(q, { pharmacyId: ctx.pharmacyId, now }, 'branches', 1);
    if (next.name !== current.name && (await branchNameTaken(q, ctx.pharmacyId, next.name, id))) throw new AppError('BRANCH_NAME_TAKEN');
    if (current.is_active && !next.isActive && (await countActiveBranches(q, ctx.pharmacyId)) <= 1) throw new AppError('LAST_BRANCH');
    if (patch.isDefault === true && !next.isActive) {
      throw new AppError('CONFLICT', { message: 'An inactive branch cannot be the default branch.' });
    }
    if (current.is_default && !next.isActive) {
      // The default is being deactivated: another active branch takes the flag.
      next.isDefault = false;
      await handDefaultToAnother(q, ctx.pharmacyId, id);
    } else if (current.is_default && !next.isDefault) {
      throw new AppError('CONFLICT', { message: 'Choose another default branch instead: a pharmacy needs exactly one default branch.' });
    } else if (next.isDefault && !current.is_default) {
      await clearDefaultBranch(q, ctx.pharmacyId);
    }
    const row = await updateBranch(q, ctx.pharmacyId, id, next);
    if (current.is_active && !next.isActive) await rehomeSessions(q, ctx.pharmacyId);
    await syncSettingsBranches(q, ctx.pharmacyId, ctx.userId);
    const branch = toBranch(row);
    await audit(q, ctx, 'update', 'branch', id, toBranch(current), branch);
    return branch;
  });
}

/**
 * Moves open sessions of the pharmacy (of one user, when given) off a branch their user may no longer work in
 * (closed, or no longer among their allowed branches) to their first usable branch, the default first; none
 * left leaves the session without a branch. Call it after the change, in the same transaction.
 */
export async function rehomeSessions(q: Queryable, pharmacyId: string, userId: string | null = null): Promise<void> {
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

async function handDefaultToAnother(q: Queryable, pharmacyId: string, exceptId: string): Promise<void> {
  const others = (await findBranches(q, pharmacyId)).filter((b) => b.id !== exceptId && b.is_active);
  const heir = others[0];
  if (!heir) throw new AppError('LAST_BRANCH');
  await clearDefaultBranch(q, pharmacyId);
  await q.query(`UPDATE branches SET is_default = true, updated_at = now() WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, heir.id]);
}

/** Switches the session's current branch to one the user is allowed in (403 BRANCH_NOT_ALLOWED otherwise). */
export async function switchBranch(db: Database, auth: RequestAuth, ctx: RequestContext, branchId: string): Promise<Branch> {
  return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
    const branch = await findBranch(q, ctx.pharmacyId, branchId);
    if (!branch) throw new AppError('NOT_FOUND');
    if (!isBranchAllowed(auth, branch)) throw new AppError('BRANCH_NOT_ALLOWED');
    await q.query(`UPDATE sessions SET branch_id = $2 WHERE token_hash = $1 AND user_id = $3`, [auth.tokenHash, branchId, auth.userId]);
    return toBranch(branch);
  });
}
