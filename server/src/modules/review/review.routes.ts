/**
 * Review calls (SPEC §7), for every resource declaring `review` (organizations, people,
 * ledger): suggested-entities/{segment}/ (list with limit, offset, ordering, search and the
 * resource's filters; GET, PATCH, DELETE by id), assets/{segment}/{id}/accept_suggestion/ and
 * reject_suggestion/ — research users and admins only — and assets/{segment}/count/?status=.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorBody, ResourcePage, ResourceRecord } from '../../contracts.ts';
import { withContext } from '../../http/engine-context.ts';
import { fieldError, permissionDenied, notAuthenticated } from '../../http/errors.ts';
import { pageOf } from '../../http/pages.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { parseListQuery } from '../../resources/list-query.ts';
import { countFromCounters, counterKindsOf } from '../../resources/repository.ts';
import { REVIEW_STATUSES, reviewView } from '../../resources/resource.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { atLeast } from '../../auth/access.ts';
import { ReviewService, segmentOf } from './review.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
// The engine checks ids and bodies itself, with its own messages.
const engineValidates = { validatorCompiler: () => () => true };
const research = { config: { access: 'research' as const }, ...engineValidates };
const idParam = Type.Object({ id: Type.String() });

export async function reviewRoutes(app: FastifyInstance, { catalog }: { catalog: Catalog }): Promise<void> {
  for (const resource of catalog.resources.filter((candidate) => candidate.review)) {
    const review = new ReviewService(resource, catalog);
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
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ default: 25, maximum: 100 })),
          offset: Type.Optional(Type.Integer({ minimum: 0 })),
          ordering: Type.Optional(Type.String()),
          search: Type.Optional(Type.String()),
        }, { additionalProperties: true }),
        response: { 200: ResourcePage, ...errors },
      },
    }, async (request) => {
      const listQuery = parseListQuery(suggestions.resource, request.query as Record<string, string>);
      if (listQuery.format !== 'json') throw fieldError('format', 'Suggestions are listed as JSON only.');
      return pageOf(request, await withContext(request, (ctx) => suggestions.list(ctx, listQuery)));
    });

    app.get(`${base}/:id/`, { ...research, schema: { tags, summary: `Get a ${noun} with its provenance`, params: idParam, response: { 200: ResourceRecord, ...errors } } },
      async (request) => withContext(request, (ctx) => suggestions.get(ctx, (request.params as { id: string }).id)));

    app.patch(`${base}/:id/`, { ...research, schema: { tags, summary: `Change the fields sent of a ${noun}`, params: idParam, response: { 200: ResourceRecord, ...errors } } },
      async (request) => withContext(request, (ctx) => suggestions.update(ctx, (request.params as { id: string }).id, request.body)));

    app.delete(`${base}/:id/`, { ...research, schema: { tags, summary: `Delete a ${noun} (not remembered: it may be suggested again)`, params: idParam, response: { 204: Type.Null(), ...errors } } },
      async (request, reply) => {
        await withContext(request, (ctx) => suggestions.remove(ctx, (request.params as { id: string }).id));
        return reply.status(204).send(null);
      });

    app.post(`${resource.path}/:id/accept_suggestion/`, {
      ...research,
      schema: {
        tags,
        summary: `Accept a ${noun}: it becomes a ${resource.label.toLowerCase()}, or with link_to is merged into that one (provenance kept; undoable as a merge)`,
        params: idParam,
        body: Type.Optional(Type.Object({ link_to: Type.Optional(Type.String({ format: 'uuid' })) })),
        response: { 200: ResourceRecord, ...errors, 409: ErrorBody },
      },
    }, async (request) => withContext(request, (ctx) => review.accept(ctx, (request.params as { id: string }).id, request.body)));

    app.post(`${resource.path}/:id/reject_suggestion/`, {
      ...research,
      schema: {
        tags,
        summary: `Reject a ${noun}: its name is not suggested again from the same source`,
        params: idParam,
        response: { 204: Type.Null(), ...errors, 409: ErrorBody },
      },
    }, async (request, reply) => {
      await withContext(request, (ctx) => review.reject(ctx, (request.params as { id: string }).id, request.body));
      return reply.status(204).send(null);
    });

    app.get(`${resource.path}/count/`, {
      ...engineValidates,
      schema: {
        tags: [resource.kind],
        summary: `How many ${resource.kind} have a status (active by default; suggested and rejected: research users and admins) among those the caller may see`,
        querystring: Type.Object({ status: Type.Optional(Type.String({ enum: [...REVIEW_STATUSES] })) }),
        response: { 200: Type.Object({ count: Type.Integer() }), ...errors },
      },
    }, async (request) => {
      const status = (request.query as { status?: string }).status || 'active';
      if (!(REVIEW_STATUSES as readonly string[]).includes(status)) throw fieldError('status', `Must be one of: ${REVIEW_STATUSES.join(', ')}.`);
      const access = request.principal.access;
      if (status !== 'active' && !atLeast(access, 'research')) throw request.principal.user ? permissionDenied() : notAuthenticated();
      const view = status === 'active' ? resource : reviewView(resource, status as 'suggested' | 'rejected');
      const count = await request.tx((tx) => countFromCounters(tx, counterKindsOf(view), visibleTo(access)));
      return { count };
    });
  }
}
