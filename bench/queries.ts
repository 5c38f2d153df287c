/**
 * The SQL the API runs for each benchmarked endpoint, issued directly through
 * `pg` for the "floor": same statements, same parameters, same transaction
 * setup (SET LOCAL ROLE + set_config), none of the HTTP, auth or JSON work.
 *
 * Every statement is the server's own SQL builder (resources/repository.ts,
 * modules/search/quick-search.ts, modules/tools/counts.repository.ts,
 * auth/sessions.repository.ts, db/client.ts), rendered here with drizzle's
 * dialect, so the floor cannot drift from the API. What stays here is the
 * order in which a request sends them (service.ts `list` and the routes).
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { liveSessionStatement } from '../server/src/auth/sessions.repository.ts';
import { contextStatement, readOnceOn } from '../server/src/db/client.ts';
import { quickSearchStatement as serverQuickSearch } from '../server/src/modules/search/quick-search.ts';
import { countsStatement } from '../server/src/modules/tools/counts.repository.ts';
import { parseListQuery, type ListQuery } from '../server/src/resources/list-query.ts';
import { createCatalog } from '../server/src/modules/registry.ts';
import { pageColumns } from '../server/src/resources/extensions.ts';
import { searchByFor, sizesStatement } from '../server/src/resources/search-statistics.ts';
import * as repo from '../server/src/resources/repository.ts';
import type { Resource } from '../server/src/resources/resource.ts';

/** The server's engine extensions (its catalog's), whose page columns a list page reads. */
const EXTENSIONS = createCatalog().extensions;

export type Visibility = 'public' | 'paywalled' | 'hidden';
export const ADMIN_VISIBLE: Visibility[] = ['public', 'paywalled', 'hidden'];

export interface Statement {
  text: string;
  values: unknown[];
}

const dialect = new PgDialect();

export interface ListOptions {
  search: string | null;
  limit: number;
  offset: number;
}

/** The list query the API parses from `?limit=&offset=&search=` (default ordering). */
const listQuery = (resource: Resource, options: ListOptions): ListQuery =>
  parseListQuery(resource, { limit: String(options.limit), offset: String(options.offset), ...(options.search ? { search: options.search } : {}) }, 'admin');

/** The page statement (rows, the extensions' columns such as their lists, and the total: counters unfiltered, a capped count with a search) of `GET <resource>/`. */
export function pageStatement(
  resource: Resource,
  visible: Visibility[],
  options: ListOptions,
  totalFrom: repo.TotalFrom = 'capped',
  searchBy: 'index' | 'scan' = 'index',
  searchQuery: string | null = null,
): Statement {
  const counterTotal = options.search ? undefined : { kinds: repo.counterKindsOf(resource), visible };
  const columns = pageColumns(EXTENSIONS, resource, visible);
  return rendered(repo.pageStatement(resource, visible, { ...listQuery(resource, options), searchBy, searchQuery }, counterTotal, totalFrom, columns));
}

export const cappedCountStatement = (resource: Resource, visible: Visibility[], search: string | null): Statement =>
  rendered(repo.cappedCountStatement(resource, visible, { search, filters: {} }));

/** Rows a filtered export should contain (filters are column = any of values). */
export function exactCountStatement(resource: Resource, visible: Visibility[], filters: Array<{ name: string; values: string[] }>): Statement {
  const where = repo.whereClause(resource, visible, { search: null, filters: Object.fromEntries(filters.map(({ name, values }) => [name, values])) });
  return rendered(sql`SELECT count(*)::int AS n FROM ${sql.identifier(resource.table)} WHERE ${where}`);
}

/** The server's own statement, rendered for `pg`. */
export function rendered(statement: SQL): Statement {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { text, values: params };
}

/** What `GET search/?q=` runs: one statement over every searched resource. */
export const quickSearchStatement = (resources: Resource[], visible: Visibility[], q: string, limit: number): Statement => {
  const { text, params } = serverQuickSearch(resources, q, visible, [], limit);
  return { text, values: params };
};

const run = (client: pg.ClientBase, statement: Statement) => client.query(statement.text, statement.values);

