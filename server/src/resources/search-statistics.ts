/**
 * What a list search's plan depends on, read once per request in one cheap
 * statement and remembered per process where it changes only with the
 * planner's statistics.
 *
 * Two decisions need numbers the planner keeps but does not share:
 *  - whether to count a search's matches at all (repository.ts
 *    SURELY_BEYOND_CAP): the planner's share of matches among the visible
 *    rows times the visible rows the counters hold. The share comes from an
 *    `EXPLAIN`, about 2 ms of planning per request on a 400,000-row tenant —
 *    more than the page itself — yet it changes only when ANALYZE refreshes the
 *    column statistics, so it is kept for a few minutes per (tenant,
 *    audience, search, filters), and planned again as soon as the table's
 *    statistics change (its `reltuples`);
 *  - whether to match through the full-text index at all. The GIN index leads
 *    with tenant_id, but a prefix query (`'gmbh':*`) is a partial match that
 *    collects every matching entry of the whole table before the tenant's
 *    entries are intersected: its cost follows the word's frequency across
 *    all tenants. For a small tenant searching a word common elsewhere,
 *    reading the tenant's own rows in list order and testing each is an order
 *    of magnitude cheaper (bench/ on a 3,429-row tenant, "gmbh": 44 ms through
 *    the index, 2–5 ms by its rows; docs/BENCHMARKS.md). The planner cannot
 *    see this — its statistics are table-wide and it assumes every tenant
 *    holds an equal share — so the choice is made here from the tenant's row
 *    count (the counters) and the table's (pg_class).
 *
 * Only plans depend on what is cached: totals beyond the exact cap are
 * reported as estimates anyway, and a stale share changes an estimate by the
 * drift of the statistics, never which rows match.
 */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../db/client.ts';
import type { Visibility } from './fields.ts';
import type { ListQuery } from './list-query.ts';
import * as repo from './repository.ts';
import type { Resource } from './resource.ts';

/** How long a planner's share of matches is reused. */
export const SHARE_TTL_MS = 5 * 60_000;
/** At most this many shares are kept per resource (the oldest go first). */
export const MAX_SHARES = 500;
/**
 * Match by the tenant's rows instead of the index when the tenant holds fewer
 * rows than this fraction of the matches the index would collect table-wide
 * (per entry, the partial match costs about half of testing a row).
 */
const SCAN_BELOW_SHARE_OF_TABLE_MATCHES = 0.5;

/** Index or the tenant's rows, by the tenant's rows and the matches the index would collect table-wide. */
export const searchByFor = (tenantRows: number, tableMatches: number): 'index' | 'scan' =>
  tenantRows < SCAN_BELOW_SHARE_OF_TABLE_MATCHES * tableMatches ? 'scan' : 'index';

type SearchQuery = Pick<ListQuery, 'filters' | 'search' | 'searchQuery'>;

export interface SearchStatistics {
  /** The planner's share of the visible rows that match. */
  share: number;
  /** Estimated matching rows the caller may see: share × the visible rows in the counters. */
  planned: number;
  /** How the search condition is matched (repository.ts `searchMatch`). */
  searchBy: 'index' | 'scan';
  /** The search with its prefixes spelled out as the tenant's words (ListQuery `searchQuery`); null: as typed. */
  searchQuery: string | null;
}

export class SearchStatisticsCache {
  private readonly shares = new Map<string, { share: number; until: number; tableRows: number }>();

  constructor(
    private readonly resource: Resource,
    private readonly now: () => number = Date.now,
    /** Where a share is planned (an EXPLAIN); a test counts the calls through it. */
    private readonly plannedShare: typeof repo.plannedShare = repo.plannedShare,
  ) {}

  /** The statistics of one search by one audience of one tenant (null: not a search counted by rows). */
  async of(tx: Tx, tenantId: string, visible: Visibility[], listQuery: SearchQuery): Promise<SearchStatistics | null> {
    const kinds = repo.counterKindsOf(this.resource);
    if (!listQuery.search || kinds.length === 0) return null;
    const [rows] = await query<{ visible: number; tenant_rows: number; table_rows: number; spelled: string | null }>(
      tx,
      sizesStatement(this.resource, kinds, visible, listQuery.search),
    );
    const searchQuery = rows?.spelled ?? null;
    const share = await this.shareOf(tx, tenantId, visible, { ...listQuery, searchQuery }, rows?.table_rows ?? 0);
    return {
      share,
      planned: share * (rows?.visible ?? 0),
      searchBy: searchByFor(rows?.tenant_rows ?? 0, share * (rows?.table_rows ?? 0)),
      searchQuery,
    };
  }

  /**
   * `tableRows` is the table's size as the planner last counted it: a share planned on other
   * statistics (an ANALYZE since, e.g. after an import: planner-statistics.ts) is planned again.
   */
  private async shareOf(tx: Tx, tenantId: string, visible: Visibility[], listQuery: SearchQuery, tableRows: number): Promise<number> {
    // The spelled query is part of the key: a word new to the tenant changes it.
    const key = JSON.stringify([tenantId, visible, listQuery.search, listQuery.searchQuery, listQuery.filters]);
    const now = this.now();
    const known = this.shares.get(key);
    if (known && known.until > now && known.tableRows === tableRows) return known.share;
    const share = await this.plannedShare(tx, this.resource, visible, listQuery);
    this.shares.delete(key);
    this.shares.set(key, { share, until: now + SHARE_TTL_MS, tableRows });
    // Maps keep insertion order: the first key is the oldest.
    if (this.shares.size > MAX_SHARES) this.shares.delete(this.shares.keys().next().value!);
    return share;
  }
}

/**
 * The caller's visible rows and the tenant's rows from the counters, the
 * table's rows as the planner last counted them, and (for a table whose words
 * the tenant's vocabulary holds: quick-searched ones, migration 0170) the search
 * with its prefixes spelled out as the tenant's words, in one statement.
 */
export const sizesStatement = (resource: Resource, kinds: string[], visible: Visibility[], search: string) => sql`
  SELECT coalesce(sum(count) FILTER (WHERE ${resource.hasVisibility ? sql`visibility IN (${sql.join(visible.map((value) => sql`${value}`), sql`, `)})` : sql`true`}), 0)::int AS visible,
         coalesce(sum(count), 0)::int AS tenant_rows,
         (SELECT greatest(reltuples, 0)::float8 FROM pg_class WHERE oid = ${resource.table}::regclass) AS table_rows,
         ${resource.quickSearch ? sql`search_query_in(${resource.table}, ${search})` : sql`NULL::text`} AS spelled
  FROM entity_counters WHERE kind IN (${sql.join(kinds.map((kind) => sql`${kind}`), sql`, `)})`;
