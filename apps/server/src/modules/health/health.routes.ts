import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponseSchema, readinessResponseSchema } from '@pharmapoint/domain/health';
import type { ModuleRegistrar } from '../../platform/module.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answeredWithin, databaseAnswers, health, readiness } from './health.service.ts';

/**
 * Health checks for load balancers and monitors (issue 7 item 7): JSON, public, no session lookup (the auth plugin
 * skips public /health routes) and not logged (they are called every few seconds).
 */
export const registerHealth: ModuleRegistrar = (app, { config }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['health'];
  /** Does the database answer in a platform transaction (as the application role) within the check's time? */
  const databaseReachable = (request: FastifyRequest, reply: FastifyReply) => answeredWithin(app.inPlatform(request, reply, databaseAnswers));

  r.get(
    '/health',
    {
      config: { access: 'public' },
      logLevel: 'silent',
      schema: { tags, summary: 'Liveness: status, version and whether the database answers', response: { 200: healthResponseSchema } },
    },
    async (request, reply) => health(config, databaseReachable(request, reply)),
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
    async (request, reply) => {
      const answer = await readiness(databaseReachable(request, reply));
      return reply.status(answer.ready ? 200 : 503).send(answer);
    },
  );
};
