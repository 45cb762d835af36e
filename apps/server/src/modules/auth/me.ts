import type { BranchSummary, MeResponse } from '@pharmapoint/domain/auth';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import type { RequestAuth } from '../../platform/access.ts';
import { branchesOf, type BranchRow } from './auth.repository.ts';

/** The branches a member may switch to: every active branch, or the allowed ones; the default first. */
export function allowedBranchesOf(rows: readonly BranchRow[], allowedIds: readonly string[] | null | undefined): BranchSummary[] {
  return rows
    .filter((b) => b.isActive && (allowedIds === null || allowedIds === undefined || allowedIds.includes(b.id)))
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name))
    .map((b) => ({ id: b.id, name: b.name, isDefault: b.isDefault }));
}

/**
 * GET /api/me, built from the session (loaded once per request by the auth plugin): the signed-in user, their
 * pharmacy, membership, effective permissions and branches. The branches are read in the request's transaction
 * (which is in the session's pharmacy).
 */
export async function buildMe(q: Queryable, config: Config, auth: RequestAuth): Promise<MeResponse> {
  return meOf(config, auth, auth.pharmacyId && auth.membership ? await branchesOf(q, auth.pharmacyId) : []);
}

/**
 * GET /api/me from the session and its pharmacy's branches as the auth plugin read them with the session (one
 * round trip, or none from the session cache; decision 0062): no transaction of its own.
 */
export function meOf(config: Config, auth: RequestAuth, branches: readonly BranchRow[]): MeResponse {
  let allowedBranches: BranchSummary[] = [];
  let branch: BranchSummary | null = null;
  const pharmacy = auth.pharmacyId && auth.profile.pharmacy ? { id: auth.pharmacyId, ...auth.profile.pharmacy } : null;
  if (auth.pharmacyId && auth.membership) {
    allowedBranches = allowedBranchesOf(branches, auth.membership.allowedBranchIds);
    branch = allowedBranches.find((b) => b.id === auth.branchId) ?? allowedBranches[0] ?? null;
  }
  return {
    user: {
      id: auth.userId,
      email: auth.email,
      name: auth.name,
      displayName: auth.name,
      emailVerified: auth.profile.emailVerified,
      hasPin: auth.profile.hasPin,
      isPlatformOperator: auth.isPlatformOperator,
      lastLoginAt: auth.profile.lastLoginAt,
    },
    pharmacy,
    membership: auth.membership
      ? {
          role: auth.membership.role,
          isOwner: auth.membership.isOwner,
          hasPosAccess: auth.membership.hasPosAccess,
          explicitPermissions: auth.membership.permissions,
        }
      : null,
    permissions: [...auth.permissions],
    branch,
    allowedBranches,
    isDemo: auth.isDemo,
    session: { locked: auth.locked, lockAfterMinutes: config.sessionLockMinutes, autoLogoutMinutes: config.autoLogoutMinutes },
  };
}
