import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  demoAccessResponseSchema,
  demoEnterResponseSchema,
  demoRegisterRequestSchema,
  demoRegisterResponseSchema,
  demoSignInLinkRequestSchema,
  demoSignInRequestSchema,
} from '@pharmapoint/domain/demo';
import { emptyRequestSchema, signedInResponseSchema } from '@pharmapoint/domain/auth';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { setSessionCookie } from '../../platform/auth-plugin.ts';
import type { Client } from '../auth/auth.service.ts';
import { signInWithEmailLink } from '../auth/auth.flows.ts';
import { routeSteps } from '../../platform/transaction.ts';
import {
  completeDemoVerification,
  DEMO_PHARMACY_ID,
  demoAccess,
  enterDemo,
  readDemoEmail,
  readDemoRegistration,
  readDemoSignIn,
  registerDemo,
  sendDemoSignInLink,
  throttleDemoRequest,
} from './demo.service.ts';

const tags = ['demo'];

function client(request: FastifyRequest): Client {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined };
}

/** Demo registration and access (seed 002: /demo-register, /demo-access; decision 0046). */
export const registerDemoModule: ModuleRegistrar = (app, deps) => {
  const { config, mailer } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** After COMMIT: the email the transaction queued goes out now (the outbox is flushed in the background). */
  const sendQueued = <T>(answer: T): T => {
    void mailer.flush().catch(() => undefined);
    return answer;
  };

  r.post(
    '/api/demo/register',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Register for the demo: the account, the demo record, the lead and the verification email (rate-limited per address and email)',
        body: demoRegisterRequestSchema,
        response: { 201: demoRegisterResponseSchema },
      },
    },
    async (request, reply) => {
      const registration = readDemoRegistration(request.body);
      // Two transactions one after the other: the attempt is counted and committed first, so a refused or failed
      // registration still counts; then the registration itself, in the demo pharmacy.
      await app.inPlatform(request, reply, (q, ctx) => throttleDemoRequest(q, ctx, 'register', registration.email));
      const answer = await app.inPlatform(request, reply, (q, ctx) => registerDemo(q, ctx, deps, registration), { status: 201, scope: { pharmacyId: DEMO_PHARMACY_ID } });
      return sendQueued(answer);
    },
  );

  r.get(
    '/api/demo/access',
    { config: { access: 'public' }, schema: { tags, summary: 'What /demo-access shows for this session', response: { 200: demoAccessResponseSchema } } },
    async (request, reply) => app.inPlatform(request, reply, demoAccess, { scope: { userId: request.auth?.userId } }),
  );

  r.post(
    '/api/demo/sign-in-link',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Email a single-use sign-in link to /demo-access (rate-limited per address and email)', body: demoSignInLinkRequestSchema, response: { 200: demoRegisterResponseSchema } },
    },
    async (request, reply) => {
      const email = readDemoEmail(request.body.email);
      // Two transactions, as registering: the attempt counted and committed first, then the link.
      await app.inPlatform(request, reply, (q, ctx) => throttleDemoRequest(q, ctx, 'sign_in_link', email));
      return sendQueued(await app.inPlatform(request, reply, (q, ctx) => sendDemoSignInLink(q, ctx, deps, email)));
    },
  );

  r.post(
    '/api/demo/sign-in',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Complete an emailed sign-in link with the address it was sent to', body: demoSignInRequestSchema, response: { 200: signedInResponseSchema } },
    },
    async (request, reply) => {
      // The emailed link completed (the demo record verified in that transaction), then a session opened: the auth
      // flow's transactions one after the other.
      const session = await signInWithEmailLink(routeSteps(app, request, reply), deps, readDemoSignIn(request.body), client(request), new Date(), completeDemoVerification);
      setSessionCookie(reply, config, session.token, session.expires);
      return { ...session.me, message: 'Welcome to the PharmaPoint demo!' };
    },
  );

  r.post(
    '/api/demo/enter',
    {
      // Enter Demo counts the visit on the visitor's own demo record: no pharmacy data changes.
      config: { access: 'authenticated', allowForDemo: true },
      schema: { tags, summary: 'Enter Demo: count the access (accessCount, lastAccessAt)', body: emptyRequestSchema, response: { 200: demoEnterResponseSchema } },
    },
    async (request, reply) => app.inUser(request, reply, (q, auth) => enterDemo(q, auth)),
  );
};
