/**
 * The SQL of the resource engine, built from a declaration. Every statement
 * runs inside a tenant-scoped transaction, so row-level security adds the
 * tenant condition; these queries add visibility, filters, search and order.
 */
import { sql, type SQL } from 'drizzle-orm';
import { query, tenantPin, type Tx } from '../db/client.ts';
import { linkHops, listHolderOf, relationTargets, type LinkHop } from './catalog.ts';
import type { FieldType, RelationSpec, Visibility } from './fields.ts';
import { comparableAs, lookupOf, lookupParameter, membershipFilters, rangeFilters, type ListQuery, type Lookup } from './list-query.ts';
import type { PageColumn, PageReads } from './extensions.ts';
import type { Resource } from './resource.ts';

export type Row = Record<string, unknown> & { id: string };

/** The column naming the user a row belongs to, for a resource declared with `owner`. */
export const OWNER_COLUMN = 'owner_id';

/** Filtered totals are exact up to this many rows, estimated beyond. */
export const EXACT_COUNT_CAP = 1_000;

const id = (name: string) => sql.identifier(name);
const list = (values: unknown[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);

/** Escapes LIKE wildcards so user text matches literally. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export function selectColumns(resource: Resource): SQL {
  const columns = ['id', ...resource.columns, 'display_name', 'created_at', 'updated_at', 'created_by', 'updated_by', ...(resource.owner ? [OWNER_COLUMN] : [])];
  return sql.join([...new Set(columns)].map(id), sql`, `);
}

/**
 * How the values of a condition are written: as parameters, or as literals (for a statement
 * planned once for every search, whose plan should know them — quick-search.ts). The values
 * written as literals here are the engine's own (visibilities, statuses), never a caller's text.
 */
export interface ConditionOptions { literal?: boolean }
const value = (text: string, options: ConditionOptions) => (options.literal ? sql.raw(`'${text.replaceAll("'", "''")}'`) : sql`${text}`);

/**
 * The rows a reviewed resource (or its view) serves: its curated records, or its suggestions
 * (resource.ts `reviewView`). Every read of records goes through this, so a suggestion never
 * shows up as a record (lists, counts, search, relations, exports, backlinks).
 */
export function statusCondition(resource: Resource, options: ConditionOptions = {}): SQL {
  return resource.review ? sql`status = ${value(resource.status, options)}` : sql`true`;
}

/** Rows a reader may see: by visibility, and only the rows the resource serves (statusCondition). */
export function visibleCondition(resource: Resource, visible: Visibility[], options: ConditionOptions = {}): SQL {
  const status = statusCondition(resource, options);
  return resource.hasVisibility
    ? sql`visibility IN (${sql.join(visible.map((one) => value(one, options)), sql`, `)}) AND ${status}`
    : status;
}

/** What a list query asks for, and how its search is matched (ListQuery `searchBy`). */
export type MatchQuery = Pick<ListQuery, 'filters' | 'search' | 'searchBy' | 'searchQuery'>;

/** Conditions for what a caller may see, and what the list query asks for. */
export function whereClause(resource: Resource, visible: Visibility[], listQuery?: MatchQuery): SQL {
  const conditions: SQL[] = [visibleCondition(resource, visible)];
  const ranges = rangeFilters(resource);
  const memberships = membershipFilters(resource);
  for (const [parameter, values] of Object.entries(listQuery?.filters ?? {})) {
    const range = ranges.get(parameter);
    if (range) {
      conditions.push(sql`${id(range.column)} ${sql.raw(range.operator)} ${values[0]}::timestamptz`);
      continue;
    }
    const membership = memberships.get(parameter);
    if (membership) {
      conditions.push(membershipCondition(resource, visible, membership, values));
      continue;
    }
    const { field, lookup } = lookupOf(parameter);
    // A link filter (list-query.ts linkFilters has checked the reader may use it).
    const link = resource.links?.[field];
    if (link && parameter === lookupParameter(field, lookup as Lookup)) {
      const linked = linkCondition(sql`${id(resource.table)}`, linkHops(link), 0, visible, values);
      conditions.push(lookup === 'not' ? sql`NOT ${linked}` : linked);
      continue;
    }
    conditions.push(lookupCondition(resource, visible, field, lookup as Lookup, values));
  }
  if (listQuery?.search) conditions.push(searchMatch(listQuery.search, { scan: listQuery.searchBy === 'scan', spelled: listQuery.searchQuery }));
  return sql.join(conditions, sql` AND `);
}

/**
 * A row in any of these lists (`is`) or in none (`not`), among the lists the reader may see: a
 * hidden list's id matches nothing, as an unknown id, so the filter never tells it exists.
 */
function membershipCondition(resource: Resource, visible: Visibility[], lookup: 'is' | 'not', listIds: string[]): SQL {
  const holder = listHolderOf(resource);
  if (!holder || !resource.listItem) return lookup === 'is' ? sql`false` : sql`true`;
  const items = id(holder.holdsListItems!.table);
  const seen = sql`SELECT id FROM ${id(holder.table)} WHERE id IN (${list(listIds)}) AND ${visibleCondition(holder, visible)}`;
  const member = sql`EXISTS (SELECT 1 FROM ${items} WHERE ${items}.tenant_id = ${id(resource.table)}.tenant_id
    AND ${items}.${id(resource.listItem.column)} = ${id(resource.table)}.id AND ${items}.${id(holder.holdsListItems!.listColumn)} IN (${seen}))`;
  return lookup === 'is' ? member : sql`NOT ${member}`;
}

/**
 * A row (`row`: its table or alias) linked to any of `ids` by the hops from `index` on: each
 * hop's rows must be visible to the reader, so a link through a hidden deal or stake tells
 * nothing, and the ids match only records the reader may see (seenTargets), as a relation's.
 */
function linkCondition(row: SQL, hops: LinkHop[], index: number, visible: Visibility[], ids: string[]): SQL {
  const hop = hops[index]!;
  const last = index === hops.length - 1;
  if (hop.direction === 'forward' && last) {
    const holds = hop.fields.map((name) => {
      const relation = hop.from.fields[name]!.relation!;
      const column = sql`${row}.${id(name)}`;
      return relation.many ? sql`${column} && ARRAY(${seenTargets(relation, visible, ids)})` : sql`${column} IN (${seenTargets(relation, visible, ids)})`;
    });
    return sql`(${sql.join(holds, sql` OR `)})`;
  }
  const alias = id(`link_${index}`);
  const name = hop.fields[0]!;
  let joined: SQL;
  if (hop.direction === 'back') {
    const column = sql`${alias}.${id(name)}`;
    joined = hop.resource.fields[name]!.relation!.many ? sql`${row}.id = ANY(${column})` : sql`${column} = ${row}.id`;
  } else {
    const column = sql`${row}.${id(name)}`;
    joined = hop.from.fields[name]!.relation!.many ? sql`${alias}.id = ANY(${column})` : sql`${alias}.id = ${column}`;
  }
  const rest = last ? sql`${alias}.id IN (${list(ids)})` : linkCondition(sql`${alias}`, hops, index + 1, visible, ids);
  // The hop's visibility and status are read unqualified: its alias is the innermost FROM.
  return sql`EXISTS (SELECT 1 FROM ${id(hop.resource.table)} AS ${alias} WHERE ${joined} AND ${visibleCondition(hop.resource, visible)} AND ${rest})`;
}

const COMPARISON_OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** The condition of one lookup on a field (list-query.ts has checked the field allows it and parsed the values). */
function lookupCondition(resource: Resource, visible: Visibility[], name: string, lookup: Lookup, values: string[]): SQL {
  const field = resource.fields[name]!;
  const column = id(name);
  switch (lookup) {
    case 'is':
      if (field.relation) {
        if (field.relation.many) return sql`${column} && ARRAY(${seenTargets(field.relation, visible, values)})`;
        // Between tenant tables the single relation is matched with its tenant, so the semi-join
        // PostgreSQL makes of it stays within a shard on Citus (docs/scaling.md); the rows are the same.
        const tenantTables = !resource.shared && relationTargets(field.relation).every((target) => !target.shared);
        return tenantTables
          ? sql`(tenant_id, ${column}) IN (${seenTargets(field.relation, visible, values, true)})`
          : sql`${column} IN (${seenTargets(field.relation, visible, values)})`;
      }
      return sql`${column} IN (${list(equalityValues(field, values))})`;
    case 'not':
      // Rows without a value are kept: they are linked to (or hold) none of these.
      if (field.relation) {
        return field.relation.many
          ? sql`NOT (coalesce(${column}, '{}') && ARRAY(${seenTargets(field.relation, visible, values)}))`
          : sql`(${column} IS NULL OR ${column} NOT IN (${seenTargets(field.relation, visible, values)}))`;
      }
      return sql`(${column} IS NULL OR ${column} NOT IN (${list(equalityValues(field, values))}))`;
    case 'empty': {
      const empty = emptyCondition(field, name, visible);
      return values[0] === 'true' ? empty : sql`NOT ${empty}`;
    }
    default: {
      const operator = sql.raw(COMPARISON_OPERATORS[lookup]);
      if (comparableAs(resource, name) !== 'date') return sql`${column} ${operator} ${values[0]}`;
      // A date's bound (list-query.ts dateBound): its period must lie wholly beyond it. A
      // stored incomplete date is a period too (a year, a month); one without its year is
      // no point in time and never compares.
      const bound = sql`${values[0]}::date`;
      if (lookup === 'gt' || lookup === 'gte') return sql`${column} >= ${bound}${knownYear(field, name)}`;
      return sql`${periodEnd(field, name)} <= ${bound}${knownYear(field, name)}`;
    }
  }
}

/** Equality values as the column compares them (booleans as booleans). */
const equalityValues = (field: FieldType, values: string[]): unknown[] => (field.filter === 'boolean' ? values.map((value) => value === 'true') : values);

/**
 * The ids among `ids` of targets the caller may see: a hidden target's id matches nothing, as
 * an unknown id does, so a filter (is or is not) never tells that a hidden record exists.
 */
function seenTargets(relation: RelationSpec, visible: Visibility[], ids: string[], withTenant = false): SQL {
  const columns = withTenant ? sql`tenant_id, id` : sql`id`;
  return sql.join(
    relationTargets(relation).map((target) => sql`SELECT ${columns} FROM ${id(target.table)} WHERE id IN (${list(ids)}) AND ${visibleCondition(target, visible)}`),
    sql` UNION ALL `,
  );
}

/**
 * A field without a value: NULL or '' for a single value, an empty array for a list. A
 * relation counts only the targets the caller may see: a row linked to hidden records alone
 * has no value for them, as its presented field shows.
 */
function emptyCondition(field: FieldType, name: string, visible: Visibility[]): SQL {
  const column = id(name);
  if (field.relation) {
    const targets = field.relation.many ? sql`${column}` : sql`ARRAY[${column}]`;
    const seen = sql.join(
      relationTargets(field.relation).map((target) => sql`SELECT 1 FROM ${id(target.table)} WHERE id = ANY(${targets}) AND ${visibleCondition(target, visible)}`),
      sql` UNION ALL `,
    );
    return sql`NOT EXISTS (${seen})`;
  }
  if (field.multiple) return sql`coalesce(cardinality(${column}), 0) = 0`;
  return TEXT_KINDS.includes(field.kind) ? sql`(${column} IS NULL OR ${column} = '')` : sql`${column} IS NULL`;
}

/** Kinds held in text columns, where '' is no value too. */
const TEXT_KINDS: FieldType['kind'][] = ['text', 'category', 'choice', 'visibility', 'url'];

/** `AND <the year is known>` for an incomplete date (nothing for a plain date). */
const knownYear = (field: FieldType, name: string): SQL => (field.kind === 'incomplete_date' ? sql` AND NOT ${id(`${name}_incomplete_year`)}` : sql``);

/** The first day after a stored date's period: the next year, month or day. */
function periodEnd(field: FieldType, name: string): SQL {
  const column = id(name);
  if (field.kind !== 'incomplete_date') return sql`(${column} + 1)`;
  return sql`(CASE WHEN ${id(`${name}_incomplete_month`)} THEN ${column} + interval '1 year'
                   WHEN ${id(`${name}_incomplete_day`)} THEN ${column} + interval '1 month'
                   ELSE ${column} + interval '1 day' END)`;
}

/**
 * Full-text match (search-index.ts): every word of the text starts a word of
 * one of the searched fields; `names` keeps only matches in the names (weight A).
 * `prepared`: the query is built once per execution (an InitPlan) in a statement
 * planned once for every search text, instead of once per row.
 * `scan`: the same match as a function call, which no index serves, so the
 * planner reads the tenant's rows (by another index) and tests each.
 * `spelled`: the same query with its prefixes spelled out as the tenant's words
 * (ListQuery `searchQuery`), passed as a value so that the plan knows its words.
 */
export function searchMatch(search: string, options: { names?: boolean; prepared?: boolean; scan?: boolean; spelled?: string | null } = {}): SQL {
  const built = options.spelled && !options.names
    ? sql`${options.spelled}::tsquery`
    : sql`search_query(${search}${options.names ? sql`, 'A'` : sql``})`;
  const tsquery = options.prepared ? sql`(SELECT ${built})` : built;
  // ts_match_vq is what @@ calls; made LEAKPROOF in migration 0040 like the operator.
  return options.scan ? sql`ts_match_vq(search_vector, ${tsquery})` : sql`search_vector @@ ${tsquery}`;
}

/**
 * A list search forgives typos when the search as typed finds fewer matches than this that the
 * reader may see — none: its words then also match the tenant's words like them (service.ts
 * `list`). Quick search, a box of suggestions, adds typos whenever its exact tiers leave a page
 * short; a list is read as an answer — counted, filtered, exported, acted on in bulk — so one
 * that finds "Lopez" twice is not widened to "Lopes", nor "y2015" to "y2016". A search that
 * finds nothing as typed is the one a typo explains.
 */
export const FORGIVE_BELOW = 1;

/**
 * The search as a tsquery whose words also match the words like them among the tenant's words
 * of this table (migration 0200 search_query_forgiving), passed as ListQuery `searchQuery`;
 * null when no word typed has a word like it, or the table keeps no vocabulary of its words.
 */
export async function forgivingSearchQuery(tx: Tx, resource: Resource, search: string): Promise<string | null> {
  if (resource.shared) return null;
  const [row] = await query<{ q: string | null }>(tx, sql`SELECT search_query_forgiving(${resource.table}, ${search}) AS q`);
  return row?.q ?? null;
}

/**
 * The words like those typed that a forgiving search query (`forgivingSearchQuery`) matches as
 * well, for the list answer (`similar_words`: the web marks them in the hits). In the query each
 * typed word is a prefix (`'word':*`), as a phone number's digits are, and each word like one is
 * a whole word, quoted by search_lexeme_literal ('' for a quote, \\ for a backslash): the
 * quoted lexemes without `:*`, in the query's order, once each. The words come from the tenant's
 * vocabulary, hidden records' words included: `wordsOfRows` keeps those of the rows shown.
 */
export function similarWordsOf(forgivingQuery: string): string[] {
  const words = new Set<string>();
  // Each literal in turn, from its opening quote to its closing one (so a closing quote is never
  // taken for an opening one), with its `:*` when it has one.
  for (const match of forgivingQuery.matchAll(/'((?:[^'\\]|''|\\.)*)'(:\*)?/g)) {
    if (!match[2]) words.add(match[1]!.replace(/''/g, "'").replace(/\\(.)/g, '$1'));
  }
  return [...words];
}

