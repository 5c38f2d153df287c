/**
 * The quick search statement: every searchable resource, ranked
 * exact → prefix → word prefix → trigram word similarity (typo tolerant),
 * accent- and case-insensitive, visibility respected, limited per type.
 *
 * Ranking every match of a common name would read thousands of rows per
 * request (a 400,000-person tenant has 8,000 "maria"s), so each resource is
 * searched in two tiers, in one statement for all resources:
 *   1. the name is the term or starts with it — read in name order straight
 *      off the (tenant_id, search_name text_pattern_ops, id) index, so the
 *      exact match comes first and the tier stops after `limit` rows;
 *   2. the name has a word like the term (pg_trgm word similarity at or above
 *      its threshold, 0.6 — which every name containing the term from the
 *      start of a word reaches, and typos too): names where a word starts
 *      with the term first, then names containing it, then by similarity,
 *      then by name. This tier ranks the first CANDIDATES rows the trigram
 *      index finds, and runs only when the first left the result short:
 *      UNION ALL is read lazily in order under the LIMIT.
 *   3. the record matches in its other searched fields (full text, every
 *      word starting a word: "london" finds organizations headquartered
 *      there, a caption its ledger entry) — the most recently updated first,
 *      among the first CANDIDATES matches the full-text index finds; only
 *      when the first two tiers left the result short.
 * A fragment from the middle of a word is found only when it is similar
 * enough to that word ("soft" finds Microsoft; "ova" does not).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Visibility } from '../../resources/fields.ts';
import { searchMatch, visibleCondition } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';
import { RESOURCES } from '../registry.ts';

export const SEARCHED = RESOURCES.filter((resource) => resource.quickSearch);
export const typesOf = (resource: Resource) => resource.quickSearch?.types ?? [resource.type];
export const TYPES = SEARCHED.flatMap(typesOf);

/** How many rows the second tier ranks at most, per resource (see the header). */
export const CANDIDATES = 200;

export type SearchRow = { id: string; type: string; display_name: string | null; slug: string | null };

/** The one statement of a quick search: each resource's best `limit` matches (exported for the benchmark's floor). */
export function quickSearchStatement(resources: Resource[], q: string, visible: Visibility[], types: string[], limit: number): SQL {
  return sql.join(
    resources.map((resource) => sql`(${rankedMatches(resource, q, visible, types, limit)})`),
    sql` UNION ALL `,
  );
}

/** One resource's best `limit` matches for q, tier by tier. */
function rankedMatches(resource: Resource, q: string, visible: Visibility[], types: string[], limit: number): SQL {
  // InitPlans: the term is normalized once per execution, not once per row, and the
  // same statement plans well whatever the term (see prepared statements in client.ts).
  const term = sql`(SELECT search_text(${q}))`;
  // Every name starting with the term sorts (bytewise, as text_pattern_ops does) at or
  // after the term and before the term followed by the last code point.
  const pastTerm = sql`(SELECT search_text(${q}) || chr(1114111))`;
  const { typeColumn, slugColumn } = resource.quickSearch!;
  const wanted = typesOf(resource).filter((type) => types.length === 0 || types.includes(type));
  const table = sql.identifier(resource.table);
  const columns = sql`id, display_name, search_name,
    ${typeColumn ? sql.identifier(typeColumn) : sql`${resource.type}`}::text AS type,
    ${slugColumn ? sql.identifier(slugColumn) : sql`NULL`}::text AS slug`;
  const scope = typeColumn
    ? sql`${visibleCondition(resource, visible)} AND ${sql.identifier(typeColumn)} IN (${sql.join(wanted.map((type) => sql`${type}`), sql`, `)})`
    : visibleCondition(resource, visible);
  const tiers = [
    sql`(SELECT id, display_name, type, slug
          FROM (SELECT ${columns} FROM ${table} WHERE ${scope} AND search_name ~>=~ ${term} AND search_name ~<~ ${pastTerm}
                ORDER BY search_name USING ~<~, id LIMIT ${limit}) prefixed)`,
    sql`(SELECT id, display_name, type, slug
          FROM (SELECT ${columns} FROM ${table} WHERE ${scope} AND ${term} <% search_name AND NOT starts_with(search_name, ${term})
                LIMIT ${CANDIDATES}) candidates
          ORDER BY strpos(search_name, ' ' || ${term}) > 0 DESC, strpos(search_name, ${term}) > 0 DESC,
                   word_similarity(${term}, search_name) DESC, display_name
          LIMIT ${limit})`,
    ...(resource.search
      ? [sql`(SELECT id, display_name, type, slug
               FROM (SELECT ${columns}, updated_at FROM ${table}
                     WHERE ${scope} AND ${searchMatch(q, { prepared: true })} AND NOT starts_with(search_name, ${term}) AND NOT (${term} <% search_name)
                     LIMIT ${CANDIDATES}) candidates
               ORDER BY updated_at DESC, id
               LIMIT ${limit})`]
      : []),
  ];
  return sql`SELECT id, type, display_name, slug FROM (${sql.join(tiers, sql` UNION ALL `)}) tiers LIMIT ${limit}`;
}