/** One transaction as the app role scoped to the tenant, like `Database.withTenant` on a server: BEGIN and the context in one message. */
export async function inTenant<T>(client: pg.ClientBase, tenantId: string, fn: () => Promise<T>): Promise<T> {
  await client.query(`BEGIN; ${contextStatement({ tenantId })}`);
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** The per-request token lookup: one statement, outside any transaction, as in the app. */
export async function authenticate(client: pg.ClientBase, tenantId: string, tokenHash: string): Promise<void> {
  const { rows } = await run(client, rendered(liveSessionStatement(tenantId, tokenHash)));
  if (rows.length !== 1) throw new Error('floor: session not found');
}

/** The planner's shares the API keeps per search (search-statistics.ts): planned once per term here too. */
const plannedShares = new Map<string, number>();

/** What `GET <resource>/?limit=&search=` runs in its data transaction (first page), as service.ts `list`. */
export async function list(client: pg.ClientBase, resource: Resource, visible: Visibility[], options: ListOptions): Promise<number> {
  let planned: number | null = null;
  let searchBy: 'index' | 'scan' = 'index';
  let searchQuery: string | null = null;
  if (options.search) {
    // search-statistics.ts: the sizes and the spelled query in one statement, the planner's share from an EXPLAIN once per search.
    const sizes = (await run(client, rendered(sizesStatement(resource, repo.counterKindsOf(resource), visible, options.search)))).rows[0];
    searchQuery = sizes.spelled;
    const key = JSON.stringify([visible, options.search, searchQuery]);
    if (!plannedShares.has(key)) {
      const plan = (await run(client, rendered(repo.estimateStatement(resource, visible, { search: options.search, searchQuery, filters: {} })))).rows[0]['QUERY PLAN'];
      plannedShares.set(key, repo.matchingShare(plan[0].Plan));
    }
    const share = plannedShares.get(key)!;
    planned = share * sizes.visible;
    searchBy = searchByFor(sizes.tenant_rows, share * sizes.table_rows);
  }
  const uncounted = planned !== null && planned >= repo.SURELY_BEYOND_CAP;
  // service.ts `list`: one set of every match when few are expected, read again in list order when it was cut short.
  let totalFrom: repo.TotalFrom = uncounted ? 'none' : planned !== null ? 'matched' : 'capped';
  let { rows } = await run(client, pageStatement(resource, visible, options, totalFrom, searchBy, searchQuery));
  if (totalFrom === 'matched' && (rows[0]?.__total ?? 0) > repo.MATCHED_SET_CAP) {
    totalFrom = 'capped';
    ({ rows } = await run(client, pageStatement(resource, visible, options, totalFrom, searchBy, searchQuery)));
  }
  if (planned !== null && uncounted) return Math.round(planned);
  const total: number = rows[0]?.__total ?? 0;
  if (options.search && total < repo.FORGIVE_BELOW) {
    // service.ts `list`: a search that finds little as typed is read again forgiving typos.
    const forgiving: string | null = (await run(client, rendered(sql`SELECT search_query_forgiving(${resource.table}, ${options.search}) AS q`))).rows[0].q;
    if (forgiving) {
      ({ rows } = await run(client, pageStatement(resource, visible, options, 'matched', 'index', forgiving)));
      if ((rows[0]?.__total ?? 0) > repo.MATCHED_SET_CAP) ({ rows } = await run(client, pageStatement(resource, visible, options, 'capped', 'index', forgiving)));
      return Math.max(total, rows[0]?.__total ?? 0);
    }
  }
  if (planned === null || total <= repo.EXACT_COUNT_CAP) return total;
  return Math.max(Math.round(planned), repo.EXACT_COUNT_CAP + 1);
}

/**
 * What `GET search/?q=` sends after the token lookup: one message opening a read-only transaction
 * in the tenant's context, running the prepared statement and committing (client.ts `readOnce`).
 */
export async function quickSearch(client: pg.ClientBase, tenantId: string, resources: Resource[], visible: Visibility[], q: string, limit = 10): Promise<number> {
  return (await readOnceOn(client, { tenantId }, serverQuickSearch(resources, q, visible, [], limit))).length;
}

/** What `GET tools/entities-count` runs for an admin in its data transaction; returns the organizations total. */
export async function entityCounts(client: pg.ClientBase): Promise<number> {
  const { rows } = await run(client, rendered(countsStatement(true)));
  return rows.filter((row: { kind: string }) => row.kind === 'organizations').reduce((sum: number, row: { n: number }) => sum + row.n, 0);
}
