/** GET jobs/{id}/: a job's status and progress, for curators of the job's own tenant. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Job } from '../contracts.ts';
import { notFound } from '../resources/errors.ts';
import { findJob } from './jobs.repository.ts';

export const jobsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/jobs/:id/',
    {
      config: { access: 'research' },
      schema: {
        tags: ['jobs'],
        security: [{ bearer: [] }],
        summary: "A background job's status, progress and outcome (another tenant's jobs are not found)",
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: Job, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      // Row-level security scopes the read to the request's tenant.
      const job = await request.tx((tx) => findJob(tx, request.params.id));
      if (!job) throw notFound('No job with this id.');
      return job;
    },
  );
};
