import type { Queryable } from '../../db/database.ts';

/**
 * Every SQL statement of the auth module: users (sign-in fields), sessions, one-time tokens, the sign-in throttle
 * and the dev mailbox's view of email jobs. Timestamps come back as ISO strings (db/database.ts column parsers).
 */

// ---------------------------------------------------------------- users

interface UserRow {
  id: string;
  email: string;
  name: string;
  has_password: boolean;
  google_subject: string | null;
  email_verified_at: string | null;
  is_active: boolean;
  is_disabled: boolean;
  locked_until: string | null;
  login_attempts: number;
  is_platform_operator: boolean;
}

/** A user as sign-in sees them; the password and PIN hashes are not readable by the application role (migration 0012). */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  hasPassword: boolean;
  googleSubject: string | null;
  emailVerifiedAt: string | null;
  isActive: boolean;
  isDisabled: boolean;
  lockedUntil: string | null;
  loginAttempts: number;
  isPlatformOperator: boolean;
}

function toUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    hasPassword: row.has_password,
    googleSubject: row.google_subject,
    emailVerifiedAt: row.email_verified_at,
    isActive: row.is_active,
    isDisabled: row.is_disabled,
    lockedUntil: row.locked_until,
    loginAttempts: row.login_attempts,
    isPlatformOperator: row.is_platform_operator,
  };
}

const USER_COLUMNS = `id, email, name, has_password, google_subject, email_verified_at, is_active, is_disabled,
       locked_until, login_attempts, is_platform_operator`;

export async function findUserByEmail(q: Queryable, email: string, options: { forUpdate?: boolean } = {}): Promise<AuthUser | undefined> {
  const [row] = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`, [email]);
  return row ? toUser(row) : undefined;
}

export async function findUserById(q: Queryable, id: string): Promise<AuthUser | undefined> {
  const [row] = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return row ? toUser(row) : undefined;
}

export async function findUserByGoogleSubject(q: Queryable, subject: string): Promise<AuthUser | undefined> {
  const [row] = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE google_subject = $1`, [subject]);
  return row ? toUser(row) : undefined;
}

/**
 * Claims one sign-in attempt of an account, atomically: the attempt counts as a failure from the moment it is
 * claimed, and the claim that reaches `max` locks the account until `lockUntil` at once (a correct password then
 * clears it). A lock that has passed (or was lifted by hand) starts a fresh count. Returns the attempt's number, or null when the account
 * is locked (no attempt may be judged). One UPDATE: however many requests race, at most `max` are ever judged.
 */
export async function claimLoginAttempt(q: Queryable, userId: string, now: Date, max: number, lockUntil: Date): Promise<number | null> {
  const [row] = await q.query<{ login_attempts: number }>(
    `UPDATE users
        SET login_attempts = CASE WHEN locked_until IS NOT NULL OR login_attempts >= $3 THEN 1 ELSE login_attempts + 1 END,
            locked_until = CASE WHEN (CASE WHEN locked_until IS NOT NULL OR login_attempts >= $3 THEN 1 ELSE login_attempts + 1 END) >= $3
                                THEN $4::timestamptz ELSE NULL END,
            updated_at = $2
      WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $2)
      RETURNING login_attempts`,
    [userId, now, max, lockUntil],
  );
  return row ? row.login_attempts : null;
}

/** A correct password: the failure count and any lock are cleared. */
export async function clearLoginFailures(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(`UPDATE users SET login_attempts = 0, locked_until = NULL, updated_at = $2 WHERE id = $1`, [userId, now]);
}

/** What the user's memberships allow at sign-in (pending invitations give no access but may be answered). */
export interface MembershipState {
  /** Some membership was ever accepted. */
  anyAccepted: boolean;
  /** An accepted membership is active: the person works somewhere. */
  active: boolean;
  /** An invitation waits for the person's answer. */
  pending: boolean;
}

export async function membershipState(q: Queryable, userId: string): Promise<MembershipState> {
  const [row] = await q.query<{ any_accepted: boolean; active: boolean; pending: boolean }>(
    `SELECT COALESCE(bool_or(accepted_at IS NOT NULL), false) AS any_accepted,
            COALESCE(bool_or(is_active AND accepted_at IS NOT NULL), false) AS active,
            COALESCE(bool_or(is_active AND accepted_at IS NULL), false) AS pending
       FROM memberships WHERE user_id = $1`,
    [userId],
  );
  return { anyAccepted: row?.any_accepted ?? false, active: row?.active ?? false, pending: row?.pending ?? false };
}

