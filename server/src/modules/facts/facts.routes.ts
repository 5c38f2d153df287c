/**
 * Intelbooks' calls beyond the engine's CRUD (which serves /facts/, /facts/sections/ and
 * /facts/categories/): tree moves and reordering, a subtree's size, the reader and share
 * codes (docs/intelbooks.md). Static segments (view, reorder, share-codes, shared) take
 * precedence over the engine's /facts/{id}/.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ErrorBody, FactsView, ResourceRecord, ShareCodeCreated, ShareCodePage, SharedFacts } from '../../contracts.ts';
import { withContext } from '../../http/engine-context.ts';
import { cachedReply } from '../../http/read-cache.plugin.ts';
import { normalisedQuery, type ReadCache } from '../../resources/read-cache.ts';
import { limitOffsetParams } from '../../http/list-params.ts';
import { pageOf } from '../../http/pages.ts';
import { engineParsed } from '../../http/validation.ts';
import { MAX_SEARCH_LENGTH, parsePaging } from '../../resources/list-query.ts';
import { IdParam } from '../../http/resource.routes.ts';
import type { FactsService } from './facts.service.ts';

const tags = ['facts'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const admin = { config: { access: 'admin' as const } };
const uuid = Type.String({ format: 'uuid' });
const NullableId = Type.Union([uuid, Type.Null()]);

const ViewQuery = Type.Object({
  section: Type.Optional(uuid),
  category: Type.Optional(uuid),
  keyword: Type.Optional(uuid),
  organization: Type.Optional(uuid),
  person: Type.Optional(uuid),
  ledger_entry: Type.Optional(uuid),
  root: Type.Optional(Type.String({ format: 'uuid', description: 'Only this fact and its descendants' })),
  search: Type.Optional(Type.String({ maxLength: MAX_SEARCH_LENGTH, description: 'Every word starts a word of the fact' })),
}, { additionalProperties: false });

const MoveBody = engineParsed(Type.Object({
  parent: NullableId,
  position: Type.Optional(Type.Integer({ minimum: 0, description: 'Place among the new siblings (0 = first); past the last = last' })),
  section: Type.Optional(NullableId),
}));
const ReorderBody = engineParsed(Type.Object({
  parent: NullableId,
  section: Type.Optional(NullableId),
  ids: Type.Array(uuid),
}));
const ShareBody = engineParsed(Type.Object({ expires_at: Type.Optional(Type.Union([Type.String({ description: 'ISO 8601, in the future' }), Type.Null()])) }));
const CodeParams = Type.Object({ code: Type.String({ maxLength: 64 }) });
const ShareCodesQuery = Type.Object({
  fact: Type.Optional(uuid),
  ...limitOffsetParams(),
}, { additionalProperties: false });

export async function factsRoutes(app: FastifyInstance, { service, cache }: { service: FactsService; cache: ReadCache }): Promise<void> {

  app.get<{ Querystring: Static<typeof ViewQuery> }>('/facts/view/', {
    schema: {
      tags,
      summary: 'The intelbook reader: sections → categories → fact trees the caller may see, and how many facts the paywall hides (locked_count); filters keep matching facts with their ancestors',
      querystring: ViewQuery,
      response: { 200: FactsView, ...errors },
    },
  }, async (request, reply) => {
    const query = request.query;
    const search = query.search?.trim();
    const tree = {
      ...(query.section ? { section: query.section } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(query.root ? { root: query.root } : {}),
      ...(query.keyword ? { keyword: query.keyword } : {}),
      ...(query.organization ? { organization: query.organization } : {}),
      ...(query.person ? { person: query.person } : {}),
      ...(query.ledger_entry ? { ledgerEntry: query.ledger_entry } : {}),
      ...(search ? { search } : {}),
    };
    // Every visitor (and every paywall reader) of a tenant reads the same intelbook.
    return cachedReply(cache, request, reply, `facts-view\u0000${normalisedQuery(tree)}`, () => withContext(request, (ctx) => service.view(ctx, tree)));
  });

  app.get<{ Params: Static<typeof IdParam> }>('/facts/:id/subtree-count/', {
    schema: { tags, summary: 'How many facts a delete would remove: the fact and its descendants the caller sees', params: IdParam, response: { 200: Type.Object({ count: Type.Integer() }), ...errors } },
  }, async (request) => withContext(request, (ctx) => service.subtreeCount(ctx, request.params.id)));

  app.post<{ Params: Static<typeof IdParam> }>('/facts/:id/move/', {
    ...admin,
    schema: {
      tags,
      summary: 'Move a fact with its subtree under another parent (null: top level of its section, or of `section`) at a position; into itself or a descendant is a 400 naming parent',
      params: IdParam,
      body: MoveBody,
      response: { 200: ResourceRecord, ...errors },
    },
  }, async (request) => withContext(request, (ctx) => service.move(ctx, request.params.id, request.body)));

  app.post('/facts/reorder/', {
    ...admin,
    schema: {
      tags,
      summary: 'Order the children of a parent (or the top-level facts of a section): ids must name exactly those facts',
      body: ReorderBody,
      response: { 200: Type.Object({ ids: Type.Array(Type.String()) }), ...errors },
    },
  }, async (request) => withContext(request, (ctx) => service.reorder(ctx, request.body)));

  app.post<{ Params: Static<typeof IdParam> }>('/facts/:id/share/', {
    ...admin,
    schema: { tags, summary: 'A new share code for the fact and its subtree (s/{code}), optionally expiring', params: IdParam, body: ShareBody, response: { 201: ShareCodeCreated, ...errors } },
  }, async (request, reply) => reply.status(201).send(await withContext(request, (ctx) => service.share(ctx, request.params.id, request.body))));

  app.get<{ Querystring: Static<typeof ShareCodesQuery> }>('/facts/share-codes/', {
    ...admin,
    schema: { tags, summary: "The tenant's share codes, newest first, with their view counts (fact= one fact's)", querystring: ShareCodesQuery, response: { 200: ShareCodePage, ...errors } },
  }, async (request) => {
    const { fact } = request.query;
    const page = { ...parsePaging(request.query), ...(fact ? { factId: fact } : {}) };
    return pageOf(request, await withContext(request, (ctx) => service.shareCodes(ctx, page)));
  });

  app.delete<{ Params: Static<typeof IdParam> }>('/facts/share-codes/:id/', {
    ...admin,
    schema: { tags, summary: 'Revoke a share code (it stays listed, revoked)', params: IdParam, response: { 204: Type.Null(), ...errors } },
  }, async (request, reply) => {
    await withContext(request, (ctx) => service.revoke(ctx, request.params.id));
    return reply.status(204).send(null);
  });

  app.get<{ Params: Static<typeof CodeParams> }>('/facts/shared/:code/', {
    schema: {
      tags,
      summary: "A shared subtree as the caller's own audience sees it (no sign-in needed; a code never shows more); 404 for unknown, revoked or expired codes and codes of another tenant",
      params: CodeParams,
      response: { 200: SharedFacts, 404: ErrorBody },
    },
  }, async (request) => withContext(request, (ctx) => service.shared(ctx, request.params.code)));
}