/**
 * Which of `words` (search lexemes) the search vectors of the rows `ids` hold, in the order of
 * `words`: a forgiven search names only the similar words of the records it shows, never a word
 * only a record the reader may not see has.
 */
export async function wordsOfRows(tx: Tx, resource: Resource, ids: unknown[], words: string[]): Promise<string[]> {
  if (ids.length === 0 || words.length === 0) return [];
  const held = await query<{ word: string }>(tx, sql`SELECT DISTINCT w.lexeme AS word
    FROM ${id(resource.table)} AS r CROSS JOIN LATERAL unnest(r.search_vector) AS w
    WHERE r.id IN (${list(ids)}) AND w.lexeme IN (${list(words)})`);
  const found = new Set(held.map((row) => row.word));
  return words.filter((word) => found.has(word));
}

/** Columns that are never null: ordered without NULLS LAST so their indexes apply. */
const NOT_NULL_ORDERING = ['created_at', 'updated_at'];

export function orderClause(listQuery: ListQuery): SQL {
  const terms = listQuery.ordering.map((term) => {
    const nulls = NOT_NULL_ORDERING.includes(term.field) ? '' : ' NULLS LAST';
    return sql`${id(term.field)} ${sql.raw(`${term.descending ? 'DESC' : 'ASC'}${nulls}`)}`;
  });
  const last = listQuery.ordering[listQuery.ordering.length - 1];
  terms.push(sql`id ${sql.raw(last?.descending ? 'DESC' : 'ASC')}`);
  return sql.join(terms, sql`, `);
}