export interface MembershipChoice {
  pharmacyId: string;
  defaultBranchId: string | null;
  allowedBranchIds: string[] | null;
  /** The user had a session in this pharmacy before. */
  usedBefore: boolean;
}

/**
 * The user's accepted, active memberships: the pharmacy of their last session first, then owned ones, then the
 * oldest. Invitations not accepted yet give no access and are not among them.
 */
export async function activeMembershipsByLastUse(q: Queryable, userId: string): Promise<MembershipChoice[]> {
  const rows = await q.query<{ pharmacy_id: string; default_branch_id: string | null; allowed_branch_ids: string[] | null; last_used: string | null }>(
    `SELECT m.pharmacy_id, m.default_branch_id, m.allowed_branch_ids,
            (SELECT max(s.created_at) FROM sessions s WHERE s.user_id = m.user_id AND s.pharmacy_id = m.pharmacy_id) AS last_used
       FROM memberships m
      WHERE m.user_id = $1 AND m.is_active AND m.accepted_at IS NOT NULL
      ORDER BY last_used DESC NULLS LAST, m.is_owner DESC, m.created_at`,
    [userId],
  );
  return rows.map((r) => ({
    pharmacyId: r.pharmacy_id,
    defaultBranchId: r.default_branch_id,
    allowedBranchIds: r.allowed_branch_ids,
    usedBefore: r.last_used !== null,
  }));
}

export interface BranchRow {
  id: string;
  name: string;
  isDefault: boolean;
  isActive: boolean;
}

/** Every branch of a pharmacy. */
export async function branchesOf(q: Queryable, pharmacyId: string): Promise<BranchRow[]> {
  const rows = await q.query<{ id: string; name: string; is_default: boolean; is_active: boolean }>(
    `SELECT id, name, is_default, is_active FROM branches WHERE pharmacy_id = $1 ORDER BY is_default DESC, name`,
    [pharmacyId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default, isActive: r.is_active }));
}

/**
 * The password and PIN hashes of a user, for the one comparison that needs them. Call it on the owner connection
 * (db.owner), outside any request transaction: the application role cannot read these columns (decision 0016).
 */
export async function secretsOf(owner: Queryable, userId: string): Promise<{ passwordHash: string | null; pinHash: string | null } | undefined> {
  const [row] = await owner.query<{ password_hash: string | null; pin_hash: string | null }>(`SELECT password_hash, pin_hash FROM users WHERE id = $1`, [userId]);
  return row && { passwordHash: row.password_hash, pinHash: row.pin_hash };
}

export async function setPinHash(q: Queryable, userId: string, pinHash: string, now: Date): Promise<void> {
  await q.query(`UPDATE users SET pin_hash = $2, updated_at = $3 WHERE id = $1`, [userId, pinHash, now]);
}

export async function markEmailVerified(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(`UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2), updated_at = $2 WHERE id = $1`, [userId, now]);
}

/** A password set from a reset link: unlocked, the email counts as verified, signed out everywhere (see the sessions). */
export async function setPasswordAfterReset(q: Queryable, userId: string, passwordHash: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE users SET password_hash = $2, login_attempts = 0, locked_until = NULL,
            email_verified_at = COALESCE(email_verified_at, $3), session_active = false, updated_at = $3
      WHERE id = $1`,
    [userId, passwordHash, now],
  );
}

/** A password (and the person's own name, if they gave one) set by accepting an invitation: the email counts as verified. */
export async function setPasswordFromInvite(q: Queryable, userId: string, passwordHash: string, name: string | null, now: Date): Promise<void> {
  await q.query(
    `UPDATE users SET password_hash = $2, name = COALESCE($4, name), email_verified_at = COALESCE(email_verified_at, $3), is_active = true,
            updated_at = $3 WHERE id = $1`,
    [userId, passwordHash, now, name],
  );
}

/** Links a Google account to an invited user who has no password yet. */
export async function linkGoogleSubject(q: Queryable, userId: string, subject: string, now: Date): Promise<void> {
  await q.query(`UPDATE users SET google_subject = $2, email_verified_at = COALESCE(email_verified_at, $3), updated_at = $3 WHERE id = $1`, [
    userId,
    subject,
    now,
  ]);
}

export interface Invitation {
  email: string;
  /** The name the pharmacy gave, or the person's own once they have an account. */
  name: string;
  pharmacyName: string;
  /** Still waiting for an answer (not accepted, declined or cancelled). */
  open: boolean;
  /** The person already has a way to sign in (password or Google). */
  hasAccount: boolean;
}

/** The invitation of a person to one pharmacy (the person's own membership row there). */
export async function invitationOf(q: Queryable, userId: string, pharmacyId: string): Promise<Invitation | undefined> {
  const [row] = await q.query<{ email: string; name: string; pharmacy_name: string; open: boolean; has_account: boolean }>(
    `SELECT u.email, CASE WHEN NOT u.has_password AND u.google_subject IS NULL THEN COALESCE(m.invited_name, u.name) ELSE u.name END AS name,
            p.name AS pharmacy_name, (m.accepted_at IS NULL AND m.is_active) AS open,
            (u.has_password OR u.google_subject IS NOT NULL) AS has_account
       FROM memberships m JOIN users u ON u.id = m.user_id JOIN pharmacies p ON p.id = m.pharmacy_id
      WHERE m.user_id = $1 AND m.pharmacy_id = $2`,
    [userId, pharmacyId],
  );
  return row && { email: row.email, name: row.name, pharmacyName: row.pharmacy_name, open: row.open, hasAccount: row.has_account };
}

// ---------------------------------------------------------------- sessions

export interface NewSessionRow {
  tokenHash: string;
  userId: string;
  pharmacyId: string | null;
  branchId: string | null;
  expiresAt: Date;
  userAgent: string | null;
  ip: string;
}

export async function insertSession(q: Queryable, s: NewSessionRow): Promise<void> {
  await q.query(
    `INSERT INTO sessions (token_hash, user_id, pharmacy_id, branch_id, expires_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [s.tokenHash, s.userId, s.pharmacyId, s.branchId, s.expiresAt, s.userAgent, s.ip],
  );
}

