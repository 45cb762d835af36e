import { z } from 'zod';

/** The operator's view of the background jobs (GET /api/admin/jobs, POST /api/admin/jobs/:id/retry). */
export const jobKindCountsSchema = z.object({
  kind: z.string(),
  pending: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  dead: z.number().int(),
});
export type JobKindCounts = z.infer<typeof jobKindCountsSchema>;

/** A dead job as the operator sees it (never its payload: email payloads hold one-time sign-in links). */
export const deadJobSchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  pharmacyId: z.string().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});
export type DeadJob = z.infer<typeof deadJobSchema>;

export const jobsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const jobsOverviewSchema = z.object({
  counts: z.array(jobKindCountsSchema),
  dead: z.object({ total: z.number().int(), items: z.array(deadJobSchema) }),
});
export type JobsOverview = z.infer<typeof jobsOverviewSchema>;

export const jobIdParamsSchema = z.strictObject({ id: z.uuid() });

export const retryJobResponseSchema = z.object({ job: z.object({ id: z.uuid(), kind: z.string(), state: z.literal('pending') }) });
export type RetryJobResponse = z.infer<typeof retryJobResponseSchema>;
