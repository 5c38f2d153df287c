/**
 * The SQL the API runs for each benchmarked endpoint, issued directly through
 * `pg` for the "floor": same statements, same parameters, same transaction
 * setup (SET LOCAL ROLE + set_config), none of the HTTP, auth or JSON work.
 *
 * Quick search, counts, authentication and the transaction set-up are the
 * server's own statements (rendered here with drizzle's dialect), so they
 * cannot drift. The list statements are mirrored, statement for statement,
 * from server/src/resources/service.ts `list` → repository.ts `selectPage`,
 * `countFromCounters` | `countMatching`, `listsOfItems` (keep in step when
 * those change); their column lists, status handling and count cap come from
 * the server's declarations.
 */
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { liveSessionStatement } from '../server/src/auth/sessions.repository.ts';
import { contextStatement } from '../server/src/db/client.ts';
import { quickSearchStatement as serverQuickSearch } from '../server/src/modules/search/quick-search.ts';
import { countsStatement } from '../server/src/modules/tools/counts.repository.ts';
import { EXACT_COUNT_CAP, likeLiteral } from '../server/src/resources/repository.ts';
import type { Resource } from '../server/src/resources/resource.ts';

export type Visibility = 'public' | 'paywalled' | 'hidden';
export const ADMIN_VISIBLE: Visibility[] = ['public', 'paywalled', 'hidden'];

export interface Statement {
  text: string;
  values: unknown[];
}

/** Collects parameters and hands out their `$n` placeholders. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  list(values: unknown[]): string {
    return values.map((value) => this.add(value)).join(', ');
  }
}

const dialect = new PgDialect();
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const searchWords = (search: string | null) => (search ?? '').split(/\s+/).filter(Boolean).slice(0, 10);

function selectColumns(resource: Resource): string {
  const columns = ['id', ...resource.columns, 'display_name', 'created_at', 'updated_at', 'created_by', 'updated_by'];
  return [...new Set(columns)].map(quote).join(', ');
}

function where(resource: Resource, visible: Visibility[], search: string | null, params: Params): string {
  const conditions = [`visibility IN (${params.list(visible)})`];
  if (resource.hasStatus) conditions.push(`status = ${params.add('active')}`);
  for (const word of searchWords(search)) {
    conditions.push(`search_document LIKE '%' || search_text(${params.add(likeLiteral(word))}) || '%'`);
  }
  return conditions.join(' AND ');
}

export interface ListOptions {
  search: string | null;
  limit: number;
  offset: number;
}

/** The page of the default ordering (-updated_at, then id). */
export function pageStatement(resource: Resource, visible: Visibility[], options: ListOptions): Statement {
  const params = new Params();
  const text = `SELECT ${selectColumns(resource)} FROM ${quote(resource.table)}
        WHERE ${where(resource, visible, options.search, params)}
        ORDER BY ${quote('updated_at')} DESC, id DESC
        LIMIT ${params.add(options.limit)} OFFSET ${params.add(options.offset)}`;
  return { text, values: params.values };
}

export function cappedCountStatement(resource: Resource, visible: Visibility[], search: string | null): Statement {
  const params = new Params();
  const condition = where(resource, visible, search, params);
  const text = `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${quote(resource.table)} WHERE ${condition} LIMIT ${params.add(EXACT_COUNT_CAP + 1)}) capped`;
  return { text, values: params.values };
}

/** Rows a filtered export should contain (filters are column = any of values). */
export function exactCountStatement(resource: Resource, visible: Visibility[], filters: Array<{ name: string; values: string[] }>): Statement {
  const params = new Params();
  const conditions = [where(resource, visible, null, params), ...filters.map(({ name, values }) => `${quote(name)} IN (${params.list(values)})`)];
  return { text: `SELECT count(*)::int AS n FROM ${quote(resource.table)} WHERE ${conditions.join(' AND ')}`, values: params.values };
}

function estimateStatement(resource: Resource, visible: Visibility[], search: string | null): Statement {
  const params = new Params();
  const text = `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${quote(resource.table)} WHERE ${where(resource, visible, search, params)}`;
  return { text, values: params.values };
}

function counterStatement(resource: Resource, visible: Visibility[]): Statement {
  const params = new Params();
  const text = `SELECT coalesce(sum(count), 0)::int AS n FROM entity_counters WHERE kind = ${params.add(resource.kind)} AND visibility IN (${params.list(visible)})`;
  return { text, values: params.values };
}

function listsOfItemsStatement(resource: Resource, visible: Visibility[], rowIds: string[]): Statement | null {
  if (!resource.listItem || rowIds.length === 0) return null;
  const params = new Params();
  const text = `SELECT li.item_id, l.id, l.name, l.slug, l.kind
        FROM list_items li JOIN lists l ON l.tenant_id = li.tenant_id AND l.id = li.list_id
        WHERE li.${quote(resource.listItem.column)} IN (${params.list(rowIds)}) AND l.visibility IN (${params.list(visible)})
        ORDER BY l.name`;
  return { text, values: params.values };
}

/** The server's own statement, rendered for `pg`. */
export function rendered(statement: SQL): Statement {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { text, values: params };
}

/** What `GET search/?q=` runs: one statement over every searched resource. */
export const quickSearchStatement = (resources: Resource[], visible: Visibility[], q: string, limit: number): Statement =>
  rendered(serverQuickSearch(resources, q, visible, [], limit));

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

/** What `GET <resource>/?limit=&search=` runs in its data transaction. */
export async function list(client: pg.ClientBase, resource: Resource, visible: Visibility[], options: ListOptions): Promise<number> {
  const { rows } = await run(client, pageStatement(resource, visible, options));
  let count: number;
  if (!options.search) {
    count = (await run(client, counterStatement(resource, visible))).rows[0].n;
  } else {
    count = (await run(client, cappedCountStatement(resource, visible, options.search))).rows[0].n;
    if (count > EXACT_COUNT_CAP) {
      const plan = (await run(client, estimateStatement(resource, visible, options.search))).rows[0]['QUERY PLAN'];
      count = Math.max(Math.round(plan[0].Plan['Plan Rows']), EXACT_COUNT_CAP + 1);
    }
  }
  const lists = listsOfItemsStatement(resource, visible, rows.map((row: { id: string }) => row.id));
  if (lists) await run(client, lists);
  return count;
}

/** What `GET search/?q=` runs in its data transaction. */
export async function quickSearch(client: pg.ClientBase, resources: Resource[], visible: Visibility[], q: string, limit = 10): Promise<number> {
  return (await run(client, quickSearchStatement(resources, visible, q, limit))).rows.length;
}

/** What `GET tools/entities-count` runs for an admin in its data transaction; returns the organizations total. */
export async function entityCounts(client: pg.ClientBase): Promise<number> {
  const { rows } = await run(client, rendered(countsStatement(true)));
  return rows.filter((row: { kind: string }) => row.kind === 'organizations').reduce((sum: number, row: { n: number }) => sum + row.n, 0);
}
