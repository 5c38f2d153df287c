-- Background jobs (server/src/jobs/): one table, claimed by workers with FOR UPDATE SKIP LOCKED
-- (docs/jobs.md says why no queue library). A job belongs to a tenant like every other row:
-- requests see their own tenant's jobs only. Workers claim across tenants, in transactions
-- that set app.jobs_worker (nothing else does), and then run each job in its own tenant.
CREATE TABLE jobs (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  -- Attempts started so far; a claim counts one.
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL CHECK (max_attempts >= 1),
  timeout_ms integer NOT NULL CHECK (timeout_ms > 0),
  -- Not claimed before this (a retry's backoff).
  run_after timestamptz NOT NULL DEFAULT now(),
  -- While running: the claim's token (a worker that lost its lease can no longer write the
  -- row) and when the lease ends (past it, another worker takes the job again).
  lease_token uuid,
  lease_until timestamptz,
  stage text,
  percent smallint CHECK (percent BETWEEN 0 AND 100),
  result jsonb,
  -- Why the last attempt failed (kept while a retry waits).
  error text,
  -- The user whose action enqueued the job, if any.
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (created_by),
  CHECK ((status = 'running') = (lease_token IS NOT NULL AND lease_until IS NOT NULL))
);
-- What a claim looks for: due queued jobs, and running jobs whose lease has ended.
CREATE INDEX jobs_due ON jobs (run_after) WHERE status = 'queued';
CREATE INDEX jobs_leases ON jobs (lease_until) WHERE status = 'running';

SELECT enable_tenant_isolation('jobs');

CREATE FUNCTION app_jobs_worker() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('app.jobs_worker', true), '') = 'on'
$$;
CREATE POLICY jobs_worker ON jobs USING (app_jobs_worker()) WITH CHECK (app_jobs_worker());

-- Wakes the workers when a job is committed (identical notifications of one transaction fold
-- into one; none for a rolled-back enqueue). Polling covers a missed notification.
CREATE FUNCTION notify_jobs_queued() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('intelnotes_jobs', '');
  RETURN NULL;
END $$;
CREATE TRIGGER jobs_notify AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION notify_jobs_queued();

-- The probe job type's record (modules/probe/): every attempt of a probe job, and its one
-- effect, written idempotently — what a deployment (and the multi-process test) checks.
CREATE TABLE job_probe_attempts (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  attempt integer NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id, attempt),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
CREATE TABLE job_probe_effects (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  key text NOT NULL,
  pid integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
SELECT enable_tenant_isolation('job_probe_attempts', 'job_probe_effects');
