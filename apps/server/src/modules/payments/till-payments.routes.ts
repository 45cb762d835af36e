import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  TILL_MPESA_RECONCILE_PERMISSIONS,
  tillMpesaCancelSchema,
  tillMpesaIdParamsSchema,
  tillMpesaListQuerySchema,
  tillMpesaListResponseSchema,
  tillMpesaResolveSchema,
  tillMpesaResponseSchema,
  tillMpesaStartSchema,
} from '@pharmapoint/domain/till-mpesa';
import { AppError } from '../../platform/errors.ts';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { TILL_CALLBACK_PREFIX } from './k2-config.ts';
import { readK2Result, verifySignature } from './k2.client.ts';
import { createTillPaymentsRunner, recordTillResult } from './till-payments.jobs.ts';
import { cancelTillPayment, getTillPayment, listTillPaymentRequests, resolveTillPayment, startTillPayment, tillK2 } from './till-payments.service.ts';

const PHARMACY_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * M-Pesa at the till (issue 11 item 7, decision 0058): the cashier's payment request, its state, cancelling it,
 * the owner's list (status=unmatched: money to reconcile), and K2's signed callback on a path of the pharmacy whose
 * API key verifies it, checked on the raw bytes before anything is parsed or stored.
 */
export const registerTillPayments: ModuleRegistrar = (app, deps) => {
  const { db, config } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['till payments'];

  r.post(
    '/api/till-payments',
    {
      config: { access: { permission: 'pos:access' }, idempotent: true },
      schema: {
        tags,
        summary: "Ask the customer's phone for the sale's total by M-Pesa STK push (Idempotency-Key: the request's own UUID)",
        body: tillMpesaStartSchema,
        response: { 201: tillMpesaResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => startTillPayment(q, ctx, config, request.body), { status: 201 }),
  );

  r.get(
    '/api/till-payments',
    {
      config: { access: { anyOf: TILL_MPESA_RECONCILE_PERMISSIONS } },
      schema: {
        tags,
        summary: "The till's M-Pesa requests, newest first, paged, by status, branch and day (status=unmatched: money that completed no sale)",
        querystring: tillMpesaListQuerySchema,
        response: { 200: tillMpesaListResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listTillPaymentRequests(q, ctx, request.query)),
  );

  r.get(
    '/api/till-payments/:id',
    {
      config: { access: { permission: 'pos:access' } },
      schema: { tags, summary: 'One M-Pesa request of the till (the till polls it)', params: tillMpesaIdParamsSchema, response: { 200: tillMpesaResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getTillPayment(q, ctx, request.params.id)),
  );

  r.post(
    '/api/till-payments/:id/cancel',
    {
      config: { access: { permission: 'pos:access' } },
      schema: {
        tags,
        summary: 'Stop waiting for the customer (a payment made anyway is kept for reconciliation)',
        params: tillMpesaIdParamsSchema,
        body: tillMpesaCancelSchema,
        response: { 200: tillMpesaResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => cancelTillPayment(q, ctx, request.params.id, request.body)),
  );

  r.post(
    '/api/till-payments/:id/resolve',
    {
      config: { access: { anyOf: TILL_MPESA_RECONCILE_PERMISSIONS }, idempotent: true },
      schema: {
        tags,
        summary: 'Reconcile unmatched M-Pesa money: refunded to the customer (reference and note) or applied to a sale by invoice number (Idempotency-Key)',
        params: tillMpesaIdParamsSchema,
        body: tillMpesaResolveSchema,
        response: { 200: tillMpesaResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => resolveTillPayment(q, ctx, request.params.id, request.body)),
  );

  // K2's callback for a pharmacy's till: raw bytes, verified with that pharmacy's API key before anything is parsed.
  app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 65536 }, (_request, body, done) => done(null, body));
    hooks.post(`${TILL_CALLBACK_PREFIX}/:pharmacyId`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const pharmacyId = (request.params as { pharmacyId?: string }).pharmacyId ?? '';
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      let apiKey: string | undefined;
      if (PHARMACY_ID.test(pharmacyId)) {
        try {
          apiKey = await app.inPlatform(request, reply, async (q) => (await tillK2(q, config, pharmacyId)).k2?.apiKey, { scope: { pharmacyId } });
        } catch {
          apiKey = undefined; // an unknown pharmacy
        }
      }
      if (!apiKey || !verifySignature(apiKey, raw, request.headers['x-kopokopo-signature'])) throw new AppError('PAYMENT_SIGNATURE_INVALID');
      const text = raw.toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new AppError('MALFORMED_JSON');
      }
      // Transactions in the pharmacy, one after the other (recordTillResult): the receipt is kept even if the sale fails.
      await recordTillResult((work) => app.inPlatform(request, reply, (q) => work(q), { scope: { pharmacyId } }), pharmacyId, readK2Result(parsed), {
        body: text,
        source: 'callback',
      });
      return reply.status(200).send({ received: true });
    });
  });

  // Every listening server runs it: a pharmacy's own credentials need no platform K2 configuration.
  const runner = createTillPaymentsRunner({ db, config });
  app.addHook('onListen', async () => runner.start(2000));
  app.addHook('onClose', async () => runner.stop());
};
