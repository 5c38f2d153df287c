/**
 * GET search/?q=&type=: quick search over every searchable resource, ranked
 * exact → prefix → word prefix → trigram word similarity (typo tolerant),
 * accent- and case-insensitive, visibility respected, limited per type.
 * An empty q returns no results (the search dialog shows shortcuts instead).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { query } from '../../db/client.ts';
import { ErrorBody, SearchResponse } from '../../contracts.ts';
import { fieldError } from '../../http/errors.ts';
import { likeLiteral } from '../../resources/repository.ts';
import { visibleTo } from '../../resources/visibility.ts';
import type { Resource } from '../../resources/resource.ts';
import { RESOURCES } from '../registry.ts';

const SEARCHED = RESOURCES.filter((resource) => resource.quickSearch);
const typesOf = (resource: Resource) => resource.quickSearch?.types ?? [resource.type];
const TYPES = SEARCHED.flatMap(typesOf);

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
    const params = request.query as Record<string, string | undefined>;
    const q = (params['q'] ?? '').trim();
    if (q.length > 200) throw fieldError('q', 'Ensure this has no more than 200 characters.');
    const types = (params['type'] ?? '').split(',').map((type) => type.trim()).filter(Boolean);
    const unknown = types.find((type) => !TYPES.includes(type));
    if (unknown) throw fieldError('type', `Unknown type "${unknown}". Use one of: ${TYPES.join(', ')}.`);
    const limitRaw = params['limit'] ?? '10';
    if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1) throw fieldError('limit', 'Must be a whole number of at least 1.');
    const limit = Math.min(Number(limitRaw), 50);
    if (q === '') return { results: [] };

    const visible = visibleTo(request.principal.access);
    const resources = SEARCHED.filter((resource) =>
      types.length === 0 ? !resource.quickSearch!.explicitOnly : typesOf(resource).some((type) => types.includes(type)),
    );
    const results = await request.tx(async (tx) => {
      const all = [];
      for (const resource of resources) {
        // search_text() of a bound parameter is folded at planning, so the trigram indexes apply.
        const term = sql`search_text(${q})`;
        const likeTerm = sql`search_text(${likeLiteral(q)})`;
        const { typeColumn, slugColumn } = resource.quickSearch!;
        const wanted = typesOf(resource).filter((type) => types.length === 0 || types.includes(type));
        const rows = await query<{ id: string; display_name: string | null; type: string; slug: string | null }>(
          tx,
          sql`SELECT id, display_name,
                ${typeColumn ? sql.identifier(typeColumn) : sql`${resource.type}`} AS type,
                ${slugColumn ? sql.identifier(slugColumn) : sql`NULL`} AS slug
              FROM ${sql.identifier(resource.table)}
              WHERE ${resource.hasVisibility ? sql`visibility IN (${sql.join(visible.map((value) => sql`${value}`), sql`, `)})` : sql`true`}
                ${typeColumn ? sql`AND ${sql.identifier(typeColumn)} IN (${sql.join(wanted.map((type) => sql`${type}`), sql`, `)})` : sql``}
                ${resource.hasStatus ? sql`AND status = 'active'` : sql``}
                AND (search_name LIKE '%' || ${likeTerm} || '%' OR ${term} <% search_name)
              ORDER BY (search_name = ${term}) DESC,
                       (search_name LIKE ${likeTerm} || '%') DESC,
                       (search_name LIKE '% ' || ${likeTerm} || '%') DESC,
                       word_similarity(${term}, search_name) DESC,
                       display_name
              LIMIT ${limit}`,
        );
        all.push(...rows.map((row) => ({ id: row.id, type: row.type, display_name: row.display_name, slug: row.slug })));
      }
      return all;
    });
    return { results };
  });
}
