import type { Queryable } from '../../db/database.ts';
import { JOBS_CHANNEL, type JobState } from '../../platform/jobs.ts';

/** The jobs table as the operator's screens read it (owner connection: jobs are platform rows). */
export interface DeadJobRow {
  id: string;
  kind: string;
  pharmacy_id: string | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export async function countJobsByKindAndState(owner: Queryable): Promise<{ kind: string; state: JobState; n: number }[]> {
  return owner.query(`SELECT kind, state, count(*)::int AS n FROM jobs GROUP BY kind, state ORDER BY kind`);
}

export async function findDeadJobs(owner: Queryable, page: { limit: number; offset: number }): Promise<DeadJobRow[]> {
  return owner.query<DeadJobRow>(
    `SELECT id, kind, pharmacy_id, attempts, max_attempts, last_error, created_at, finished_at
       FROM jobs WHERE state = 'dead'
      ORDER BY finished_at DESC NULLS LAST, id
      LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
}

/** A dead job back to pending with fresh attempts, waking the runners; undefined when it is not dead (or unknown). */
export async function requeueDeadJob(owner: Queryable, id: string): Promise<{ id: string; kind: string } | undefined> {
  const [row] = await owner.query<{ id: string; kind: string }>(
    `WITH retried AS (
       UPDATE jobs SET state = 'pending', attempts = 0, run_at = now(), finished_at = NULL, locked_by = NULL, locked_until = NULL
        WHERE id = $1 AND state = 'dead'
        RETURNING id, kind)
     SELECT id, kind, pg_notify($2, kind) FROM retried`,
    [id, JOBS_CHANNEL],
  );
  return row;
}

export async function jobState(owner: Queryable, id: string): Promise<JobState | undefined> {
  const [row] = await owner.query<{ state: JobState }>(`SELECT state FROM jobs WHERE id = $1`, [id]);
  return row?.state;
}
