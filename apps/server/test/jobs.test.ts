import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/database.ts';
import { enqueueJob, JobRunner, type Job } from '../src/platform/jobs.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, createUser } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs } from './platform-helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(25);
  }
}

interface JobRow {
  state: string;
  attempts: number;
  last_error: string | null;
  locked_by: string | null;
  locked_until: string | null;
  finished_at: string | null;
}

async function jobRow(db: Database, id: string): Promise<JobRow | undefined> {
  const [row] = await db.owner.query<JobRow>(
    `SELECT state, attempts, last_error, locked_by, locked_until, finished_at FROM jobs WHERE id = $1`,
    [id],
  );
  return row;
}

/** Queues jobs the way application code does: in a request-role transaction of the pharmacy. */
function enqueueAs(db: Database, pharmacyId: string | null, kind: string, payload: unknown, maxAttempts?: number): Promise<string> {
  return db.transaction({ pharmacyId }, (q) => enqueueJob(q, { kind, payload, pharmacyId, maxAttempts }));
}

describe.each(testDatabaseKinds())('the job runner on %s', (kind) => {
  let db: Database;
  const runners: JobRunner[] = [];
  const runnerErrors: unknown[] = [];
  const newRunner = (options: Partial<ConstructorParameters<typeof JobRunner>[0]> = {}) => {
    const runner = new JobRunner({ db, onError: (error) => runnerErrors.push(error), ...options });
    runners.push(runner);
    return runner;
  };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await createPharmacyWithStaff(db, { id: 'jobs_a', roles: ['owner'] });
    await createPharmacyWithStaff(db, { id: 'jobs_b', roles: ['owner'] });
  });
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    await db?.close();
  });

  it('runs a job once with its payload and marks it done', async () => {
    const seen: Job[] = [];
    const runner = newRunner().register('basic_ok', async (job) => void seen.push(job));
    const id = await enqueueAs(db, 'jobs_a', 'basic_ok', { hello: 'world', n: 3 });
    expect(await jobRow(db, id)).toMatchObject({ state: 'pending', attempts: 0 });

    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id, kind: 'basic_ok', payload: { hello: 'world', n: 3 }, pharmacyId: 'jobs_a', attempt: 1, maxAttempts: 8 });
    const row = await jobRow(db, id);
    expect(row).toMatchObject({ state: 'done', attempts: 1, last_error: null, locked_by: null, locked_until: null });
    expect(row?.finished_at).not.toBeNull();
  });

  it('retries a failing job with exponential back-off (capped), then marks it dead with the last error', async () => {
    const calls: number[] = [];
    const runner = newRunner({ backoffBaseMs: 200, backoffCapMs: 300 }).register('always_fails', async (job) => {
      calls.push(Date.now());
      throw new Error(`SMTP said no (attempt ${job.attempt})`);
    });
    expect([1, 2, 3, 4].map((n) => runner.backoffMs(n))).toEqual([200, 300, 300, 300]);
    const id = await enqueueAs(db, null, 'always_fails', {}, 3);

    await runner.runDue();
    expect(await jobRow(db, id)).toMatchObject({ state: 'pending', attempts: 1, last_error: 'SMTP said no (attempt 1)', locked_by: null, finished_at: null });
    // Not due again before its back-off.
    await runner.runDue();
    expect(calls).toHaveLength(1);

    await waitUntil('the second attempt', async () => (await runner.runDue(), calls.length === 2));
    expect(await jobRow(db, id)).toMatchObject({ state: 'pending', attempts: 2, last_error: 'SMTP said no (attempt 2)' });
    await waitUntil('the third attempt', async () => (await runner.runDue(), calls.length === 3));
    const dead = await jobRow(db, id);
    expect(dead).toMatchObject({ state: 'dead', attempts: 3, last_error: 'SMTP said no (attempt 3)', locked_by: null });
    expect(dead?.finished_at).not.toBeNull();
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(190);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(290);

    // Dead is final: the runner never claims it again.
    await sleep(350);
    await runner.runDue();
    expect(calls).toHaveLength(3);
  });

  it('never runs a job enqueued in a transaction that rolled back', async () => {
    let ran = 0;
    const runner = newRunner().register('rolled_back', async () => void (ran += 1));
    let id = '';
    await expect(
      db.transaction({ pharmacyId: 'jobs_a' }, async (q) => {
        id = await enqueueJob(q, { kind: 'rolled_back', payload: {}, pharmacyId: 'jobs_a' });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(id).not.toBe('');
    expect(await runner.runDue()).toBe(0);
    expect(ran).toBe(0);
    expect(await jobRow(db, id)).toBeUndefined();
  });

  it('claims only the kinds it has handlers for', async () => {
    const runner = newRunner().register('known_kind', async () => undefined);
    const other = await enqueueAs(db, 'jobs_a', 'unknown_kind', {});
    await runner.runDue();
    expect(await jobRow(db, other)).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('claims again a job whose worker stopped mid-run once its lease ran out, and gives up after the last attempt', async () => {
    let ran = 0;
    const runner = newRunner().register('orphaned', async () => void (ran += 1));
    const id = await enqueueAs(db, 'jobs_a', 'orphaned', {}, 2);
    // What a worker that crashed after claiming leaves behind: running, attempt 1, a lease.
    await db.owner.query(`UPDATE jobs SET state = 'running', attempts = 1, locked_by = 'crashed', locked_until = now() + interval '1 hour' WHERE id = $1`, [id]);
    expect(await runner.runDue()).toBe(0);
    await db.owner.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await runner.runDue()).toBe(1);
    expect(ran).toBe(1);
    expect(await jobRow(db, id)).toMatchObject({ state: 'done', attempts: 2, locked_by: null });

    // Its last attempt's worker crashed too: dead without running again.
    const last = await enqueueAs(db, 'jobs_a', 'orphaned', {}, 2);
    await db.owner.query(`UPDATE jobs SET state = 'running', attempts = 2, locked_by = 'crashed', locked_until = now() - interval '1 second' WHERE id = $1`, [last]);
    expect(await runner.runDue()).toBe(0);
    expect(ran).toBe(1);
    expect(await jobRow(db, last)).toMatchObject({ state: 'dead', attempts: 3 });
    expect((await jobRow(db, last))?.last_error).toMatch(/lease expired/);
  });

  it('fails a run that outlasts its time and retries it', async () => {
    const runner = newRunner({ leaseMs: 250, backoffBaseMs: 10_000 }).register('too_slow', (job) => new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve())));
    const id = await enqueueAs(db, 'jobs_a', 'too_slow', {});
    await runner.runDue();
    expect(await jobRow(db, id)).toMatchObject({ state: 'pending', attempts: 1, last_error: 'Timed out after 200 ms' });
  });

  it('lets the request role queue jobs of its pharmacy (or of none) but not read jobs or queue for another pharmacy', async () => {
    await enqueueAs(db, null, 'role_check', {});
    await enqueueAs(db, 'jobs_a', 'role_check', {});
    await expect(enqueueAs(db, 'jobs_b', 'role_check', {}).then(() => 'queued')).resolves.toBe('queued');
    await expect(db.transaction({ pharmacyId: 'jobs_a' }, (q) => enqueueJob(q, { kind: 'role_check', payload: {}, pharmacyId: 'jobs_b' }))).rejects.toThrow(
      /row-level security/,
    );
    await expect(db.transaction({ pharmacyId: 'jobs_a' }, (q) => q.query(`SELECT id FROM jobs`))).rejects.toThrow(/permission denied/);
    await expect(db.transaction({ pharmacyId: 'jobs_a' }, (q) => q.query(`SELECT id FROM outbox`))).rejects.toThrow(/permission denied/);
    await expect(db.transaction({ pharmacyId: 'jobs_a' }, (q) => q.query(`UPDATE jobs SET state = 'done'`))).rejects.toThrow(/permission denied/);
  });

  it('refuses a malformed kind or attempt count before writing', async () => {
    await expect(enqueueAs(db, null, 'Bad Kind', {})).rejects.toThrow(/invalid job kind/);
    await expect(enqueueAs(db, null, 'fine', {}, 0)).rejects.toThrow(/maxAttempts/);
  });

  it('wakes on commit once started, and stop() waits for the running job', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const finished: string[] = [];
    const runner = newRunner().register('woken', async (job) => {
      started.push(job.id);
      await gate;
      finished.push(job.id);
    });
    runner.start(60_000); // the timer will not fire during the test: only the notification can wake it
    await sleep(100);
    const id = await enqueueAs(db, 'jobs_a', 'woken', {});
    await waitUntil('the job starts', async () => started.length === 1, 5_000);
    const stopping = runner.stop();
    await sleep(50);
    expect(finished).toEqual([]);
    release();
    await stopping;
    expect(finished).toEqual([id]);
    expect(await jobRow(db, id)).toMatchObject({ state: 'done' });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the job runner on two PostgreSQL connections', () => {
  let db: Database;
  let second: Database;
  let secondClosed = false;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const [{ name } = { name: '' }] = await db.owner.query<{ name: string }>(`SELECT current_database() AS name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    second = await openPostgres(url.toString(), { max: 3 });
  });
  afterAll(async () => {
    if (!secondClosed) await second?.close();
    await db?.close();
  });

  it('two runners process 200 jobs, each exactly once', async () => {
    const calls = new Map<string, number>();
    const byRunner = [0, 0];
    const handler = (which: 0 | 1) => async (job: Job) => {
      calls.set(job.id, (calls.get(job.id) ?? 0) + 1);
      byRunner[which]! += 1;
      await sleep(Math.random() * 4);
    };
    const a = new JobRunner({ db, workerId: 'runner-a', batchSize: 5 }).register('race', handler(0));
    const b = new JobRunner({ db: second, workerId: 'runner-b', batchSize: 5 }).register('race', handler(1));
    a.start(20);
    b.start(20);
    try {
      const ids = await db.transaction({}, async (q) => {
        const queued: string[] = [];
        for (let i = 0; i < 200; i += 1) queued.push(await enqueueJob(q, { kind: 'race', payload: { i }, pharmacyId: null }));
        return queued;
      });
      await waitUntil(
        'all 200 jobs are done',
        async () => (await db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'race' AND state = 'done'`))[0]!.n === 200,
        30_000,
      );
      // Both runners took part, and no job ran twice.
      expect(byRunner[0]).toBeGreaterThan(0);
      expect(byRunner[1]).toBeGreaterThan(0);
      expect(byRunner[0]! + byRunner[1]!).toBe(200);
      expect(calls.size).toBe(200);
      expect([...calls.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(ids)).toEqual(new Set(calls.keys()));
      const rows = await db.owner.query<{ attempts: number; n: number }>(`SELECT attempts, count(*)::int AS n FROM jobs WHERE kind = 'race' GROUP BY attempts`);
      expect(rows).toEqual([{ attempts: 1, n: 200 }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a job whose worker crashed is claimed again by another worker after the lease', async () => {
    let release!: () => void;
    const hang = new Promise<void>((resolve) => (release = resolve));
    let claimedByA!: () => void;
    const aClaimed = new Promise<void>((resolve) => (claimedByA = resolve));
    const aErrors: unknown[] = [];
    const a = new JobRunner({ db: second, workerId: 'crashing-a', leaseMs: 1500, onError: (e) => aErrors.push(e) }).register('crash', async () => {
      claimedByA();
      await hang;
    });
    const bCalls: Job[] = [];
    const b = new JobRunner({ db, workerId: 'survivor-b', leaseMs: 1500 }).register('crash', async (job) => void bCalls.push(job));

    const id = await db.transaction({}, (q) => enqueueJob(q, { kind: 'crash', payload: {}, pharmacyId: null }));
    const aPass = a.runDue();
    await aClaimed;
    // Worker A loses its database mid-job (process killed, network gone): it can never report.
    await second.close();
    secondClosed = true;
    expect(await jobRow(db, id)).toMatchObject({ state: 'running', attempts: 1, locked_by: 'crashing-a' });

    // While A's lease holds, B leaves the job alone.
    expect(await b.runDue()).toBe(0);
    expect(bCalls).toHaveLength(0);
    await aPass; // A's own time runs out at 80% of the lease; writing the failure fails without a connection
    expect(aErrors.length).toBeGreaterThan(0);

    await waitUntil('B runs the job after the lease', async () => (await b.runDue(), bCalls.length === 1), 5_000);
    expect(bCalls[0]).toMatchObject({ id, attempt: 2 });
    expect(await jobRow(db, id)).toMatchObject({ state: 'done', attempts: 2, locked_by: null });
    release();
    await Promise.all([a.stop(), b.stop()]);
  });
});

