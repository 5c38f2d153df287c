/**
 * The statements on the jobs table. Claims run across tenants (a worker transaction, see
 * the migration's jobs_worker policy); everything else runs in the job's own tenant, and a
 * running job's row is written only with its claim's lease token, so a worker that lost its
 * lease (it was too slow, another worker took the job) can no longer change it. A job that
 * ends (succeeded, or failed for good) lets go of the stored file it held (file_sha256), so
 * the file store's sweep can remove it.
 */
import { sql } from 'drizzle-orm';
import { query, tenantPin, type Tx } from '../db/client.ts';
import type { JobName } from './job-types.ts';

export interface ClaimedJob {
  tenant_id: string;
  id: string;
  name: JobName;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  timeout_ms: number;
  lease_token: string;
  created_by: string | null;
}

export interface JobRow {
  id: string;
  name: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  attempts: number;
  max_attempts: number;
  stage: string | null;
  percent: number | null;
  result: unknown;
  error: string | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

const leaseEnd = (leaseMs: number) => sql`now() + make_interval(secs => ${leaseMs / 1000})`;
/** Ids as one uuid[] parameter (drizzle would spread a JS array into a list of parameters). */
const uuidArray = (values: readonly string[]) => sql`${`{${values.join(',')}}`}::uuid[]`;

/** A job whose lease ended on its last attempt: its worker died, and nobody will run it again. */
export interface LostJob {
  tenant_id: string;
  id: string;
}

/** In a worker transaction: the running jobs whose lease ended on their last attempt (failLostJob fails each, in its tenant). */
export async function findLostJobs(tx: Tx, limit = 100): Promise<LostJob[]> {
  return query<LostJob>(
    tx,
    sql`SELECT tenant_id, id FROM jobs WHERE status = 'running' AND lease_until < now() AND attempts >= max_attempts
        ORDER BY lease_until LIMIT ${limit}`,
  );
}

/**
 * In the job's tenant: fails a job lost on its last attempt. It first locks the row FOR UPDATE,
 * waiting for any transaction of the attempt still open (holdLease's FOR KEY SHARE), then
 * checks the lease again in a new statement: a lease renewed meanwhile keeps the job. Another
 * worker failing it at the same moment waits for this row's lock, then finds it failed and
 * changes nothing: the answer (the job's payload, attempts and reason, or null) comes to one
 * of them only.
 */
export async function failLostJob(tx: Tx, id: string): Promise<{ name: JobName; payload: unknown; attempts: number; max_attempts: number; created_by: string | null; error: string } | null> {
  await query(tx, sql`SELECT 1 FROM jobs WHERE ${tenantPin(tx)} AND id = ${id} FOR UPDATE`);
  const [row] = await query<{ name: JobName; payload: unknown; attempts: number; max_attempts: number; created_by: string | null; error: string }>(
    tx,
    sql`UPDATE jobs
        SET status = 'failed', lease_token = NULL, lease_until = NULL, finished_at = now(), updated_at = now(), file_sha256 = NULL,
            error = 'attempt ' || attempts || ' of ' || max_attempts || ' did not finish: its worker stopped (the lease ended)'
        WHERE id = ${id} AND status = 'running' AND lease_until < now() AND attempts >= max_attempts
        RETURNING name, payload, attempts, max_attempts, created_by, error`,
  );
  return row ?? null;
}

/** A claim statement answered more rows than it asked for: the transaction rolls back, so nothing is claimed. */
export class ClaimOverflowError extends Error {}

/**
 * Claims up to `limit` due jobs of the given types — queued ones whose backoff is over, and
 * running ones whose lease ended with attempts left — skipping rows another worker holds and
 * the jobs in `running` (this worker's own attempts: a worker never takes its own job again,
 * however late its renewal). A running job on its last attempt is never claimed again:
 * findLostJobs finds it, and failLostJob fails it.
 *
 * The due rows are chosen in a MATERIALIZED CTE, evaluated once. As a subquery in FROM or
 * IN, the planner may put `LIMIT … FOR UPDATE SKIP LOCKED` on the inner side of a nested
 * loop and run it again for each outer row — each run skipping the rows the previous ones
 * locked — which on a jobs table without statistics claimed all 200 queued jobs for a limit
 * of 2. A result longer than `limit` all the same throws (ClaimOverflowError), rolling the
 * claim back: a worker never holds more jobs than it asked for.
 */
export async function claimDueJobs(
  tx: Tx,
  names: readonly JobName[],
  limit: number,
  leaseMs: number,
  running: readonly string[] = [],
): Promise<ClaimedJob[]> {
  const nameList = sql.join(names.map((name) => sql`${name}`), sql`, `);
  const notMine = running.length > 0 ? sql`AND id <> ALL(${uuidArray(running)})` : sql``;
  const claimed = await query<ClaimedJob>(
    tx,
    sql`WITH due AS MATERIALIZED (
          SELECT tenant_id, id FROM jobs
          WHERE name IN (${nameList})
            AND ((status = 'queued' AND run_after <= now()) OR (status = 'running' AND lease_until < now() AND attempts < max_attempts))
            ${notMine}
          ORDER BY run_after
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE jobs j
        SET status = 'running', attempts = j.attempts + 1, lease_token = gen_random_uuid(), lease_until = ${leaseEnd(leaseMs)},
            started_at = coalesce(j.started_at, now()), updated_at = now()
        FROM due
        WHERE j.tenant_id = due.tenant_id AND j.id = due.id
        RETURNING j.tenant_id, j.id, j.name, j.payload, j.attempts, j.max_attempts, j.timeout_ms, j.lease_token, j.created_by`,
  );
  if (claimed.length > limit) throw new ClaimOverflowError(`a claim of ${limit} jobs returned ${claimed.length}; rolled back`);
  return claimed;
}

/** A running attempt's lease: its job and its claim's token. */
export interface Lease {
  tenantId: string;
  id: string;
  token: string;
}

/**
 * In a worker transaction: extends the leases that are still these claims' (one statement for
 * all of a worker's running jobs) and returns the ids of the jobs whose lease it extended; a
 * job missing from the answer was taken by another worker or settled.
 */
export async function renewLeases(tx: Tx, leases: readonly Lease[], leaseMs: number): Promise<Set<string>> {
  if (leases.length === 0) return new Set();
  const rows = await query<{ id: string }>(
    tx,
    sql`UPDATE jobs SET lease_until = ${leaseEnd(leaseMs)}
        WHERE (tenant_id, id, lease_token) IN (
          SELECT * FROM unnest(${uuidArray(leases.map((lease) => lease.tenantId))}, ${uuidArray(leases.map((lease) => lease.id))}, ${uuidArray(leases.map((lease) => lease.token))}))
        RETURNING id`,
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Whether the attempt still holds its lease, keeping it held until the transaction ends: the
 * row is locked FOR KEY SHARE, which conflicts with the claim's FOR UPDATE (another worker
 * cannot claim the job while a handler's transaction writes, and failLostJob waits for it) but
 * not with the plain updates of the lease and the progress: the worker's renewal of this very
 * lease goes through while a long transaction of the job is open, instead of waiting for it.
 * A transaction of an attempt that lost its lease writes nothing.
 */
export async function holdLease(tx: Tx, id: string, token: string): Promise<boolean> {
  const rows = await query(tx, sql`SELECT 1 FROM jobs WHERE id = ${id} AND lease_token = ${token} AND status = 'running' FOR KEY SHARE`);
  return rows.length > 0;
}

export interface JobUser {
  id: string;
  email: string;
  is_admin: boolean;
  is_research: boolean;
  disabled: boolean;
}

/** The user a job works for, as they are now (null when gone). */
export async function findJobUser(tx: Tx, userId: string): Promise<JobUser | null> {
  const [user] = await query<JobUser>(tx, sql`SELECT id, email, is_admin, is_research, disabled FROM users WHERE id = ${userId}`);
  return user ?? null;
}

export async function writeProgress(tx: Tx, id: string, token: string, stage: string, percent: number): Promise<boolean> {
  const rows = await query(
    tx,
    sql`UPDATE jobs SET stage = ${stage}, percent = ${percent}, updated_at = now() WHERE id = ${id} AND lease_token = ${token} RETURNING 1`,
  );
  return rows.length > 0;
}

export async function markSucceeded(tx: Tx, id: string, token: string, result: unknown): Promise<boolean> {
  const rows = await query(
    tx,
    sql`UPDATE jobs
        SET status = 'succeeded', result = ${result === undefined ? null : JSON.stringify(result)}::jsonb, error = NULL, percent = 100,
            lease_token = NULL, lease_until = NULL, finished_at = now(), updated_at = now(), file_sha256 = NULL
        WHERE id = ${id} AND lease_token = ${token} RETURNING 1`,
  );
  return rows.length > 0;
}

/**
 * A failed attempt: queued again after `retryInMs` while attempts remain (and the failure is
 * not `permanent`), else `failed`, with `result` when given (a refused job's answer). Returns
 * the new status, or null when the lease was lost.
 */
export async function markAttemptFailed(
  tx: Tx,
  id: string,
  token: string,
  reason: string,
  retryInMs: number,
  permanent: boolean,
  result?: unknown,
): Promise<'queued' | 'failed' | null> {
  const final = sql`(${permanent} OR attempts >= max_attempts)`;
  const [row] = await query<{ status: 'queued' | 'failed' }>(
    tx,
    sql`UPDATE jobs
        SET status = CASE WHEN ${final} THEN 'failed' ELSE 'queued' END,
            run_after = CASE WHEN ${final} THEN run_after ELSE now() + make_interval(secs => ${retryInMs / 1000}) END,
            finished_at = CASE WHEN ${final} THEN now() END,
            file_sha256 = CASE WHEN ${final} THEN NULL ELSE file_sha256 END,
            result = ${result === undefined ? null : JSON.stringify(result)}::jsonb,
            error = ${reason}, lease_token = NULL, lease_until = NULL, updated_at = now()
        WHERE id = ${id} AND lease_token = ${token}
        RETURNING status`,
  );
  return row?.status ?? null;
}

/** One job of the transaction's tenant (row-level security hides other tenants' jobs). */
export async function findJob(tx: Tx, id: string): Promise<JobRow | null> {
  const [row] = await query<JobRow>(
    tx,
    sql`SELECT id, name, status, attempts, max_attempts, stage, percent, result, error,
               created_by, created_at, started_at, finished_at, updated_at
        FROM jobs WHERE id = ${id}`,
  );
  return row ?? null;
}
