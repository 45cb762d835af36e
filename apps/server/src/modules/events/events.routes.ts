import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eventsQuerySchema, eventStreamResponseSchema, SSE_HEARTBEAT_SECONDS, SSE_RETRY_MS } from '@pharmapoint/domain/events';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { EventHub, type EventSubscriber } from '../../platform/events.ts';
import { loadSession, SESSION_COOKIE } from '../../platform/auth-plugin.ts';
import { assertBranchOfMember } from '../tenancy/branches.service.ts';

/**
 * GET /api/events: server-sent events of the caller's pharmacy.
 * Stream: `retry: 3000`, then `event: ready`, then `event: stock` (StockEvent) and `event: products`
 * (ProductsChangedEvent) as changes commit anywhere, and a `: heartbeat` comment every 15 seconds. The
 * session is checked again at each heartbeat; a signed-out, locked or switched session ends the stream.
 */
export const registerEvents: ModuleRegistrar = async (app, { db }) => {
  const hub = new EventHub(db);
  await hub.start();
  const streams = new Set<() => void>();
  // Open streams would keep app.close() waiting for ever: end them first.
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  app.addHook('onClose', async () => {
    await hub.stop();
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/events',
    {
      config: { access: 'tenant' },
      schema: {
        tags: ['events'],
        summary: 'Live stock updates of the pharmacy (server-sent events)',
        querystring: eventsQuerySchema,
        // The stream is written by hand (the reply is hijacked): this documents it, no serializer runs.
        response: { 200: eventStreamResponseSchema },
      },
    },
    async (request, reply) => {
      const wanted = request.query.branchId;
      // Checked before the stream opens, so a refusal is an ordinary error answer.
      const ctx = await app.inTenant(request, reply, async (q, ctx) => {
        if (wanted) await assertBranchOfMember(q, ctx, wanted);
        return ctx;
      });
      const allowed = ctx.membership.allowedBranchIds;
      const branchIds = wanted ? new Set([wanted]) : allowed ? new Set(allowed) : null;
      const token = request.cookies[SESSION_COOKIE] ?? '';
      const tokenHash = request.auth?.tokenHash;

      reply.hijack();
      const res = reply.raw;
      const headers: Record<string, string | number | string[]> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });

      let seq = 0;
      const write = (event: string, data: unknown) => {
        seq += 1;
        res.write(`id: ${seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const subscriber: EventSubscriber = { pharmacyId: ctx.pharmacyId, branchIds, send: write };
      const unsubscribe = hub.subscribe(subscriber);

      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(end);
        res.end();
      };
      streams.add(end);
      const heartbeat = setInterval(() => {
        res.write(': heartbeat\n\n');
        void loadSession(db, token)
          .then((auth) => {
            if (!auth || auth.tokenHash !== tokenHash || auth.locked || auth.pharmacyId !== ctx.pharmacyId) end();
          })
          .catch(() => end());
      }, SSE_HEARTBEAT_SECONDS * 1000);
      heartbeat.unref();
      request.raw.on('close', end);
      res.on('error', end);

      res.write(`retry: ${SSE_RETRY_MS}\n\n`);
      write('ready', { at: new Date().toISOString() });
    },
  );
};
