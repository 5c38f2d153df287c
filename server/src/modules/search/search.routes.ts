/**
 * GET search/?q=&type=: quick search over every searchable resource, ranked
 * exact → prefix → word prefix → trigram word similarity (typo tolerant),
 * accent- and case-insensitive, visibility respected, limited per type.
 * An empty q returns no results (the search dialog shows shortcuts instead).
 *
 * Ranking every match of a common name would read thousands of rows per
 * request (a 400,000-person tenant has 8,000 "maria"s), so each resource is
 * searched in three tiers, in one statement for all resources:
 *   1. the name is the term or starts with it — read in name order straight
 *      off the (tenant_id, search_name text_pattern_ops, id) index, so the
 *      exact match comes first and the tier stops after `limit` rows;
 *   2. the name contains the term (a word starting with it first, then by
 *      word similarity, then name);
 *   3. typo-tolerant: trigram word similarity above pg_trgm's threshold.
 * Tiers 2 and 3 rank the first CANDIDATES rows the trigram index finds, and run
 * only when the tiers before them left the result short: UNION ALL is read
 * lazily in order under the LIMIT, so a full first tier ends the search.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { query } from '../../db/client.ts';
import { ErrorBody, SearchResponse } from '../../contracts.ts';
import { fieldError } from '../../http/errors.ts';
import { likeLiteral } from '../../resources/repository.ts';
import type { Visibility } from '../../resources/fields.ts';
import { visibleTo } from '../../resources/visibility.ts';
import type { Resource } from '../../resources/resource.ts';
import { RESOURCES } from '../registry.ts';

const SEARCHED = RESOURCES.filter((resource) => resource.quickSearch);
const typesOf = (resource: Resource) => resource.quickSearch?.types ?? [resource.type];
const TYPES = SEARCHED.flatMap(typesOf);

/** How many rows tiers 2 and 3 rank at most, per resource (see the header). */
export const CANDIDATES = 200;

type SearchRow = { id: string; type: string; display_name: string | null; slug: string | null };

/** One resource's best `limit` matches for q, tier by tier. */
function rankedMatches(resource: Resource, q: string, visible: Visibility[], types: string[], limit: number): SQL {
  // search_text() of a bound parameter is folded at planning, so the indexes apply.
  const term = sql`search_text(${q})`;
  const likeTerm = sql`search_text(${likeLiteral(q)})`;
  const { typeColumn, slugColumn } = resource.quickSearch!;
  const wanted = typesOf(resource).filter((type) => types.length === 0 || types.includes(type));
  const table = sql.identifier(resource.table);
  const columns = sql`id, display_name, search_name,
    ${typeColumn ? sql.identifier(typeColumn) : sql`${resource.type}`}::text AS type,
    ${slugColumn ? sql.identifier(slugColumn) : sql`NULL`}::text AS slug`;
  const scope = sql.join(
    [
      resource.hasVisibility ? sql`visibility IN (${sql.join(visible.map((value) => sql`${value}`), sql`, `)})` : sql`true`,
      typeColumn ? sql`${sql.identifier(typeColumn)} IN (${sql.join(wanted.map((type) => sql`${type}`), sql`, `)})` : sql`true`,
      resource.hasStatus ? sql`status = 'active'` : sql`true`,
    ],
    sql` AND `,
  );
  const startsWith = sql`search_name LIKE ${likeTerm} || '%'`;
  const contains = sql`search_name LIKE '%' || ${likeTerm} || '%'`;
  const ranked = (candidates: SQL, ordering: SQL) =>
    sql`(SELECT id, display_name, type, slug FROM (${candidates}) candidates ORDER BY ${ordering} LIMIT ${limit})`;
  const capped = (condition: SQL) => sql`SELECT ${columns} FROM ${table} WHERE ${scope} AND ${condition} LIMIT ${CANDIDATES}`;
  const tiers = [
    sql`(SELECT id, display_name, type, slug FROM (SELECT ${columns} FROM ${table} WHERE ${scope} AND ${startsWith}
          ORDER BY search_name USING ~<~, id LIMIT ${limit}) prefixed)`,
    ranked(
      capped(sql`${contains} AND NOT ${startsWith}`),
      sql`(search_name LIKE '% ' || ${likeTerm} || '%') DESC, word_similarity(${term}, search_name) DESC, display_name`,
    ),
    ranked(capped(sql`${term} <% search_name AND NOT ${contains}`), sql`word_similarity(${term}, search_name) DESC, display_name`),
  ];
  return sql`SELECT id, type, display_name, slug FROM (${sql.join(tiers, sql` UNION ALL `)}) tiers LIMIT ${limit}`;
}

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
    const statement = sql.join(
      resources.map((resource) => sql`(${rankedMatches(resource, q, visible, types, limit)})`),
      sql` UNION ALL `,
    );
    const results = await request.tx((tx) => query<SearchRow>(tx, statement));
    return { results };
  });
}