/** Where a page's unfiltered total comes from: the counters of these kinds, at these visibilities (all when null). */
export interface CounterTotal {
  kinds: string[];
  visible: Visibility[] | null;
}

/** What a list page's one statement returns besides the rows. */
export interface Page {
  rows: Row[];
  /** What the extensions' page columns read (extensions.ts), by extension and row id. */
  read: PageReads;
  /**
   * The total: from the counters when asked for, else as pageStatement's `totalFrom`
   * says (null when not counted). Null when the page is empty (no row carries it).
   */
  total: number | null;
}

/**
 * Where a page's total comes from when no counters give it (pageStatement):
 * - `capped`: the matching rows counted up to one past EXACT_COUNT_CAP;
 * - `matched`: the page is taken from the set of every match, read once (up to
 *   MATCHED_SET_CAP + 1 rows), and the total is that set's size — for a search
 *   the planner expects to match fewer than MATCHED_SET_CAP rows, one scan of its
 *   matches costs less than counting them and then walking the list order for a
 *   page (which, for a word of a thousand matches among 400,000 rows, reads
 *   thousands of rows to find 25);
 * - `none`: not counted.
 */
export type TotalFrom = 'capped' | 'matched' | 'none';

/**
 * Matches read into one set for a `matched` page. A set this large holds every
 * match (its size is the exact total); one row more says the planner expected
 * too few, and the page must be read the usual way (service.ts `list`).
 */
