/**
 * The quick search statement: every searchable resource, names first —
 * exact → prefix → a name word starting with the term → other fields → typos
 * and fragments (pg_trgm word similarity) — accent- and case-insensitive,
 * visibility respected, limited per type.
 *
 * A common word matches thousands of rows on a 400,000-row tenant, and the
 * GIN indexes (trigram, full text) are read as whole bitmaps however few
 * results are wanted. So each tier reads its candidates in an order an index
 * gives and stops after a page, in one statement for all resources (UNION ALL
 * is read lazily under the LIMIT: a tier runs only when those before it left
 * the result short). For a search text of one word:
 *   1. the name is the term or starts with it — in name order straight off the
 *      (tenant_id, search_name text_pattern_ops, id) index;
 *   2. a word of the name starts with the term — off search_words (migration
 *      0110: every word of the record's search vector, in word order), so the
 *      records with the word itself come before those with longer words;
 *   3. a word of another searched field starts with it ("london" finds
 *      organizations headquartered there, a caption its ledger entry) — the
 *      first `limit` in word order, the most recently updated first;
 *   4. the name has a word like the term (pg_trgm word similarity at or above
 *      its threshold, 0.6: typos, and fragments such as "nova" in Casanova) —
 *      names containing the term first, then by similarity, then by name,
 *      among the first CANDIDATES rows the trigram index finds.
 * Visibility and status are tested on each candidate record as it is read.
 * A search text of several words keeps the tiers it had before the word index
 * (names starting with it; then trigram matches of the whole text in the
 * names, ranked as in 4; then full-text matches of every word, among the
 * first CANDIDATES each): the GIN indexes intersect the words' matches, where
 * walking one word's entries would read every record with that word.
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

/** How many rows a trigram or full-text tier ranks at most, per resource (see the header). */
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
  // The word search_words is read by, and the range of the words starting with it.
  const key = sql`(SELECT search_key_word(${q}))`;
  const pastKey = sql`(SELECT search_key_word(${q}) || chr(1114111))`;
  // One-time filters: only the tiers for one word, or only those for several, run.
  const oneWord = sql`(SELECT search_word_count(${q}) = 1)`;
  const { typeColumn, slugColumn } = resource.quickSearch!;
  const wanted = typesOf(resource).filter((type) => types.length === 0 || types.includes(type));
  const table = sql.identifier(resource.table);
  const columns = sql`id, display_name, search_name,
    ${typeColumn ? sql.identifier(typeColumn) : sql`${resource.type}`}::text AS type,
    ${slugColumn ? sql.identifier(slugColumn) : sql`NULL`}::text AS slug`;
  const scope = typeColumn
    ? sql`${visibleCondition(resource, visible, { literal: true })} AND ${sql.identifier(typeColumn)} IN (${sql.join(wanted.map((type) => sql`${type}`), sql`, `)})`
    : visibleCondition(resource, visible, { literal: true });
  // A literal, not a parameter: the plan made once for every search (a generic plan, see
  // prepared statements in client.ts) then estimates this table's share of search_words as a
  // plan for the search at hand would, instead of the average table's — else the planner
  // prefers planning each execution anew (3–10 ms here, more than running it).
  const recordTable = sql.raw(`'${resource.table}'`);
  // Literals too: with a parameter as its LIMIT, a generic plan assumes a tenth of the rows.
  const rows = sql.raw(String(Math.trunc(limit)));
  const candidates = sql.raw(String(CANDIDATES));
  const notPrefixed = sql`NOT starts_with(search_name, ${term})`;
  const nameMatch = resource.search ? searchMatch(q, { names: true, prepared: true }) : sql`false`;
  const fullMatch = resource.search ? searchMatch(q, { prepared: true }) : sql`false`;
  /**
   * Records with a word (of the names, or of the other fields) starting with the key word, in
   * word order. The record is read per entry (OFFSET 0 keeps the subquery a nested loop: as a
   * join, the planner would hash the tenant's visible records and sort the matches).
   */
  const byWord = (inName: boolean, condition: SQL) =>
    sql`SELECT record.* FROM search_words w
        CROSS JOIN LATERAL (
          SELECT ${columns}, updated_at FROM ${table}
          WHERE ${table}.tenant_id = w.tenant_id AND ${table}.id = w.record_id AND ${scope} AND ${condition}
            AND w.word = search_first_word(search_vector, ${key}, ${sql.raw(String(inName))})
          OFFSET 0) record
        WHERE ${oneWord} AND w.record_table = ${recordTable} AND w.in_name = ${sql.raw(String(inName))}
          AND w.word ~>=~ ${key} AND w.word ~<~ ${pastKey}
        ORDER BY w.word USING ~<~, w.record_id
        LIMIT ${rows}`;
  /** Trigram matches of the name, beyond `excluded`: the first CANDIDATES found, ranked. */
  const similarNames = (gate: SQL, excluded: SQL) =>
    sql`(SELECT id, display_name, type, slug
          FROM (SELECT ${columns} FROM ${table} WHERE ${gate} AND ${scope} AND ${term} <% search_name AND ${notPrefixed} AND ${excluded}
                LIMIT ${candidates}) candidates
          ORDER BY strpos(search_name, ' ' || ${term}) > 0 DESC, strpos(search_name, ${term}) > 0 DESC,
                   word_similarity(${term}, search_name) DESC, display_name
          LIMIT ${rows})`;
  const tiers = [
    sql`(SELECT id, display_name, type, slug
          FROM (SELECT ${columns} FROM ${table} WHERE ${scope} AND search_name ~>=~ ${term} AND search_name ~<~ ${pastTerm}
                ORDER BY search_name USING ~<~, id LIMIT ${rows}) prefixed)`,
    // One word.
    ...(resource.search
      ? [
          sql`(SELECT id, display_name, type, slug FROM (${byWord(true, notPrefixed)}) named)`,
          sql`(SELECT id, display_name, type, slug FROM (${byWord(false, sql`${notPrefixed} AND NOT (${nameMatch})`)}) other_fields
                ORDER BY updated_at DESC, id)`,
        ]
      : []),
    similarNames(oneWord, sql`NOT coalesce(${fullMatch}, false)`),
    // Several words.
    similarNames(sql`NOT ${oneWord}`, sql`true`),
    ...(resource.search
      ? [sql`(SELECT id, display_name, type, slug
               FROM (SELECT ${columns}, updated_at FROM ${table}
                     WHERE NOT ${oneWord} AND ${scope} AND ${fullMatch} AND ${notPrefixed} AND NOT (${term} <% search_name)
                     LIMIT ${candidates}) candidates
               ORDER BY updated_at DESC, id
               LIMIT ${rows})`]
      : []),
  ];
  return sql`SELECT id, type, display_name, slug FROM (${sql.join(tiers, sql` UNION ALL `)}) tiers LIMIT ${rows}`;
}
