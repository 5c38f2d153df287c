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

/**
 * The stored values of a category field (organizations' `hq_city`) among visible rows that are
 * names of cities of a country (the shared cities table, seeded from GeoNames, by the ISO code of
 * the country), ignoring case and accents: "German companies" are those headquartered in one.
 */
export async function categoryValuesInCountry(tx: Tx, resource: Resource, visible: Visibility[], field: string, countryCode: string): Promise<string[]> {
  const rows = await query<{ value: string }>(
    tx,
    sql`SELECT ${id(field)} AS value FROM ${id(resource.table)}
        WHERE ${whereClause(resource, visible)} AND ${id(field)} <> ''
          AND search_text(${id(field)}) IN (
            SELECT c.search_name FROM cities c JOIN geos g ON g.id = c.country
            WHERE g.geo_type = 'country' AND upper(g.code) = upper(${countryCode}))
        GROUP BY 1 ORDER BY 1`,
  );
  return rows.map((row) => row.value);
}