export const MATCHED_SET_CAP = 2 * EXACT_COUNT_CAP;

/**
 * A list page in one statement (one round trip): the rows, the extensions'
 * columns (e.g. each row's visible lists) as correlated subqueries, and the
 * total as an InitPlan — from the counters, or as `totalFrom` says. The outer
 * query only adds columns to the ordered, limited page, so it keeps its order.
 */
export function pageStatement(
  resource: Resource,
  visible: Visibility[],
  listQuery: ListQuery,
  counterTotal?: CounterTotal,
  totalFrom: TotalFrom = 'capped',
  columns: PageColumn[] = [],
): SQL {
  const extra = columns.map((column, index) => sql`${column.value} AS ${id(`__x${index}`)}, `);
  // With extra columns the page carries its rows' tenant as __tenant, so their correlated
  // sub-selects correlate on it as well as on page.id (on Citus, correlation must include the
  // distribution column; docs/scaling.md). selectPage drops it.
  const rowColumns = columns.length > 0 && !resource.shared ? sql`${selectColumns(resource)}, tenant_id AS __tenant` : selectColumns(resource);
  if (!counterTotal && totalFrom === 'matched' && !listQuery.ranked) {
    // MATERIALIZED: the set is read once, by whatever plan suits the few matches
    // expected (a bitmap of the search index), then sorted for the page and counted.
    return sql`WITH matched AS MATERIALIZED (
                 SELECT ${rowColumns} FROM ${id(resource.table)}
                 WHERE ${whereClause(resource, visible, listQuery)} LIMIT ${MATCHED_SET_CAP + 1})
               SELECT page.*, ${sql.join(extra)}(SELECT count(*)::int FROM matched) AS __total
               FROM (SELECT * FROM matched ORDER BY ${orderClause(listQuery)} LIMIT ${listQuery.limit} OFFSET ${listQuery.offset}) page`;
  }
  const total = counterTotal
    ? counterSum(counterTotal)
    : totalFrom === 'none' ? sql`NULL::int` : sql`(${cappedCountStatement(resource, visible, listQuery)})`;
  const page = listQuery.ranked && listQuery.search
    ? rankedPage(resource, visible, listQuery, listQuery.search, rowColumns)
    : sql`SELECT ${rowColumns} FROM ${id(resource.table)}
          WHERE ${whereClause(resource, visible, listQuery)}
          ORDER BY ${orderClause(listQuery)}
          LIMIT ${listQuery.limit} OFFSET ${listQuery.offset}`;
  return sql`SELECT page.*, ${sql.join(extra)}${total} AS __total FROM (${page}) page`;
}

