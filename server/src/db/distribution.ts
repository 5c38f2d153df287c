/**
 * How every table would be placed on a Citus cluster: the one declaration of which tables are
 * distributed by `tenant_id`, which are reference tables (a full copy on every node) and which
 * stay local to the coordinator. The Citus conformance test (`citus-conformance.test.ts`) checks
 * it against the catalog of a migrated database, so a new table must be classified here before
 * the suite passes, and docs/scaling.md's DDL is generated from it (`citusDistributionDdl`).
 * Nothing here runs in production: there is no Citus server in this product's processes.
 */
import { sql } from 'drizzle-orm';
import { query, type Executor } from './client.ts';

export type Placement = 'distributed' | 'reference' | 'local';

/**
 * Every table of the public schema, by placement. Distributed tables are hash-distributed on
 * `tenant_id` and co-located with one another (one co-location group), so a statement pinned to
 * one tenant runs on one node, joins included. The parent of a co-location group is the first
 * distributed table listed (`organizations`).
 */
export const TABLE_PLACEMENT: Readonly<Record<string, Placement>> = {
  // The tenants themselves are read by every request (host → tenant) and referenced by every
  // distributed table's tenant_id: a reference table, so those keys stay enforceable.
  tenants: 'reference',
  // Shared lookups every tenant reads and joins to: countries and cities.
  geos: 'reference',
  cities: 'reference',
  // The migration log is read and written only by the migrating process, on the coordinator.
  schema_migrations: 'local',

  organizations: 'distributed',
  people: 'distributed',
  lists: 'distributed',
  list_items: 'distributed',
  list_slugs: 'distributed',
  keywords: 'distributed',
  terminology: 'distributed',
  ledger_entries: 'distributed',
  investments: 'distributed',
  library_entries: 'distributed',
  source_urls: 'distributed',
  tagging_rules: 'distributed',
  email_domains: 'distributed',
  email_list: 'distributed',
  email_subscription_tokens: 'distributed',
  facts: 'distributed',
  fact_sections: 'distributed',
  fact_categories: 'distributed',
  fact_share_codes: 'distributed',
  raw_data: 'distributed',
  raw_data_buckets: 'distributed',
  raw_data_entities: 'distributed',
  raw_data_reports: 'distributed',
  raw_data_direct_uploads: 'distributed',
  stored_files: 'distributed',
  stored_file_holds: 'distributed',
  users: 'distributed',
  sessions: 'distributed',
  login_limits: 'distributed',
  audit_entries: 'distributed',
  notes: 'distributed',
  saved_views: 'distributed',
  saved_view_defaults: 'distributed',
  bulk_operations: 'distributed',
  entity_counters: 'distributed',
  entity_models: 'distributed',
  suggestion_provenance: 'distributed',
  suggestion_rejections: 'distributed',
  jobs: 'distributed',
  job_probe_attempts: 'distributed',
  job_probe_effects: 'distributed',
  import_job_progress: 'distributed',
  import_stages: 'distributed',
  import_staged_updates: 'distributed',
  events: 'distributed',
  event_counters: 'distributed',
  event_streams: 'distributed',
  search_words: 'distributed',
  search_name_words: 'distributed',
  search_vocabulary: 'distributed',
};

/** The distribution column of every distributed table. */
export const DISTRIBUTION_COLUMN = 'tenant_id';

export const tablesPlaced = (placement: Placement): string[] =>
  Object.entries(TABLE_PLACEMENT)
    .filter(([, placed]) => placed === placement)
    .map(([table]) => table);

/**
 * The DDL that distributes the schema on a Citus coordinator, after the migrations ran there:
 * reference tables first (distributed tables' foreign keys point at them), then the distributed
 * tables, each co-located with the first, parents before the tables whose keys reference them.
 */
export function citusDistributionDdl(foreignKeys: ReadonlyArray<{ table: string; target: string }> = []): string {
  const distributed = orderedByKeys(tablesPlaced('distributed'), foreignKeys);
  const parent = distributed[0]!;
  return [
    ...tablesPlaced('reference').map((table) => `SELECT create_reference_table('${table}');`),
    `SELECT create_distributed_table('${parent}', '${DISTRIBUTION_COLUMN}');`,
    ...distributed.slice(1).map((table) => `SELECT create_distributed_table('${table}', '${DISTRIBUTION_COLUMN}', colocate_with => '${parent}');`),
  ].join('\n');
}

/** Tables ordered so a key's target comes before the table that holds the key (stable otherwise). */
function orderedByKeys(tables: string[], foreignKeys: ReadonlyArray<{ table: string; target: string }>): string[] {
  const done: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (done.includes(table) || path.has(table)) return;
    path.add(table);
    for (const key of foreignKeys) if (key.table === table && key.target !== table && tables.includes(key.target)) visit(key.target, path);
    done.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return done;
}

interface KeyRow {
  table: string;
  name: string;
  kind: 'p' | 'u' | 'f';
  columns: string[];
  target: string | null;
  target_columns: string[] | null;
}

/** Foreign keys between tables of the public schema (table → target), for ordering the DDL. */
export async function foreignKeyEdges(executor: Executor): Promise<Array<{ table: string; target: string }>> {
  return (await readKeys(executor)).filter((key) => key.kind === 'f').map((key) => ({ table: key.table, target: key.target! }));
}

