import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { effectivePermissions, hasPermission, type PermissionSubject } from '@pharmapoint/domain/permissions';
import type { Database } from '../db/database.ts';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';
import type { RequestAuth, RequestContext, RouteAccess } from './access.ts';
import { hashSecret, newSecret } from './tokens.ts';

export const SESSION_COOKIE = 'pp_session';
export const CSRF_COOKIE = 'pp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface SessionRow {
  token_hash: string;
  user_id: string;
  email: string;
  name: string;
  is_platform_operator: boolean;
  is_active: boolean;
  is_disabled: boolean;
  pharmacy_id: string | null;
  branch_id: string | null;
  locked_at: string | null;
  expires_at: string;
  last_seen_at: string;
}

interface MembershipRow {
  role: string;
  permissions: string[] | null;
  allowed_branch_ids: string[] | null;
  default_branch_id: string | null;
  has_pos_access: boolean;
  is_owner: boolean;
  is_active: boolean;
  is_demo: boolean;
}

/** Loads the session of a token, or null when it is unknown, revoked, expired or its user is inactive. */
export async function loadSession(db: Database, token: string, config?: Pick<Config, 'autoLogoutMinutes'>): Promise<RequestAuth | null> {
  const tokenHash = hashSecret(token);
  const [row] = await db.transaction({}, (q) =>
    q.query<SessionRow>(
      `SELECT s.token_hash, s.user_id, u.email, u.name, u.is_platform_operator, u.is_active, u.is_disabled,
              s.pharmacy_id, s.branch_id, s.locked_at, s.expires_at, s.last_seen_at
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [tokenHash],
    ),
  );
  if (!row || !row.is_active || row.is_disabled) return null;
  // A locked session not unlocked within the auto-logout countdown is over (the browser signs out at 0:00 too).
  if (config && row.locked_at && Date.now() - new Date(row.locked_at).getTime() > config.autoLogoutMinutes * 60_000) return null;
  let membership: MembershipRow | undefined;
  if (row.pharmacy_id) {
    [membership] = await db.transaction({ pharmacyId: row.pharmacy_id, userId: row.user_id }, (q) =>
      q.query<MembershipRow>(
        `SELECT m.role, m.permissions, m.allowed_branch_ids, m.default_branch_id, m.has_pos_access, m.is_owner,
                m.is_active, p.is_demo
           FROM memberships m JOIN pharmacies p ON p.id = m.pharmacy_id
          WHERE m.pharmacy_id = $1 AND m.user_id = $2`,
        [row.pharmacy_id, row.user_id],
      ),
    );
    if (!membership || !membership.is_active) membership = undefined;
  }
  const isDemo = membership?.role === 'demo';
  const subject: PermissionSubject = {
    role: membership?.role ?? 'user',
    permissions: membership?.permissions ?? null,
    isOwner: membership?.is_owner ?? false,
    hasPOSAccess: membership?.has_pos_access ?? false,
    isDemoUser: isDemo,
    isPlatformOperator: row.is_platform_operator,
  };
  return {
    tokenHash,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    isPlatformOperator: row.is_platform_operator,
    pharmacyId: membership ? row.pharmacy_id : null,
    branchId: membership ? row.branch_id : null,
    membership: membership
      ? {
          role: membership.role,
          permissions: membership.permissions,
          allowedBranchIds: membership.allowed_branch_ids,
          defaultBranchId: membership.default_branch_id,
          hasPosAccess: membership.has_pos_access,
          isOwner: membership.is_owner,
        }
      : null,
    permissions: membership || row.is_platform_operator ? effectivePermissions(subject) : [],
    subject,
    isDemo,
    locked: row.locked_at !== null,
  };
}

function permits(auth: RequestAuth, access: RouteAccess): boolean {
  const holds = (p: string) => hasPermission(auth.subject, p);
  if (access === 'public' || access === 'authenticated') return true;
  if (access === 'operator') return auth.isPlatformOperator;
  if (!auth.pharmacyId) return false;
  if (access === 'tenant') return true;
  if ('permission' in access) return holds(access.permission);
  if ('anyOf' in access) return access.anyOf.some(holds);
  return access.allOf.every(holds);
}

/** The request's tenant context; throws when the caller works in no pharmacy. */
export function requireContext(request: FastifyRequest): RequestContext {
  const auth = request.auth;
  if (!auth) throw new AppError('NOT_AUTHENTICATED');
  if (!auth.pharmacyId) throw new AppError('NO_PHARMACY_CONTEXT');
  return {
    pharmacyId: auth.pharmacyId,
    branchId: auth.branchId,
    userId: auth.userId,
    permissions: auth.permissions,
    subject: auth.subject,
    isDemo: auth.isDemo,
  };
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    expires,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies });
}

/**
 * Sessions, CSRF and route access for the whole app:
 * - every route must declare config.access (checked when the route is added);
 * - the session cookie is read on each /api request;
 * - state-changing requests need the double-submit CSRF token (cookie pp_csrf = header x-csrf-token);
 * - the declared access, the session lock and demo read-only are enforced before the handler runs.
 */
export const authPlugin = fp<{ db: Database; config: Config }>(async (app: FastifyInstance, { db, config }) => {
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith('/api') && !url.startsWith('/health')) return;
    if (!route.config?.access) throw new Error(`Route ${route.method} ${url} declares no access (config.access)`);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api') && !request.url.startsWith('/health')) return;
    // Hand every browser a CSRF token it can echo back in a header (double-submit cookie).
    if (!request.cookies[CSRF_COOKIE]) {
      reply.setCookie(CSRF_COOKIE, newSecret(24), { path: '/', sameSite: 'lax', secure: config.secureCookies });
    }
    const token = request.cookies[SESSION_COOKIE];
    request.auth = token ? await loadSession(db, token, config) : null;
  });

  app.addHook('preHandler', async (request) => {
    const routeConfig = request.routeOptions.config;
    const access = routeConfig?.access;
    if (!access) return; // static files and the SPA fallback
    if (!SAFE_METHODS.has(request.method)) {
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || header !== cookie) throw new AppError('CSRF_FAILED');
    }
    if (access === 'public') return;
    const auth = request.auth;
    if (!auth) throw new AppError('NOT_AUTHENTICATED');
    if (auth.locked && !routeConfig.allowWhenLocked) throw new AppError('SESSION_LOCKED');
    if (auth.isDemo && !SAFE_METHODS.has(request.method) && !routeConfig.allowForDemo) throw new AppError('DEMO_READ_ONLY');
    if (!permits(auth, access)) throw new AppError(auth.pharmacyId || access === 'operator' ? 'FORBIDDEN' : 'NO_PHARMACY_CONTEXT');
  });
});