/**
 * A page of search results by relevance, in three tiers: names starting with
 * the search text (in name order, read off the name-prefix index), then
 * records with a name word starting with each search word, then those
 * matching in other fields — both in the list's ordering. Each tier reads at
 * most offset + limit rows, in an order an index gives (the planner walks the
 * list order when a word is common and stops after a page, or collects the
 * few matches of a rare one), so a common word never ranks all its matches.
 */
function rankedPage(resource: Resource, visible: Visibility[], listQuery: ListQuery, search: string, rowColumns: SQL): SQL {
  const where = whereClause(resource, visible, listQuery);
  const wanted = listQuery.offset + listQuery.limit;
  const term = sql`(SELECT search_text(${search}))`;
  const pastTerm = sql`(SELECT search_text(${search}) || chr(1114111))`;
  const tier = (condition: SQL, order: SQL) =>
    sql`(SELECT ${rowColumns} FROM ${id(resource.table)} WHERE ${where} AND ${condition}
         ORDER BY ${order} LIMIT ${wanted})`;
  const tiers = [
    tier(sql`search_name ~>=~ ${term} AND search_name ~<~ ${pastTerm}`, sql`search_name USING ~<~, id`),
    tier(sql`NOT starts_with(search_name, ${term}) AND ${searchMatch(search, { names: true })}`, orderClause(listQuery)),
    tier(sql`NOT (${searchMatch(search, { names: true })})`, orderClause(listQuery)),
  ];
  // UNION ALL is read lazily in order under the LIMIT (as in quick search): a tier runs
  // only when those before it left the page short.
  return sql`SELECT * FROM (${sql.join(tiers, sql` UNION ALL `)}) ranked LIMIT ${listQuery.limit} OFFSET ${listQuery.offset}`;
}

/** A list page (pageStatement's arguments), with what the extensions' columns read. */
export async function selectPage(tx: Tx, ...page: Parameters<typeof pageStatement>): Promise<Page> {
  const columns = page[5] ?? [];
  const found = await query<Row & { __total: number | null; __tenant?: string }>(tx, pageStatement(...page));
  const read: PageReads = new Map(columns.map((column) => [column.extension, new Map()]));
  const rows = found.map(({ __total: _total, __tenant: _tenant, ...row }) => {
    columns.forEach((column, index) => {
      read.get(column.extension)!.set(row.id, row[`__x${index}`]);
      delete row[`__x${index}`];
    });
    return row as Row;
  });
  return { rows, read, total: found[0]?.__total ?? null };
}

type CountQuery = MatchQuery;

