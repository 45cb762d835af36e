import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptInviteRequestSchema,
  authProvidersResponseSchema,
  emptyRequestSchema,
  forgotPasswordRequestSchema,
  inviteDetailsResponseSchema,
  inviteTokenParamsSchema,
  loginRequestSchema,
  meResponseSchema,
  messageResponseSchema,
  resetPasswordRequestSchema,
  setPinRequestSchema,
  signedInResponseSchema,
  unlockRequestSchema,
  verifyEmailRequestSchema,
} from '@pharmapoint/domain/auth';
import {
  invitationAnswerRequestSchema,
  invitationAnswerResponseSchema,
  myPharmaciesResponseSchema,
  switchPharmacyRequestSchema,
  switchPharmacyResponseSchema,
  updateProfileRequestSchema,
} from '@pharmapoint/domain/memberships';
import { verifyEmailResponseSchema } from '@pharmapoint/domain/demo';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { completeDemoVerification } from '../demo/demo.service.ts';
import { acceptInvitation, declineInvitation, listOwnPharmacies, switchPharmacy } from '../users/memberships.service.ts';
import { clearSessionCookie, fromSession, sessionBranches, setSessionCookie } from '../../platform/auth-plugin.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { routeSteps } from '../../platform/transaction.ts';
import {
  assertNewPassword,
  assertUnlocked,
  lockSession,
  readSecrets,
  renameSelf,
  requestPasswordReset,
  resetPassword,
  setPin,
  signOut,
  unlockSession,
  verifyEmail,
  type Client,
} from './auth.service.ts';
import { acceptInvite, inviteDetails, openSession, resendVerification, signIn } from './auth.flows.ts';
import { devMailboxEnabled, registerDevMailbox } from './dev-mailbox.ts';
import { registerGoogle } from './google.ts';
import { buildMe, meOf } from './me.ts';

const tags = ['auth'];

/**
 * Sends JSON the route's own serializer made earlier (reply.serialize), as it is: a string with a JSON Content-Type
 * is not serialized again. (The typed reply accepts only the declared answer's shape, hence the plain reply.)
 */
function sendJson(reply: FastifyReply, json: string): void {
  void reply.type('application/json; charset=utf-8').send(json);
}

/** The caller as the sign-in limits see it: request.ip follows TRUST_PROXY (config.ts), the socket's peer by default. */
function client(request: FastifyRequest): Client {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined };
}

