import { z } from 'zod';
import { kopokopoHealthSchema } from './platform-payments.ts';

/** GET /health: is the server alive, which version, and does the database answer. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ reachable: z.boolean() }),
  /** The payment provider (seed 002 section 7): configured false = misconfigured, status 'offline' = unavailable. */
  kopokopo: kopokopoHealthSchema,
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** GET /health/ready: 200 when the server can serve requests (the database answers), 503 otherwise. */
export const readinessResponseSchema = z.object({
  ready: z.boolean(),
  database: z.object({ reachable: z.boolean() }),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;
