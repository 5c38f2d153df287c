/**
 * GET search/?q=&type=&limit=: quick search (how it ranks: quick-search.ts).
 * An empty q returns no results (the search dialog shows shortcuts instead).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { queryPrepared } from '../../db/client.ts';
import { ErrorBody, SearchResponse } from '../../contracts.ts';
import { fieldError } from '../../http/errors.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { quickSearchStatement, SEARCHED, TYPES, typesOf, type SearchRow } from './quick-search.ts';

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  app.get('/search/', {
    validatorCompiler: () => () => true,
    schema: {
      tags: ['search'],
      summary: 'Quick search across entities (empty q → no results)',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 200 })),
        type: Type.Optional(Type.String({ description: `Comma-separated: ${TYPES.join(', ')}` })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Per type' })),
      }),
      response: { 200: SearchResponse, 400: ErrorBody },
    },
  }, async (request) => {
    const params = request.query as Record<string, string | string[] | undefined>;
    for (const [name, value] of Object.entries(params)) if (Array.isArray(value)) throw fieldError(name, 'Give this parameter once.');
    const q = String(params['q'] ?? '').trim();
    if (q.length > 200) throw fieldError('q', 'Ensure this has no more than 200 characters.');
    const types = String(params['type'] ?? '').split(',').map((type) => type.trim()).filter(Boolean);
    const unknown = types.find((type) => !TYPES.includes(type));
    if (unknown) throw fieldError('type', `Unknown type "${unknown}". Use one of: ${TYPES.join(', ')}.`);
    const limitRaw = String(params['limit'] ?? '10');
    if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1) throw fieldError('limit', 'Must be a whole number of at least 1.');
    const limit = Math.min(Number(limitRaw), 50);
    if (q === '') return { results: [] };

    const visible = visibleTo(request.principal.access);
    const resources = SEARCHED.filter((resource) =>
      types.length === 0 ? !resource.quickSearch!.explicitOnly : typesOf(resource).some((type) => types.includes(type)),
    );
    const results = await request.tx((tx) => queryPrepared<SearchRow>(tx, quickSearchStatement(resources, q, visible, types, limit)));
    return { results };
  });
}
