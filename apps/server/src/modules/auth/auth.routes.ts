import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  forgotPasswordRequestSchema,
  loginRequestSchema,
  meResponseSchema,
  resetPasswordRequestSchema,
  setPinRequestSchema,
  unlockRequestSchema,
  verifyEmailRequestSchema,
} from '@pharmapoint/domain/auth';
import type { ModuleRegistrar } from '../index.ts';
import { clearSessionCookie, setSessionCookie } from '../../platform/auth-plugin.ts';
import { AppError } from '../../platform/errors.ts';
import {
  acceptInvite,
  inviteDetails,
  lockSession,
  requestPasswordReset,
  resetPassword,
  sendVerificationEmail,
  setPin,
  signIn,
  signOut,
  unlockSession,
  verifyEmail,
} from './auth.service.ts';
import { registerDevMailbox } from './dev-mailbox.ts';
import { registerGoogle } from './google.ts';
import { buildMe } from './me.ts';
import { FailureThrottle } from './throttle.ts';

/** Failed sign-ins one IP address may make in LOGIN_IP_WINDOW_MINUTES before it must wait. */
export const LOGIN_IP_MAX_FAILURES = 20;
export const LOGIN_IP_WINDOW_MINUTES = 15;

const messageSchema = z.object({ message: z.string() });
const meWithMessage = meResponseSchema.extend({ message: z.string() });
const acceptInviteSchema = z.strictObject({
  token: z.string().min(1).max(200),
  password: z.string().max(200),
  confirmPassword: z.string().max(200),
});

function client(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined };
}

/** Sign-in, sessions, session lock, PIN, password reset, email verification and invitations (seed 000 sections 4, 5, 8). */
export const registerAuth: ModuleRegistrar = async (app, deps) => {
  const { db, config } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new FailureThrottle(LOGIN_IP_MAX_FAILURES, LOGIN_IP_WINDOW_MINUTES * 60_000);

  r.get(
    '/api/me',
    {
      config: { access: 'authenticated', allowWhenLocked: true },
      schema: { tags: ['auth'], summary: 'The signed-in user, pharmacy, permissions and branches', response: { 200: meResponseSchema } },
    },
    async (request) => buildMe(db, config, request.auth!),
  );

  r.get(
    '/api/auth/providers',
    { config: { access: 'public' }, schema: { tags: ['auth'], summary: 'Sign-in methods offered', response: { 200: z.object({ google: z.boolean() }) } } },
    async () => ({ google: Boolean(config.googleClientId) }),
  );

  r.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Sign in with email and password', body: loginRequestSchema, response: { 200: meWithMessage } },
    },
    async (request, reply) => {
      const session = await signIn(deps, request.body, client(request), throttle);
      setSessionCookie(reply, config, session.token, session.expires);
      return { ...(await buildMe(db, config, session.auth)), message: 'Welcome back!' };
    },
  );

  r.post(
    '/api/auth/logout',
    { config: { access: 'public', allowForDemo: true }, schema: { tags: ['auth'], summary: 'Sign out', response: { 200: messageSchema } } },
    async (request, reply) => {
      if (request.auth) await signOut(db, request.auth);
      clearSessionCookie(reply, config);
      return { message: 'Logged out successfully' };
    },
  );

  r.post(
    '/api/auth/lock',
    {
      config: { access: 'authenticated', allowWhenLocked: true, allowForDemo: true },
      schema: { tags: ['auth'], summary: 'Lock the session (after inactivity)', response: { 200: messageSchema } },
    },
    async (request) => {
      await lockSession(db, request.auth!);
      return { message: 'Session locked' };
    },
  );

  r.post(
    '/api/auth/unlock',
    {
      config: { access: 'authenticated', allowWhenLocked: true, allowForDemo: true },
      schema: { tags: ['auth'], summary: 'Unlock the session with PIN or password', body: unlockRequestSchema, response: { 200: meResponseSchema } },
    },
    async (request, reply) => {
      try {
        await unlockSession(db, request.auth!, request.body);
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_AUTHENTICATED') clearSessionCookie(reply, config);
        throw error;
      }
      return buildMe(db, config, { ...request.auth!, locked: false });
    },
  );

  r.put(
    '/api/me/pin',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Set the unlock PIN (4 to 6 digits)', body: setPinRequestSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      await setPin(db, request.auth!, request.body);
      return { message: 'PIN saved' };
    },
  );

  r.post(
    '/api/auth/forgot-password',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Email a password reset link', body: forgotPasswordRequestSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      await requestPasswordReset(deps, request.body.email);
      return { message: 'Password reset email sent! Please check your inbox.' };
    },
  );

  r.post(
    '/api/auth/reset-password',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Set a new password from a reset link', body: resetPasswordRequestSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      await resetPassword(db, request.body);
      return { message: 'Your password has been reset. You can sign in now.' };
    },
  );

  r.post(
    '/api/auth/verify-email',
    {
      config: { access: 'public', allowForDemo: true },
      schema: { tags: ['auth'], summary: 'Apply an email verification link', body: verifyEmailRequestSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      await verifyEmail(db, request.body);
      return { message: 'Email verified! You can sign in now.' };
    },
  );

  r.post(
    '/api/auth/resend-verification',
    {
      config: { access: 'public', allowForDemo: true },
      schema: { tags: ['auth'], summary: 'Send a new verification email to the signed-in user', body: z.strictObject({}).optional(), response: { 200: messageSchema } },
    },
    async (request) => {
      const auth = request.auth;
      if (!auth) throw new AppError('VERIFY_SIGN_IN_FIRST');
      try {
        await sendVerificationEmail(deps, { id: auth.userId, email: auth.email, name: auth.name });
      } catch {
        throw new AppError('VERIFY_SEND_FAILED');
      }
      return { message: 'Verification email sent! Please check your inbox.' };
    },
  );

  r.get(
    '/api/auth/invite/:token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Who an invitation link is for',
        params: z.strictObject({ token: z.string().min(1).max(200) }),
        response: { 200: z.object({ email: z.string(), name: z.string(), pharmacyName: z.string() }) },
      },
    },
    async (request) => {
      const { email, name, pharmacyName } = await inviteDetails(db, request.params.token);
      return { email, name, pharmacyName };
    },
  );

  r.post(
    '/api/auth/accept-invite',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Accept an invitation: set a password and sign in', body: acceptInviteSchema, response: { 200: meWithMessage } },
    },
    async (request, reply) => {
      const session = await acceptInvite(deps, request.body, client(request));
      setSessionCookie(reply, config, session.token, session.expires);
      return { ...(await buildMe(db, config, session.auth)), message: 'Welcome to PharmaPoint!' };
    },
  );

  await registerGoogle(app, deps);
  registerDevMailbox(app, deps);
};