/** Records a sign-in on the user: last sign-in, a live session, failures cleared. */
export async function markSignedIn(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE users SET last_login_at = $2, session_active = true, login_attempts = 0, locked_until = NULL, updated_at = $2 WHERE id = $1`,
    [userId, now],
  );
}

export async function revokeSession(q: Queryable, tokenHash: string, now: Date): Promise<void> {
  await q.query(`UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1`, [tokenHash, now]);
}

export async function revokeAllSessions(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(`UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, [userId, now]);
}

/** Records a sign-out on the user: sessionActive follows their other live sessions. */
export async function markSignedOut(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE users SET last_logout_at = $2, updated_at = $2,
            session_active = EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2)
      WHERE id = $1`,
    [userId, now],
  );
}

export async function lockSessionRow(q: Queryable, tokenHash: string, now: Date): Promise<void> {
  await q.query(`UPDATE sessions SET locked_at = COALESCE(locked_at, $2) WHERE token_hash = $1`, [tokenHash, now]);
}

export async function unlockSessionRow(q: Queryable, tokenHash: string, now: Date): Promise<void> {
  await q.query(`UPDATE sessions SET locked_at = NULL, unlock_attempts = 0, last_seen_at = $2 WHERE token_hash = $1`, [tokenHash, now]);
}

/** Counts a failed unlock; the one that reaches `max` revokes the session. Returns the count. */
export async function countUnlockFailure(q: Queryable, tokenHash: string, max: number, now: Date): Promise<number> {
  const [row] = await q.query<{ unlock_attempts: number }>(
    `UPDATE sessions SET unlock_attempts = unlock_attempts + 1,
            revoked_at = CASE WHEN unlock_attempts + 1 >= $2 THEN $3::timestamptz ELSE revoked_at END
      WHERE token_hash = $1 RETURNING unlock_attempts`,
    [tokenHash, max, now],
  );
  return row?.unlock_attempts ?? max;
}

/** Has the user opened a session from this address since `since`? (A known address for the sign-in limit.) */
export async function hasSignedInFrom(q: Queryable, userId: string, ip: string, since: Date): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM sessions WHERE user_id = $1 AND ip = $2 AND created_at > $3 LIMIT 1`, [userId, ip, since]);
  return rows.length > 0;
}

// ---------------------------------------------------------------- one-time tokens

export type TokenPurpose = 'verify_email' | 'reset_password' | 'invite' | 'magic_link';

export interface OneTimeToken {
  id: string;
  userId: string;
  /** The pharmacy an invitation link is for (null for other purposes). */
  pharmacyId: string | null;
  expiresAt: string;
  usedAt: string | null;
}

export async function insertToken(q: Queryable, tokenHash: string, userId: string, purpose: TokenPurpose, expiresAt: Date): Promise<void> {
  await q.query(`INSERT INTO one_time_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)`, [tokenHash, userId, purpose, expiresAt]);
}