/** Matching rows counted exactly up to one past the cap. */
export const cappedCountStatement = (resource: Resource, visible: Visibility[], listQuery: CountQuery): SQL =>
  sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${id(resource.table)} WHERE ${whereClause(resource, visible, listQuery)} LIMIT ${EXACT_COUNT_CAP + 1}) capped`;

/**
 * The planner's estimates of the matching rows and of all rows the caller may
 * see, side by side (the two branches of one plan), for totals beyond the cap.
 */
export const estimateStatement = (resource: Resource, visible: Visibility[], listQuery: CountQuery): SQL =>
  sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${id(resource.table)} WHERE ${whereClause(resource, visible, listQuery)}
      UNION ALL SELECT 1 FROM ${id(resource.table)} WHERE ${whereClause(resource, visible)}`;

type PlanNode = { 'Plan Rows': number; Plans?: PlanNode[] };

/** The matching share of the visible rows by the planner's estimates (from estimateStatement's plan). */
export function matchingShare(plan: PlanNode): number {
  const [matching, all] = (plan.Plans ?? []).map((node) => node['Plan Rows']);
  return matching !== undefined && all ? Math.min(matching / all, 1) : 0;
}

/**
 * The number of matching rows, for a total beyond the cap (reported as an
 * estimate): the planner's share of matches among the visible rows times the
 * visible rows the counters hold. The planner's row estimates themselves are
 * far off (it assumes every tenant holds an equal share of a table: 1/50 of
 * the rows for a tenant that holds 40%); its share of matches — which search
 * words' frequencies in the column statistics decide — is not.
 */
export async function estimateMatching(tx: Tx, resource: Resource, visible: Visibility[], listQuery: CountQuery): Promise<number> {
  return Math.max(Math.round(await plannedMatching(tx, resource, visible, listQuery)), EXACT_COUNT_CAP + 1);
}

/** Estimated matches beyond which a search's total is not counted at all (see service.ts `list`). */
export const SURELY_BEYOND_CAP = 2 * EXACT_COUNT_CAP;

/** The estimate of estimateMatching, not raised to the cap. */
export async function plannedMatching(tx: Tx, resource: Resource, visible: Visibility[], listQuery: CountQuery): Promise<number> {
  const root = await plannedRoot(tx, resource, visible, listQuery);
  const kinds = counterKindsOf(resource);
  const planned = !root
    ? 0
    : kinds.length > 0
      ? matchingShare(root) * (await countFromCounters(tx, kinds, resource.hasVisibility ? visible : null))
      : (root.Plans?.[0]?.['Plan Rows'] ?? 0);
  return planned;
}

/** The planner's share of the visible rows that match (search-statistics.ts keeps it a while). */
export async function plannedShare(tx: Tx, resource: Resource, visible: Visibility[], listQuery: CountQuery): Promise<number> {
  const root = await plannedRoot(tx, resource, visible, listQuery);
  return root ? matchingShare(root) : 0;
}

async function plannedRoot(tx: Tx, resource: Resource, visible: Visibility[], listQuery: CountQuery): Promise<PlanNode | undefined> {
  const [plan] = await query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(tx, estimateStatement(resource, visible, listQuery));
  return plan?.['QUERY PLAN'][0]?.Plan;
}

export async function countMatching(tx: Tx, resource: Resource, visible: Visibility[], listQuery: CountQuery): Promise<{ count: number; estimate: boolean }> {
  const [row] = await query<{ n: number }>(tx, cappedCountStatement(resource, visible, listQuery));
  const exact = row?.n ?? 0;
  if (exact <= EXACT_COUNT_CAP) return { count: exact, estimate: false };
  return { count: await estimateMatching(tx, resource, visible, listQuery), estimate: true };
}

/** The counter kinds whose sum is a resource's unfiltered total (none: count rows). */
export function counterKindsOf(resource: Resource): string[] {
  return resource.counterKinds ?? (resource.shared ? [] : [resource.kind]);
}

const counterSum = ({ kinds, visible }: CounterTotal) =>
  sql`(SELECT coalesce(sum(count), 0)::int FROM entity_counters
       WHERE kind IN (${list(kinds)}) ${visible ? sql`AND visibility IN (${list(visible)})` : sql``})`;

/** The statement of countFromCounters (exported for the benchmark's floor). */
export const countersStatement = (kinds: string[], visible: Visibility[] | null): SQL => sql`SELECT ${counterSum({ kinds, visible })} AS n`;

/** The unfiltered total from the per-visibility counters (all visibilities when `visible` is null), without touching the table. */
export async function countFromCounters(tx: Tx, kinds: string[], visible: Visibility[] | null): Promise<number> {
  const [row] = await query<{ n: number }>(tx, countersStatement(kinds, visible));
  return row?.n ?? 0;
}

/**
 * The transaction's tenant as a condition on a tenant table (`tenantPin`: the rows row-level
 * security allows anyway, named so a Citus cluster routes the statement to the tenant's shard,
 * docs/scaling.md); nothing on a shared table, which has no tenant_id. Written into the
 * statements by id (gets, edits, deletes, locks), whose plan is the primary key's either way.
 */
