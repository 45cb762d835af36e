import type { Queryable } from '../../db/database.ts';
import { JOBS_CHANNEL, type JobState } from '../../platform/jobs.ts';
import { AppError } from '../../platform/errors.ts';

/** How many jobs of a kind are in each state. */
export interface JobKindCounts {
  kind: string;
  pending: number;
  running: number;
  done: number;
  dead: number;
}

/** A dead job as the operator sees it (never its payload: email payloads hold one-time sign-in links). */
export interface DeadJob {
  id: string;
  kind: string;
  pharmacyId: string | null;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface JobsOverview {
  counts: JobKindCounts[];
  dead: { total: number; items: DeadJob[] };
}

interface DeadRow {
  id: string;
  kind: string;
  pharmacy_id: string | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

/** Counts by kind and state, and one page of dead jobs (most recently failed first). Read as the owner. */
export async function jobsOverview(owner: Queryable, page: { limit: number; offset: number }): Promise<JobsOverview> {
  const countRows = await owner.query<{ kind: string; state: JobState; n: number }>(
    `SELECT kind, state, count(*)::int AS n FROM jobs GROUP BY kind, state ORDER BY kind`,
  );
  const byKind = new Map<string, JobKindCounts>();
  for (const row of countRows) {
    const counts = byKind.get(row.kind) ?? { kind: row.kind, pending: 0, running: 0, done: 0, dead: 0 };
    counts[row.state] = Number(row.n);
    byKind.set(row.kind, counts);
  }
  const rows = await owner.query<DeadRow>(
    `SELECT id, kind, pharmacy_id, attempts, max_attempts, last_error, created_at, finished_at
       FROM jobs WHERE state = 'dead'
      ORDER BY finished_at DESC NULLS LAST, id
      LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  return {
    counts: [...byKind.values()],
    dead: {
      total: [...byKind.values()].reduce((sum, c) => sum + c.dead, 0),
      items: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        pharmacyId: r.pharmacy_id,
        attempts: Number(r.attempts),
        maxAttempts: Number(r.max_attempts),
        lastError: r.last_error,
        createdAt: iso(r.created_at),
        finishedAt: r.finished_at === null ? null : iso(r.finished_at),
      })),
    },
  };
}

/**
 * Puts a dead job back to pending, due now, with a fresh set of attempts (its last error stays until the next
 * attempt), and wakes the runners. 404 for an unknown id, 409 for a job that is not dead.
 */
export async function retryDeadJob(owner: Queryable, id: string): Promise<{ id: string; kind: string; state: 'pending' }> {
  const [row] = await owner.query<{ id: string; kind: string }>(
    `WITH retried AS (
       UPDATE jobs SET state = 'pending', attempts = 0, run_at = now(), finished_at = NULL, locked_by = NULL, locked_until = NULL
        WHERE id = $1 AND state = 'dead'
        RETURNING id, kind)
     SELECT id, kind, pg_notify($2, kind) FROM retried`,
    [id, JOBS_CHANNEL],
  );
  if (row) return { id: row.id, kind: row.kind, state: 'pending' };
  const [existing] = await owner.query<{ state: JobState }>(`SELECT state FROM jobs WHERE id = $1`, [id]);
  if (!existing) throw new AppError('NOT_FOUND', { message: 'Job not found.' });
  throw new AppError('CONFLICT', { message: `Only a dead job can be retried; this job is ${existing.state}.` });
}
