import { EMAIL_PATTERN, isPasswordAcceptable, PIN_PATTERN } from '@pharmapoint/domain/auth';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import type { RequestAuth } from '../../platform/access.ts';
import { loadSession } from '../../platform/auth-plugin.ts';
import { AppError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { hashSecret, newSecret } from '../../platform/tokens.ts';
import { audit } from '../audit/audit.service.ts';
import type { FailureThrottle } from './throttle.ts';

export interface AuthDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
}

/** Failed sign-ins before an account locks, and for how long (seed 000 section 8, Login). */
export const MAX_LOGIN_ATTEMPTS = 5;
export const ACCOUNT_LOCK_MINUTES = 15;
/** Failed unlocks of a locked session before it is signed out. */
export const MAX_UNLOCK_ATTEMPTS = 5;
export const VERIFY_EMAIL_HOURS = 24;
export const RESET_PASSWORD_MINUTES = 60;
/** Reset emails one address may request per RESET_WINDOW_MINUTES. */
export const RESET_MAX_PER_WINDOW = 3;
export const RESET_WINDOW_MINUTES = 15;

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  pin_hash: string | null;
  google_subject: string | null;
  email_verified_at: Date | null;
  is_active: boolean;
  is_disabled: boolean;
  locked_until: Date | null;
  login_attempts: number;
  is_platform_operator: boolean;
}

export async function findUserByEmail(q: Queryable, email: string, forUpdate = false): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(
    `SELECT id, email, name, password_hash, pin_hash, google_subject, email_verified_at, is_active, is_disabled, locked_until,
            login_attempts, is_platform_operator
       FROM users WHERE email = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [email],
  );
  return row;
}

/** Checks the email of a form: present and well-formed. */
export function assertEmail(email: string, requiredCode: 'LOGIN_FIELDS_REQUIRED' | 'RESET_EMAIL_REQUIRED'): void {
  if (!email) throw new AppError(requiredCode);
  if (!EMAIL_PATTERN.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
}

interface MembershipChoice {
  pharmacy_id: string;
  default_branch_id: string | null;
  allowed_branch_ids: string[] | null;
}

/**
 * Where a new session starts: the pharmacy of the user's last session if they still work there, else the first
 * active membership (owned pharmacies first); the branch is their default, else the pharmacy's default, else the
 * first branch they are allowed in.
 */
async function startingPlace(db: Database, userId: string): Promise<{ pharmacyId: string | null; branchId: string | null }> {
  const memberships = await db.transaction({ userId }, (q) =>
    q.query<MembershipChoice & { last_used: Date | null }>(
      `SELECT m.pharmacy_id, m.default_branch_id, m.allowed_branch_ids,
              (SELECT max(s.created_at) FROM sessions s WHERE s.user_id = m.user_id AND s.pharmacy_id = m.pharmacy_id) AS last_used
         FROM memberships m
        WHERE m.user_id = $1 AND m.is_active
        ORDER BY last_used DESC NULLS LAST, m.is_owner DESC, m.created_at`,
      [userId],
    ),
  );
  const chosen = memberships[0];
  if (!chosen) return { pharmacyId: null, branchId: null };
  const branches = await db.transaction({ pharmacyId: chosen.pharmacy_id, userId }, (q) =>
    q.query<{ id: string; is_default: boolean }>(
      `SELECT id, is_default FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY is_default DESC, name`,
      [chosen.pharmacy_id],
    ),
  );
  const allowed = branches.filter((b) => !chosen.allowed_branch_ids || chosen.allowed_branch_ids.includes(b.id));
  const branch = allowed.find((b) => b.id === chosen.default_branch_id) ?? allowed[0] ?? null;
  return { pharmacyId: chosen.pharmacy_id, branchId: branch?.id ?? null };
}

export interface NewSession {
  token: string;
  expires: Date;
  auth: RequestAuth;
}

/** Opens a session for a user (after a password, an invitation or Google) and records the sign-in. */
export async function openSession(deps: AuthDeps, userId: string, client: { ip: string; userAgent?: string }, now = new Date()): Promise<NewSession> {
  const place = await startingPlace(deps.db, userId);
  const token = newSecret();
  const expires = new Date(now.getTime() + deps.config.sessionDays * 86_400_000);
  await deps.db.transaction({ pharmacyId: place.pharmacyId, userId }, async (q) => {
    await q.query(
      `INSERT INTO sessions (token_hash, user_id, pharmacy_id, branch_id, expires_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [hashSecret(token), userId, place.pharmacyId, place.branchId, expires, client.userAgent?.slice(0, 300) ?? null, client.ip],
    );
    await q.query(
      `UPDATE users SET last_login_at = $2, session_active = true, login_attempts = 0, locked_until = NULL, updated_at = $2 WHERE id = $1`,
      [userId, now],
    );
    if (place.pharmacyId) await audit(q, { pharmacyId: place.pharmacyId, userId }, 'login', 'session', null, null, { ip: client.ip });
  });
  const auth = await loadSession(deps.db, token, deps.config);
  if (!auth) throw new AppError('LOGIN_FAILED');
  return { token, expires, auth };
}

