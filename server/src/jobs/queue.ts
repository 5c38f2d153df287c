/**
 * enqueue(tx, job): a job is a row written in the transaction that causes it, so it exists
 * exactly when the write that needs it commits (and never for a rolled-back one). The insert
 * wakes the workers on commit (the jobs_notify trigger).
 */
import { sql } from 'drizzle-orm';
import { Value } from 'typebox/value';
import { query, type Tx } from '../db/client.ts';
import { JOB_TYPES, type JobName, type JobPayload } from './job-types.ts';

export interface NewJob<N extends JobName> {
  name: N;
  payload: JobPayload<N>;
  /** The user whose action causes the job. */
  createdBy?: string | null;
  /**
   * The SHA-256 of a stored file the job works on: the job holds it (a foreign key to
   * stored_files), so the sweep leaves it alone until the job ends.
   */
  file?: string | null;
}

/** A payload that does not match its job type's schema: a bug in the caller, named precisely. */
export class JobPayloadError extends Error {}

export function checkPayload<N extends JobName>(name: N, payload: unknown): JobPayload<N> {
  const type = JOB_TYPES[name];
  if (!type) throw new JobPayloadError(`unknown job type "${name}"`);
  if (!Value.Check(type.payload, payload)) {
    const problems = Value.Errors(type.payload, payload).map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new JobPayloadError(`payload of job "${name}" is invalid: ${problems.join('; ')}`);
  }
  return payload as JobPayload<N>;
}

/** Queues a job for the transaction's tenant and returns its id. */
export async function enqueue<N extends JobName>(tx: Tx, job: NewJob<N>): Promise<string> {
  const payload = checkPayload(job.name, job.payload);
  const type = JOB_TYPES[job.name];
  const [row] = await query<{ id: string }>(
    tx,
    sql`INSERT INTO jobs (tenant_id, name, payload, max_attempts, timeout_ms, created_by, file_sha256)
        VALUES (app_tenant_id(), ${job.name}, ${JSON.stringify(payload)}::jsonb, ${type.maxAttempts}, ${type.timeoutMs}, ${job.createdBy ?? null}, ${job.file ?? null})
        RETURNING id`,
  );
  return row!.id;
}

/**
 * Queues a job for another tenant than the transaction's, then scopes the transaction back to
 * its own tenant. For work that must outlive the transaction's tenant: a deleted tenant's
 * clean-up belongs to the tenant manager's tenant, since the deleted tenant's jobs go with it.
 */
export async function enqueueFor<N extends JobName>(tx: Tx, tenantId: string, job: NewJob<N>): Promise<string> {
  const [scope] = await query<{ tenant_id: string }>(tx, sql`SELECT current_setting('app.tenant_id', true) AS tenant_id`);
  await query(tx, sql`SELECT set_config('app.tenant_id', ${tenantId}, true)`);
  const id = await enqueue(tx, job);
  await query(tx, sql`SELECT set_config('app.tenant_id', ${scope?.tenant_id ?? ''}, true)`);
  return id;
}

/**
 * Queues many jobs in one statement (e.g. an enrichment per domain a paste created), for the
 * transaction's tenant; their ids.
 */
export async function enqueueMany<N extends JobName>(tx: Tx, jobs: Array<NewJob<N>>): Promise<string[]> {
  if (jobs.length === 0) return [];
  const rows = jobs.map((job) => {
    const type = JOB_TYPES[job.name];
    return {
      name: job.name,
      payload: checkPayload(job.name, job.payload),
      max_attempts: type.maxAttempts,
      timeout_ms: type.timeoutMs,
      created_by: job.createdBy ?? null,
      file_sha256: job.file ?? null,
    };
  });
  const inserted = await query<{ id: string }>(
    tx,
    sql`INSERT INTO jobs (tenant_id, name, payload, max_attempts, timeout_ms, created_by, file_sha256)
        SELECT app_tenant_id(), j.name, j.payload, j.max_attempts, j.timeout_ms, j.created_by, j.file_sha256
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS j(name text, payload jsonb, max_attempts int, timeout_ms int, created_by uuid, file_sha256 text)
        RETURNING id`,
  );
  return inserted.map((row) => row.id);
}
