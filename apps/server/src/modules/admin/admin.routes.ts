import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { adminPharmacyListResponseSchema } from '@pharmapoint/domain/subscription';
import { emptyRequestSchema } from '@pharmapoint/domain/auth';
import { themeResponseSchema, themeSchema } from '@pharmapoint/domain/tenancy';
import {
  adminAnalyticsQuerySchema,
  adminAnalyticsResponseSchema,
  adminOverviewResponseSchema,
  customerSetupRequestSchema,
  extendTrialRequestSchema,
  offlinePaymentRequestSchema,
  offlinePaymentResponseSchema,
  pharmacyActionResponseSchema,
  pharmacyIdParamsSchema,
} from '@pharmapoint/domain/admin';
import { adminDemosResponseSchema, leadIdParamsSchema, updateLeadRequestSchema, updateLeadResponseSchema } from '@pharmapoint/domain/demo';
import type { ModuleRegistrar } from '../../platform/module.ts';
import type { RequestAuth } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import { listDemosForOperator, updateLeadAsOperator } from '../demo/demo.service.ts';
import {
  adminAnalytics,
  adminOverview,
  deactivatePharmacy,
  extendTrial,
  customerSetUpMessage,
  listPharmaciesForOperator,
  operatorActionAnswer,
  pharmacyTheme,
  reactivatePharmacy,
  recordOfflinePayment,
  resendOwnerInvitation,
  savePharmacyTheme,
  setUpCustomer,
} from './admin.service.ts';

const tags = ['admin'];

/** The signed-in operator (the route's access 'operator' has already checked it). */
function operatorOf(request: FastifyRequest): RequestAuth {
  if (!request.auth?.isPlatformOperator) throw new AppError('FORBIDDEN');
  return request.auth;
}

/**
 * The platform operator's admin area (seed 002 section 2, /app/admin; issue 11 item 8; decision 0047). Reads across
 * pharmacies use the owner connection (the one place a request reads every tenant); each change of a pharmacy runs
 * as the request role with that pharmacy as tenant and is written to its audit log.
 */