/**
 * Email and password sign-in with every rule of seed 000 sections 5 and 8: required fields, a valid email, the
 * per-IP limit, unknown accounts, locked, disabled and deactivated accounts, 5 failures lock the account for 15
 * minutes, unverified emails refused (a fresh verification link is sent).
 */
export async function signIn(
  deps: AuthDeps,
  input: { email: string; password: string },
  client: { ip: string; userAgent?: string },
  throttle: FailureThrottle,
  now = new Date(),
): Promise<NewSession> {
  const email = input.email.trim().toLowerCase();
  if (!email || !input.password) throw new AppError('LOGIN_FIELDS_REQUIRED');
  if (!EMAIL_PATTERN.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
  if (throttle.blocked(client.ip, now.getTime())) throw new AppError('LOGIN_TOO_MANY_ATTEMPTS');

  const user = await deps.db.transaction({}, (q) => findUserByEmail(q, email));
  if (!user) {
    throttle.fail(client.ip, now.getTime());
    throw new AppError('LOGIN_NO_ACCOUNT');
  }
  if (user.locked_until && new Date(user.locked_until) > now) throw new AppError('LOGIN_LOCKED');
  if (user.is_disabled) throw new AppError('LOGIN_DISABLED');
  if (!user.is_active) throw new AppError('LOGIN_DEACTIVATED');

  if (!(await verifyPassword(user.password_hash, input.password))) {
    throttle.fail(client.ip, now.getTime());
    const locked = await deps.db.transaction({}, async (q) => {
      const [row] = await q.query<{ login_attempts: number }>(
        `UPDATE users SET login_attempts = login_attempts + 1,
                locked_until = CASE WHEN login_attempts + 1 >= $2 THEN $3::timestamptz ELSE locked_until END,
                updated_at = now()
          WHERE id = $1 RETURNING login_attempts`,
        [user.id, MAX_LOGIN_ATTEMPTS, new Date(now.getTime() + ACCOUNT_LOCK_MINUTES * 60_000)],
      );
      return (row?.login_attempts ?? 0) >= MAX_LOGIN_ATTEMPTS;
    });
    throw new AppError(locked ? 'LOGIN_LOCKED' : 'LOGIN_INVALID_CREDENTIALS');
  }

  if (!user.email_verified_at && !user.google_subject) {
    await sendVerificationEmail(deps, user, now, { onlyIfNoneRecent: true });
    throw new AppError('LOGIN_UNVERIFIED');
  }

  const activeMemberships = await deps.db.transaction({ userId: user.id }, (q) =>
    q.query<{ active: boolean }>(`SELECT bool_or(is_active) AS active FROM memberships WHERE user_id = $1`, [user.id]),
  );
  // Staff whose every membership was deactivated are refused; a user with none may still sign in to create one.
  if (activeMemberships[0]?.active === false) throw new AppError('LOGIN_DEACTIVATED');

  return openSession(deps, user.id, client, now);
}

/** Signs the session out: revoked for good; the user's sessionActive follows their other live sessions. */
export async function signOut(db: Database, auth: RequestAuth, now = new Date()): Promise<void> {
  await db.transaction({ pharmacyId: auth.pharmacyId, userId: auth.userId }, async (q) => {
    await q.query(`UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1`, [auth.tokenHash, now]);
    await q.query(
      `UPDATE users SET last_logout_at = $2, updated_at = $2,
              session_active = EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2)
        WHERE id = $1`,
      [auth.userId, now],
    );
    if (auth.pharmacyId) await audit(q, { pharmacyId: auth.pharmacyId, userId: auth.userId }, 'logout', 'session', null, null, null);
  });
}

export async function lockSession(db: Database, auth: RequestAuth, now = new Date()): Promise<void> {
  await db.transaction({ userId: auth.userId }, (q) =>
    q.query(`UPDATE sessions SET locked_at = COALESCE(locked_at, $2) WHERE token_hash = $1`, [auth.tokenHash, now]),
  );
}

/**
 * Unlocks a locked session with the user's PIN or password (seed 000 section 5, Unlock). After
 * MAX_UNLOCK_ATTEMPTS failures the session is signed out. Returns false when it was signed out.
 */
export async function unlockSession(db: Database, auth: RequestAuth, input: { method: 'pin' | 'password'; secret: string }, now = new Date()): Promise<void> {
  const secret = input.secret;
  if (!secret) throw new AppError(input.method === 'pin' ? 'UNLOCK_PIN_REQUIRED' : 'UNLOCK_PASSWORD_REQUIRED');
  if (input.method === 'pin' && !PIN_PATTERN.test(secret)) throw new AppError('UNLOCK_PIN_FORMAT');
  const [user] = await db.transaction({ userId: auth.userId }, (q) =>
    q.query<{ password_hash: string | null; pin_hash: string | null }>(`SELECT password_hash, pin_hash FROM users WHERE id = $1`, [auth.userId]),
  );
  const stored = input.method === 'pin' ? user?.pin_hash : user?.password_hash;
  if (input.method === 'pin' && !stored) throw new AppError('UNLOCK_FAILED', { message: 'No PIN is set. Unlock with your password.' });
  if (await verifyPassword(stored, secret)) {
    await db.transaction({ userId: auth.userId }, (q) =>
      q.query(`UPDATE sessions SET locked_at = NULL, unlock_attempts = 0, last_seen_at = $2 WHERE token_hash = $1`, [auth.tokenHash, now]),
    );
    return;
  }
  const [row] = await db.transaction({ userId: auth.userId }, (q) =>
    q.query<{ unlock_attempts: number }>(
      `UPDATE sessions SET unlock_attempts = unlock_attempts + 1,
              revoked_at = CASE WHEN unlock_attempts + 1 >= $2 THEN $3::timestamptz ELSE revoked_at END
        WHERE token_hash = $1 RETURNING unlock_attempts`,
      [auth.tokenHash, MAX_UNLOCK_ATTEMPTS, now],
    ),
  );
  if ((row?.unlock_attempts ?? 0) >= MAX_UNLOCK_ATTEMPTS) {
    throw new AppError('NOT_AUTHENTICATED', { message: 'Too many failed attempts. You have been signed out.' });
  }
  throw new AppError('UNLOCK_FAILED', { message: input.method === 'pin' ? 'Incorrect PIN' : 'Incorrect password' });
}

/** Sets the user's unlock PIN (4 to 6 digits), confirmed with their password. */
export async function setPin(db: Database, auth: RequestAuth, input: { pin: string; currentPassword: string }): Promise<void> {
  const [user] = await db.transaction({ userId: auth.userId }, (q) =>
    q.query<{ password_hash: string | null }>(`SELECT password_hash FROM users WHERE id = $1`, [auth.userId]),
  );
  if (!(await verifyPassword(user?.password_hash, input.currentPassword))) {
    throw new AppError('LOGIN_INVALID_CREDENTIALS', { message: 'Your current password is not correct.' });
  }
  const pinHash = await hashPassword(input.pin);
  await db.transaction({ userId: auth.userId }, (q) => q.query(`UPDATE users SET pin_hash = $2, updated_at = now() WHERE id = $1`, [auth.userId, pinHash]));
}

type TokenPurpose = 'verify_email' | 'reset_password' | 'invite';

async function issueToken(q: Queryable, userId: string, purpose: TokenPurpose, expires: Date): Promise<string> {
  const secret = newSecret();
  await q.query(`INSERT INTO one_time_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)`, [
    hashSecret(secret),
    userId,
    purpose,
    expires,
  ]);
  return secret;
}

/**
 * Finds a one-time token for use; throws the specification's messages: unknown or used 'This link has expired or
 * already been used.', expired 'This link has expired. Please request a new one.'
 */
export async function findToken(q: Queryable, secret: string, purpose: TokenPurpose, now: Date, forUpdate = false): Promise<{ user_id: string }> {
  const [row] = await q.query<{ user_id: string; expires_at: Date; used_at: Date | null }>(
    `SELECT user_id, expires_at, used_at FROM one_time_tokens WHERE token_hash = $1 AND purpose = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [hashSecret(secret), purpose],
  );
  if (!row || row.used_at) throw new AppError('VERIFY_LINK_USED');
  if (new Date(row.expires_at) <= now) throw new AppError('VERIFY_LINK_EXPIRED');
  return row;
}

async function useToken(q: Queryable, secret: string, now: Date): Promise<void> {
  await q.query(`UPDATE one_time_tokens SET used_at = $2 WHERE token_hash = $1`, [hashSecret(secret), now]);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function linkEmail(to: string, subject: string, greeting: string, lines: string[], link: string, action: string) {
  return {
    to,
    subject,
    text: `${greeting}\n\n${lines.join('\n')}\n\n${action}: ${link}\n\nIf you did not ask for this, you can ignore this email.\n`,
    html:
      `<p>${escapeHtml(greeting)}</p>` +
      lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>If you did not ask for this, you can ignore this email.</p>`,
  };
}

/** Queues a verification email (a fresh single-use link valid VERIFY_EMAIL_HOURS). */
export async function sendVerificationEmail(
  deps: AuthDeps,
  user: { id: string; email: string; name: string },
  now = new Date(),
  options: { onlyIfNoneRecent?: boolean } = {},
): Promise<void> {
  const queued = await deps.db.transaction({ userId: user.id }, async (q) => {
    if (options.onlyIfNoneRecent) {
      const recent = await q.query(
        `SELECT 1 FROM one_time_tokens WHERE user_id = $1 AND purpose = 'verify_email' AND used_at IS NULL AND created_at > $2`,
        [user.id, new Date(now.getTime() - 10 * 60_000)],
      );
      if (recent.length) return false;
    }
    const secret = await issueToken(q, user.id, 'verify_email', new Date(now.getTime() + VERIFY_EMAIL_HOURS * 3_600_000));
    const link = `${deps.config.publicUrl}/verify-email?mode=verifyEmail&oobCode=${encodeURIComponent(secret)}`;
    await deps.mailer.enqueue(
      q,
      linkEmail(user.email, 'Verify your email for PharmaPoint', `Hello ${user.name},`, ['Please confirm your email address to start using PharmaPoint.'], link, 'Verify my email'),
    );
    return true;
  });
  if (queued) void deps.mailer.flush().catch(() => undefined);
}

/** Applies an email verification link (seed 002 section 8, Email verification). */
export async function verifyEmail(db: Database, input: { mode: string; oobCode: string }, now = new Date()): Promise<void> {
  if (input.mode !== 'verifyEmail' || !input.oobCode) throw new AppError('VERIFY_LINK_INVALID');
  await db.transaction({}, async (q) => {
    const token = await findToken(q, input.oobCode, 'verify_email', now, true);
    await useToken(q, input.oobCode, now);
    await q.query(`UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2), updated_at = $2 WHERE id = $1`, [token.user_id, now]);
  });
}

/** Sends a password reset link (seed 002 section 8, Password reset); at most RESET_MAX_PER_WINDOW per window. */
export async function requestPasswordReset(deps: AuthDeps, rawEmail: string, now = new Date()): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  assertEmail(email, 'RESET_EMAIL_REQUIRED');
  await deps.db.transaction({}, async (q) => {
    const user = await findUserByEmail(q, email);
    if (!user) throw new AppError('RESET_NO_ACCOUNT');
    const [recent] = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM one_time_tokens WHERE user_id = $1 AND purpose = 'reset_password' AND created_at > $2`,
      [user.id, new Date(now.getTime() - RESET_WINDOW_MINUTES * 60_000)],
    );
    if ((recent?.n ?? 0) >= RESET_MAX_PER_WINDOW) throw new AppError('RESET_TOO_MANY');
    const secret = await issueToken(q, user.id, 'reset_password', new Date(now.getTime() + RESET_PASSWORD_MINUTES * 60_000));
    const link = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(secret)}`;
    await deps.mailer.enqueue(
      q,
      linkEmail(
        user.email,
        'Reset your PharmaPoint password',
        `Hello ${user.name},`,
        [`Someone asked to reset the password of your PharmaPoint account. The link works once, for ${RESET_PASSWORD_MINUTES} minutes.`],
        link,
        'Choose a new password',
      ),
    );
  });
  void deps.mailer.flush().catch(() => undefined);
}

