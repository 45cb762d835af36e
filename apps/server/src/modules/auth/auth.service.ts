import { EMAIL_PATTERN, isPasswordAcceptable, PIN_PATTERN, type MeResponse } from '@pharmapoint/domain/auth';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import type { RequestAuth } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { hashSecret, newSecret } from '../../platform/tokens.ts';
import { audit } from '../audit/audit.service.ts';
import { acceptInvitation } from '../users/memberships.service.ts';
import * as repo from './auth.repository.ts';

/**
 * Sign-in, sessions, PIN, email verification, password reset and invitations (seed 000 sections 4, 5, 8).
 * Every use case takes an open transaction (q). Public flows (sign-in, links from emails) run before any tenant is
 * known and need several short transactions (a failure is counted and committed before the refusal is thrown; a
 * password is hashed or checked between them): auth.flows.ts runs their steps one after the other, each in a
 * transaction the edge opens (routeSteps: app.inPlatform). Use cases of a signed-in user take the request's
 * transaction (app.inUser). Decisions 0008, 0013 and 0070.
 */
export interface AuthDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
}

export interface Client {
  ip: string;
  userAgent?: string;
}

/** Failed sign-ins before an account locks, and for how long (seed 000 section 8, Login). */
export const MAX_LOGIN_ATTEMPTS = 5;
export const ACCOUNT_LOCK_MINUTES = 15;
/** Failures one address may make on one account name in a window before it must wait (decision 0013). */
export const LOGIN_PAIR_MAX_FAILURES = 10;
/** Account names one address may fail on in a window before it must wait (password spraying; decision 0013). */
export const LOGIN_IP_MAX_ACCOUNTS = 20;
export const LOGIN_WINDOW_MINUTES = 15;
/** An address the account signed in from within this many days is known: the per-address limit spares it. */
export const KNOWN_ADDRESS_DAYS = 30;
/** Failed unlocks of a locked session before it is signed out. */
export const MAX_UNLOCK_ATTEMPTS = 5;
export const VERIFY_EMAIL_HOURS = 24;
export const RESET_PASSWORD_MINUTES = 60;
/** Reset emails one address may request per RESET_WINDOW_MINUTES. */
export const RESET_MAX_PER_WINDOW = 3;
export const RESET_WINDOW_MINUTES = 15;

const minutesBefore = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);
const minutesAfter = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000);