/** Sign-in, sessions, session lock, PIN, password reset, email verification and invitations (seed 000 sections 4, 5, 8). */
export const registerAuth: ModuleRegistrar = async (app, deps) => {
  const { db, config } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/me',
    {
      config: { access: 'authenticated', allowWhenLocked: true },
      schema: { tags, summary: 'The signed-in user, pharmacy, permissions and branches', response: { 200: meResponseSchema } },
    },
    (request, reply) => {
      // The branches came with the session (one query, or none from the session cache): no transaction here. The
      // answer depends on the loaded session alone, so its JSON (made by the route's serializer, as declared) is
      // kept with the session and sent as it is to the session's next requests until the cache drops the load
      // (decision 0073): a hit does no work but the send.
      const branches = sessionBranches(request);
      const auth = request.auth;
      if (auth && branches) {
        sendJson(reply, fromSession(request, 'GET /api/me', () => reply.serialize(meOf(config, auth, branches)) as string));
        return;
      }
      return app.inUser(request, reply, (q, user) => buildMe(q, config, user));
    },
  );

  r.patch(
    '/api/me',
    {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Change your own name (only you can)', body: updateProfileRequestSchema, response: { 200: meResponseSchema } },
    },
    async (request, reply) =>
      app.inUser(request, reply, async (q, user) => {
        await renameSelf(q, user, request.body);
        return buildMe(q, config, { ...user, name: request.body.name });
      }),
  );

  // A person's pharmacies and invitations (decision 0015). The user comes from the session, never from the body.
  r.get(
    '/api/me/pharmacies',
    {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'The pharmacies you work in and the invitations waiting for your answer', response: { 200: myPharmaciesResponseSchema } },
    },
    async (request, reply) => app.inUser(request, reply, (q, user) => listOwnPharmacies(q, user)),
  );

  r.post(
    '/api/me/pharmacy',
    {
      // A demo visitor works in the shared demo pharmacy only: nothing to switch to (403 DEMO_READ_ONLY).
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Work in another of your pharmacies (an accepted, active membership; otherwise 404 and nothing changes)',
        body: switchPharmacyRequestSchema,
        response: { 200: switchPharmacyResponseSchema },
      },
    },
    async (request, reply) =>
      app.inUser(request, reply, async (q, user) => {
        const { pharmacy } = await switchPharmacy(q, user, request.body.pharmacyId);
        return { pharmacy, message: `You are now working in ${pharmacy.name}` };
      }),
  );

  r.post(
    '/api/me/invitations/accept',
    {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Accept an invitation to a pharmacy', body: invitationAnswerRequestSchema, response: { 200: invitationAnswerResponseSchema } },
    },
    async (request, reply) =>
      app.inUser(request, reply, async (q, user) => {
        const { pharmacy } = await acceptInvitation(q, user, request.body.pharmacyId, new Date());
        return { pharmacy, message: `You joined ${pharmacy.name}` };
      }),
  );

  r.post(
    '/api/me/invitations/decline',
    {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Decline an invitation to a pharmacy', body: invitationAnswerRequestSchema, response: { 200: invitationAnswerResponseSchema } },
    },
    async (request, reply) =>
      app.inUser(request, reply, async (q, user) => {
        const { pharmacy } = await declineInvitation(q, user, request.body.pharmacyId, new Date());
        return { pharmacy, message: `You declined the invitation to ${pharmacy.name}` };
      }),
  );

  r.get(
    '/api/auth/providers',
    { config: { access: 'public' }, schema: { tags, summary: 'Sign-in methods offered, and whether email goes to the dev mailbox', response: { 200: authProvidersResponseSchema } } },
    async () => ({ google: Boolean(config.googleClientId), devMailbox: devMailboxEnabled(deps) }),
  );

  r.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Sign in with email and password', body: loginRequestSchema, response: { 200: signedInResponseSchema } },
    },
    async (request, reply) => {
      // Several transactions one after the other (auth.flows.ts): failures are counted before the refusal.
      const session = await signIn(routeSteps(app, request, reply), deps, request.body, client(request));
      setSessionCookie(reply, config, session.token, session.expires);
      return { ...session.me, message: 'Welcome back!' };
    },
  );

  r.post(
    '/api/auth/logout',
    { config: { access: 'public', allowForDemo: true }, schema: { tags, summary: 'Sign out', response: { 200: messageResponseSchema } } },
    async (request, reply) => {
      if (request.auth) await app.inUser(request, reply, (q, user) => signOut(q, user));
      clearSessionCookie(reply, config);
      return { message: 'Logged out successfully' };
    },
  );

  r.post(
    '/api/auth/lock',
    {
      config: { access: 'authenticated', allowWhenLocked: true, allowForDemo: true },
      schema: { tags, summary: 'Lock the session (after inactivity)', response: { 200: messageResponseSchema } },
    },
    async (request, reply) => app.inUser(request, reply, async (q, user) => (await lockSession(q, user), { message: 'Session locked' })),
  );

  r.post(
    '/api/auth/unlock',
    {
      config: { access: 'authenticated', allowWhenLocked: true, allowForDemo: true },
      schema: { tags, summary: 'Unlock the session with PIN or password', body: unlockRequestSchema, response: { 200: meResponseSchema } },
    },
    async (request, reply) => {
      // The failure count commits with the answer; the refusal is thrown after, and a sign-out clears the cookie.
      // The hashes are read on the owner connection before the transaction (decision 0016).
      const secrets = request.auth ? await readSecrets(db, request.auth.userId) : undefined;
      const outcome = await app.inUser(request, reply, (q, user) => unlockSession(q, user, request.body, secrets));
      if (!outcome.unlocked && outcome.signedOut) clearSessionCookie(reply, config);
      assertUnlocked(outcome);
      return app.inUser(request, reply, (q, user) => buildMe(q, config, { ...user, locked: false }));
    },
  );

  r.put(
    '/api/me/pin',
    {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Set the unlock PIN (4 to 6 digits)', body: setPinRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request, reply) => {
      const secrets = request.auth ? await readSecrets(db, request.auth.userId) : undefined;
      return app.inUser(request, reply, async (q, user) => (await setPin(q, user, request.body, secrets), { message: 'PIN saved' }));
    },
  );

  r.post(
    '/api/auth/forgot-password',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Email a password reset link', body: forgotPasswordRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request, reply) => {
      await app.inPlatform(request, reply, (q, ctx) => requestPasswordReset(q, deps, request.body.email, ctx.now));
      void deps.mailer.flush().catch(() => undefined);
      return { message: 'Password reset email sent! Please check your inbox.' };
    },
  );

  r.post(
    '/api/auth/reset-password',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Set a new password from a reset link', body: resetPasswordRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request, reply) => {
      // The password is checked and hashed before the transaction (a slow hash inside one would hold its connection).
      assertNewPassword(request.body.password, request.body.confirmPassword);
      const passwordHash = await hashPassword(request.body.password);
      await app.inPlatform(request, reply, (q, ctx) => resetPassword(q, request.body.token, passwordHash, ctx.now));
      return { message: 'Your password has been reset. You can sign in now.' };
    },
  );

  r.post(
    '/api/auth/verify-email',
    {
      config: { access: 'public', allowForDemo: true },
      schema: { tags, summary: 'Apply an email verification link (a demo visitor is signed in by it)', body: verifyEmailRequestSchema, response: { 200: verifyEmailResponseSchema } },
    },
    async (request, reply) => {
      // A demo visitor's address: the demo record is verified with access granted in the same transaction, and
      // the link signs them in (it proved the mailbox, as a sign-in link does; decision 0046).
      const now = new Date();
      const { userId, demo } = await app.inPlatform(request, reply, (q) => verifyEmail(q, request.body, now, completeDemoVerification));
      if (!demo) return { message: 'Email verified! You can sign in now.', demo: false };
      const session = await openSession(routeSteps(app, request, reply), deps, userId, client(request), now);
      setSessionCookie(reply, config, session.token, session.expires);
      return { message: 'Email verified! Taking you to the demo...', demo: true };
    },
  );

  r.post(
    '/api/auth/resend-verification',
    {
      config: { access: 'public', allowForDemo: true },
      schema: { tags, summary: 'Send a new verification email to the signed-in user', body: emptyRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request, reply) => (
      await resendVerification(routeSteps(app, request, reply), deps, request.auth), { message: 'Verification email sent! Please check your inbox.' }
    ),
  );

  r.get(
    '/api/auth/invite/:token',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Who an invitation link is for', params: inviteTokenParamsSchema, response: { 200: inviteDetailsResponseSchema } },
    },
    async (request, reply) => inviteDetails(routeSteps(app, request, reply), request.params.token),
  );

  r.post(
    '/api/auth/accept-invite',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Accept an invitation as a new person: set your name and password and sign in', body: acceptInviteRequestSchema, response: { 200: signedInResponseSchema } },
    },
    async (request, reply) => {
      const session = await acceptInvite(routeSteps(app, request, reply), deps, request.body, client(request));
      setSessionCookie(reply, config, session.token, session.expires);
      return { ...session.me, message: 'Welcome to PharmaPoint!' };
    },
  );

  await registerGoogle(app, deps);
  registerDevMailbox(app, deps);
};
