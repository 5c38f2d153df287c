/**
 * Review calls (SPEC §7), for every resource declaring `review` (organizations, people,
 * ledger): suggested-entities/{segment}/ (list with limit, offset, ordering, search and the
 * resource's filters; GET, PATCH, DELETE by id), assets/{segment}/{id}/accept_suggestion/ and
 * reject_suggestion/ — research users and admins only — and assets/{segment}/count/?status=.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { ErrorBody, ResourcePage, ResourceRecord } from '../../contracts.ts';
import { withContext } from '../../http/engine-context.ts';
import { fieldError, permissionDenied, notAuthenticated } from '../../resources/errors.ts';
import { pageOf } from '../../http/pages.ts';
import { everyProblem, optionalBody } from '../../http/validation.ts';
import { parseListQuery } from '../../resources/list-query.ts';
import { countFromCounters, counterKindsOf } from '../../resources/repository.ts';
import { REVIEW_STATUSES, reviewView } from '../../resources/resource.ts';
import { segmentOf } from '../../resources/services.ts';
import { IdParam, listQuerystring, recordBody } from '../../http/resource.routes.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { atLeast } from '../../auth/access.ts';
import type { ReviewServices } from './review.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
// The engine's rows are Record<string, unknown>: their shape is the response serializer's to
// check, as for the engine's own routes (http/resource.routes.ts), not the handler's type.
const Row: TSchema = ResourceRecord;
const RowPage: TSchema = ResourcePage;
const research = { config: { access: 'research' as const } };
/** accept_suggestion/: nothing, {}, or the record to fold the suggestion into. */
const AcceptBody = everyProblem(optionalBody(Type.Object({ link_to: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])) }, { additionalProperties: false })));
/** reject_suggestion/: nothing, or {}. */
const RejectBody = everyProblem(optionalBody(Type.Object({}, { additionalProperties: false })));
const CountQuery = Type.Object({ status: Type.Optional(Type.Enum([...REVIEW_STATUSES], { default: 'active' })) }, { additionalProperties: false });

export const reviewRoutes: FastifyPluginAsyncTypebox<{ reviews: ReviewServices }> = async (app, { reviews }) => {
  for (const review of reviews.all()) {
    const resource = review.resource;
    const suggestions = review.suggestions;
    const segment = segmentOf(resource);
    const base = `/suggested-entities/${segment}`;
    const tags = ['suggestions'];
    const noun = `suggested ${resource.label.toLowerCase()}`;

    app.get(`${base}/`, {
      ...research,
      schema: {
        tags,
        summary: `List ${noun}s, with their provenance (limit, offset, ordering, search and the ${resource.kind} filters)`,
        querystring: listQuerystring(suggestions.resource),
        response: { 200: RowPage, ...errors },
      },
    }, async (request) => {
      const listQuery = parseListQuery(suggestions.resource, request.query, request.principal.access);
      if (listQuery.format !== 'json') throw fieldError('format', 'Suggestions are listed as JSON only.');
      return pageOf(request, await withContext(request, (ctx) => suggestions.list(ctx, listQuery)));
    });

    app.get(`${base}/:id/`, { ...research, schema: { tags, summary: `Get a ${noun} with its provenance`, params: IdParam, response: { 200: Row, ...errors } } },
      async (request) => withContext(request, (ctx) => suggestions.get(ctx, request.params.id)));

    app.patch(`${base}/:id/`, {
      ...research,
      schema: { tags, summary: `Change the fields sent of a ${noun}`, params: IdParam, body: recordBody(suggestions.resource), response: { 200: Row, ...errors, 409: ErrorBody } },
    }, async (request) => withContext(request, (ctx) => suggestions.update(ctx, request.params.id, request.body)));

    app.delete(`${base}/:id/`, { ...research, schema: { tags, summary: `Delete a ${noun} (not remembered: it may be suggested again)`, params: IdParam, response: { 204: Type.Null(), ...errors } } },
      async (request, reply) => {
        await withContext(request, (ctx) => suggestions.remove(ctx, request.params.id));
        return reply.status(204).send(null);
      });

    app.post(`${resource.path}/:id/accept_suggestion/`, {
      ...research,
      schema: {
        tags,
        summary: `Accept a ${noun}: it becomes a ${resource.label.toLowerCase()}, or with link_to is merged into that one (provenance kept; undoable as a merge)`,
        params: IdParam,
        body: AcceptBody,
        response: { 200: Row, ...errors, 409: ErrorBody },
      },
    }, async (request) => withContext(request, (ctx) => review.accept(ctx, request.params.id, request.body?.link_to ?? null)));

    app.post(`${resource.path}/:id/reject_suggestion/`, {
      ...research,
      schema: {
        tags,
        summary: `Reject a ${noun}: its name is not suggested again from the same source`,
        params: IdParam,
        body: RejectBody,
        response: { 204: Type.Null(), ...errors, 409: ErrorBody },
      },
    }, async (request, reply) => {
      await withContext(request, (ctx) => review.reject(ctx, request.params.id));
      return reply.status(204).send(null);
    });

    app.get(`${resource.path}/count/`, {
      schema: {
        tags: [resource.kind],
        summary: `How many ${resource.kind} have a status (active by default; suggested and rejected: research users and admins) among those the caller may see`,
        querystring: CountQuery,
        response: { 200: Type.Object({ count: Type.Integer() }), ...errors },
      },
    }, async (request) => {
      const status = request.query.status ?? 'active';
      const access = request.principal.access;
      if (status !== 'active' && !atLeast(access, 'research')) throw request.principal.user ? permissionDenied() : notAuthenticated();
      const view = status === 'active' ? resource : reviewView(resource, status);
      const count = await request.tx((tx) => countFromCounters(tx, counterKindsOf(view), visibleTo(access)));
      return { count };
    });
  }
};
