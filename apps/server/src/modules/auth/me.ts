import type { BranchSummary, MeResponse } from '@pharmapoint/domain/auth';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { RequestAuth } from '../../platform/access.ts';

interface UserRow {
  email_verified_at: string | null;
  has_pin: boolean;
  last_login_at: Date | string | null;
  google_subject: string | null;
}

interface PharmacyRow {
  name: string;
  is_demo: boolean;
  theme: Record<string, unknown>;
}

interface BranchRow {
  id: string;
  name: string;
  is_default: boolean;
  is_active: boolean;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The branches a member may switch to: every active branch, or the allowed ones; the default first. */
export function allowedBranchesOf(rows: readonly BranchRow[], allowedIds: readonly string[] | null | undefined): BranchSummary[] {
  return rows
    .filter((b) => b.is_active && (allowedIds === null || allowedIds === undefined || allowedIds.includes(b.id)))
    .sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.name.localeCompare(b.name))
    .map((b) => ({ id: b.id, name: b.name, isDefault: b.is_default }));
}

/** GET /api/me: the signed-in user, their pharmacy, membership, effective permissions and branches. */
export async function buildMe(db: Database, config: Config, auth: RequestAuth): Promise<MeResponse> {
  return db.transaction({ pharmacyId: auth.pharmacyId, userId: auth.userId }, async (q) => {
    const [user] = await q.query<UserRow>(
      `SELECT email_verified_at, pin_hash IS NOT NULL AS has_pin, last_login_at, google_subject FROM users WHERE id = $1`,
      [auth.userId],
    );
    let pharmacy: MeResponse['pharmacy'] = null;
    let allowedBranches: BranchSummary[] = [];
    let branch: BranchSummary | null = null;
    if (auth.pharmacyId && auth.membership) {
      const [p] = await q.query<PharmacyRow>(`SELECT name, is_demo, theme FROM pharmacies WHERE id = $1`, [auth.pharmacyId]);
      if (p) pharmacy = { id: auth.pharmacyId, name: p.name, isDemo: p.is_demo, theme: p.theme ?? {} };
      const rows = await q.query<BranchRow>(`SELECT id, name, is_default, is_active FROM branches WHERE pharmacy_id = $1`, [auth.pharmacyId]);
      allowedBranches = allowedBranchesOf(rows, auth.membership.allowedBranchIds);
      branch = allowedBranches.find((b) => b.id === auth.branchId) ?? allowedBranches[0] ?? null;
    }
    return {
      user: {
        id: auth.userId,
        email: auth.email,
        name: auth.name,
        displayName: auth.name,
        emailVerified: Boolean(user?.email_verified_at || user?.google_subject),
        hasPin: Boolean(user?.has_pin),
        isPlatformOperator: auth.isPlatformOperator,
        lastLoginAt: iso(user?.last_login_at ?? null),
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
  });
}
