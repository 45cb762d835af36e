import { loadSession } from '../../platform/auth-plugin.ts';
import { AppError } from '../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import type { RequestAuth } from '../../platform/access.ts';
import type { Steps } from '../../platform/transaction.ts';
import { switchPharmacy } from '../users/memberships.service.ts';
import {
  acceptInviteWith,
  assertAccountOpen,
  assertMembershipsAllowSignIn,
  assertNewPassword,
  claimSignInAttempt,
  clearSignInFailures,
  inviteToken,
  openInvitationOf,
  queueFreshVerification,
  readSecrets,
  readSignInEmail,
  recordSignInFailure,
  signInCandidate,
  startingBranch,
  startingMembership,
  startSession,
  useSignInLink,
  wrongPassword,
  type AfterEmailVerified,
  type AuthDeps,
  type Client,
  type InviteDetails,
  type NewSession,
  type SessionPlace,
} from './auth.service.ts';
import { buildMe } from './me.ts';

/**
 * The public auth flows that need several transactions, at the edge (decision 0070). Each step is one use case of
 * auth.service.ts in its own transaction, opened by `steps` (a route's routeSteps: app.inPlatform with the step's
 * scope), one after the other: a failure is counted and committed before the refusal is thrown, a password is checked
 * or hashed between transactions (never inside one: it would hold the connection), the session is read back on the
 * owner connection once its row committed. The use cases stay transaction-free.
 */

/** The GET /api/me of a session just opened, read in its pharmacy. */
async function meOfNewSession(steps: Steps, deps: AuthDeps, token: string): Promise<{ auth: RequestAuth; me: NewSession['me'] }> {
  const auth = await loadSession(deps.db, token, deps.config);
  if (!auth) throw new AppError('LOGIN_FAILED');
  const me = await steps({ pharmacyId: auth.pharmacyId, userId: auth.userId }, (q) => buildMe(q, deps.config, auth));
  return { auth, me };
}

/**
 * Opens a session for a user (after a password, an email link, an invitation or Google) and records the sign-in:
 * the starting pharmacy is chosen as the user, its branch in that pharmacy, the session written there.
 */
export async function openSession(steps: Steps, deps: AuthDeps, userId: string, client: Client, now = new Date()): Promise<NewSession> {
  const chosen = await steps({ userId }, (q) => startingMembership(q, userId));
  const place: SessionPlace = chosen
    ? { pharmacyId: chosen.pharmacyId, branchId: await steps({ pharmacyId: chosen.pharmacyId, userId }, (q) => startingBranch(q, chosen)) }
    : { pharmacyId: null, branchId: null };
  const { token, expires } = await steps({ pharmacyId: place.pharmacyId, userId }, (q) => startSession(q, deps.config, userId, place, client, now));
  return { token, expires, ...(await meOfNewSession(steps, deps, token)) };
}

/**
 * Email and password sign-in with every rule of seed 000 sections 5 and 8 and the limits of decision 0013 (see
 * signInCandidate and claimSignInAttempt): unknown, locked, disabled and deactivated accounts are refused with their
 * messages, every failure counted in its own committed transaction first; an unverified email gets a fresh link.
 */
export async function signIn(steps: Steps, deps: AuthDeps, input: { email: string; password: string }, client: Client, now = new Date()): Promise<NewSession> {
  const email = readSignInEmail(input);
  const user = await steps({}, (q) => signInCandidate(q, client, email, now));
  if (!user) {
    await steps({}, (q) => recordSignInFailure(q, client, email, now));
    throw new AppError('LOGIN_NO_ACCOUNT');
  }
  assertAccountOpen(user, now);
  const attempt = await steps({}, (q) => claimSignInAttempt(q, user.id, now));
  if (attempt === null) throw new AppError('LOGIN_LOCKED');
  // The hash is read on the owner connection, only for this comparison (decision 0016), outside any transaction.
  const secrets = await readSecrets(deps.db, user.id);
  if (!(await verifyPassword(secrets?.passwordHash, input.password))) {
    await steps({}, (q) => recordSignInFailure(q, client, email, now));
    throw wrongPassword(attempt);
  }
  await steps({}, (q) => clearSignInFailures(q, user.id, client, email, now));
  if (!user.emailVerifiedAt && !user.googleSubject) {
    await sendVerificationEmail(steps, deps, user, now, { onlyIfNoneRecent: true });
    throw new AppError('LOGIN_UNVERIFIED');
  }
  if (!user.isPlatformOperator) await steps({ userId: user.id }, (q) => assertMembershipsAllowSignIn(q, user.id));
  return openSession(steps, deps, user.id, client, now);
}

