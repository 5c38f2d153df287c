/**
 * List calls beyond the engine's CRUD (which serves /lists/ and /lists/{id}/):
 * a list by kind and slug, and its ordered items.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ErrorBody, ResourcePage, ResourceRecord } from '../../contracts.ts';
import { withContext } from '../../http/engine-context.ts';
import { limitOffsetParams } from '../../http/list-params.ts';
import { pageOf } from '../../http/pages.ts';
import { parsePaging } from '../../resources/list-query.ts';
import { IdParam } from '../../resources/routes.ts';
import { CATALOG } from '../registry.ts';
import { LIST_KIND_SEGMENTS } from './lists.resource.ts';
import { ListsService, MAX_REORDER } from './lists.service.ts';

const tags = ['lists'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const write = { config: { access: 'research' as const } };
const SEGMENTS = Object.keys(LIST_KIND_SEGMENTS);

export const ListMoved = Type.Object({
  detail: Type.String(),
  code: Type.Literal('moved'),
  id: Type.String(),
  kind: Type.String(),
  slug: Type.String(),
  location: Type.String(),
});

const SlugParams = Type.Object({ kind: Type.String({ enum: SEGMENTS }), slug: Type.String({ minLength: 1, maxLength: 200 }) });
const ItemParams = Type.Object({ id: Type.String({ format: 'uuid' }), itemId: Type.String({ format: 'uuid' }) });
const ItemsQuery = Type.Object(limitOffsetParams(), { additionalProperties: false });

// Each route's request types are its schemas' (Static), which Fastify has validated the request against.
export async function listsRoutes(app: FastifyInstance): Promise<void> {
  const service = new ListsService(CATALOG);

  // The kind segment is a fixed word, so /lists/{id}/items/ and /lists/{id}/history/ stay the engine's.
  app.get<{ Params: Static<typeof SlugParams> }>(`/lists/:kind(^(?:${SEGMENTS.join('|')})$)/:slug/`, {
    schema: {
      tags,
      summary: 'A list by kind (ledger, library, organizations, people) and slug or id; an earlier slug answers 308 to the current one',
      params: SlugParams,
      response: { 200: ResourceRecord, 308: ListMoved, 404: ErrorBody },
    },
  }, async (request, reply) => {
    const { kind, slug } = request.params;
    const found = await withContext(request, (ctx) => service.bySlug(ctx, kind, slug));
    if (!found.moved) return found.record;
    const prefix = request.url.slice(0, request.url.indexOf('/lists/'));
    const location = `${prefix}/lists/${kind}/${encodeURIComponent(found.slug)}/`;
    // Not cached: a later rename may hand the old slug back to this list.
    return reply
      .status(308)
      .header('location', location)
      .header('cache-control', 'no-store')
      .send({ detail: `This list has moved to ${found.slug}.`, code: 'moved' as const, id: found.id, kind: found.kind, slug: found.slug, location });
  });

  app.get<{ Params: Static<typeof IdParam>; Querystring: Static<typeof ItemsQuery> }>('/lists/:id/items/', {
    schema: {
      tags,
      summary: "A list's items the caller may see, in the list's order (limit, offset)",
      params: IdParam,
      querystring: ItemsQuery,
      response: { 200: ResourcePage, ...errors },
    },
  }, async (request) => {
    const paging = parsePaging(request.query);
    return pageOf(request, await withContext(request, (ctx) => service.listItems(ctx, request.params.id, paging)));
  });

  app.post<{ Params: Static<typeof IdParam> }>('/lists/:id/items/', {
    ...write,
    schema: {
      tags,
      summary: "Append a record of the list's kind (201; 200 when already there); with auto_tagging it receives the list's keywords",
      params: IdParam,
      body: Type.Object({ id: Type.String({ format: 'uuid' }) }),
      response: { 200: ResourceRecord, 201: ResourceRecord, ...errors },
    },
  }, async (request, reply) => {
    const { added, item } = await withContext(request, (ctx) => service.addItem(ctx, request.params.id, request.body));
    return reply.status(added ? 201 : 200).send(item);
  });

  app.delete<{ Params: Static<typeof ItemParams> }>('/lists/:id/items/:itemId/', {
    ...write,
    schema: {
      tags,
      summary: 'Remove a record from the list (the record and its keywords stay)',
      params: ItemParams,
      response: { 204: Type.Null(), ...errors },
    },
  }, async (request, reply) => {
    const { id, itemId } = request.params;
    await withContext(request, (ctx) => service.removeItem(ctx, id, itemId));
    return reply.status(204).send(null);
  });

  app.put<{ Params: Static<typeof IdParam> }>('/lists/:id/items/order/', {
    ...write,
    schema: {
      tags,
      summary: 'Put the items named in this order, in the places they held together (other items keep theirs)',
      params: IdParam,
      body: Type.Object({ ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: MAX_REORDER }) }),
      response: { 204: Type.Null(), ...errors },
    },
  }, async (request, reply) => {
    await withContext(request, (ctx) => service.reorder(ctx, request.params.id, request.body));
    return reply.status(204).send(null);
  });
}
