import type { JobKindCounts, JobsOverview } from '@pharmapoint/domain/jobs';
import type { Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { countJobsByKindAndState, findDeadJobs, jobState, requeueDeadJob } from './jobs.repository.ts';

/** Counts by kind and state, and one page of dead jobs (most recently failed first). Read as the owner. */
export async function jobsOverview(owner: Queryable, page: { limit: number; offset: number }): Promise<JobsOverview> {
  const countRows = await countJobsByKindAndState(owner);
  const byKind = new Map<string, JobKindCounts>();
  for (const row of countRows) {
    const counts = byKind.get(row.kind) ?? { kind: row.kind, pending: 0, running: 0, done: 0, dead: 0 };
    counts[row.state] = row.n;
    byKind.set(row.kind, counts);
  }
  const rows = await findDeadJobs(owner, page);
  return {
    counts: [...byKind.values()],
    dead: {
      total: [...byKind.values()].reduce((sum, c) => sum + c.dead, 0),
      items: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        pharmacyId: r.pharmacy_id,
        attempts: r.attempts,
        maxAttempts: r.max_attempts,
        lastError: r.last_error,
        createdAt: r.created_at,
        finishedAt: r.finished_at,
      })),
    },
  };
}

/**
 * Puts a dead job back to pending, due now, with a fresh set of attempts (its last error stays until the next
 * attempt), and wakes the runners. 404 for an unknown id, 409 for a job that is not dead.
 */
export async function retryDeadJob(owner: Queryable, id: string): Promise<{ id: string; kind: string; state: 'pending' }> {
  const row = await requeueDeadJob(owner, id);
  if (row) return { id: row.id, kind: row.kind, state: 'pending' };
  const state = await jobState(owner, id);
  if (!state) throw new AppError('NOT_FOUND', { message: 'Job not found.' });
  throw new AppError('CONFLICT', { message: `Only a dead job can be retried; this job is ${state}.` });
}
