/**
 * List calls beyond the engine's CRUD (which serves /lists/ and /lists/{id}/):
 * a list by kind and slug, and its ordered items.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorBody, ResourcePage, ResourceRecord } from '../../contracts.ts';
import { withContext } from '../../http/engine-context.ts';
import { pageOf } from '../../http/pages.ts';
import { parseListQuery } from '../../resources/list-query.ts';
import { CATALOG } from '../registry.ts';
import { LIST_KIND_SEGMENTS, lists } from './lists.resource.ts';
import { ListsService, MAX_REORDER } from './lists.service.ts';

const tags = ['lists'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
// Input is checked by the service, so the messages match the engine's.
const serviceValidates = { validatorCompiler: () => () => true };
const write = { config: { access: 'research' as const }, ...serviceValidates };
const listId = Type.Object({ id: Type.String() });
const SEGMENTS = Object.keys(LIST_KIND_SEGMENTS);

export const ListMoved = Type.Object({
  detail: Type.String(),
  code: Type.Literal('moved'),
  id: Type.String(),
  kind: Type.String(),
  slug: Type.String(),
  location: Type.String(),
});

export async function listsRoutes(app: FastifyInstance): Promise<void> {
  const service = new ListsService(CATALOG);

  // The kind segment is a fixed word, so /lists/{id}/items/ and /lists/{id}/history/ stay the engine's.
  app.get(`/lists/:kind(^(?:${SEGMENTS.join('|')})$)/:slug/`, {
    ...serviceValidates,
    schema: {
      tags,
      summary: 'A list by kind (ledger, library, organizations, people) and slug or id; an earlier slug answers 308 to the current one',
      params: Type.Object({ kind: Type.String({ enum: SEGMENTS }), slug: Type.String() }),
      response: { 200: ResourceRecord, 308: ListMoved, 404: ErrorBody },
    },
  }, async (request, reply) => {
    const { kind, slug } = request.params as { kind: string; slug: string };
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

  app.get('/lists/:id/items/', {
    ...serviceValidates,
    schema: {
      tags,
      summary: "A list's items the caller may see, in the list's order (limit, offset)",
      params: listId,
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
        offset: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
      response: { 200: ResourcePage, ...errors },
    },
  }, async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const { limit, offset } = parseListQuery(lists, { limit: query['limit'], offset: query['offset'] });
    return pageOf(request, await withContext(request, (ctx) => service.listItems(ctx, (request.params as { id: string }).id, { limit, offset })));
  });

  app.post('/lists/:id/items/', {
    ...write,
    schema: {
      tags,
      summary: "Append a record of the list's kind (201; 200 when already there); with auto_tagging it receives the list's keywords",
      params: listId,
      body: Type.Object({ id: Type.String({ format: 'uuid' }) }),
      response: { 200: ResourceRecord, 201: ResourceRecord, ...errors },
    },
  }, async (request, reply) => {
    const { added, item } = await withContext(request, (ctx) => service.addItem(ctx, (request.params as { id: string }).id, request.body));
    return reply.status(added ? 201 : 200).send(item);
  });

  app.delete('/lists/:id/items/:itemId/', {
    ...write,
    schema: {
      tags,
      summary: 'Remove a record from the list (the record and its keywords stay)',
      params: Type.Object({ id: Type.String(), itemId: Type.String() }),
      response: { 204: Type.Null(), ...errors },
    },
  }, async (request, reply) => {
    const { id, itemId } = request.params as { id: string; itemId: string };
    await withContext(request, (ctx) => service.removeItem(ctx, id, itemId));
    return reply.status(204).send(null);
  });

  app.put('/lists/:id/items/order/', {
    ...write,
    schema: {
      tags,
      summary: 'Put the items named in this order, in the places they held together (other items keep theirs)',
      params: listId,
      body: Type.Object({ ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: MAX_REORDER }) }),
      response: { 204: Type.Null(), ...errors },
    },
  }, async (request, reply) => {
    await withContext(request, (ctx) => service.reorder(ctx, (request.params as { id: string }).id, request.body));
    return reply.status(204).send(null);
  });
}
