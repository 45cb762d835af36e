import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { effectivePermissions, hasPermission, type Permission, type PermissionSubject } from '@pharmapoint/domain/permissions';
import { ADMIN_SESSION_HOURS } from '@pharmapoint/domain/admin';
import type { Database } from '../db/database.ts';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';
import type { RequestAuth, RouteAccess } from './access.ts';
import { hashSecret, newSecret, sameSecret, sessionCsrfToken } from './tokens.ts';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.ts';

export const SESSION_COOKIE = 'pp_session';
export const CSRF_COOKIE = 'pp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A branch of the session's pharmacy, as GET /api/me needs it. */
export interface SessionBranch {
  id: string;
  name: string;
  isDefault: boolean;
  isActive: boolean;
}

interface SessionRow {
  user_id: string;
  email: string;
  name: string;
  is_platform_operator: boolean;
  is_active: boolean;
  is_disabled: boolean;
  email_verified: boolean;
  has_pin: boolean;
  last_login_at: Date | string | null;
  pharmacy_id: string | null;
  branch_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  locked_at: Date | string | null;
  role: string | null;
  permissions: string[] | null;
  allowed_branch_ids: string[] | null;
  default_branch_id: string | null;
  has_pos_access: boolean | null;
  is_owner: boolean | null;
  membership_active: boolean | null;
  membership_accepted: boolean | null;
  pharmacy_name: string | null;
  pharmacy_is_demo: boolean | null;
  pharmacy_theme: Record<string, unknown> | null;
  /** Every branch of the session's pharmacy (GET /api/me lists those the member may use). */
  branches: SessionBranch[] | null;
}

/**
 * A loaded session as the cache keeps it: the row, read once and judged again on every use (expiry, auto-logout),
 * and what follows from the row alone, worked out once per load instead of once per request: request.auth, the
 * route access decisions, answers such as GET /api/me's body (fromSession). A load is never changed: a change to
 * the session, its user, membership, pharmacy or branches drops the entry (decision 0062), the next request loads
 * a new one and everything is worked out again from it.
 */
interface LoadedSession {
  row: SessionRow;
  tokenHash: string;
  /** The session's CSRF token (sessionCsrfToken of its token), worked out on first use. */
  csrf: string | undefined;
  /** request.auth while the session is valid (frozen: every request of the session shares it); built on first use. */
  auth: RequestAuth | undefined;
  /** Does this session pass a route's access (keyed by the route's access value, one per route)? */
  readonly permits: Map<RouteAccess, boolean>;
  /** Answers worked out from this session alone (fromSession). */
  readonly derived: Map<string, unknown>;
}

function loaded(row: SessionRow, tokenHash: string): LoadedSession {
  return { row, tokenHash, csrf: undefined, auth: undefined, permits: new Map(), derived: new Map() };
}

/**
 * Reads a session by its token's hash with everything a request and GET /api/me need (user, membership,
 * pharmacy, the pharmacy's branches): ONE round trip, as the owner. Authentication is platform infrastructure that
 * must read a session before any tenant is known; the query is keyed by the token's hash and joins only that
 * session's own user, membership, pharmacy and branches, so it cannot reach another tenant's rows. Everything
 * after it runs under row-level security. Revoked sessions are not read; expiry is judged by sessionAuth on use.
 */
async function readSessionRow(db: Database, tokenHash: string): Promise<SessionRow | undefined> {
  const [row] = await db.owner.query<SessionRow>(
    `SELECT s.user_id, u.email, u.name, u.is_platform_operator, u.is_active, u.is_disabled,
            (u.email_verified_at IS NOT NULL OR u.google_subject IS NOT NULL) AS email_verified,
            u.pin_hash IS NOT NULL AS has_pin, u.last_login_at,
            s.pharmacy_id, s.branch_id, s.created_at, s.expires_at, s.locked_at,
            m.role, m.permissions, m.allowed_branch_ids, m.default_branch_id, m.has_pos_access, m.is_owner,
            m.is_active AS membership_active, m.accepted_at IS NOT NULL AS membership_accepted, p.name AS pharmacy_name, p.is_demo AS pharmacy_is_demo, p.theme AS pharmacy_theme,
            (SELECT json_agg(json_build_object('id', b.id, 'name', b.name, 'isDefault', b.is_default, 'isActive', b.is_active) ORDER BY b.is_default DESC, b.name)
               FROM branches b WHERE b.pharmacy_id = s.pharmacy_id) AS branches
       FROM sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN memberships m ON m.pharmacy_id = s.pharmacy_id AND m.user_id = s.user_id
       LEFT JOIN pharmacies p ON p.id = s.pharmacy_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL`,
    [tokenHash],
  );
  return row;
}