export const registerAdmin: ModuleRegistrar = (app, { db, config, mailer }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const mail = { mailer, publicUrl: config.publicUrl };

  r.post(
    '/api/admin/pharmacies',
    {
      config: { access: 'operator' },
      schema: {
        tags,
        summary: 'Set up a pharmacy and its owner by hand (the owner is emailed an invitation to choose a password; audited)',
        body: customerSetupRequestSchema,
        response: { 201: pharmacyActionResponseSchema },
      },
    },
    async (request, reply) => {
      // No pharmacy yet: a platform transaction as the operator; the answer is read once it has committed.
      const operator = operatorOf(request);
      const pharmacyId = await app.inPlatform(request, reply, (q, ctx) => setUpCustomer(q, operator, request.body, mail, ctx.now), {
        status: 201,
        scope: { userId: operator.userId },
      });
      return operatorActionAnswer(db.owner, mail, pharmacyId, customerSetUpMessage(request.body.pharmacyName, request.body.ownerEmail));
    },
  );

  r.post(
    '/api/admin/pharmacies/:id/resend-invitation',
    {
      config: { access: 'operator' },
      schema: { tags, summary: "Send the owner's invitation again (until they accept it)", params: pharmacyIdParamsSchema, body: emptyRequestSchema, response: { 200: pharmacyActionResponseSchema } },
    },
    async (request, reply) => {
      const message = await app.inOperator(request, reply, request.params.id, (q, operator) => resendOwnerInvitation(q, operator, request.params.id, mail));
      return operatorActionAnswer(db.owner, mail, request.params.id, message);
    },
  );

  r.get(
    '/api/admin/pharmacies',
    {
      config: { access: 'operator' },
      schema: { tags, summary: 'Every pharmacy with its plan, subscription state and usage (platform operators only)', response: { 200: adminPharmacyListResponseSchema } },
    },
    async () => ({ pharmacies: await listPharmaciesForOperator(db.owner, new Date()) }),
  );

  r.get(
    '/api/admin/overview',
    {
      config: { access: 'operator' },
      schema: { tags, summary: 'The SaaS dashboard: pharmacies by status, 12 months of sign-ups and revenue, the demo funnel', response: { 200: adminOverviewResponseSchema } },
    },
    async () => adminOverview(db.owner, new Date()),
  );

  r.get(
    '/api/admin/pharmacies/:id/theme',
    {
      config: { access: 'operator' },
      schema: { tags, summary: "A pharmacy's theme (theme customizer)", params: pharmacyIdParamsSchema, response: { 200: themeResponseSchema } },
    },
    async (request, reply) => app.inOperator(request, reply, request.params.id, (q, operator) => pharmacyTheme(q, operator, request.params.id)),
  );

  r.put(
    '/api/admin/pharmacies/:id/theme',
    {
      config: { access: 'operator' },
      schema: { tags, summary: "Save a pharmacy's theme (audited in its log)", params: pharmacyIdParamsSchema, body: themeSchema, response: { 200: themeResponseSchema } },
    },
    async (request, reply) => app.inOperator(request, reply, request.params.id, (q, operator) => savePharmacyTheme(q, operator, request.params.id, request.body)),
  );

  r.get(
    '/api/admin/analytics',
    {
      config: { access: 'operator' },
      schema: {
        tags,
        summary: "A month's sales per pharmacy (counts and totals only) and the platform's figures: sign-ups, money received, demo registrations",
        querystring: adminAnalyticsQuerySchema,
        response: { 200: adminAnalyticsResponseSchema },
      },
    },
    async (request) => adminAnalytics(db.owner, request.query.month),
  );

  r.post(
    '/api/admin/pharmacies/:id/extend-trial',
    {
      config: { access: 'operator', idempotent: true },
      schema: {
        tags,
        summary: "Extend a pharmacy's trial by 1 to 90 days (audited; a retry with the same Idempotency-Key extends nothing more)",
        params: pharmacyIdParamsSchema,
        body: extendTrialRequestSchema,
        response: { 200: pharmacyActionResponseSchema },
      },
    },
    async (request, reply) => app.inOperator(request, reply, request.params.id, (q, operator) => extendTrial(q, operator, request.params.id, request.body.days)),
  );

  r.post(
    '/api/admin/pharmacies/:id/offline-payments',
    {
      config: { access: 'operator', idempotent: true },
      schema: {
        tags,
        summary:
          "Record a payment made outside the M-Pesa prompt (bank transfer, cash, cheque, M-Pesa to the paybill): a completed platform payment, the subscription following as for M-Pesa, audited; a retry with the same Idempotency-Key records once",
        params: pharmacyIdParamsSchema,
        body: offlinePaymentRequestSchema,
        response: { 201: offlinePaymentResponseSchema },
      },
    },
    async (request, reply) =>
      app.inOperator(request, reply, request.params.id, (q, operator) => recordOfflinePayment(q, operator, request.params.id, request.body), { status: 201 }),
  );

  r.post(
    '/api/admin/pharmacies/:id/deactivate',
    {
      config: { access: 'operator' },
      schema: { tags, summary: 'Deactivate a pharmacy (audited)', params: pharmacyIdParamsSchema, body: emptyRequestSchema, response: { 200: pharmacyActionResponseSchema } },
    },
    async (request, reply) => app.inOperator(request, reply, request.params.id, (q, operator) => deactivatePharmacy(q, operator, request.params.id)),
  );

  r.post(
    '/api/admin/pharmacies/:id/reactivate',
    {
      config: { access: 'operator' },
      schema: { tags, summary: 'Reactivate a deactivated pharmacy (audited)', params: pharmacyIdParamsSchema, body: emptyRequestSchema, response: { 200: pharmacyActionResponseSchema } },
    },
    async (request, reply) => app.inOperator(request, reply, request.params.id, (q, operator) => reactivatePharmacy(q, operator, request.params.id)),
  );

  r.get(
    '/api/admin/demos',
    {
      config: { access: 'operator' },
      schema: { tags, summary: 'Demo registrations (verification, access counts) and leads (follow-up status)', response: { 200: adminDemosResponseSchema } },
    },
    async () => listDemosForOperator(db.owner),
  );

  r.patch(
    '/api/admin/leads/:id',
    {
      config: { access: 'operator' },
      schema: { tags, summary: "A lead's follow-up: status, follow-up flag, notes", params: leadIdParamsSchema, body: updateLeadRequestSchema, response: { 200: updateLeadResponseSchema } },
    },
    async (request, reply) => {
      const operatorId = operatorOf(request).userId;
      return app.inPlatform(request, reply, (q, ctx) => updateLeadAsOperator(q, operatorId, request.params.id, request.body, ctx.now), { scope: { userId: operatorId } });
    },
  );
};
