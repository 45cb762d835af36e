-- Background jobs (email now; SMS, M-Pesa STK push and status, eTIMS later): written in the transaction of
-- their cause, claimed by any server instance with FOR UPDATE SKIP LOCKED under a lease (src/platform/jobs.ts).
-- Platform-level like the outbox it replaces: the runner works across tenants, and some jobs (password reset)
-- have no tenant. Decision 0011.
CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  pharmacy_id text REFERENCES pharmacies (id) ON DELETE CASCADE,
  -- Free text checked for shape, not a list: a new kind needs a handler, not a migration.
  kind text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{0,39}$'),
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'dead')),
  -- Claims so far (a claim whose worker crashed counts too, so a job that kills its worker ends dead).
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 8 CHECK (max_attempts BETWEEN 1 AND 100),
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- Claiming: due pending jobs, and running jobs whose lease ran out.
CREATE INDEX jobs_due ON jobs (run_at) WHERE state = 'pending';
CREATE INDEX jobs_lease ON jobs (locked_until) WHERE state = 'running';
-- The operator's dead-letter list, and the pruning of old finished jobs.
CREATE INDEX jobs_dead ON jobs (finished_at DESC) WHERE state = 'dead';
CREATE INDEX jobs_done ON jobs (finished_at) WHERE state = 'done';
-- The dev mailbox (email jobs, newest first).
CREATE INDEX jobs_kind_created ON jobs (kind, created_at DESC);

-- Every outbox row moves over with its history: sent -> done, out of attempts (the old worker stopped at 8)
-- -> dead, otherwise pending and due when it was due.
INSERT INTO jobs (id, pharmacy_id, kind, payload, state, attempts, max_attempts, run_at, last_error, created_at, finished_at)
SELECT id, pharmacy_id, kind, payload,
       CASE WHEN sent_at IS NOT NULL THEN 'done' WHEN attempts >= 8 THEN 'dead' ELSE 'pending' END,
       attempts, GREATEST(8, attempts), next_attempt_at, last_error, created_at,
       CASE WHEN sent_at IS NOT NULL THEN sent_at WHEN attempts >= 8 THEN now() END
  FROM outbox;
DROP TABLE outbox;

-- The old name stays as a view for the owner's readers (tests, tooling) until they move to jobs; code writes
-- jobs only through enqueueJob, and the request role has no right on the view at all.
CREATE VIEW outbox AS
  SELECT id, pharmacy_id, kind, payload, attempts, run_at AS next_attempt_at,
         CASE WHEN state = 'done' THEN finished_at END AS sent_at, last_error, created_at
    FROM jobs;

-- The request role may only queue jobs: no reading (payloads hold one-time links), no changing. A job
-- belongs to the transaction's pharmacy or to none (sign-up, password reset). Row-level security is
-- enabled but not forced: the owner (the runner, the operator's view) is not bound by it.
REVOKE ALL ON jobs FROM pharmapoint_app;
REVOKE ALL ON outbox FROM pharmapoint_app;
GRANT INSERT ON jobs TO pharmapoint_app;
ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
CREATE POLICY jobs_enqueue ON jobs FOR INSERT TO pharmapoint_app
  WITH CHECK (pharmacy_id IS NULL OR pharmacy_id = app_pharmacy_id());
