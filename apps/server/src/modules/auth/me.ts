import type { BranchSummary, MeResponse } from '@pharmapoint/domain/auth';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { RequestAuth } from '../../platform/access.ts';

interface BranchRow {
  id: string;
  name: string;
  is_default: boolean;
  is_active: boolean;
}

/** The branches a member may switch to: every active branch, or the allowed ones; the default first. */
export function allowedBranchesOf(rows: readonly BranchRow[], allowedIds: readonly string[] | null | undefined): BranchSummary[] {
  return rows
    .filter((b) => b.is_active && (allowedIds === null || allowedIds === undefined || allowedIds.includes(b.id)))
    .sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.name.localeCompare(b.name))
    .map((b) => ({ id: b.id, name: b.name, isDefault: b.is_default }));
}

/** GET /api/me: the signed-in user, their pharmacy, membership, effective permissions and branches. */
export async function buildMe(db: Database, config: Config, auth: RequestAuth): Promise<MeResponse> {
  let allowedBranches: BranchSummary[] = [];
  let branch: BranchSummary | null = null;
  const pharmacy = auth.pharmacyId && auth.profile.pharmacy ? { id: auth.pharmacyId, ...auth.profile.pharmacy } : null;
  if (auth.pharmacyId && auth.membership) {
    const pharmacyId = auth.pharmacyId;
    const rows = await db.transaction({ pharmacyId, userId: auth.userId }, (q) =>
      q.query<BranchRow>(`SELECT id, name, is_default, is_active FROM branches WHERE pharmacy_id = $1`, [pharmacyId]),
    );
    allowedBranches = allowedBranchesOf(rows, auth.membership.allowedBranchIds);
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
