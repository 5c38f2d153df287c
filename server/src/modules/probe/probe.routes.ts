/**
 * POST jobs/probe/ and jobs/probe/event/ (admins, only when JOBS_PROBE is on): queue a
 * `probe.echo` job, to check that a deployment's workers take and finish jobs, and a
 * `probe.event` job, to check that events a worker publishes reach every API process's
 * streams (and for the multi-process tests).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, JobAccepted } from '../../contracts.ts';
import { JOB_TYPES } from '../../jobs/job-types.ts';
import { enqueue } from '../../jobs/queue.ts';

const PROBES = [
  { path: '/jobs/probe/', job: 'probe.echo', summary: 'Queue a probe job that waits sleep_ms and records that it ran (JOBS_PROBE=on only)' },
  { path: '/jobs/probe/event/', job: 'probe.event', summary: 'Queue a probe job that publishes the given live event from a worker (JOBS_PROBE=on only)' },
] as const;

export const probeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const probe of PROBES) {
    app.post(
      probe.path,
      {
        config: { access: 'admin' },
        schema: {
          tags: ['jobs'],
          security: [{ bearer: [] }],
          summary: probe.summary,
          body: JOB_TYPES[probe.job].payload,
          response: { 202: JobAccepted, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
        },
      },
      async (request, reply) => {
        const id = await request.tx((tx) =>
          enqueue(tx, { name: probe.job, payload: request.body, createdBy: request.principal.user?.id ?? null }),
        );
        return reply.status(202).send({ job_id: id });
      },
    );
  }
};
