/**
 * GET search/?q=&type=&limit=: quick search (how it ranks: quick-search.ts).
 * An empty q returns no results (the search dialog shows shortcuts instead).
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ErrorBody, SearchResponse } from '../../contracts.ts';
import { limitOffsetParams } from '../../http/list-params.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { fieldError } from '../../resources/errors.ts';
import { parsePaging } from '../../resources/list-query.ts';
import { cachedReply } from '../../http/read-cache.plugin.ts';
import { normalisedQuery, type ReadCache } from '../../resources/read-cache.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { quickSearched, quickSearchStatement, typesOf, type SearchRow } from './quick-search.ts';

const DEFAULT_PER_TYPE = 10;
const MAX_PER_TYPE = 50;
const searchQuery = (types: string[]) => Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(Type.String({ description: `Comma-separated: ${types.join(', ')}` })),
  limit: limitOffsetParams({ defaultLimit: DEFAULT_PER_TYPE, maxLimit: MAX_PER_TYPE, per: 'Results per type' }).limit,
}, { additionalProperties: false });

export async function searchRoutes(app: FastifyInstance, { catalog, cache }: { catalog: Catalog; cache: ReadCache }): Promise<void> {
  const searched = quickSearched(catalog.resources);
  const known = searched.flatMap(typesOf);
  const SearchQuery = searchQuery(known);
  app.get<{ Querystring: Static<ReturnType<typeof searchQuery>> }>('/search/', {
    schema: {
      tags: ['search'],
      summary: 'Quick search across entities (empty q → no results)',
      querystring: SearchQuery,
      response: { 200: SearchResponse, 400: ErrorBody },
    },
  }, async (request, reply) => {
    const q = (request.query.q ?? '').trim();
    const types = (request.query.type ?? '').split(',').map((type) => type.trim()).filter(Boolean);
    const unknown = types.find((type) => !known.includes(type));
    if (unknown) throw fieldError('type', `Unknown type "${unknown}". Use one of: ${known.join(', ')}.`);
    const { limit } = parsePaging(request.query, { defaultLimit: DEFAULT_PER_TYPE, maxLimit: MAX_PER_TYPE });
    if (q === '') return { results: [] };

    const visible = visibleTo(request.principal.access);
    const resources = searched.filter((resource) =>
      types.length === 0 ? !resource.quickSearch!.explicitOnly : typesOf(resource).some((type) => types.includes(type)),
    );
    const read = async () => ({ results: await request.readOnce<SearchRow>(quickSearchStatement(resources, q, visible, types, limit)) });
    // The search box of every visitor asks the same few first letters.
    return cachedReply(cache, request, reply, `search\u0000${normalisedQuery({ q, type: [...new Set(types)].sort(), limit })}`, read);
  });
}
