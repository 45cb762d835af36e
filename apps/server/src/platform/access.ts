import { hasPermission, type Permission, type PermissionSubject } from '@pharmapoint/domain/permissions';

/**
 * What a route requires. Every route declares one (the app refuses to start otherwise, and a test walks
 * the route table): public, any signed-in user, a signed-in user working in a pharmacy, a permission, or
 * the platform operator.
 */
export type RouteAccess =
  | 'public'
  | 'authenticated'
  | 'tenant'
  | 'operator'
  | { permission: Permission }
  | { anyOf: readonly Permission[] }
  | { allOf: readonly Permission[] };

export interface RouteAccessConfig {
  access: RouteAccess;
  /** Reachable while the session is locked (me, unlock, logout). */
  allowWhenLocked?: boolean;
  /** A write a demo user may still make (sign-out, unlock, lock): it changes only their own session. */
  allowForDemo?: boolean;
  /** A create a client may retry: app.inTenant honours its Idempotency-Key header (platform/transaction.ts). */
  idempotent?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig extends Partial<RouteAccessConfig> {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
}

export interface SessionMembership {
  role: string;
  permissions: string[] | null;
  allowedBranchIds: string[] | null;
  defaultBranchId: string | null;
  hasPosAccess: boolean;
  isOwner: boolean;
}

/** The signed-in user of a request, loaded from the session cookie. */
export interface RequestAuth {
  tokenHash: string;
  userId: string;
  email: string;
  name: string;
  isPlatformOperator: boolean;
  pharmacyId: string | null;
  branchId: string | null;
  membership: SessionMembership | null;
  /** Effective permissions ('*' for admins, owners and operators). */
  permissions: readonly string[];
  subject: PermissionSubject;
  isDemo: boolean;
  locked: boolean;
  /** What GET /api/me shows besides the above, read in the same query as the session. */
  profile: {
    emailVerified: boolean;
    hasPin: boolean;
    lastLoginAt: string | null;
    pharmacy: { name: string; isDemo: boolean; theme: Record<string, unknown> } | null;
  };
}

import type { RequestContext } from './context.ts';
export type { RequestContext };

/** Does the caller hold the permission? The domain's rule ('*', admin and owner bypass), for checks inside services. */
export function holds(ctx: Pick<RequestContext, 'subject'>, permission: Permission): boolean {
  return hasPermission(ctx.subject, permission);
}