export async function findTokenRow(q: Queryable, tokenHash: string, purpose: TokenPurpose, options: { forUpdate?: boolean } = {}): Promise<OneTimeToken | undefined> {
  // The database matches the hash (one_time_token_id, security definer): the application role never reads one.
  const [row] = await q.query<{ id: string; user_id: string; pharmacy_id: string | null; expires_at: string; used_at: string | null }>(
    `SELECT id, user_id, pharmacy_id, expires_at, used_at FROM one_time_tokens
      WHERE id = one_time_token_id($1, $2) ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [tokenHash, purpose],
  );
  return row && { id: row.id, userId: row.user_id, pharmacyId: row.pharmacy_id, expiresAt: row.expires_at, usedAt: row.used_at };
}

export async function markTokenUsed(q: Queryable, tokenId: string, now: Date): Promise<void> {
  await q.query(`UPDATE one_time_tokens SET used_at = $2 WHERE id = $1`, [tokenId, now]);
}

/** The person's own name (PATCH /api/me): only they change it. */
export async function setUserName(q: Queryable, userId: string, name: string, now: Date): Promise<void> {
  await q.query(`UPDATE users SET name = $2, updated_at = $3 WHERE id = $1`, [userId, name, now]);
}

/** Tokens of a purpose issued to a user since a moment; `unusedOnly` counts only those not used yet. */
export async function countTokensSince(q: Queryable, userId: string, purpose: TokenPurpose, since: Date, options: { unusedOnly?: boolean } = {}): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM one_time_tokens
      WHERE user_id = $1 AND purpose = $2 AND created_at > $3 ${options.unusedOnly ? 'AND used_at IS NULL' : ''}`,
    [userId, purpose, since],
  );
  return row?.n ?? 0;
}

// ---------------------------------------------------------------- sign-in throttle (migration 0008)

export interface ThrottleState {
  /** Failures of this address on this account name in the current window. */
  pairFailures: number;
  /** Account names this address failed on since the window's start. */
  accountsFailed: number;
}

export async function throttleState(q: Queryable, ip: string, account: string, since: Date): Promise<ThrottleState> {
  const [row] = await q.query<{ pair_failures: number; accounts_failed: number }>(
    `SELECT COALESCE((SELECT failures FROM login_throttle WHERE ip = $1 AND account = $2 AND window_started_at > $3), 0) AS pair_failures,
            (SELECT count(*)::int FROM login_throttle WHERE ip = $1 AND last_failure_at > $3) AS accounts_failed`,
    [ip, account, since],
  );
  return { pairFailures: row?.pair_failures ?? 0, accountsFailed: row?.accounts_failed ?? 0 };
}

/** Counts a failure of an address on an account name; a window older than `windowStart` starts again at 1. */
export async function recordThrottleFailure(q: Queryable, ip: string, account: string, now: Date, windowStart: Date): Promise<void> {
  await q.query(
    `INSERT INTO login_throttle (ip, account, failures, window_started_at, last_failure_at) VALUES ($1, $2, 1, $3, $3)
     ON CONFLICT (ip, account) DO UPDATE SET
       failures = CASE WHEN login_throttle.window_started_at <= $4 THEN 1 ELSE login_throttle.failures + 1 END,
       window_started_at = CASE WHEN login_throttle.window_started_at <= $4 THEN $3 ELSE login_throttle.window_started_at END,
       last_failure_at = $3`,
    [ip, account, now, windowStart],
  );
}

/** A correct password: the address's failures on that account are forgotten. */
export async function clearThrottlePair(q: Queryable, ip: string, account: string): Promise<void> {
  await q.query(`DELETE FROM login_throttle WHERE ip = $1 AND account = $2`, [ip, account]);
}

/** Forgets failures older than the window (they no longer count). */
export async function pruneThrottle(q: Queryable, before: Date): Promise<void> {
  await q.query(`DELETE FROM login_throttle WHERE last_failure_at <= $1`, [before]);
}

// ---------------------------------------------------------------- dev mailbox

export interface MailboxEmail {
  id: string;
  createdAt: string;
  to: string;
  subject: string;
  text: string;
}

/** The newest email jobs (sent or not), as the owner: the jobs table is not readable by the application role. */
export async function newestEmails(q: Queryable, limit: number): Promise<MailboxEmail[]> {
  const rows = await q.query<{ id: string; created_at: string; payload: { to: string; subject: string; text: string } }>(
    `SELECT id, created_at, payload FROM jobs WHERE kind = 'email' ORDER BY created_at DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ id: String(r.id), createdAt: r.created_at, to: r.payload.to, subject: r.payload.subject, text: r.payload.text }));
}
