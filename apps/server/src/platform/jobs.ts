import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database, Queryable } from '../db/database.ts';

/**
 * Background jobs (decision 0011). enqueueJob() writes a row in the caller's transaction, so a job exists only
 * if its cause commits. A JobRunner on any number of server instances claims due jobs with
 * FOR UPDATE SKIP LOCKED under a lease (locked_until), runs the handler of the kind, then marks the job done,
 * or pending again after an exponential back-off, or dead after max_attempts. A worker that dies mid-job leaves
 * its lease to run out; the job is then claimed again. Delivery is at least once: a handler whose effect
 * happened but whose "done" was never written runs again, so handlers should tolerate a repeat.
 */

/** NOTIFY channel: enqueueJob notifies on commit, so started runners of every instance wake at once. */
export const JOBS_CHANNEL = 'pharmapoint_jobs';

export const JOB_STATES = ['pending', 'running', 'done', 'dead'] as const;
export type JobState = (typeof JOB_STATES)[number];

const KIND_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
export const DEFAULT_MAX_ATTEMPTS = 8;

export interface EnqueueJobInput {
  /** What runs it: the kind a runner registered a handler for ('email'; later 'sms', 'stk_push', ...). */
  kind: string;
  /** JSON for the handler. */
  payload: unknown;
  /** The pharmacy it belongs to, or null for platform jobs (sign-up, password reset). */
  pharmacyId?: string | null;
  /** Not before this time (default now). */
  runAt?: Date;
  /** Attempts before the job is dead (default 8, at most 100). */
  maxAttempts?: number;
}

/**
 * Queues a job in the caller's open transaction and returns its id. Works as the request role, which may
 * only INSERT jobs (of its own pharmacy or of none); the notification is delivered only if the transaction commits.
 */
export async function enqueueJob(q: Queryable, input: EnqueueJobInput): Promise<string> {
  if (!KIND_PATTERN.test(input.kind)) throw new Error(`enqueueJob: invalid job kind "${input.kind}"`);
  const maxAttempts = input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) throw new Error('enqueueJob: maxAttempts must be an integer from 1 to 100');
  if (input.runAt && Number.isNaN(input.runAt.getTime())) throw new Error('enqueueJob: runAt is not a valid date');
  const payload = JSON.stringify(input.payload);
  if (payload === undefined) throw new Error('enqueueJob: the payload must be JSON');
  // The id is made here, not RETURNING'd: the request role has no right to read jobs.
  const id = randomUUID();
  await q.query(
    `WITH queued AS (
       INSERT INTO jobs (id, pharmacy_id, kind, payload, run_at, max_attempts)
       VALUES ($1, $2, $3, $4::jsonb, COALESCE($5::timestamptz, now()), $6)
     )
     SELECT pg_notify($7, $3)`,
    [id, input.pharmacyId ?? null, input.kind, payload, input.runAt ?? null, maxAttempts, JOBS_CHANNEL],
  );
  return id;
}

/** One claimed job as its handler sees it. */
export interface Job {
  id: string;
  kind: string;
  payload: unknown;
  pharmacyId: string | null;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the run exceeds its time (the job then counts as failed). */
  signal: AbortSignal;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface JobRunnerOptions {
  db: Database;
  /** Names this worker in locked_by (default host:pid:random). */
  workerId?: string;
  /** Jobs claimed and run together per round (default 5). */
  batchSize?: number;
  /** How long a claim holds (default 5 minutes). A run gets 80% of it before it counts as failed. */
  leaseMs?: number;
  /** Back-off before attempt n+1: min(cap, base * 2^(n-1)) (defaults 2 s and 1 hour). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Done jobs older than this are deleted (default 7 days). */
  keepDoneMs?: number;
  /** Failures of the runner itself (database unreachable, lease lost); a handler's failure goes to last_error. */
  onError?: (error: unknown) => void;
}

interface ClaimedRow {
  id: string;
  kind: string;
  payload: unknown;
  pharmacy_id: string | null;
  attempts: number;
  max_attempts: number;
}

const MAX_ROUNDS_PER_PASS = 20;
const PRUNE_EVERY_MS = 3_600_000;

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, 1000);
}