describe.each(testDatabaseKinds())("email jobs and the operator's jobs endpoints on %s", (kind) => {
  let t: TestApp;
  let operator: TestClient;
  let owner: TestClient;

  beforeAll(async () => {
    // An SMTP server that refuses connections: every email attempt fails.
    t = await createTestApp(kind, { smtpUrl: 'smtp://127.0.0.1:9' });
    const ph = await createPharmacyWithStaff(t.db, { id: 'jobs_ops', roles: ['owner'] });
    const op = await createUser(t.db, { email: 'operator@jobs.test', isPlatformOperator: true });
    operator = await loginAs(t, op.email);
    owner = await loginAs(t, ph.users.owner!.email);
  });
  afterAll(async () => t?.close());

  it('keeps an email the SMTP server refused for a retry, with the error; dead ones show to the operator and can be retried', async () => {
    await t.db.transaction({}, (q) => t.mailer.enqueue(q, { to: 'someone@example.test', subject: 'Hello', text: 'Hi' }));
    expect(await t.mailer.flush()).toBe(0);
    const [email] = await t.db.owner.query<{ id: string; state: string; attempts: number; last_error: string }>(
      `SELECT id, state, attempts, last_error FROM jobs WHERE kind = 'email' AND payload->>'to' = 'someone@example.test'`,
    );
    expect(email).toMatchObject({ state: 'pending', attempts: 1 });
    expect(email!.last_error).toMatch(/ECONNREFUSED|connect/i);

    // Make it dead as the runner would after its last attempt, plus a done job of another kind.
    await t.db.owner.query(`UPDATE jobs SET state = 'dead', attempts = max_attempts, finished_at = now() WHERE id = $1`, [email!.id]);
    await t.db.owner.query(`INSERT INTO jobs (kind, payload, state, attempts, finished_at) VALUES ('sms', '{}', 'done', 1, now())`);

    const list = await operator.get('/api/admin/jobs');
    expect(list.status).toBe(200);
    expect(list.body.counts).toEqual(
      expect.arrayContaining([
        { kind: 'email', pending: 0, running: 0, done: 0, dead: 1 },
        { kind: 'sms', pending: 0, running: 0, done: 1, dead: 0 },
      ]),
    );
    expect(list.body.dead.total).toBe(1);
    expect(list.body.dead.items).toEqual([
      {
        id: email!.id,
        kind: 'email',
        pharmacyId: null,
        attempts: 8,
        maxAttempts: 8,
        lastError: email!.last_error,
        createdAt: expect.any(String),
        finishedAt: expect.any(String),
      },
    ]);
    // Never the payload (it can hold a one-time link).
    expect(JSON.stringify(list.body)).not.toContain('someone@example.test');
    expect((await operator.get('/api/admin/jobs?limit=1&offset=1')).body.dead).toEqual({ total: 1, items: [] });

    const retried = await operator.post(`/api/admin/jobs/${email!.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ job: { id: email!.id, kind: 'email', state: 'pending' } });
    const [after] = await t.db.owner.query<{ state: string; attempts: number; finished_at: string | null }>(
      `SELECT state, attempts, finished_at FROM jobs WHERE id = $1`,
      [email!.id],
    );
    expect(after).toEqual({ state: 'pending', attempts: 0, finished_at: null });

    const again = await operator.post(`/api/admin/jobs/${email!.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Only a dead job can be retried; this job is pending.');
  });

  it('answers 404 for an unknown job, 400 for a malformed id or page, and refuses pharmacy members and visitors', async () => {
    const unknown = await operator.post('/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Job not found.');
    expect((await operator.post('/api/admin/jobs/not-a-uuid/retry')).status).toBe(400);
    expect((await operator.get('/api/admin/jobs?limit=0')).status).toBe(400);
    expect((await operator.get('/api/admin/jobs?limit=101')).status).toBe(400);
    expect((await operator.get('/api/admin/jobs?page=2')).status).toBe(400);

    expect((await owner.get('/api/admin/jobs')).status).toBe(403);
    expect((await owner.post('/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry')).status).toBe(403);
    expect((await t.client().get('/api/admin/jobs')).status).toBe(401);
  });
});
