/**
 * Saved views beyond the engine's routes (GET/POST /views/, GET/PATCH/DELETE /views/{id}/): each
 * user's default view per table.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../contracts.ts';
import { withContext } from '../../http/engine-context.ts';
import { IdParam } from '../../http/resource.routes.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { SavedViewsService } from './views.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export const viewsRoutes: FastifyPluginAsyncTypebox<{ services: ResourceServices }> = async (app, { services }) => {
  const views = new SavedViewsService(services);
  app.put('/views/:id/default/', {
    config: { access: 'research' },
    schema: {
      tags: ['saved_views'],
      summary: "Make the view the caller's default of its table (the list opens with it when its URL names no view)",
      params: IdParam,
      response: { 200: Type.Record(Type.String(), Type.Unknown()), ...errors },
    },
  }, async (request) => withContext(request, (ctx) => views.makeDefault(ctx, request.params.id)));

  app.delete('/views/:id/default/', {
    config: { access: 'research' },
    schema: {
      tags: ['saved_views'],
      summary: "The view is no longer the caller's default of its table",
      params: IdParam,
      response: { 204: Type.Null(), ...errors },
    },
  }, async (request, reply) => {
    await withContext(request, (ctx) => views.clearDefault(ctx, request.params.id));
    return reply.status(204).send(null);
  });
};