/** Checks a new password and its confirmation (seed 002 password rules). */
export function assertNewPassword(password: string, confirmPassword: string): void {
  if (!isPasswordAcceptable(password)) throw new AppError('PASSWORD_REQUIREMENTS');
  if (password !== confirmPassword) throw new AppError('PASSWORDS_DO_NOT_MATCH');
}

/**
 * Sets a new password from a reset link: the link is used up, the account unlocked, the email counts as verified
 * (the link proved the mailbox) and every session of the user is signed out.
 */
export async function resetPassword(db: Database, input: { token: string; password: string; confirmPassword: string }, now = new Date()): Promise<void> {
  assertNewPassword(input.password, input.confirmPassword);
  const passwordHash = await hashPassword(input.password);
  await db.transaction({}, async (q) => {
    const token = await findToken(q, input.token, 'reset_password', now, true);
    await useToken(q, input.token, now);
    await q.query(
      `UPDATE users SET password_hash = $2, login_attempts = 0, locked_until = NULL,
              email_verified_at = COALESCE(email_verified_at, $3), session_active = false, updated_at = $3
        WHERE id = $1`,
      [token.user_id, passwordHash, now],
    );
    await q.query(`UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, [token.user_id, now]);
  });
}

export interface InviteDetails {
  email: string;
  name: string;
  pharmacyName: string;
}

/** The invitation behind a link: who is invited, to which pharmacy (the newest membership of that user). */
export async function inviteDetails(db: Database, secret: string, now = new Date()): Promise<InviteDetails & { userId: string }> {
  const token = await db.transaction({}, (q) => findToken(q, secret, 'invite', now));
  return describeInvite(db, token.user_id);
}

async function describeInvite(db: Database, userId: string): Promise<InviteDetails & { userId: string }> {
  return db.transaction({ userId }, async (q) => {
    const [row] = await q.query<{ email: string; name: string; pharmacy_name: string | null }>(
      `SELECT u.email, u.name,
              (SELECT p.name FROM memberships m JOIN pharmacies p ON p.id = m.pharmacy_id
                WHERE m.user_id = u.id ORDER BY m.created_at DESC LIMIT 1) AS pharmacy_name
         FROM users u WHERE u.id = $1`,
      [userId],
    );
    if (!row) throw new AppError('VERIFY_LINK_USED');
    return { userId, email: row.email, name: row.name, pharmacyName: row.pharmacy_name ?? 'PharmaPoint' };
  });
}

/** Accepts an invitation: sets the password, verifies the email, uses up the link and signs the person in. */
export async function acceptInvite(
  deps: AuthDeps,
  input: { token: string; password: string; confirmPassword: string },
  client: { ip: string; userAgent?: string },
  now = new Date(),
): Promise<NewSession> {
  assertNewPassword(input.password, input.confirmPassword);
  const passwordHash = await hashPassword(input.password);
  const userId = await deps.db.transaction({}, async (q) => {
    const token = await findToken(q, input.token, 'invite', now, true);
    await useToken(q, input.token, now);
    await q.query(
      `UPDATE users SET password_hash = $2, email_verified_at = COALESCE(email_verified_at, $3), is_active = true, updated_at = $3 WHERE id = $1`,
      [token.user_id, passwordHash, now],
    );
    return token.user_id;
  });
  return openSession(deps, userId, client, now);
}
