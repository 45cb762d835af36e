import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ModuleRegistrar } from '../index.ts';
import { jobsOverview, retryDeadJob } from './jobs.service.ts';

const tags = ['admin'];

const countsSchema = z.object({
  kind: z.string(),
  pending: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  dead: z.number().int(),
});

const deadJobSchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  pharmacyId: z.string().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});

const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const idParams = z.strictObject({ id: z.uuid() });

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
        querystring: listQuery,
        response: {
          200: z.object({
            counts: z.array(countsSchema),
            dead: z.object({ total: z.number().int(), items: z.array(deadJobSchema) }),
          }),
        },
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
        params: idParams,
        response: { 200: z.object({ job: z.object({ id: z.uuid(), kind: z.string(), state: z.literal('pending') }) }) },
      },
    },
    async (request) => ({ job: await retryDeadJob(db.owner, request.params.id) }),
  );
};
