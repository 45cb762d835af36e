import type { Branch, CreateBranch, PatchBranch } from '@pharmapoint/domain/tenancy';
import type { Queryable } from '../../db/database.ts';
import { holds } from '../../platform/access.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { syncSettingsBranches } from '../settings/settings.service.ts';
import { assertWithinPlanLimit, releasePlanUsage } from '../subscription/subscription.service.ts';
import {
  branchNameTaken,
  clearDefaultBranch,
  countActiveBranches,
  findBranch,
  findBranches,
  insertBranch,
  markDefaultBranch,
  rehomeSessionsOf,
  setSessionBranch,
  toBranch,
  updateBranch,
} from './branches.repository.ts';

/** May this member work in this branch? allowed_branch_ids null means every active branch. */
export function isBranchAllowed(ctx: Pick<RequestContext, 'membership'>, branch: { id: string; is_active: boolean }): boolean {
  if (!branch.is_active) return false;
  const allowed = ctx.membership.allowedBranchIds;
  return allowed === null || allowed.includes(branch.id);
}

/** The branches a user may see: all of them for branch managers (settings:system), else the allowed active ones. */
export async function listBranches(q: Queryable, ctx: RequestContext): Promise<{ branches: Branch[] }> {
  const rows = await findBranches(q, ctx.pharmacyId);
  const visible = holds(ctx, 'settings:system') ? rows : rows.filter((row) => isBranchAllowed(ctx, row));
  return { branches: visible.map(toBranch) };
}

/** A new branch: it takes a branch place of the plan; its name is unique; it may become the default. */
export async function createBranch(q: Queryable, ctx: RequestContext, input: CreateBranch): Promise<{ branch: Branch }> {
  await assertWithinPlanLimit(q, ctx, 'branches', 1);
  if (await branchNameTaken(q, ctx.pharmacyId, input.name)) throw new AppError('BRANCH_NAME_TAKEN');
  if (input.isDefault) await clearDefaultBranch(q, ctx.pharmacyId, ctx.now);
  const row = await insertBranch(q, ctx.pharmacyId, {
    name: input.name,
    address: input.address ?? null,
    phone: input.phone ?? null,
    isDefault: input.isDefault ?? false,
    at: ctx.now,
  });
  await syncSettingsBranches(q, ctx);
  const branch = toBranch(row);
  await audit(q, ctx, 'create', 'branch', branch.id, null, branch);
  return { branch };
}

/**
 * Edits a branch keeping the pharmacy's invariants: unique names, at least one active branch and exactly one
 * default (making a branch default moves the flag; the default cannot simply be unset; another branch takes
 * the flag when the default is deactivated). Deactivating gives the branch's plan place back; reopening takes
 * one again.
 */
export async function patchBranch(q: Queryable, ctx: RequestContext, id: string, patch: PatchBranch): Promise<{ branch: Branch }> {
  const current = await findBranch(q, ctx.pharmacyId, id, true);
  if (!current) throw new AppError('NOT_FOUND');
  const next = {
    name: patch.name ?? current.name,
    address: patch.address === undefined ? current.address : patch.address,
    phone: patch.phone === undefined ? current.phone : patch.phone,
    isActive: patch.isActive ?? current.is_active,
    isDefault: patch.isDefault ?? current.is_default,
    at: ctx.now,
  };
  const reopening = !current.is_active && next.isActive;
  const closing = current.is_active && !next.isActive;
  if (reopening) await assertWithinPlanLimit(q, ctx, 'branches', 1);
  if (next.name !== current.name && (await branchNameTaken(q, ctx.pharmacyId, next.name, id))) throw new AppError('BRANCH_NAME_TAKEN');
  if (closing && (await countActiveBranches(q, ctx.pharmacyId)) <= 1) throw new AppError('LAST_BRANCH');
  if (patch.isDefault === true && !next.isActive) {
    throw new AppError('CONFLICT', { message: 'An inactive branch cannot be the default branch.' });
  }
  if (current.is_default && !next.isActive) {
    // The default is being deactivated: another active branch takes the flag.
    next.isDefault = false;
    await handDefaultToAnother(q, ctx, id);
  } else if (current.is_default && !next.isDefault) {
    throw new AppError('CONFLICT', { message: 'Choose another default branch instead: a pharmacy needs exactly one default branch.' });
  } else if (next.isDefault && !current.is_default) {
    await clearDefaultBranch(q, ctx.pharmacyId, ctx.now);
  }
  const row = await updateBranch(q, ctx.pharmacyId, id, next);
  if (closing) {
    await releasePlanUsage(q, ctx, 'branches', 1);
    await rehomeSessionsOf(q, ctx.pharmacyId, null);
  }
  await syncSettingsBranches(q, ctx);
  const branch = toBranch(row);
  await audit(q, ctx, 'update', 'branch', id, toBranch(current), branch);
  return { branch };
}

async function handDefaultToAnother(q: Queryable, ctx: RequestContext, exceptId: string): Promise<void> {
  const heir = (await findBranches(q, ctx.pharmacyId)).find((b) => b.id !== exceptId && b.is_active);
  if (!heir) throw new AppError('LAST_BRANCH');
  await clearDefaultBranch(q, ctx.pharmacyId, ctx.now);
  await markDefaultBranch(q, ctx.pharmacyId, heir.id, ctx.now);
}

/**
 * Moves open sessions of the pharmacy (of one user, when given) off a branch their user may no longer work in
 * to their first usable branch. Call it after the change, in the same transaction.
 */
export async function rehomeSessions(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId'>, userId: string | null = null): Promise<void> {
  await rehomeSessionsOf(q, ctx.pharmacyId, userId);
}

/** Switches the session's current branch to one the user is allowed in (403 BRANCH_NOT_ALLOWED otherwise). */
export async function switchBranch(q: Queryable, ctx: RequestContext, input: { branchId: string; sessionTokenHash: string }): Promise<{ branch: Branch }> {
  const branch = await findBranch(q, ctx.pharmacyId, input.branchId);
  if (!branch) throw new AppError('NOT_FOUND');
  if (!isBranchAllowed(ctx, branch)) throw new AppError('BRANCH_NOT_ALLOWED');
  await setSessionBranch(q, input.sessionTokenHash, ctx.userId, input.branchId);
  return { branch: toBranch(branch) };
}

/**
 * The branch a live stream may be narrowed to: a branch of the pharmacy (404 otherwise) that the member may
 * work in (403 BRANCH_NOT_ALLOWED).
 */
export async function assertBranchOfMember(q: Queryable, ctx: RequestContext, branchId: string): Promise<void> {
  const allowed = ctx.membership.allowedBranchIds;
  if (allowed && !allowed.includes(branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
  if (!(await findBranch(q, ctx.pharmacyId, branchId))) throw new AppError('NOT_FOUND');
}
