import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  autoReminderSettingsSchema,
  contactIdParamsSchema,
  refillActionBodySchema,
  refillCompletionSchema,
  refillLineParamsSchema,
  refillReminderListQuerySchema,
  refillReminderListResponseSchema,
  refillSmsSchema,
  reminderConsentResponseSchema,
  reminderConsentSchema,
  smsDeliveryReportSchema,
  smsOptOutSchema,
} from '@pharmapoint/domain/refills';
import { normalizePhone } from '@pharmapoint/domain/phone';
import { AppError } from '../../platform/errors.ts';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { isLoopback } from '../auth/dev-mailbox.ts';
import { AT_DELIVERY_PATH, AT_OPT_OUT_PATH } from './at-config.ts';
import { createRefillSmsRunner } from './refill-sms.jobs.ts';
import { pharmaciesOfPhone, pharmacyOfMessage } from './refill-sms.repository.ts';
import { applyDeliveryReport, applyOptOut, getAutoReminderSettings, getReminderConsent, queueRefillSms, saveAutoReminderSettings, setReminderConsent } from './refill-sms.service.ts';
import { completeRefill, listRefillReminders } from './refills.service.ts';

/** The callback's fields: AT posts them form-encoded; JSON is accepted too. */
function fieldsOf(raw: Buffer, contentType: string | undefined): Record<string, string> {
  const text = raw.toString('utf8');
  if ((contentType ?? '').includes('json')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object') return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v ?? '')]));
    } catch {
      throw new AppError('MALFORMED_JSON');
    }
    return {};
  }
  return Object.fromEntries(new URLSearchParams(text));
}

const tags = ['refills'];

/**
 * Refill alerts (report:inventory, the guard of reports/refill-alerts): the open reminders set at the till, and
 * marking one completed. Contracts in packages/domain/src/refills.ts.
 */
export const registerRefills: ModuleRegistrar = (app, { db, config }) => {
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
        body: refillActionBodySchema,
        response: { 200: refillCompletionSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => completeRefill(q, ctx, request.params.saleId, request.params.line)),
  );
  r.post(
    '/api/refill-reminders/:saleId/:line/sms',
    {
      config: { access: { permission: 'report:inventory' }, idempotent: true },
      schema: {
        tags,
        summary: "Send SMS: queue the refill reminder, sent by the job runner through Africa's Talking (Idempotency-Key)",
        params: refillLineParamsSchema,
        body: refillActionBodySchema,
        response: { 201: refillSmsSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => queueRefillSms(q, ctx, request.params.saleId, request.params.line), { status: 201 }),
  );
  r.get(
    '/api/refill-reminders/settings',
    {
      config: { access: { permission: 'report:inventory' } },
      schema: { tags, summary: 'The automatic SMS reminder: on or off, days before the refill, quiet hours', response: { 200: autoReminderSettingsSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getAutoReminderSettings(q, ctx)),
  );
  r.put(
    '/api/refill-reminders/settings',
    {
      config: { access: { anyOf: ['settings:business', 'settings:system'] } },
      schema: { tags, summary: 'Turn the automatic SMS reminder on or off (opt-in), with the days before the refill and the quiet hours', body: autoReminderSettingsSchema, response: { 200: autoReminderSettingsSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => saveAutoReminderSettings(q, ctx, request.body)),
  );
  r.get(
    '/api/contacts/:id/reminder-consent',
    {
      config: { access: { anyOf: ['contact:read', 'pos:access', 'report:inventory'] } },
      schema: { tags, summary: "A client's consent to refill reminders (apart from marketing) and whether the number opted out of SMS", params: contactIdParamsSchema, response: { 200: reminderConsentResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getReminderConsent(q, ctx, request.params.id)),
  );
  r.put(
    '/api/contacts/:id/reminder-consent',
    {
      config: { access: { anyOf: ['contact:update', 'pos:access', 'report:inventory'] } },
      schema: {
        tags,
        summary: "Record a client's consent to refill reminders, given or withdrawn (at the till, the contact page or the refill alerts)",
        params: contactIdParamsSchema,
        body: reminderConsentSchema,
        response: { 200: reminderConsentResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => setReminderConsent(q, ctx, request.params.id, request.body)),
  );

  // Africa's Talking's callbacks: unsigned, so the path carries the secret token registered in AT's dashboard; the
  // body (form-encoded, or JSON) is read only after the token matches.
  const at = config.africasTalking;
  if (at) {
    app.register(async (hooks) => {
      hooks.removeAllContentTypeParsers();
      hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 16384 }, (_request, body, done) => done(null, body));
      const verified = (request: { params: unknown }) => {
        if ((request.params as { token?: string }).token !== at.callbackToken) throw new AppError('NOT_FOUND');
      };
      hooks.post(`${AT_DELIVERY_PATH}/:token`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        verified(request);
        const parsed = smsDeliveryReportSchema.safeParse(fieldsOf(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0), request.headers['content-type']));
        if (!parsed.success) return reply.status(400).send({ error: { code: 'VALIDATION', message: 'A delivery report needs id and status.' } });
        // Which pharmacy sent it (one transaction), then its update in that pharmacy (another).
        const pharmacyId = await app.inPlatform(request, reply, (q) => pharmacyOfMessage(q, parsed.data.id));
        if (pharmacyId) await app.inPlatform(request, reply, (q, ctx) => applyDeliveryReport(q, pharmacyId, parsed.data, ctx.now), { scope: { pharmacyId } });
        return reply.status(200).send({ received: true });
      });
      hooks.post(`${AT_OPT_OUT_PATH}/:token`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        verified(request);
        const parsed = smsOptOutSchema.safeParse(fieldsOf(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0), request.headers['content-type']));
        if (!parsed.success) return reply.status(400).send({ error: { code: 'VALIDATION', message: 'An opt-out needs phoneNumber.' } });
        // The platform's sender is shared: every pharmacy that has sent to the number honours it, each in its own transaction.
        const phone = normalizePhone(parsed.data.phoneNumber);
        const pharmacies = await app.inPlatform(request, reply, (q) => pharmaciesOfPhone(q, phone));
        for (const pharmacyId of pharmacies) {
          await app.inPlatform(request, reply, (q, ctx) => applyOptOut(q, pharmacyId, phone, ctx.now), { scope: { pharmacyId } });
        }
        return reply.status(200).send({ received: true });
      });
    });
  }

  if (at?.simulator) {
    // The SMS simulator's page (this machine only): plays the handsets.
    app.get('/dev/sms', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      if (config.trustProxy !== false || !isLoopback(request.socket.remoteAddress)) throw new AppError('NOT_FOUND');
      return reply.redirect(`${at.baseUrl}/`);
    });
  }

  // Every listening server runs it: jobs are claimed with SKIP LOCKED, so several instances share them.
  const runner = createRefillSmsRunner({ db, config });
  app.addHook('onListen', async () => runner.start(2000));
  app.addHook('onClose', async () => runner.stop());
};
