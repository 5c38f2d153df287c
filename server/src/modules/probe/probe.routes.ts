/**
 * POST jobs/probe/ (admins, only when JOBS_PROBE is on): queues a `probe.echo` job, to check
 * that a deployment's workers take and finish jobs (and for the multi-process test).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, JobAccepted } from '../../contracts.ts';
import { JOB_TYPES } from '../../jobs/job-types.ts';
import { enqueue } from '../../jobs/queue.ts';

export const probeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/jobs/probe/',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['jobs'],
        security: [{ bearer: [] }],
        summary: 'Queue a probe job that waits sleep_ms and records that it ran (JOBS_PROBE=on only)',
        body: JOB_TYPES['probe.echo'].payload,
        response: { 202: JobAccepted, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const id = await request.tx((tx) =>
        enqueue(tx, { name: 'probe.echo', payload: request.body, createdBy: request.principal.user?.id ?? null }),
      );
      return reply.status(202).send({ job_id: id });
    },
  );
};