function timeOf(value: Date | string): number {
  return new Date(value).getTime();
}

/** Is the session usable now: not expired, not past its auto-logout, its user active? Judged on every use. */
function sessionValid(row: SessionRow, config: Pick<Config, 'autoLogoutMinutes'> | undefined, now: number): boolean {
  if (!row.is_active || row.is_disabled) return false;
  if (timeOf(row.expires_at) <= now) return false;
  // A locked session not unlocked within the auto-logout countdown is over (the browser signs out at 0:00 too).
  if (config && row.locked_at && now - timeOf(row.locked_at) > config.autoLogoutMinutes * 60_000) return false;
  return true;
}

/** The request's signed-in user from a valid session row: a function of the row alone (frozen, it is shared). */
function buildAuth(row: SessionRow, tokenHash: string): RequestAuth {
  // Only an accepted, active membership gives access: an invitation waiting for its answer gives none (decision 0015).
  const member = row.role !== null && row.membership_active === true && row.membership_accepted === true;
  const isDemo = member && row.role === 'demo';
  const subject: PermissionSubject = Object.freeze({
    role: member ? row.role! : 'user',
    permissions: member ? row.permissions : null,
    isOwner: member ? Boolean(row.is_owner) : false,
    hasPOSAccess: member ? Boolean(row.has_pos_access) : false,
    isDemoUser: isDemo,
    // No isPlatformOperator here: in a pharmacy an operator holds what their membership gives, like anyone else;
    // their own area is guarded by the 'operator' access (issue 7, decision 0047).
  });
  const pharmacy =
    member && row.pharmacy_name !== null ? Object.freeze({ name: row.pharmacy_name, isDemo: Boolean(row.pharmacy_is_demo), theme: row.pharmacy_theme ?? {} }) : null;
  return Object.freeze({
    tokenHash,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    isPlatformOperator: row.is_platform_operator,
    pharmacyId: member ? row.pharmacy_id : null,
    branchId: member ? row.branch_id : null,
    membership: member
      ? Object.freeze({
          role: row.role!,
          permissions: row.permissions,
          allowedBranchIds: row.allowed_branch_ids,
          defaultBranchId: row.default_branch_id,
          hasPosAccess: Boolean(row.has_pos_access),
          isOwner: Boolean(row.is_owner),
        })
      : null,
    permissions: Object.freeze(member ? effectivePermissions(subject) : []),
    subject,
    isDemo,
    locked: row.locked_at !== null,
    profile: Object.freeze({
      emailVerified: row.email_verified,
      hasPin: row.has_pin,
      lastLoginAt: row.last_login_at === null ? null : new Date(row.last_login_at).toISOString(),
      pharmacy,
    }),
  });
}

/**
 * The request's signed-in user from a loaded session, or null when the session has expired, is past its
 * auto-logout, or its user is inactive (judged against the clock of now on every use, a cached load too).
 */
function sessionAuth(session: LoadedSession, config: Pick<Config, 'autoLogoutMinutes'> | undefined, now: number): RequestAuth | null {
  if (!sessionValid(session.row, config, now)) return null;
  return (session.auth ??= buildAuth(session.row, session.tokenHash));
}

/**
 * Loads the session of a token from the database (no cache), or null when it is unknown, revoked, expired, past
 * its auto-logout, or its user is inactive.
 */
export async function loadSession(db: Database, token: string, config?: Pick<Config, 'autoLogoutMinutes'>): Promise<RequestAuth | null> {
  const tokenHash = hashSecret(token);
  const row = await readSessionRow(db, tokenHash);
  return row ? sessionAuth(loaded(row, tokenHash), config, Date.now()) : null;
}

/** The loaded session each request was authenticated with (request.auth is made from it); a request decoration. */
const SESSION = Symbol('pharmapoint.session');
type WithSession = FastifyRequest & { [SESSION]: LoadedSession | null };

function requestSession(request: FastifyRequest): LoadedSession | null {
  return (request as WithSession)[SESSION];
}

/** The branches of the request's session's pharmacy, read with the session (undefined when no session was loaded). */
export function sessionBranches(request: FastifyRequest): SessionBranch[] | undefined {
  const session = requestSession(request);
  return session ? (session.row.branches ?? []) : undefined;
}

