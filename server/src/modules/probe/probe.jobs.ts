/**
 * The probe job types: `probe.noop` measures the queue itself; `probe.echo` records each
 * attempt (with the process that ran it) and, once per job, its effect — the pattern of an
 * idempotent handler: the effect is keyed by the job id, so a retried job writes it once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { JobHandlers } from '../../jobs/registry.ts';

export const probeJobs: JobHandlers = {
  'probe.noop': async () => undefined,
  'probe.echo': async ({ job, payload, db, signal, progress }) => {
    await db.withTenant({ tenantId: job.tenantId }, (tx) =>
      tx.execute(sql`INSERT INTO job_probe_attempts (tenant_id, job_id, attempt, pid)
                     VALUES (app_tenant_id(), ${job.id}, ${job.attempt}, ${process.pid}) ON CONFLICT DO NOTHING`),
    );
    await progress('waiting', 0);
    await sleep(payload.sleep_ms, undefined, { signal });
    await progress('recording', 50);
    await db.withTenant({ tenantId: job.tenantId }, (tx) =>
      tx.execute(sql`INSERT INTO job_probe_effects (tenant_id, job_id, key, pid)
                     VALUES (app_tenant_id(), ${job.id}, ${payload.key}, ${process.pid}) ON CONFLICT DO NOTHING`),
    );
    return { key: payload.key };
  },
};