/** Checks the email of a form: present and well-formed. */
export function assertEmail(email: string, requiredCode: 'LOGIN_FIELDS_REQUIRED' | 'RESET_EMAIL_REQUIRED'): void {
  if (!email) throw new AppError(requiredCode);
  if (!EMAIL_PATTERN.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
}

/**
 * Where a new session starts: the pharmacy of the user's last session if they still work there, else their only
 * pharmacy (owned ones first). Someone with several pharmacies and no session in any of them yet starts in none and
 * chooses (the web's pharmacy chooser, decision 0015). Invitations not accepted yet give no place. Read as the user.
 */
export async function startingMembership(q: Queryable, userId: string): Promise<repo.MembershipChoice | null> {
  const memberships = await repo.activeMembershipsByLastUse(q, userId);
  const [chosen] = memberships;
  if (!chosen) return null;
  if (memberships.length > 1 && !chosen.usedBefore) return null;
  return chosen;
}

/**
 * The branch a new session starts in, in the chosen pharmacy's transaction: the member's default, else the
 * pharmacy's default, else the first branch they are allowed in.
 */
export async function startingBranch(q: Queryable, chosen: repo.MembershipChoice): Promise<string | null> {
  const branches = await repo.branchesOf(q, chosen.pharmacyId);
  const allowed = branches.filter((b) => b.isActive && (!chosen.allowedBranchIds || chosen.allowedBranchIds.includes(b.id)));
  const branch = allowed.find((b) => b.id === chosen.defaultBranchId) ?? allowed[0] ?? null;
  return branch?.id ?? null;
}

export interface SessionPlace {
  pharmacyId: string | null;
  branchId: string | null;
}

export interface NewSession {
  token: string;
  expires: Date;
  auth: RequestAuth;
  /** GET /api/me of the new session. */
  me: MeResponse;
}

/** Records a new session and the sign-in, in the transaction of the place it starts in; returns its secret token. */
export async function startSession(
  q: Queryable,
  config: Pick<Config, 'sessionDays'>,
  userId: string,
  place: SessionPlace,
  client: Client,
  now: Date,
): Promise<{ token: string; expires: Date }> {
  const token = newSecret();
  const expires = new Date(now.getTime() + config.sessionDays * 86_400_000);
  await repo.insertSession(q, {
    tokenHash: hashSecret(token),
    userId,
    pharmacyId: place.pharmacyId,
    branchId: place.branchId,
    expiresAt: expires,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
    ip: client.ip,
  });
  await repo.markSignedIn(q, userId, now);
  if (place.pharmacyId) await audit(q, { pharmacyId: place.pharmacyId, userId }, 'login', 'session', null, null, { ip: client.ip });
  return { token, expires };
}

/** Counts a failed sign-in of an address on an account name (its own transaction, committed before the refusal). */
export async function recordSignInFailure(q: Queryable, client: Client, account: string, now: Date): Promise<void> {
  await repo.recordThrottleFailure(q, client.ip, account, now, minutesBefore(now, LOGIN_WINDOW_MINUTES));
  // Old rows no longer count; forgetting them now and then keeps the table small.
  if (Math.random() < 0.05) await repo.pruneThrottle(q, minutesBefore(now, LOGIN_WINDOW_MINUTES));
}

/** The email of a sign-in form, checked before anything is read. */
export function readSignInEmail(input: { email: string; password: string }): string {
  const email = input.email.trim().toLowerCase();
  if (!email || !input.password) throw new AppError('LOGIN_FIELDS_REQUIRED');
  if (!EMAIL_PATTERN.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
  return email;
}

/**
 * Sign-in, first step (the limits of decision 0013): per address and account name, LOGIN_PAIR_MAX_FAILURES failures
 * in the window, then 429; per address, failures on LOGIN_IP_MAX_ACCOUNTS account names in the window (spraying),
 * then 429, except for an account that signed in from this address before (a till behind a shared connection keeps
 * working). Answers the account of the email, if any.
 */
export async function signInCandidate(q: Queryable, client: Client, email: string, now: Date): Promise<repo.AuthUser | undefined> {
  const limits = await repo.throttleState(q, client.ip, email, minutesBefore(now, LOGIN_WINDOW_MINUTES));
  if (limits.pairFailures >= LOGIN_PAIR_MAX_FAILURES) throw new AppError('LOGIN_TOO_MANY_ATTEMPTS');
  const found = await repo.findUserByEmail(q, email);
  if (limits.accountsFailed >= LOGIN_IP_MAX_ACCOUNTS) {
    const known = found ? await repo.hasSignedInFrom(q, found.id, client.ip, minutesBefore(now, KNOWN_ADDRESS_DAYS * 1440)) : false;
    if (!known) throw new AppError('LOGIN_TOO_MANY_ATTEMPTS');
  }
  return found;
}

/** Locked, disabled and deactivated accounts are refused with their messages. */
export function assertAccountOpen(user: repo.AuthUser, now: Date): void {
  if (user.lockedUntil && new Date(user.lockedUntil) > now) throw new AppError('LOGIN_LOCKED');
  if (user.isDisabled) throw new AppError('LOGIN_DISABLED');
  if (!user.isActive) throw new AppError('LOGIN_DEACTIVATED');
}

/**
 * Claims one attempt of the account in one conditional UPDATE before the password is checked, so at most
 * MAX_LOGIN_ATTEMPTS are ever judged however many arrive at once; null: the account is locked.
 */
export async function claimSignInAttempt(q: Queryable, userId: string, now: Date): Promise<number | null> {
  return repo.claimLoginAttempt(q, userId, now, MAX_LOGIN_ATTEMPTS, minutesAfter(now, ACCOUNT_LOCK_MINUTES));
}

/** The refusal of a wrong password: the MAX_LOGIN_ATTEMPTS-th failure locks the account. */
export function wrongPassword(attempt: number): AppError {
  return new AppError(attempt >= MAX_LOGIN_ATTEMPTS ? 'LOGIN_LOCKED' : 'LOGIN_INVALID_CREDENTIALS');
}

/** The right password: the claimed attempt was no failure, and the address's failures on this account are forgotten. */
export async function clearSignInFailures(q: Queryable, userId: string, client: Client, email: string, now: Date): Promise<void> {
  await repo.clearLoginFailures(q, userId, now);
  await repo.clearThrottlePair(q, client.ip, email);
}

/**
 * Staff whose every membership was deactivated are refused, unless an invitation waits for their answer; a user with
 * none may still sign in to create a pharmacy. (A platform operator is not asked: a pharmacy that deactivates its
 * membership of an operator must not shut them out of the admin area.) Read as the user.
 */
export async function assertMembershipsAllowSignIn(q: Queryable, userId: string): Promise<void> {
  const state = await repo.membershipState(q, userId);
  if (state.anyAccepted && !state.active && !state.pending) throw new AppError('LOGIN_DEACTIVATED');
}

/** Signs the session out: revoked for good; the user's sessionActive follows their other live sessions. */
export async function signOut(q: Queryable, user: RequestAuth, now = new Date()): Promise<void> {
  await repo.revokeSession(q, user.tokenHash, now);
  await repo.markSignedOut(q, user.userId, now);
  if (user.pharmacyId) await audit(q, { pharmacyId: user.pharmacyId, userId: user.userId }, 'logout', 'session', null, null, null);
}

export async function lockSession(q: Queryable, user: RequestAuth, now = new Date()): Promise<void> {
  await repo.lockSessionRow(q, user.tokenHash, now);
}

/** What an unlock came to; a refusal is thrown by assertUnlocked after the failure count has been committed. */
export type UnlockOutcome = { unlocked: true } | { unlocked: false; signedOut: boolean; method: 'pin' | 'password' };

/** A user's password and PIN hashes. */
export type UserSecrets = { passwordHash: string | null; pinHash: string | null } | undefined;

/**
 * A user's password and PIN hashes, read on the owner connection outside any transaction (the application role
 * cannot read them, decision 0016): for signing in, unlocking or setting a PIN.
 */
export function readSecrets(db: Pick<Database, 'owner'>, userId: string): Promise<UserSecrets> {
  return repo.secretsOf(db.owner, userId);
}

/**
 * Unlocks a locked session with the user's PIN or password (seed 000 section 5, Unlock). After
 * MAX_UNLOCK_ATTEMPTS failures the session is signed out. `secrets`: readSecrets of the user.
 */
export async function unlockSession(
  q: Queryable,
  user: RequestAuth,
  input: { method: 'pin' | 'password'; secret: string },
  secrets: UserSecrets,
  now = new Date(),
): Promise<UnlockOutcome> {
  const secret = input.secret;
  if (!secret) throw new AppError(input.method === 'pin' ? 'UNLOCK_PIN_REQUIRED' : 'UNLOCK_PASSWORD_REQUIRED');
  if (input.method === 'pin' && !PIN_PATTERN.test(secret)) throw new AppError('UNLOCK_PIN_FORMAT');
  const stored = input.method === 'pin' ? secrets?.pinHash : secrets?.passwordHash;
  if (input.method === 'pin' && !stored) throw new AppError('UNLOCK_FAILED', { message: 'No PIN is set. Unlock with your password.' });
  if (await verifyPassword(stored, secret)) {
    await repo.unlockSessionRow(q, user.tokenHash, now);
    return { unlocked: true };
  }
  const failures = await repo.countUnlockFailure(q, user.tokenHash, MAX_UNLOCK_ATTEMPTS, now);
  return { unlocked: false, signedOut: failures >= MAX_UNLOCK_ATTEMPTS, method: input.method };
}

/** Throws the refusal of a failed unlock (after its transaction committed the count). */
export function assertUnlocked(outcome: UnlockOutcome): void {
  if (outcome.unlocked) return;
  if (outcome.signedOut) throw new AppError('NOT_AUTHENTICATED', { message: 'Too many failed attempts. You have been signed out.' });
  throw new AppError('UNLOCK_FAILED', { message: outcome.method === 'pin' ? 'Incorrect PIN' : 'Incorrect password' });
}

/** Sets the user's unlock PIN (4 to 6 digits), confirmed with their password. `secrets`: readSecrets of the user. */
export async function setPin(q: Queryable, user: RequestAuth, input: { pin: string; currentPassword: string }, secrets: UserSecrets, now = new Date()): Promise<void> {
  if (!(await verifyPassword(secrets?.passwordHash, input.currentPassword))) {
    throw new AppError('LOGIN_INVALID_CREDENTIALS', { message: 'Your current password is not correct.' });
  }
  await repo.setPinHash(q, user.userId, await hashPassword(input.pin), now);
}

async function issueToken(q: Queryable, userId: string, purpose: repo.TokenPurpose, expires: Date): Promise<string> {
  const secret = newSecret();
  await repo.insertToken(q, hashSecret(secret), userId, purpose, expires);
  return secret;
}

/**
 * Finds a one-time token for use; throws the specification's messages: unknown or used 'This link has expired or
 * already been used.', expired 'This link has expired. Please request a new one.'
 */
async function findToken(q: Queryable, secret: string, purpose: repo.TokenPurpose, now: Date, forUpdate = false): Promise<repo.OneTimeToken> {
  const token = await repo.findTokenRow(q, hashSecret(secret), purpose, { forUpdate });
  if (!token || token.usedAt) throw new AppError('VERIFY_LINK_USED');
  if (new Date(token.expiresAt) <= now) throw new AppError('VERIFY_LINK_EXPIRED');
  return token;
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

/**
 * Queues a verification email (a fresh single-use link valid VERIFY_EMAIL_HOURS), in the caller's transaction as the
 * user; with onlyIfNoneRecent, not when an unused one was sent in the last 10 minutes. True when one was queued.
 */
export async function queueFreshVerification(
  q: Queryable,
  deps: Pick<AuthDeps, 'config' | 'mailer'>,
  user: { id: string; email: string; name: string },
  now: Date,
  options: { onlyIfNoneRecent?: boolean } = {},
): Promise<boolean> {
  if (options.onlyIfNoneRecent && (await repo.countTokensSince(q, user.id, 'verify_email', minutesBefore(now, 10), { unusedOnly: true })) > 0) return false;
  await queueVerificationEmail(q, deps, user, ['Please confirm your email address to start using PharmaPoint.'], now);
  return true;
}

/**
 * Work done in the transaction that verifies an address (the demo's lifecycle, seed 002 section 4): whether it
 * was a demo registration, whose visitor is then signed in by the link.
 */
export type AfterEmailVerified = (q: Queryable, userId: string, now: Date) => Promise<boolean>;

/**
 * Applies an email verification link (seed 002 section 8, Email verification), in the route's transaction.
 * `afterVerified` runs in the same transaction; its answer is returned as `demo` with the user's id.
 */
export async function verifyEmail(
  q: Queryable,
  input: { mode: string; oobCode: string },
  now: Date,
  afterVerified?: AfterEmailVerified,
): Promise<{ userId: string; demo: boolean }> {
  if (input.mode !== 'verifyEmail' || !input.oobCode) throw new AppError('VERIFY_LINK_INVALID');
  const token = await findToken(q, input.oobCode, 'verify_email', now, true);
  await repo.markTokenUsed(q, token.id, now);
  await repo.markEmailVerified(q, token.userId, now);
  const demo = afterVerified ? await afterVerified(q, token.userId, now) : false;
  return { userId: token.userId, demo };
}

/** How long a passwordless sign-in link works. */
export const SIGN_IN_LINK_MINUTES = 60;

/**
 * Queues a passwordless sign-in link (single use, SIGN_IN_LINK_MINUTES) to `path` of the web app (seed 002
 * section 7: 'send a passwordless sign-in link (return URL /demo-access)'), in the caller's transaction.
 */
export async function queueSignInLink(
  q: Queryable,
  deps: Pick<AuthDeps, 'config' | 'mailer'>,
  user: { id: string; email: string; name: string },
  path: string,
  now = new Date(),
): Promise<void> {
  const secret = await issueToken(q, user.id, 'magic_link', minutesAfter(now, SIGN_IN_LINK_MINUTES));
  const link = `${deps.config.publicUrl}${path}?mode=signIn&oobCode=${encodeURIComponent(secret)}`;
  await deps.mailer.enqueue(
    q,
    linkEmail(
      user.email,
      'Sign in to the PharmaPoint demo',
      `Hello ${user.name},`,
      [`Use this link to sign in to the PharmaPoint demo. It works once, for ${SIGN_IN_LINK_MINUTES} minutes.`],
      link,
      'Sign in to the demo',
    ),
  );
}

/** Queues a verification email in the caller's transaction (a fresh single-use link valid VERIFY_EMAIL_HOURS). */
export async function queueVerificationEmail(
  q: Queryable,
  deps: Pick<AuthDeps, 'config' | 'mailer'>,
  user: { id: string; email: string; name: string },
  lines: string[],
  now = new Date(),
): Promise<void> {
  const secret = await issueToken(q, user.id, 'verify_email', minutesAfter(now, VERIFY_EMAIL_HOURS * 60));
  const link = `${deps.config.publicUrl}/verify-email?mode=verifyEmail&oobCode=${encodeURIComponent(secret)}`;
  await deps.mailer.enqueue(q, linkEmail(user.email, 'Verify your email for PharmaPoint', `Hello ${user.name},`, lines, link, 'Verify my email'));
}

/**
 * Uses up a passwordless sign-in link: it must be unused and unexpired, and `email` must be the address it was sent
 * to (else 'Failed to sign in. Please try requesting a new link.'). The address counts as verified (the link proved
 * the mailbox) and `afterVerified` runs in the same transaction. Answers the user, for whom a session then opens
 * (auth.flows.ts signInWithEmailLink).
 */
export async function useSignInLink(q: Queryable, input: { email: string; oobCode: string }, now: Date, afterVerified?: AfterEmailVerified): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const token = await repo.findTokenRow(q, hashSecret(input.oobCode), 'magic_link', { forUpdate: true });
  if (!token || token.usedAt || new Date(token.expiresAt) <= now) throw new AppError('DEMO_SIGN_IN_FAILED');
  const user = await repo.findUserById(q, token.userId);
  if (!user || user.email !== email || !user.isActive || user.isDisabled) throw new AppError('DEMO_SIGN_IN_FAILED');
  await repo.markTokenUsed(q, token.id, now);
  if (!user.emailVerifiedAt) await repo.markEmailVerified(q, user.id, now);
  if (afterVerified) await afterVerified(q, user.id, now);
  return user.id;
}

/**
 * Queues a password reset link (seed 002 section 8, Password reset) in the route's transaction; at most
 * RESET_MAX_PER_WINDOW per window.
 */
export async function requestPasswordReset(q: Queryable, deps: Pick<AuthDeps, 'config' | 'mailer'>, rawEmail: string, now: Date): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  assertEmail(email, 'RESET_EMAIL_REQUIRED');
  const user = await repo.findUserByEmail(q, email);
  if (!user) throw new AppError('RESET_NO_ACCOUNT');
  const recent = await repo.countTokensSince(q, user.id, 'reset_password', minutesBefore(now, RESET_WINDOW_MINUTES));
  if (recent >= RESET_MAX_PER_WINDOW) throw new AppError('RESET_TOO_MANY');
  const secret = await issueToken(q, user.id, 'reset_password', minutesAfter(now, RESET_PASSWORD_MINUTES));
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
}

/** Checks a new password and its confirmation (seed 002 password rules). */
export function assertNewPassword(password: string, confirmPassword: string): void {
  if (!isPasswordAcceptable(password)) throw new AppError('PASSWORD_REQUIREMENTS');
  if (password !== confirmPassword) throw new AppError('PASSWORDS_DO_NOT_MATCH');
}

/**
 * Sets a new password from a reset link, in the route's transaction (the password was checked with
 * assertNewPassword and hashed before it): the link is used up, the account unlocked, the email counts as verified
 * (the link proved the mailbox) and every session of the user is signed out.
 */
export async function resetPassword(q: Queryable, secret: string, passwordHash: string, now: Date): Promise<void> {
  const token = await findToken(q, secret, 'reset_password', now, true);
  await repo.markTokenUsed(q, token.id, now);
  await repo.setPasswordAfterReset(q, token.userId, passwordHash, now);
  await repo.revokeAllSessions(q, token.userId, now);
}

export interface InviteDetails {
  email: string;
  name: string;
  pharmacyName: string;
  pharmacyId: string;
  hasAccount: boolean;
}

/** An invitation link's token (the link names the pharmacy); a used or unknown one is the link message. */
export async function inviteToken(q: Queryable, secret: string, now: Date): Promise<repo.OneTimeToken & { pharmacyId: string }> {
  const token = await findToken(q, secret, 'invite', now);
  const pharmacyId = token.pharmacyId;
  if (!pharmacyId) throw new AppError('VERIFY_LINK_USED');
  return { ...token, pharmacyId };
}

/** The invitation behind a link's token, read as the invited user; an answered or cancelled one is the link message. */
export async function openInvitationOf(q: Queryable, token: { userId: string; pharmacyId: string }): Promise<repo.Invitation> {
  const invitation = await repo.invitationOf(q, token.userId, token.pharmacyId);
  if (!invitation?.open) throw new AppError('VERIFY_LINK_USED');
  return invitation;
}

/**
 * Accepts an invitation from its link for a person without an account, as that person (the password was checked
 * and hashed before): sets their name (if given) and password, verifies the email (the link proved the mailbox),
 * accepts the membership and uses up the link. Answers who joined where; a session then opens there.
 */
export async function acceptInviteWith(
  q: Queryable,
  input: { token: string; name?: string },
  linkUserId: string,
  passwordHash: string,
  now: Date,
): Promise<{ userId: string; pharmacyId: string }> {
  const token = await findToken(q, input.token, 'invite', now, true);
  if (!token.pharmacyId || token.userId !== linkUserId) throw new AppError('VERIFY_LINK_USED');
  const user = await repo.findUserById(q, token.userId);
  if (!user || user.hasPassword || user.googleSubject) throw new AppError('VERIFY_LINK_USED');
  await repo.markTokenUsed(q, token.id, now);
  await repo.setPasswordFromInvite(q, token.userId, passwordHash, input.name ?? null, now);
  await acceptInvitation(q, { userId: token.userId }, token.pharmacyId, now);
  return { userId: token.userId, pharmacyId: token.pharmacyId };
}

/** PATCH /api/me: the person changes their own name (a pharmacy cannot, decision 0015). */
export async function renameSelf(q: Queryable, user: RequestAuth, input: { name: string }, now = new Date()): Promise<void> {
  await repo.setUserName(q, user.userId, input.name, now);
}

/** Why a Google sign-in was refused: the ?error= values the login screen turns into messages. */
export type GoogleRefusal = 'account_not_found' | 'other_method' | 'google_failed';

/**
 * The PharmaPoint user of verified Google claims: one already linked to that Google subject, or an invited user
 * with no password yet (linked now, their invitation used up). Anything else is a refusal the login page explains.
 */
export async function googleUser(q: Queryable, claims: { sub?: string; email?: string; email_verified?: boolean }, now: Date): Promise<{ userId: string } | { refusal: GoogleRefusal }> {
  const subject = claims.sub;
  const email = claims.email?.toLowerCase();
  if (!subject) return { refusal: 'google_failed' };
  const linked = await repo.findUserByGoogleSubject(q, subject);
  if (linked) return !linked.isActive || linked.isDisabled ? { refusal: 'google_failed' } : { userId: linked.id };
  if (!email || claims.email_verified !== true) return { refusal: 'account_not_found' };
  const user = await repo.findUserByEmail(q, email, { forUpdate: true });
  if (!user) return { refusal: 'account_not_found' };
  if (user.hasPassword || user.googleSubject) return { refusal: 'other_method' };
  if (!user.isActive || user.isDisabled) return { refusal: 'google_failed' };
  // An invited person who has not chosen a password yet: their Google account becomes their sign-in. Their
  // invitations still wait for their answer in their own session (decision 0015).
  await repo.linkGoogleSubject(q, user.id, subject, now);
  return { userId: user.id };
}
