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
 *      0120: every word of the record's search vector, in word order), so the
 *      records with the word itself come before those with longer words;
 *   3. a word of another searched field starts with it ("london" finds
 *      organizations headquartered there, a caption its ledger entry) — the
 *      first `limit` in word order, the most recently updated first;
 *   4. the name has a word like the term (pg_trgm word similarity at or above
 *      its threshold, 0.6: typos, and fragments such as "nova" in Casanova) —
 *      names containing the term first, then by similarity, then by name,
 *      among the records of the likest words, WORD_CANDIDATES_PER_ROW per row
 *      wanted (their words come likest first, so more would only change the
 *      order of equally like names — and cost a record lookup each).
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
import { renderedOf, type RenderedStatement } from '../../db/client.ts';
import type { Visibility } from '../../resources/fields.ts';
import { visibleCondition } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';

/** The resources quick search reads, in the catalog's order. */
export const quickSearched = (resources: Resource[]): Resource[] => resources.filter((resource) => resource.quickSearch);
export const typesOf = (resource: Resource) => resource.quickSearch?.types ?? [resource.type];

/** How many rows a trigram or full-text tier ranks at most, per resource (see the header). */
export const CANDIDATES = 200;
/**
 * Records of similar name words read per row wanted (tier 4 of the header). Each is a record
 * lookup: 200 of them took ~2.6 ms per table on the 400,000-row tenant, most of a search for a
 * typo ("kowalsky") or a word no name has.
 */
export const WORD_CANDIDATES_PER_ROW = 5;

export type SearchRow = { id: string; type: string; display_name: string | null; slug: string | null };

/** The one statement of a quick search: each resource's best `limit` matches (exported for the benchmark's floor). */
export function quickSearchStatement(resources: Resource[], q: string, visible: Visibility[], types: string[], limit: number): RenderedStatement {
  const key = JSON.stringify([resources.map((resource) => resource.table), visible, [...new Set(types)].sort(), limit]);
  let shape = SHAPES.get(key);
  if (!shape) {
    shape = renderedOf(buildStatement(resources, TERM, visible, types, limit));
    if (SHAPES.size >= MAX_SHAPES) SHAPES.clear();
    SHAPES.set(key, shape);
  }
  return { ...shape, params: shape.params.map((param) => (param === TERM ? q : param)) };
}

/**
 * The statement is built once per shape (resources, audience, types, limit) and kept as text:
 * rendering its tree of fragments took ~2 ms of the API's CPU per request, more than running
 * it. TERM stands for the search text there (an object, so no text can be taken for it).
 */
const TERM = { searchText: true } as unknown as string;
const SHAPES = new Map<string, RenderedStatement>();
/** Shapes are few (audiences × type filters × limits); the bound only guards the memory. */
const MAX_SHAPES = 1000;

function buildStatement(resources: Resource[], q: string, visible: Visibility[], types: string[], limit: number): SQL {
  // What the tiers compare with, derived from the search text once per execution (each
  // `(SELECT … FROM input)` below is an InitPlan reading this one row): normalizing the text
  // anew in every tier cost ~3 ms per search over five resources.
  const input = sql`input AS MATERIALIZED (
    SELECT term, term || chr(1114111) AS past_term, key, key || chr(1114111) AS past_key, one_word, query, name_query
    FROM (SELECT search_text(${q}) AS term, search_key_word(${q}) AS key, search_word_count(${q}) = 1 AS one_word,
                 search_query(${q}) AS query, search_query(${q}, 'A') AS name_query) normalized)`;
  return sql`WITH ${input} ${sql.join(
    resources.map((resource) => sql`(${rankedMatches(resource, visible, types, limit)})`),
    sql` UNION ALL `,
  )}`;
}

/** One resource's best `limit` matches for the search text (`input`), tier by tier. */
function rankedMatches(resource: Resource, visible: Visibility[], types: string[], limit: number): SQL {
  // InitPlans: the same statement plans well whatever the term (see prepared statements in client.ts).
  const term = sql`(SELECT term FROM input)`;
  // Every name starting with the term sorts (bytewise, as text_pattern_ops does) at or
  // after the term and before the term followed by the last code point.
  const pastTerm = sql`(SELECT past_term FROM input)`;
  // The word search_words is read by, and the range of the words starting with it.
  const key = sql`(SELECT key FROM input)`;
  const pastKey = sql`(SELECT past_key FROM input)`;
  // One-time filters: only the tiers for one word, or only those for several, run.
  const oneWord = sql`(SELECT one_word FROM input)`;
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
  const wordCandidates = sql.raw(String(Math.min(CANDIDATES, Math.trunc(limit) * WORD_CANDIDATES_PER_ROW)));
  const notPrefixed = sql`NOT starts_with(search_name, ${term})`;
  // Full text (repository.ts searchMatch): every word starts a word of the names, or of any field.
  const nameMatch = resource.search ? sql`search_vector @@ (SELECT name_query FROM input)` : sql`false`;
  const fullMatch = resource.search ? sql`search_vector @@ (SELECT query FROM input)` : sql`false`;
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
  /**
   * Records with a name word like the key word (word similarity: a typo, or the word inside a
   * longer one), beyond those found by their words: the words like it from the tenant's
   * vocabulary of name words (search_similar_words, migration 0200 — the one typo rule list
   * search forgives by too — over search_name_words, a trigram index over distinct words rather
   * than over every name), the likest first, then their records in search_words — the first
   * `wordCandidates` found.
   */
  const similarByWord = sql`SELECT record.* FROM (
        SELECT app_tenant_id() AS tenant_id, alike.word FROM search_similar_words(${recordTable}, ${key}, true, ${wordCandidates}) AS alike(word)
        WHERE ${oneWord}) alike
      CROSS JOIN LATERAL (
        SELECT matched.* FROM search_words w
        CROSS JOIN LATERAL (
          SELECT ${columns} FROM ${table}
          WHERE ${table}.tenant_id = w.tenant_id AND ${table}.id = w.record_id AND ${scope} AND ${notPrefixed}
            AND NOT coalesce(${fullMatch}, false)
          OFFSET 0) matched
        WHERE w.tenant_id = alike.tenant_id AND w.record_table = ${recordTable} AND w.in_name AND w.word = alike.word
        LIMIT ${wordCandidates}) record
      LIMIT ${wordCandidates}`;
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
    ...(resource.search
      ? [sql`(SELECT id, display_name, type, slug
               FROM (SELECT DISTINCT id, display_name, type, slug, search_name FROM (${similarByWord}) found) candidates
               ORDER BY strpos(search_name, ' ' || ${term}) > 0 DESC, strpos(search_name, ${term}) > 0 DESC,
                        word_similarity(${term}, search_name) DESC, display_name
               LIMIT ${rows})`]
      : [similarNames(oneWord, sql`true`)]),
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
