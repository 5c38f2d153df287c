/**
 * The probe job types: `probe.noop` measures the queue itself; `probe.echo` records each
 * attempt (with the process that ran it) and, once per job, its effect — the pattern of an
 * idempotent handler: the effect is keyed by the job id, so a retried job writes it once;
 * `probe.event` publishes a live event from the worker, as the system.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { publish } from '../../events/bus.ts';
import type { JobHandlers } from '../../jobs/registry.ts';
import { inTenant, systemActor } from '../../resources/context.ts';

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
  'probe.event': async ({ job, payload, db }) => {
    const id = await inTenant(db, systemActor(job.tenantId), (ctx) => publish(ctx, payload.event, payload.payload));
    return { event_id: id, pid: process.pid };
  },
};