/**
 * An answer worked out from the request's session alone (its row: the user, membership, pharmacy and branches
 * as loaded), kept with the loaded session and reused by the session's next requests until the session cache
 * drops the load (any change to what the row holds, decision 0062) or it expires (ttl). `compute` must depend on
 * nothing but the session and the server's configuration. Without a loaded session it is simply computed.
 */
export function fromSession<T>(request: FastifyRequest, key: string, compute: () => T): T {
  const session = requestSession(request);
  if (!session) return compute();
  if (session.derived.has(key)) return session.derived.get(key) as T;
  const value = compute();
  session.derived.set(key, value);
  return value;
}

/** Was this session signed in less than ADMIN_SESSION_HOURS ago (what the operator's admin area requires)? */
function adminSessionFresh(row: SessionRow, now: number): boolean {
  return now - timeOf(row.created_at) < ADMIN_SESSION_HOURS * 3_600_000;
}

/** Does the session pass the route's access? Decided once per loaded session and route. */
function permitsOnce(session: LoadedSession, auth: RequestAuth, access: RouteAccess): boolean {
  let decision = session.permits.get(access);
  if (decision === undefined) session.permits.set(access, (decision = permits(auth, access)));
  return decision;
}

function permits(auth: RequestAuth, access: RouteAccess): boolean {
  const holds = (p: Permission) => hasPermission(auth.subject, p);
  if (access === 'public' || access === 'authenticated') return true;
  if (access === 'operator') return auth.isPlatformOperator;
  if (!auth.pharmacyId) return false;
  if (access === 'tenant') return true;
  if ('permission' in access) return holds(access.permission);
  if ('anyOf' in access) return access.anyOf.some(holds);
  return access.allOf.every(holds);
}

/**
 * The readable CSRF cookie (the browser echoes it in the x-csrf-token header): the session's token when signed in,
 * a random pre-session token otherwise (decision 0089).
 */
function setCsrfCookie(reply: FastifyReply, config: Pick<Config, 'secureCookies'>, value: string): void {
  reply.setCookie(CSRF_COOKIE, value, { path: '/', sameSite: 'lax', secure: config.secureCookies });
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    expires,
  });
  // The new session's CSRF token, in the same answer: the browser's next write sends it.
  setCsrfCookie(reply, config, sessionCsrfToken(token));
  // A hint the browser can read (it says nothing but 'a session may exist'): public pages ask /api/me only when it
  // is there, so a visitor's console shows no 401 (issue 8 item 11). The session itself stays HttpOnly.
  reply.setCookie(SESSION_HINT_COOKIE, '1', { path: '/', httpOnly: false, sameSite: 'lax', secure: config.secureCookies, expires });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies });
  reply.clearCookie(SESSION_HINT_COOKIE, { path: '/', sameSite: 'lax', secure: config.secureCookies });
  // Signed out: a fresh pre-session token for the next sign-in (the ended session's token is worth nothing now).
  setCsrfCookie(reply, config, newSecret(24));
}

/** The readable 'signed in here' hint beside the HttpOnly session cookie (the web app's session-hint reads it). */
export const SESSION_HINT_COOKIE = 'pp_signed_in';

declare module 'fastify' {
  interface FastifyInstance {
    /** The loaded sessions of this instance (platform/session-cache.ts, decision 0062). */
    sessionCache: SessionCache<LoadedSession>;
  }
}

/**
 * Sessions, CSRF and route access for the whole app:
 * - every route must declare config.access (checked when the route is added);
 * - the session cookie is read on each /api request, from the session cache or in one query (decision 0062); a
 *   cached session is found by its token and decided synchronously, with what follows from its row (request.auth,
 *   route access, GET /api/me's body) worked out once per load (decision 0073);
 * - what a write request changed in the sessions it may concern is dropped from this instance's cache by its own
 *   transactions at commit (SessionCache.watch, migration 0033), not by the request's method: a sale drops none;
 * - state-changing requests need the CSRF token in the x-csrf-token header: with a session, the session's own token
 *   (an HMAC keyed by the session token, handed out in the pp_csrf cookie); without one, the pre-session
 *   double-submit token (header = the pp_csrf cookie) of the anonymous flows (decision 0089);
 * - the declared access, the session lock and demo read-only are enforced before the body is even read.
 */
