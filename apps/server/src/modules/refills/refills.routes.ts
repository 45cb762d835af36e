import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { refillCompletionSchema, refillLineParamsSchema, refillReminderListQuerySchema, refillReminderListResponseSchema } from '@pharmapoint/domain/refills';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { completeRefill, listRefillReminders } from './refills.service.ts';

const tags = ['refills'];

/**
 * Refill alerts (report:inventory, the guard of reports/refill-alerts): the open reminders set at the till, and
 * marking one completed. Contracts in packages/domain/src/refills.ts.
 */
export const registerRefills: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/refill-reminders',
    {
      config: { access: { permission: 'report:inventory' } },
      schema: {
        tags,
        summary: 'Open refill reminders set at the till: overdue, due today or in the next 7 days (or as filtered), duplicates within 24 hours merged',
        querystring: refillReminderListQuerySchema,
        response: { 200: refillReminderListResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listRefillReminders(q, ctx, request.query)),
  );
  r.post(
    '/api/refill-reminders/:saleId/:line/complete',
    {
      // Completing needs no Idempotency-Key: a repeat answers the first completion.
      config: { access: { permission: 'report:inventory' } },
      schema: {
        tags,
        summary: 'Mark a refill completed (with the duplicates merged into its alert); a repeat answers the first completion',
        params: refillLineParamsSchema,
        response: { 200: refillCompletionSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => completeRefill(q, ctx, request.params.saleId, request.params.line)),
  );
};
