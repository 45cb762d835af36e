import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createOwnerRequestSchema,
  createOwnerResponseSchema,
  EMAIL_CHECK_LIMIT,
  emailCheckRequestSchema,
  emailCheckResponseSchema,
  paymentConfirmationEmailRequestSchema,
  paymentConfirmationEmailResponseSchema,
  paymentIdParamsSchema,
  paymentStatusResponseSchema,
  stkPushRequestSchema,
  stkPushResponseSchema,
  subscriptionPaymentRequestSchema,
  subscriptionPaymentResponseSchema,
} from '@pharmapoint/domain/platform-payments';
import { AppError } from '../../platform/errors.ts';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { isLoopback } from '../auth/dev-mailbox.ts';
import { K2_CALLBACK_PATH } from './k2-config.ts';
import { readK2Result, verifySignature } from './k2.client.ts';
import { createPaymentsRunner } from './payments.jobs.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { idempotencyKey, requestHash } from '../../platform/transaction.ts';
import {
  applyK2Result,
  checkEmail,
  ownerSetupOf,
  paymentStatus,
  requestConfirmationEmail,
  setOwnerPassword,
  startLicencePayment,
  startSubscriptionPayment,
  subscriptionPayment,
} from './payments.service.ts';

/**
 * Buying the licence by M-Pesa through Kopo Kopo K2 (issue 11 items 2-4), with the paths of seed 002 section 7, the
 * signed K2 callback, and the worker that sends STK pushes and reconciles by status queries.
 */
export const registerPayments: ModuleRegistrar = (app, deps) => {
  const { config } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];

  r.post(
    '/api/payments/email-check',
    {
      config: { access: 'public', rateLimit: { max: EMAIL_CHECK_LIMIT.perIp, timeWindow: EMAIL_CHECK_LIMIT.windowMinutes * 60_000 } },
      schema: { tags, summary: 'Is this email free for a new pharmacy (no account and no pharmacy has it)?', body: emailCheckRequestSchema, response: { 200: emailCheckResponseSchema } },
    },
    async (request, reply) => app.inPlatform(request, reply, (q) => checkEmail(q, request.body.email)),
  );

  // Idempotent without a pharmacy (decision 0076): the key is not claimed by app.inPlatform (it needs a pharmacy to
  // claim it in, so key 'none') but kept on the payment row itself, in the same transaction, by the use case.
  r.post(
    '/api/payments/kopokopo/stk-push',
    {
      config: { access: 'public', idempotent: true },
      schema: {
        tags,
        summary:
          'Start buying the licence: a pending payment of the server’s price and an M-Pesa STK push to the phone (send an Idempotency-Key per purchase attempt: a retry with it answers the first answer and sends no second push)',
        body: stkPushRequestSchema,
        response: { 200: stkPushResponseSchema },
      },
    },
    async (request, reply) => {
      const key = idempotencyKey(request);
      const idempotency = key ? { key, requestHash: requestHash(request) } : null;
      const started = await app.inPlatform(request, reply, (q, ctx) => startLicencePayment(q, ctx, config, request.body, idempotency), { key: 'none' });
      if (started.replayed) reply.header('idempotent-replayed', 'true');
      return started.answer;
    },
  );

  r.get(
    '/api/payments/kopokopo/status/:id',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'The state of a licence payment (polled by the purchase screen)', params: paymentIdParamsSchema, response: { 200: paymentStatusResponseSchema } },
    },
    async (request, reply) => app.inPlatform(request, reply, (q) => paymentStatus(q, request.params.id)),
  );

  r.post(
    '/api/tenants/create-owner',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The owner of a paid licence sets their password (once, with the secret the paying browser holds)',
        body: createOwnerRequestSchema,
        response: { 200: createOwnerResponseSchema },
      },
    },
    async (request, reply) => {
      // Two transactions one after the other, the password hashed between them (a slow hash inside a transaction
      // would hold its connection): whose setup this is, then the first password in their pharmacy.
      const setup = await app.inPlatform(request, reply, (q) => ownerSetupOf(q, request.body));
      const passwordHash = await hashPassword(request.body.password);
      return app.inPlatform(request, reply, (q, ctx) => setOwnerPassword(q, ctx, setup, passwordHash), { scope: { pharmacyId: setup.pharmacyId, userId: setup.userId } });
    },
  );

  r.post(
    '/api/emails/payment-confirmation',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Queue the confirmation email of a completed payment (once per payment; to the payment’s owner email)',
        body: paymentConfirmationEmailRequestSchema,
        response: { 200: paymentConfirmationEmailResponseSchema },
      },
    },
    async (request, reply) => app.inPlatform(request, reply, (q) => requestConfirmationEmail(q, deps, request.body.transactionId)),
  );

  // Paying from /app/subscription (issue 11 item 6): the licence of a trial, or a year of hosting.
  r.post(
    '/api/subscription/payments',
    {
      config: { access: { permission: 'subscription:manage' }, idempotent: true },
      schema: {
        tags,
        summary: 'Pay the licence (upgrade a trial) or a year of hosting by M-Pesa STK push',
        body: subscriptionPaymentRequestSchema,
        response: { 201: subscriptionPaymentResponseSchema },
      },
    },
    async (request, reply) =>
      app.inTenant(request, reply, (q, ctx) => startSubscriptionPayment(q, ctx, config, request.body, { ip: request.ip }), { status: 201 }),
  );

  r.get(
    '/api/subscription/payments/:id',
    {
      config: { access: { permission: 'subscription:view' } },
      schema: { tags, summary: 'One of the pharmacy’s subscription payments', params: paymentIdParamsSchema, response: { 200: subscriptionPaymentResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => subscriptionPayment(q, ctx, request.params.id)),
  );

  // The K2 callback: the body is kept as raw bytes, its signature checked before anything is parsed or stored.
  app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 65536 }, (_request, body, done) => done(null, body));
    hooks.post(K2_CALLBACK_PATH, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const k2 = config.kopokopo;
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!k2 || !verifySignature(k2.apiKey, raw, request.headers['x-kopokopo-signature'])) throw new AppError('PAYMENT_SIGNATURE_INVALID');
      let parsed: unknown;
      const text = raw.toString('utf8');
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new AppError('MALFORMED_JSON');
      }
      const result = readK2Result(parsed);
      await app.inPlatform(request, reply, (q, ctx) => applyK2Result(q, deps, result, { body: text, source: 'callback' }, ctx.now));
      return reply.status(200).send({ received: true });
    });
  });

  if (config.kopokopo?.simulator && config.kopokopo.baseUrl) {
    // The simulator's page (this machine only): plays the customer's phone.
    const page = config.kopokopo.baseUrl;
    app.get('/dev/k2', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      if (config.trustProxy !== false || !isLoopback(request.socket.remoteAddress)) throw new AppError('NOT_FOUND');
      return reply.redirect(`${page}/`);
    });
  }

  if (config.kopokopo) {
    const runner = createPaymentsRunner(deps);
    app.addHook('onListen', async () => runner.start(1000));
    app.addHook('onClose', async () => runner.stop());
  }
};
