import { jobIdParamsSchema, jobsOverviewSchema, jobsQuerySchema, retryJobResponseSchema } from '@pharmapoint/domain/jobs';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { jobsOverview, retryDeadJob } from './jobs.service.ts';

const tags = ['admin'];

/** The platform operator's view of the background jobs (platform/jobs.ts): counts, dead letters, retry. */
export const registerJobs: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/jobs',
    {
      config: { access: 'operator' },
      schema: {
        tags,
        summary: 'Background jobs: counts by kind and state, and the dead jobs (paged, latest first; platform operators only)',
        querystring: jobsQuerySchema,
        response: { 200: jobsOverviewSchema },
      },
    },
    async (request) => jobsOverview(db.owner, request.query),
  );

  r.post(
    '/api/admin/jobs/:id/retry',
    {
      config: { access: 'operator' },
      schema: {
        tags,
        summary: 'Puts a dead job back in the queue with a fresh set of attempts (platform operators only)',
        params: jobIdParamsSchema,
        response: { 200: retryJobResponseSchema },
      },
    },
    async (request) => ({ job: await retryDeadJob(db.owner, request.params.id) }),
  );
};