/** Queues a verification email (a fresh single-use link) as the user, and sends it once committed. */
export async function sendVerificationEmail(
  steps: Steps,
  deps: AuthDeps,
  user: { id: string; email: string; name: string },
  now = new Date(),
  options: { onlyIfNoneRecent?: boolean } = {},
): Promise<void> {
  const queued = await steps({ userId: user.id }, (q) => queueFreshVerification(q, deps, user, now, options));
  if (queued) void deps.mailer.flush().catch(() => undefined);
}

/** POST /api/auth/resend-verification: a new link for the signed-in user; any failure is one clear sentence. */
export async function resendVerification(steps: Steps, deps: AuthDeps, user: RequestAuth | null): Promise<void> {
  if (!user) throw new AppError('VERIFY_SIGN_IN_FIRST');
  try {
    await sendVerificationEmail(steps, deps, { id: user.userId, email: user.email, name: user.name });
  } catch {
    throw new AppError('VERIFY_SEND_FAILED');
  }
}

/**
 * Completes a passwordless sign-in link (useSignInLink: the link used up, the address verified, `afterVerified` in
 * that transaction), then opens a session.
 */
export async function signInWithEmailLink(
  steps: Steps,
  deps: AuthDeps,
  input: { email: string; oobCode: string },
  client: Client,
  now = new Date(),
  afterVerified?: AfterEmailVerified,
): Promise<NewSession> {
  const userId = await steps({}, (q) => useSignInLink(q, input, now, afterVerified));
  return openSession(steps, deps, userId, client, now);
}

/** The open invitation behind a link: its token, then the invitation read as the invited user. */
async function openInvitation(steps: Steps, secret: string, now: Date) {
  const token = await steps({}, (q) => inviteToken(q, secret, now));
  const invitation = await steps({ userId: token.userId }, (q) => openInvitationOf(q, token));
  return { token, invitation };
}

/**
 * Who an invitation link is for, told to the holder of the link only: the email, the name, the pharmacy, and
 * whether the person already has an account (then they sign in as that email and accept in their own session).
 */
export async function inviteDetails(steps: Steps, secret: string, now = new Date()): Promise<InviteDetails> {
  const { token, invitation } = await openInvitation(steps, secret, now);
  return { email: invitation.email, name: invitation.name, pharmacyName: invitation.pharmacyName, pharmacyId: token.pharmacyId, hasAccount: invitation.hasAccount };
}

/**
 * Accepts an invitation from its link, for a person without an account (acceptInviteWith), and signs them in there.
 * A person who already has an account is told to sign in and accept in their own session: a link alone never joins
 * an existing account to a pharmacy. The password is hashed between the transactions.
 */
export async function acceptInvite(
  steps: Steps,
  deps: AuthDeps,
  input: { token: string; name?: string; password: string; confirmPassword: string },
  client: Client,
  now = new Date(),
): Promise<NewSession> {
  const { token: link, invitation } = await openInvitation(steps, input.token, now);
  if (invitation.hasAccount) {
    throw new AppError('CONFLICT', { message: `You already have a PharmaPoint account. Sign in as ${invitation.email} to accept this invitation.` });
  }
  assertNewPassword(input.password, input.confirmPassword);
  const passwordHash = await hashPassword(input.password);
  const accepted = await steps({ userId: link.userId }, (q) => acceptInviteWith(q, input, link.userId, passwordHash, now));
  const session = await openSession(steps, deps, accepted.userId, client, now);
  // The person starts in the pharmacy they just joined (they may have been invited by others too).
  if (session.auth.pharmacyId !== accepted.pharmacyId) {
    await steps({ userId: accepted.userId }, (q) =>
      switchPharmacy(q, { userId: accepted.userId, tokenHash: session.auth.tokenHash, pharmacyId: session.auth.pharmacyId }, accepted.pharmacyId),
    );
    return { ...session, ...(await meOfNewSession(steps, deps, session.token)) };
  }
  return session;
}