export const authPlugin = fp<{ db: Database; config: Config; sessionCacheMs?: number }>(async (app: FastifyInstance, { db, config, sessionCacheMs }) => {
  app.decorateRequest('auth', null);
  app.decorateRequest(SESSION, null);
  const cache = new SessionCache<LoadedSession>(sessionCacheMs ?? SESSION_CACHE_TTL_MS);
  await cache.attach(db);
  app.decorate('sessionCache', cache);
  app.addHook('onClose', async () => cache.detach());

  /** The loaded session of a token: from the cache, else one query (stored unless something changed meanwhile). */
  async function loadInto(token: string, tokenHash: string): Promise<LoadedSession | undefined> {
    const epoch = cache.epoch;
    const row = await readSessionRow(db, tokenHash);
    if (!row) return undefined;
    const session = loaded(row, tokenHash);
    cache.store(tokenHash, session, { userId: row.user_id, pharmacyId: row.pharmacy_id }, epoch, token);
    return session;
  }

  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith('/api') && !url.startsWith('/health')) return;
    if (!route.config?.access) throw new Error(`Route ${route.method} ${url} declares no access (config.access)`);
  });

  /**
   * Authenticates and authorises a request once its session is known (undefined: no session cookie, or an
   * unknown or revoked token). Synchronous but for the admin area's expiry (a revocation): then a promise.
   */
  function authorize(request: FastifyRequest, reply: FastifyReply, session: LoadedSession | undefined, token: string | undefined): Promise<void> | undefined {
    const now = Date.now();
    const auth = session ? sessionAuth(session, config, now) : null;
    request.auth = auth;
    if (session && auth) (request as WithSession)[SESSION] = session;

    // The CSRF token every /api answer hands out: the session's own when signed in (replacing a pre-session or an
    // older session's token the browser still holds), else a random pre-session token when the browser has none.
    const bound = session && auth && token ? (session.csrf ??= sessionCsrfToken(token)) : undefined;
    const cookie = request.cookies[CSRF_COOKIE];
    if (bound ? cookie !== bound : !cookie) setCsrfCookie(reply, config, bound ?? newSecret(24));

    const routeConfig = request.routeOptions.config;
    const access = routeConfig?.access;
    if (!access) return undefined; // unknown paths (404)
    const safe = SAFE_METHODS.has(request.method);
    if (!safe) {
      const header = request.headers[CSRF_HEADER];
      // Signed in: the session's token and nothing else (not a value of one's choosing in cookie and header, not
      // another session's token, not the pre-session token). Signed out: the double-submit pre-session token.
      const expected = bound ?? cookie;
      if (!expected || typeof header !== 'string' || !sameSecret(header, expected)) throw new AppError('CSRF_FAILED');
    }
    if (access === 'public') return undefined;
    if (!auth || !session) throw new AppError('NOT_AUTHENTICATED');
    if (auth.locked && !routeConfig.allowWhenLocked) throw new AppError('SESSION_LOCKED');
    if (auth.isDemo && !safe && !routeConfig.allowForDemo) throw new AppError('DEMO_READ_ONLY');
    if (!permitsOnce(session, auth, access)) throw new AppError(auth.pharmacyId || access === 'operator' ? 'FORBIDDEN' : 'NO_PHARMACY_CONTEXT');
    if (access === 'operator' && !adminSessionFresh(session.row, now)) return endAdminSession(request, reply, auth);
    return undefined;
  }

  /**
   * The admin session lasts ADMIN_SESSION_HOURS from sign-in on the server too, not only in the browser (issue 7,
   * decision 0047): past it the session ends and the operator signs in again.
   */
  async function endAdminSession(request: FastifyRequest, reply: FastifyReply, auth: RequestAuth): Promise<void> {
    await db.owner.query(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL`, [auth.tokenHash]);
    cache.dropSession(auth.tokenHash);
    clearSessionCookie(reply, config);
    request.auth = null;
    (request as WithSession)[SESSION] = null;
    throw new AppError('NOT_AUTHENTICATED');
  }

  // Everything runs in onRequest, before the body is parsed and validated: a caller who is not signed in, not
  // allowed or without the CSRF token gets 401/403, never a 400 about a body they may not send at all. A request
  // whose session is cached is decided synchronously (no promise, no hashing: the cache finds it by its token).
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    if (!url.startsWith('/api') && !url.startsWith('/health')) return done();
    if (url.startsWith('/health') && request.routeOptions.config?.access === 'public') return done(); // health checks: no session lookup
    const token = request.cookies[SESSION_COOKIE];
    const hit = token ? cache.getByToken(token) : undefined;
    if (!token || hit) {
      const pending = authorize(request, reply, hit?.value, token);
      if (pending) return pending;
      return done();
    }
    return loadInto(token, hashSecret(token)).then((session) => authorize(request, reply, session, token));
  });
});