export class JobRunner {
  readonly workerId: string;
  private readonly db: Database;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly backoffBaseMs: number;
  private readonly backoffCapMs: number;
  private readonly keepDoneMs: number;
  private readonly onError: (error: unknown) => void;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private active: Promise<number> | null = null;
  private wakeQueued = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.batchSize = options.batchSize ?? 5;
    this.leaseMs = options.leaseMs ?? 300_000;
    this.backoffBaseMs = options.backoffBaseMs ?? 2_000;
    this.backoffCapMs = options.backoffCapMs ?? 3_600_000;
    this.keepDoneMs = options.keepDoneMs ?? 7 * 86_400_000;
    this.onError = options.onError ?? ((error) => console.error('[jobs]', error));
  }

  /** The handler of a kind; this runner claims only the kinds it has handlers for. */
  register(kind: string, handler: JobHandler): this {
    if (!KIND_PATTERN.test(kind)) throw new Error(`JobRunner: invalid job kind "${kind}"`);
    if (this.handlers.has(kind)) throw new Error(`JobRunner: a handler for "${kind}" is already registered`);
    this.handlers.set(kind, handler);
    return this;
  }

  get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** The wait before the attempt after attempt `attempt` failed. */
  backoffMs(attempt: number): number {
    return Math.min(this.backoffCapMs, this.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  }

  /** Polls every intervalMs and whenever a job is enqueued (NOTIFY on commit), until stop(). */
  start(intervalMs = 2000): void {
    this.stopped = false;
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.timer.unref();
    this.db
      .listen(JOBS_CHANNEL, (kind) => {
        if (this.handlers.has(kind)) this.wake();
      })
      .then((unlisten) => {
        if (this.timer) this.unlisten = unlisten;
        else void unlisten();
      })
      .catch(this.onError);
    this.wake();
  }

  /** Asks for a pass soon (coalesced: at most one pass waits behind the running one). */
  wake(): void {
    if (this.stopped || this.wakeQueued) return;
    this.wakeQueued = true;
    void (async () => {
      while (this.active) await this.active.catch(() => 0);
      this.wakeQueued = false;
      if (!this.stopped) await this.runDue();
    })().catch(this.onError);
  }

  /**
   * Runs what is due now: waits for a pass in progress, then claims and runs jobs until none is due (or a
   * bounded number of rounds). Returns how many jobs finished as done.
   */
  async runDue(): Promise<number> {
    while (this.active) await this.active.catch(() => 0);
    if (this.stopped || this.handlers.size === 0) return 0;
    const pass = this.pass().finally(() => {
      if (this.active === pass) this.active = null;
    });
    this.active = pass;
    return pass;
  }

  /** Stops polling and waits for the jobs that are running. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.().catch(this.onError);
    while (this.active) await this.active.catch(() => 0);
  }

  private async pass(): Promise<number> {
    let done = 0;
    for (let round = 0; round < MAX_ROUNDS_PER_PASS && !this.stopped; round += 1) {
      const claimed = await this.claim();
      const results = await Promise.all(claimed.map((row) => this.run(row)));
      done += results.filter(Boolean).length;
      if (claimed.length < this.batchSize) break;
    }
    await this.prune().catch(this.onError);
    return done;
  }

  /** One short statement: take up to batchSize due jobs (or jobs whose lease ran out) that no one else holds. */
  private claim(): Promise<ClaimedRow[]> {
    return this.db.owner.query<ClaimedRow>(
      `UPDATE jobs
          SET state = 'running', attempts = attempts + 1, locked_by = $1,
              locked_until = now() + $2::float8 * interval '1 millisecond'
        WHERE id IN (
              SELECT id FROM jobs
               WHERE kind = ANY($3::text[])
                 AND ((state = 'pending' AND run_at <= now()) OR (state = 'running' AND locked_until < now()))
               ORDER BY run_at
               LIMIT $4
               FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, pharmacy_id, attempts, max_attempts`,
      [this.workerId, this.leaseMs, this.kinds, this.batchSize],
    );
  }

  /** Runs one claimed job and records the outcome; true when it is done. */
  private async run(row: ClaimedRow): Promise<boolean> {
    if (row.attempts > row.max_attempts) {
      // Every attempt was claimed and its worker never reported back (crash, kill): give up.
      await this.finish(row, 'dead', `No attempt finished: the worker of attempt ${row.max_attempts} stopped before reporting (lease expired).`, 0);
      return false;
    }
    const handler = this.handlers.get(row.kind);
    const controller = new AbortController();
    const timeoutMs = Math.floor(this.leaseMs * 0.8);
    let timeout: NodeJS.Timeout | undefined;
    try {
      if (!handler) throw new Error(`No handler for job kind "${row.kind}"`);
      await Promise.race([
        handler({
          id: row.id,
          kind: row.kind,
          payload: row.payload,
          pharmacyId: row.pharmacy_id,
          attempt: row.attempts,
          maxAttempts: row.max_attempts,
          signal: controller.signal,
        }),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => {
            // Rejected first, so a handler that returns on abort still counts as timed out.
            reject(new Error(`Timed out after ${timeoutMs} ms`));
            controller.abort();
          }, timeoutMs);
        }),
      ]);
    } catch (error) {
      const dead = row.attempts >= row.max_attempts;
      await this.finish(row, dead ? 'dead' : 'pending', errorText(error), dead ? 0 : this.backoffMs(row.attempts));
      return false;
    } finally {
      clearTimeout(timeout);
    }
    await this.finish(row, 'done', null, 0);
    return true;
  }

  /**
   * Records the outcome of our claim, in one statement that changes the row only if the claim is still ours
   * (same worker, same attempt, still running): after a lost lease another worker owns the job.
   */
  private async finish(row: ClaimedRow, state: 'done' | 'pending' | 'dead', lastError: string | null, delayMs: number): Promise<void> {
    try {
      const updated = await this.db.owner.query(
        `UPDATE jobs
            SET state = $4, last_error = $5, locked_by = NULL, locked_until = NULL,
                run_at = CASE WHEN $4 = 'pending' THEN now() + $6::float8 * interval '1 millisecond' ELSE run_at END,
                finished_at = CASE WHEN $4 = 'pending' THEN NULL ELSE now() END
          WHERE id = $1 AND locked_by = $2 AND attempts = $3 AND state = 'running'
          RETURNING id`,
        [row.id, this.workerId, row.attempts, state, lastError, delayMs],
      );
      if (updated.length === 0) this.onError(new Error(`Job ${row.id} (${row.kind}): the lease ran out before the outcome (${state}) was written; another worker has it`));
    } catch (error) {
      this.onError(error);
    }
  }

  /** Deletes done jobs older than keepDoneMs, a bounded batch at most once an hour per runner. */
  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.db.owner.query(
      `DELETE FROM jobs WHERE id IN (
         SELECT id FROM jobs WHERE state = 'done' AND finished_at < now() - $1::float8 * interval '1 millisecond' LIMIT 1000)`,
      [this.keepDoneMs],
    );
  }
}
