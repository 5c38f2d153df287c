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

export const probeJobs: JobHandlers = {
  'probe.noop': async () => undefined,
  'probe.echo': async ({ job, payload, inTenant, signal, progress }) => {
    await inTenant(({ tx }) =>
      tx.execute(sql`INSERT INTO job_probe_attempts (tenant_id, job_id, attempt, pid)
                     VALUES (app_tenant_id(), ${job.id}, ${job.attempt}, ${process.pid}) ON CONFLICT DO NOTHING`),
    );
    await progress('waiting', 0);
    await sleep(payload.sleep_ms, undefined, { signal });
    await progress('recording', 50);
    await inTenant(({ tx }) =>
      tx.execute(sql`INSERT INTO job_probe_effects (tenant_id, job_id, key, pid)
                     VALUES (app_tenant_id(), ${job.id}, ${payload.key}, ${process.pid}) ON CONFLICT DO NOTHING`),
    );
    return { key: payload.key };
  },
  'probe.event': async ({ payload, inTenant }) => {
    const id = await inTenant((ctx) => publish(ctx, payload.event, payload.payload));
    return { event_id: id, pid: process.pid };
  },
};
