import { hasPermission, type PermissionSubject } from '@pharmapoint/domain/permissions';
import type { RequestAuth, SessionMembership } from './access.ts';
import { AppError } from './errors.ts';

/**
 * Everything a use case knows of its caller, built once per request by the transaction wrapper
 * (app.inTenant): the tenant, the session's branch, the user, what they may do and see, and the request's clock.
 * Use cases take (q, ctx, input) and never look at the HTTP request.
 */
export interface RequestContext {
  pharmacyId: string;
  /** The branch the session works in (POST /api/me/branch); null until one is chosen. */
  branchId: string | null;
  userId: string;
  /** Effective permissions ('*' for admins, owners and operators). */
  permissions: readonly string[];
  subject: PermissionSubject;
  membership: SessionMembership;
  isDemo: boolean;
  /** The branches the user may read and write; null = every branch of the pharmacy. */
  visibleBranchIds: readonly string[] | null;
  /** The request's clock: one instant for everything the request stamps. */
  now: Date;
}

/** Which branches a member may see: every one with branch:view_all or settings:system, else their allowed list. */
export function visibleBranchIdsOf(subject: PermissionSubject, membership: SessionMembership | null): readonly string[] | null {
  if (hasPermission(subject, 'branch:view_all') || hasPermission(subject, 'settings:system')) return null;
  return membership?.allowedBranchIds ?? null;
}

/** The tenant context of a signed-in session; throws when the caller works in no pharmacy. */
export function tenantContext(auth: RequestAuth | null, now: Date = new Date()): RequestContext {
  if (!auth) throw new AppError('NOT_AUTHENTICATED');
  if (!auth.pharmacyId || !auth.membership) throw new AppError('NO_PHARMACY_CONTEXT');
  return {
    pharmacyId: auth.pharmacyId,
    branchId: auth.branchId,
    userId: auth.userId,
    permissions: auth.permissions,
    subject: auth.subject,
    membership: auth.membership,
    isDemo: auth.isDemo,
    visibleBranchIds: visibleBranchIdsOf(auth.subject, auth.membership),
    now,
  };
}

/** May the caller see this branch? */
export function canSeeBranch(ctx: Pick<RequestContext, 'visibleBranchIds'>, branchId: string): boolean {
  return ctx.visibleBranchIds === null || ctx.visibleBranchIds.includes(branchId);
}
