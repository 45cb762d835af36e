import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponseSchema, readinessResponseSchema } from '@pharmapoint/domain/health';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { health, readiness } from './health.service.ts';

/**
 * Health checks for load balancers and monitors (issue 7 item 7): JSON, public, no session lookup (the auth plugin
 * skips public /health routes) and not logged (they are called every few seconds).
 */
export const registerHealth: ModuleRegistrar = (app, { db, config }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['health'];

  r.get(
    '/health',
    {
      config: { access: 'public' },
      logLevel: 'silent',
      schema: { tags, summary: 'Liveness: status, version and whether the database answers', response: { 200: healthResponseSchema } },
    },
    async () => health(db, config),
  );

  r.get(
    '/health/ready',
    {
      config: { access: 'public' },
      logLevel: 'silent',
      schema: {
        tags,
        summary: 'Readiness: 200 when the database answers, 503 when it does not',
        response: { 200: readinessResponseSchema, 503: readinessResponseSchema },
      },
    },
    async (_request, reply) => {
      const answer = await readiness(db);
      return reply.status(answer.ready ? 200 : 503).send(answer);
    },
  );
};