async function readKeys(executor: Executor): Promise<KeyRow[]> {
  return query<KeyRow>(
    executor,
    sql`SELECT c.relname AS table, k.conname AS name, k.contype AS kind,
               ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u(attnum, n)
                     JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.n) AS columns,
               t.relname AS target,
               CASE WHEN k.contype = 'f' THEN
                 ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS u(attnum, n)
                       JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum ORDER BY u.n) END AS target_columns
        FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid LEFT JOIN pg_class t ON t.oid = k.confrelid
        WHERE c.relnamespace = 'public'::regnamespace AND k.contype IN ('p', 'u', 'f')
        ORDER BY 1, 2`,
  );
}

/** What stands between the migrated schema and `citusDistributionDdl`, by rule. */
export interface DistributionProblems {
  /** A table of the catalog the declaration does not place, or a placed table that does not exist. */
  unclassified: string[];
  /** A distributed table without a NOT NULL tenant_id of the type the others have. */
  distributionColumn: string[];
  /** A primary key, unique constraint or unique index of a distributed table without tenant_id. */
  uniqueKeys: string[];
  /** A foreign key Citus cannot keep: not on tenant_id between distributed tables, from a reference or local table to a distributed one, between local and others. */
  foreignKeys: string[];
  /** A column of a distributed or reference table whose default draws from a sequence, or an identity column. */
  sequences: string[];
}

export async function distributionProblems(executor: Executor): Promise<DistributionProblems> {
  const problems: DistributionProblems = { unclassified: [], distributionColumn: [], uniqueKeys: [], foreignKeys: [], sequences: [] };
  const tables = await query<{ table: string }>(
    executor,
    sql`SELECT relname AS table FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') ORDER BY 1`,
  );
  const present = new Set(tables.map((row) => row.table));
  for (const { table } of tables) {
    if (!(table in TABLE_PLACEMENT)) problems.unclassified.push(`${table}: not placed (add it to TABLE_PLACEMENT in db/distribution.ts)`);
  }
  for (const table of Object.keys(TABLE_PLACEMENT)) {
    if (!present.has(table)) problems.unclassified.push(`${table}: placed, but no such table`);
  }

  const columns = await query<{ table: string; type: string; not_null: boolean }>(
    executor,
    sql`SELECT c.relname AS table, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attname = ${DISTRIBUTION_COLUMN} AND NOT a.attisdropped`,
  );
  const tenantColumn = new Map(columns.map((row) => [row.table, row]));
  for (const table of tablesPlaced('distributed').filter((name) => present.has(name))) {
    const column = tenantColumn.get(table);
    if (!column) problems.distributionColumn.push(`${table}: no ${DISTRIBUTION_COLUMN} column`);
    else if (column.type !== 'uuid' || !column.not_null) problems.distributionColumn.push(`${table}.${DISTRIBUTION_COLUMN}: ${column.type}${column.not_null ? '' : ' (nullable)'}; uuid NOT NULL expected`);
  }

  const placement = (table: string | null) => (table === null ? undefined : TABLE_PLACEMENT[table]);
  const keys = await readKeys(executor);
  for (const key of keys) {
    const from = placement(key.table);
    if (key.kind !== 'f') {
      if (from === 'distributed' && !key.columns.includes(DISTRIBUTION_COLUMN)) {
        problems.uniqueKeys.push(`${key.table}: ${key.kind === 'p' ? 'primary key' : 'unique constraint'} ${key.name} (${key.columns.join(', ')}) without ${DISTRIBUTION_COLUMN}`);
      }
      continue;
    }
    const to = placement(key.target);
    const label = `${key.table}: foreign key ${key.name} (${key.columns.join(', ')}) → ${key.target} (${key.target_columns!.join(', ')})`;
    if (from === 'distributed' && to === 'distributed') {
      const at = key.columns.indexOf(DISTRIBUTION_COLUMN);
      if (at === -1 || key.target_columns![at] !== DISTRIBUTION_COLUMN) problems.foreignKeys.push(`${label}: not on ${DISTRIBUTION_COLUMN} on both sides, so it would cross shards`);
    } else if (to === 'distributed') {
      problems.foreignKeys.push(`${label}: a ${from ?? 'unplaced'} table cannot reference a distributed one`);
    } else if ((from === 'local') !== (to === 'local')) {
      problems.foreignKeys.push(`${label}: between a local table and a ${from === 'local' ? to : from} one`);
    }
  }

  // Unique indexes that are no constraint (expression or partial indexes) must hold tenant_id too.
  const indexes = await query<{ table: string; name: string; definition: string; columns: string[] }>(
    executor,
    sql`SELECT c.relname AS table, ic.relname AS name, pg_get_indexdef(i.indexrelid) AS definition,
               ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) AS k(attnum)
                     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS columns
        FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
        WHERE c.relnamespace = 'public'::regnamespace AND i.indisunique
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
  );
  for (const index of indexes) {
    if (placement(index.table) === 'distributed' && !index.columns.includes(DISTRIBUTION_COLUMN)) {
      problems.uniqueKeys.push(`${index.table}: unique index ${index.name} without ${DISTRIBUTION_COLUMN}: ${index.definition}`);
    }
  }

  const drawn = await query<{ table: string; column: string; identity: string; definition: string | null }>(
    executor,
    sql`SELECT c.relname AS table, a.attname AS column, a.attidentity AS identity, pg_get_expr(d.adbin, d.adrelid) AS definition
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
          AND (a.attidentity <> '' OR pg_get_expr(d.adbin, d.adrelid) LIKE '%nextval(%')`,
  );
  for (const column of drawn) {
    if (placement(column.table) === 'local') continue;
    problems.sequences.push(`${column.table}.${column.column}: ${column.identity ? 'an identity column' : `default ${column.definition}`}`);
  }
  return problems;
}