const ownTenant = (tx: Tx, resource: Resource): SQL => (resource.shared ? sql`true` : tenantPin(tx));

export async function selectOne(tx: Tx, resource: Resource, visible: Visibility[], rowId: string): Promise<Row | null> {
  const [row] = await query<Row>(
    tx,
    sql`SELECT ${selectColumns(resource)} FROM ${id(resource.table)} WHERE ${ownTenant(tx, resource)} AND id = ${rowId} AND ${whereClause(resource, visible)}`,
  );
  return row ?? null;
}

/** The rows among `ids` the caller may see, in one statement (in no particular order). */
export async function selectMany(tx: Tx, resource: Resource, visible: Visibility[], ids: string[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  return query<Row>(
    tx,
    sql`SELECT ${selectColumns(resource)} FROM ${id(resource.table)} WHERE ${ownTenant(tx, resource)} AND id = ANY(${uuidArray(ids)}) AND ${whereClause(resource, visible)}`,
  );
}

/** A uuid[] value from ids (one parameter however many). */
export const uuidArray = (values: string[]): SQL => sql`${textArray(values)}::uuid[]`;

/**
 * The rows among `ids` the caller may see, locked for the rest of the transaction (a bulk
 * action): a concurrent write or delete of one of them waits, or the row is not found.
 */
export async function lockRows(tx: Tx, resource: Resource, visible: Visibility[], ids: string[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  return query<Row>(
    tx,
    sql`SELECT ${selectColumns(resource)} FROM ${id(resource.table)}
        WHERE ${ownTenant(tx, resource)} AND id = ANY(${uuidArray(ids)}) AND ${whereClause(resource, visible)}
        ORDER BY id FOR UPDATE`,
  );
}

/** Ids of the rows a list query matches, in its order, at most `limit`. */
export async function matchingIds(tx: Tx, resource: Resource, visible: Visibility[], listQuery: ListQuery, limit: number): Promise<string[]> {
  const rows = await query<{ id: string }>(
    tx,
    sql`SELECT id FROM ${id(resource.table)} WHERE ${whereClause(resource, visible, listQuery)} ORDER BY ${orderClause(listQuery)} LIMIT ${limit}`,
  );
  return rows.map((row) => row.id);
}

/** Inserts a row (of the tenant, or shared when tenantId is null); `values.id` may restore a known id. */
export async function insertRow(tx: Tx, resource: Resource, tenantId: string | null, values: Record<string, unknown>): Promise<string> {
  const status = resource.review ? { status: resource.status } : {};
  const entries = Object.entries(tenantId === null ? values : { tenant_id: tenantId, ...status, ...values });
  const [row] = await query<{ id: string }>(
    tx,
    sql`INSERT INTO ${id(resource.table)} (${sql.join(entries.map(([name]) => id(name)), sql`, `)})
        VALUES (${sql.join(entries.map(([name, value]) => columnValue(value, castOf(resource, name))), sql`, `)})
        RETURNING id`,
  );
  return row!.id;
}

/** The SQL type a column's values are cast to (uuid and uuid[] for relations). */
function castOf(resource: Resource, column: string): string | undefined {
  return resource.fields[column]?.columnCast;
}

/**
 * Updates a row the resource serves; false when none matched. The status condition is checked
 * again on the row as it is when the write gets its lock: a suggestion accepted or rejected by
 * a transaction that committed meanwhile is no longer one, and is left alone.
 */
export async function updateRow(tx: Tx, resource: Resource, rowId: string, values: Record<string, unknown>): Promise<boolean> {
  const assignments = Object.entries(values).map(([name, value]) => sql`${id(name)} = ${columnValue(value, castOf(resource, name))}`);
  assignments.push(sql`updated_at = now()`);
  const rows = await query<{ id: string }>(
    tx,
    sql`UPDATE ${id(resource.table)} SET ${sql.join(assignments, sql`, `)} WHERE ${ownTenant(tx, resource)} AND id = ${rowId} AND ${statusCondition(resource)} RETURNING id`,
  );
  return rows.length > 0;
}

/** Deletes a row the resource serves (as updateRow: a suggestion accepted meanwhile stays); false when none matched. */
export async function deleteRow(tx: Tx, resource: Resource, rowId: string): Promise<boolean> {
  const rows = await query<{ id: string }>(tx, sql`DELETE FROM ${id(resource.table)} WHERE ${ownTenant(tx, resource)} AND id = ${rowId} AND ${statusCondition(resource)} RETURNING id`);
  return rows.length > 0;
}

/** A text[] value built the same way on both drivers. */
export const textArray = (values: unknown[]): SQL => sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** Arrays become text[] and objects jsonb, the same on both drivers; `cast` converts (e.g. to uuid[]). */
function columnValue(value: unknown, cast?: string): SQL {
  if (cast) return sql`${Array.isArray(value) ? textArray(value) : sql`${value}`}::${sql.raw(cast)}`;
  if (Array.isArray(value)) return textArray(value);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return sql`${JSON.stringify(value)}::jsonb`;
  return sql`${value}`;
}

/** Distinct values of a filter field with counts, among rows the caller may see. */
export async function filterValues(
  tx: Tx,
  resource: Resource,
  visible: Visibility[],
  field: string,
  limit = 100,
): Promise<Array<{ value: unknown; count: number }>> {
  return query(
    tx,
    sql`SELECT ${id(field)} AS value, count(*)::int AS count FROM ${id(resource.table)}
        WHERE ${whereClause(resource, visible)} AND ${id(field)} IS NOT NULL
        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`,
  );
}

/** Ids held by a relation filter field with the number of visible rows holding each. */
export async function relationFilterValues(
  tx: Tx,
  resource: Resource,
  visible: Visibility[],
  field: string,
  limit = 100,
): Promise<Array<{ value: string; count: number }>> {
  const many = resource.fields[field]?.relation?.many;
  return query(
    tx,
    many
      ? sql`SELECT value::text AS value, count(*)::int AS count
            FROM ${id(resource.table)}, unnest(${id(field)}) AS value
            WHERE ${whereClause(resource, visible)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`
      : sql`SELECT ${id(field)}::text AS value, count(*)::int AS count FROM ${id(resource.table)}
            WHERE ${whereClause(resource, visible)} AND ${id(field)} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`,
  );
}

/** Which of these user ids belong to the request's tenant (row-level security hides every other tenant's users). */
export async function ownTenantUsers(tx: Tx, userIds: unknown[]): Promise<Set<string>> {
  const ids = [...new Set(userIds.filter((value): value is string => typeof value === 'string'))];
  if (ids.length === 0) return new Set();
  const rows = await query<{ id: string }>(tx, sql`SELECT id FROM users WHERE id IN (${list(ids)})`);
  return new Set(rows.map((row) => row.id));
}

// Duplicate detection (spreadsheet import)

export interface MatchScope {
  visible: Visibility[];
  userId: string | null;
  /** An import's stage (staging.ts): its own writes count as this transaction's, and its versions of records it edited replace theirs. */
  stage?: string;
}

/**
 * Current records the caller may see, plus those written in this transaction
 * by this user (now() is the transaction's start, which every row written in
 * it carries as updated_at): an import by a research user creates hidden
 * records by default, and later rows of the file must still find them. In a
 * stage, "this transaction" is the whole stage: rows it staged, and the
 * stage's versions of records it edited in earlier transactions (kept aside
 * in import_staged_updates) in place of the records as others see them.
 */
export async function findRecords(tx: Tx, resource: Resource, scope: MatchScope, condition: SQL, limit = 1): Promise<Row[]> {
  const table = id(resource.table);
  const written = scope.stage ? sql`(updated_at = now() OR staged_by = ${scope.stage}::uuid)` : sql`updated_at = now()`;
  const ownWrites = scope.userId ? sql` OR (${written} AND updated_by = ${scope.userId})` : sql``;
  const parked = (stage: string) => sql`s.job_id = ${stage}::uuid AND s.tbl = ${resource.table} AND NOT s.applied`;
  const source = scope.stage
    ? sql`(SELECT * FROM ${table} live WHERE NOT EXISTS (SELECT 1 FROM import_staged_updates s WHERE ${parked(scope.stage)} AND s.record_id = live.id)
           UNION ALL
           SELECT version.* FROM import_staged_updates s CROSS JOIN LATERAL jsonb_populate_record(NULL::${table}, s.after) version
           WHERE ${parked(scope.stage)}) ${table}`
    : table;
  return query<Row>(
    tx,
    sql`SELECT ${selectColumns(resource)} FROM ${source}
        WHERE (${whereClause(resource, scope.visible)}${ownWrites}) AND ${statusCondition(resource)} AND (${condition})
        ORDER BY created_at, id
        LIMIT ${limit}`,
  );
}

/** Records sharing a name key, an email or a URL key with the row; more than one already makes the row ambiguous. */
export async function findDuplicates(
  tx: Tx,
  resource: Resource,
  scope: MatchScope,
  keys: { names: string[]; emails: string[]; urls: string[] },
): Promise<Row[]> {
  const identity = resource.identity!;
  const conditions: SQL[] = [];
  if (keys.names.length > 0) conditions.push(sql`name_keys && ${textArray(keys.names)}`);
  if (identity.emails && keys.emails.length > 0) conditions.push(sql`${id(identity.emails)} && ${textArray(keys.emails)}`);
  if (identity.urls && keys.urls.length > 0) conditions.push(sql`url_keys && ${textArray(keys.urls)}`);
  if (conditions.length === 0) return [];
  return findRecords(tx, resource, scope, sql.join(conditions, sql` OR `), 5);
}
