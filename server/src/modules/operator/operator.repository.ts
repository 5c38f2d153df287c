/**
 * The Operator's name look-ups: among the rows a reader may see (visibility, review status,
 * and the tenant's row-level security), a record by name and a category's stored value.
 */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../../db/client.ts';
import type { Visibility } from '../../resources/fields.ts';
import { whereClause } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';

const id = (name: string) => sql.identifier(name);

/** A visible record named `name` (ignoring case and accents); with `prefix`, else the first name starting with it. */
export async function namedRecord(
  tx: Tx,
  resource: Resource,
  visible: Visibility[],
  name: string,
  options: { prefix: boolean; byCode: boolean },
): Promise<{ id: string; name: string } | null> {
  const code = options.byCode ? sql` OR upper(code) = upper(${name})` : sql``;
  // LIKE wildcards in the name match literally (escaped after normalizing, which keeps them).
  const prefix = options.prefix
    ? sql` OR search_text(display_name) LIKE replace(replace(replace(search_text(${name}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`
    : sql``;
  const rows = await query<{ id: string; name: string }>(
    tx,
    sql`SELECT id::text AS id, display_name AS name FROM ${id(resource.table)}
        WHERE ${whereClause(resource, visible)}
          AND (search_text(display_name) = search_text(${name})${code}${prefix})
        ORDER BY (search_text(display_name) = search_text(${name})${code}) DESC, length(display_name), display_name, id
        LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** The stored spelling of a category value among visible rows, matched ignoring case and accents. */
export async function categoryValue(tx: Tx, resource: Resource, visible: Visibility[], field: string, text: string): Promise<string | null> {
  const rows = await query<{ value: string }>(
    tx,
    sql`SELECT ${id(field)} AS value FROM ${id(resource.table)}
        WHERE ${whereClause(resource, visible)} AND search_text(${id(field)}) = search_text(${text})
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
  );
  return rows[0]?.value ?? null;
}

/**
 * The stored category value most like `text` (a typo: "Londn" → "London"), by trigram similarity
 * of their folded spellings, among visible rows; null when none is at least `threshold` alike.
 */
export async function similarCategoryValue(tx: Tx, resource: Resource, visible: Visibility[], field: string, text: string, threshold: number): Promise<string | null> {
  const rows = await query<{ value: string }>(
    tx,
    sql`SELECT ${id(field)} AS value FROM ${id(resource.table)}
        WHERE ${whereClause(resource, visible)} AND ${id(field)} <> ''
          AND similarity(search_text(${id(field)}), search_text(${text})) >= ${threshold}
        GROUP BY 1 ORDER BY max(similarity(search_text(${id(field)}), search_text(${text}))) DESC, count(*) DESC, 1 LIMIT 1`,
  );
  return rows[0]?.value ?? null;
}

/** A visible list named `name` (ignoring case and accents), of one of `kinds`. */
export async function namedList(tx: Tx, lists: Resource, visible: Visibility[], name: string, kinds: string[]): Promise<{ id: string; name: string; kind: string } | null> {
  const rows = await query<{ id: string; name: string; kind: string }>(
    tx,
    sql`SELECT id::text AS id, name, kind FROM ${id(lists.table)}
        WHERE ${whereClause(lists, visible)} AND kind IN (${sql.join(kinds.map((kind) => sql`${kind}`), sql`, `)})
          AND search_text(name) = search_text(${name})
        ORDER BY length(name), id LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** How alike (trigram word similarity) a tenant's city and a GeoNames name must be when no name is the same ("Geneva" / Genève, "New York" / New York City). */
const SIMILAR_CITY = 0.7;

/**
 * The stored values of a city field (organizations' `hq_city`) among visible rows that are cities
 * of a country (ISO 3166-1 alpha-2): "German companies" are those headquartered in one. Each value
 * is read as the most populous of the shared cities (seeded from GeoNames) named so, ignoring case
 * and accents — London is London, England, not Ontario — else of those whose name is most like it.
 */
export async function categoryValuesInCountry(tx: Tx, resource: Resource, visible: Visibility[], field: string, countryCode: string): Promise<string[]> {
  const rows = await query<{ value: string }>(
    tx,
    sql`WITH v AS (
          SELECT DISTINCT ${id(field)} AS value, search_text(${id(field)}) AS key FROM ${id(resource.table)}
          WHERE ${whereClause(resource, visible)} AND ${id(field)} <> ''
        )
        SELECT v.value FROM v
        WHERE upper(${countryCode}) = (
          SELECT upper(g.code) FROM cities c JOIN geos g ON g.id = c.country AND g.geo_type = 'country'
          WHERE c.search_name = v.key OR (c.search_name <> v.key AND v.key <% c.search_name AND word_similarity(v.key, c.search_name) >= ${SIMILAR_CITY})
          ORDER BY c.search_name = v.key DESC, word_similarity(v.key, c.search_name) DESC, c.population DESC NULLS LAST, c.id
          LIMIT 1)
        ORDER BY 1`,
  );
  return rows.map((row) => row.value);
}

/**
 * The visible record whose name is most like `name` (a typo: "Acme Robotcs" → Acme Robotics Ltd,
 * "fintek" → fintech), by trigram word similarity with its searched names (the `search_name`
 * trigram index serves `<%`); null when none is at least `threshold` alike.
 */
export async function similarRecord(tx: Tx, resource: Resource, visible: Visibility[], name: string, threshold: number): Promise<{ id: string; name: string } | null> {
  const rows = await query<{ id: string; name: string }>(
    tx,
    sql`SELECT id::text AS id, display_name AS name FROM ${id(resource.table)}
        WHERE ${whereClause(resource, visible)} AND search_text(${name}) <% search_name
          AND word_similarity(search_text(${name}), search_name) >= ${threshold}
        ORDER BY word_similarity(search_text(${name}), search_name) DESC, length(display_name), id
        LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** The distinct stored values of a category field among visible rows whose folded spelling starts with `initial` (at most `limit`), for edit distances. */
export async function categoryValuesStartingWith(tx: Tx, resource: Resource, visible: Visibility[], field: string, initial: string, limit: number): Promise<string[]> {
  const rows = await query<{ value: string }>(
    tx,
    sql`SELECT DISTINCT ${id(field)} AS value FROM ${id(resource.table)}
        WHERE ${whereClause(resource, visible)} AND left(search_text(${id(field)}), 1) = left(search_text(${initial}), 1)
        ORDER BY 1 LIMIT ${limit}`,
  );
  return rows.map((row) => row.value);
}
